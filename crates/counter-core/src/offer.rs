//! What the counter offers: which actions a card allows with this key and pass, and
//! whether and up to what a gift card can be paid with. Decided here, once; the screens
//! render it (a button is shown disabled, a keypad has its limit) and the core checks
//! again when the write comes.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::PolicyRefusal;
use crate::kinds::{Abilities, GiftCardStatus, LoyaltyType};
use crate::views::{CardView, GiftCardView, PassView};

for_the_ui! {
/// What may be done with a loyalty card now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CardActions {
    /// Record a visit: the key may scan and the card's pass counts visits (or is not
    /// known yet).
    pub visit: bool,
    /// Add points: the key may scan and the pass counts points (or is not known yet).
    pub add_points: bool,
    /// Deduct points: as for adding.
    pub deduct_points: bool,
    /// Redeem a reward: the key may scan and a reward is ready, or writes still queued
    /// for the card may have earned one (the service says, when the write comes).
    pub redeem: bool,
    /// The most points an addition can still count: up to the pass's goal, where the
    /// service stops (known only with the pass).
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub add_up_to: Option<i64>,
    /// The most points a deduction can take: the card's points, unless writes still
    /// queued for the card may change them.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub deduct_up_to: Option<i64>,
}
}

impl CardActions {
    /// What a key that `may` do so can do with a card the till has not read yet (the
    /// service says, when the write comes).
    pub fn for_unknown_card(may: Abilities) -> Self {
        Self {
            visit: may.scan,
            add_points: may.scan,
            deduct_points: may.scan,
            redeem: may.scan,
            add_up_to: None,
            deduct_up_to: None,
        }
    }

    /// What a key that `may` do so can do with `card` (its pass, when known; `queued`
    /// writes for it not yet in its figures).
    pub fn for_card(may: Abilities, card: &CardView, pass: Option<&PassView>, queued: u32) -> Self {
        let counts = pass.map(|p| p.loyalty_type);
        let visits = counts != Some(LoyaltyType::Points);
        let points = counts != Some(LoyaltyType::Visits);
        Self {
            visit: may.scan && visits,
            add_points: may.scan && points,
            deduct_points: may.scan && points,
            redeem: may.scan && (card.rewards_available > 0 || queued > 0),
            add_up_to: pass
                .filter(|p| p.loyalty_type == LoyaltyType::Points)
                .map(|p| (p.goal - card.points).max(0)),
            deduct_up_to: (queued == 0).then_some(card.points.max(0)),
        }
    }
}

for_the_ui! {
/// Whether a gift card can be paid with now, and up to what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PaymentOffer {
    /// A payment can be taken, of at most `up_to` (exact decimal text, the card's
    /// currency): its balance, or less under the offline policy.
    Open {
        /// The most one payment may take now.
        #[serde(with = "loyalty_api::decimal_string")]
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        up_to: Decimal,
    },
    /// The key may not take payments (`gift_cards:spend`).
    KeyMayNot,
    /// The card cannot be spent in its state (issued and not yet opened, depleted,
    /// cancelled).
    NotActive {
        /// Its state.
        status: GiftCardStatus,
    },
    /// Read from the till's cache (the service cannot be reached) and the offline
    /// policy allows no payment now.
    Offline {
        /// Why.
        refusal: PolicyRefusal,
    },
}
}

impl PaymentOffer {
    /// For `card`, by a key that `may` do so: up to its balance less the payments from
    /// it still at risk (`at_risk`: queued, being sent, or waiting for a decision), and
    /// within `offline`, what the offline policy allows when the card was read from the
    /// cache (`Ok(None)`: read fresh, or no cap).
    pub fn for_gift_card(
        may: Abilities,
        card: &GiftCardView,
        at_risk: Decimal,
        offline: Result<Option<Decimal>, PolicyRefusal>,
    ) -> Self {
        if !may.spend_gift_cards {
            return Self::KeyMayNot;
        }
        if card.status != GiftCardStatus::Active {
            return Self::NotActive {
                status: card.status,
            };
        }
        let available = (card.balance - at_risk).max(Decimal::ZERO);
        match offline {
            Ok(limit) => Self::Open {
                up_to: limit.map_or(available, |limit| limit.min(available)),
            },
            Err(refusal) => Self::Offline { refusal },
        }
    }
}

#[cfg(test)]
mod tests {
    use loyalty_api::{CardId, Currency, GiftCardId, PassId};

    use super::*;
    use crate::kinds::CardStatus;

    fn card(points: i64) -> CardView {
        CardView {
            id: CardId::new("card_1"),
            pass_id: PassId::new("pass_1"),
            status: CardStatus::Active,
            visits: 3,
            points,
            rewards_available: 0,
            rewards_redeemed: 0,
            last_visit_at: None,
            test: true,
        }
    }

    fn pass(counts: LoyaltyType, goal: i64) -> PassView {
        PassView {
            id: PassId::new("pass_1"),
            name: "Pass".into(),
            loyalty_type: counts,
            goal,
            reward_title: "A coffee".into(),
            locale: "en".into(),
        }
    }

    const SCAN: Abilities = Abilities {
        read: true,
        scan: true,
        enrol: false,
        issue_gift_cards: false,
        spend_gift_cards: true,
        send_messages: false,
    };

    #[test]
    fn a_key_that_may_not_scan_is_offered_nothing() {
        let none = Abilities {
            scan: false,
            ..SCAN
        };
        let offered = CardActions::for_card(none, &card(5), None, 0);
        assert!(!offered.visit && !offered.add_points && !offered.deduct_points);
        assert!(!offered.redeem);
    }

    #[test]
    fn a_pass_offers_what_it_counts_and_both_while_it_is_unknown() {
        let visits = CardActions::for_card(SCAN, &card(0), Some(&pass(LoyaltyType::Visits, 10)), 0);
        assert!(visits.visit && !visits.add_points && !visits.deduct_points);
        let points =
            CardActions::for_card(SCAN, &card(0), Some(&pass(LoyaltyType::Points, 100)), 0);
        assert!(!points.visit && points.add_points && points.deduct_points);
        let unknown = CardActions::for_card(SCAN, &card(0), None, 0);
        assert!(unknown.visit && unknown.add_points && unknown.deduct_points);
    }

    #[test]
    fn a_reward_is_offered_when_one_is_ready_or_a_queued_write_may_have_earned_it() {
        let visits = pass(LoyaltyType::Visits, 10);
        let none = CardActions::for_card(SCAN, &card(0), Some(&visits), 0);
        assert!(!none.redeem, "no reward ready, nothing waiting");
        let ready = CardView {
            rewards_available: 1,
            ..card(0)
        };
        assert!(CardActions::for_card(SCAN, &ready, Some(&visits), 0).redeem);
        assert!(CardActions::for_card(SCAN, &card(0), Some(&visits), 1).redeem);
        assert!(CardActions::for_unknown_card(SCAN).redeem);
    }

    #[test]
    fn points_are_added_up_to_the_goal_and_deducted_up_to_the_balance_when_nothing_waits() {
        let points = pass(LoyaltyType::Points, 100);
        let offered = CardActions::for_card(SCAN, &card(70), Some(&points), 0);
        assert_eq!(offered.add_up_to, Some(30));
        assert_eq!(offered.deduct_up_to, Some(70));
        let past_goal = CardActions::for_card(SCAN, &card(120), Some(&points), 0);
        assert_eq!(past_goal.add_up_to, Some(0));
        let queued = CardActions::for_card(SCAN, &card(70), Some(&points), 2);
        assert_eq!(
            queued.deduct_up_to, None,
            "a queued write may change the balance"
        );
    }

    fn gift(status: GiftCardStatus, balance: &str) -> GiftCardView {
        GiftCardView {
            id: GiftCardId::new("gc_1"),
            status,
            currency: Currency::new("EUR").unwrap(),
            initial_amount: "50".parse().unwrap(),
            balance: balance.parse().unwrap(),
            recipient_name: None,
            test: true,
        }
    }

    #[test]
    fn a_gift_card_is_paid_up_to_its_balance_less_what_is_at_risk_and_the_offline_limit() {
        let card = gift(GiftCardStatus::Active, "20.50");
        let offer = |at_risk: &str, limit: Option<&str>| {
            PaymentOffer::for_gift_card(
                SCAN,
                &card,
                at_risk.parse().unwrap(),
                Ok(limit.map(|l| l.parse().unwrap())),
            )
        };
        let open = |up_to: &str| PaymentOffer::Open {
            up_to: up_to.parse().unwrap(),
        };
        assert_eq!(offer("0", None), open("20.50"));
        assert_eq!(offer("5", None), open("15.50"));
        assert_eq!(offer("0", Some("5")), open("5"));
        assert_eq!(offer("0", Some("100")), open("20.50"));
        assert_eq!(offer("30", None), open("0"));
    }

    #[test]
    fn a_gift_card_that_cannot_be_spent_a_key_that_may_not_or_a_policy_that_refuses_is_said_so() {
        let none = || Ok(None);
        let issued = gift(GiftCardStatus::Issued, "50");
        assert_eq!(
            PaymentOffer::for_gift_card(SCAN, &issued, Decimal::ZERO, none()),
            PaymentOffer::NotActive {
                status: GiftCardStatus::Issued
            }
        );
        let may_not = Abilities {
            spend_gift_cards: false,
            ..SCAN
        };
        let active = gift(GiftCardStatus::Active, "50");
        assert_eq!(
            PaymentOffer::for_gift_card(may_not, &active, Decimal::ZERO, none()),
            PaymentOffer::KeyMayNot
        );
        assert_eq!(
            PaymentOffer::for_gift_card(
                SCAN,
                &active,
                Decimal::ZERO,
                Err(PolicyRefusal::NotAllowed)
            ),
            PaymentOffer::Offline {
                refusal: PolicyRefusal::NotAllowed
            }
        );
    }
}
