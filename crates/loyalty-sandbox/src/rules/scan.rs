//! What a scan does to a loyalty card.
//!
//! - **visit** (visits passes only): adds one visit. Reaching the goal earns a
//!   reward: `rewards_available` + 1 and the visits start again from 0. A visit less
//!   than 15 minutes after `last_visit_at` is refused with `recent_visit` unless
//!   `confirm_repeat` is true.
//! - **points** (points passes only): a positive `amount` adds points, but never past
//!   the goal (`points_added` tells what was really added); reaching the goal earns a
//!   reward and the points start again from 0. A negative `amount` deducts points,
//!   up to what the card holds, else 409 insufficient_balance.
//!   Adding points counts as a visit for `last_visit_at`; deducting does not.
//! - **redeem** (both kinds): needs `rewards_available` > 0, else
//!   409 no_reward_available; moves one reward from available to redeemed.
//! - A card that is not active refuses every scan (409 card_not_active, detail
//!   gives the status). A visit on a points pass, or points on a visits pass, is
//!   refused with 409 scan_refused and says why.

use crate::clock::format_ms;
use crate::error::{ApiError, Code};

/// The part of a card a scan changes (and an undo restores).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct CardCounters {
    /// Visits towards the goal.
    pub visits: i64,
    /// Points towards the goal.
    pub points: i64,
    /// Rewards earned and not yet redeemed.
    pub rewards_available: i64,
    /// Rewards redeemed so far.
    pub rewards_redeemed: i64,
    /// Last visit, ms.
    pub last_visit_at: Option<i64>,
}

/// Minimum time between two visits without confirmation.
pub const REPEAT_VISIT_WINDOW_MS: i64 = 15 * 60 * 1000;

/// The kind of counter action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanKind {
    /// One visit.
    Visit,
    /// Points added or deducted.
    Points,
    /// A reward redeemed.
    Redeem,
}

impl ScanKind {
    /// The API's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ScanKind::Visit => "visit",
            ScanKind::Points => "points",
            ScanKind::Redeem => "redeem",
        }
    }

    /// Parses the API's name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "visit" => Some(ScanKind::Visit),
            "points" => Some(ScanKind::Points),
            "redeem" => Some(ScanKind::Redeem),
            _ => None,
        }
    }
}

/// A validated scan request.
#[derive(Debug, Clone, Copy)]
pub struct ScanRequest {
    /// What to do.
    pub kind: ScanKind,
    /// Points to add (positive) or deduct (negative); only for `points`.
    pub amount: i64,
    /// Record a visit even within 15 minutes of the last.
    pub confirm_repeat: bool,
}

/// The card's rules, from its pass.
#[derive(Debug, Clone, Copy)]
pub struct CardRules {
    /// Whether the pass counts points (else visits).
    pub points: bool,
    /// Visits or points for a reward.
    pub goal: i64,
}

/// What an accepted scan did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanOutcome {
    /// The counters after the scan.
    pub after: CardCounters,
    /// Visits added (0 or 1).
    pub visits_added: i64,
    /// Points really added.
    pub points_added: i64,
    /// Points deducted.
    pub points_deducted: i64,
    /// Whether the goal was reached.
    pub reward_earned: bool,
}

/// Applies a scan to a card, or refuses it.
pub fn apply(
    status: &str,
    before: CardCounters,
    rules: CardRules,
    req: ScanRequest,
    now_ms: i64,
) -> Result<ScanOutcome, ApiError> {
    if status != "active" {
        return Err(ApiError::new(
            Code::CardNotActive,
            format!("The card is {status}; only active cards accept scans."),
        ));
    }
    let mut after = before;
    let mut outcome = ScanOutcome {
        after,
        visits_added: 0,
        points_added: 0,
        points_deducted: 0,
        reward_earned: false,
    };
    let goal = rules.goal.max(1);
    match req.kind {
        ScanKind::Visit => {
            if rules.points {
                return Err(ApiError::new(
                    Code::ScanRefused,
                    "This card's pass counts points, not visits: send kind points with an amount.",
                ));
            }
            if let Some(last) = before.last_visit_at
                && now_ms - last < REPEAT_VISIT_WINDOW_MS
                && !req.confirm_repeat
            {
                return Err(ApiError::new(
                        Code::RecentVisit,
                        "The card's last visit was less than 15 minutes ago; send confirm_repeat true if this is a new visit.",
                    )
                    .extra(|x| x.last_visit_at = Some(format_ms(last))));
            }
            after.visits += 1;
            after.last_visit_at = Some(now_ms);
            outcome.visits_added = 1;
            if after.visits >= goal {
                after.visits = 0;
                after.rewards_available += 1;
                outcome.reward_earned = true;
            }
        }
        ScanKind::Points => {
            if !rules.points {
                return Err(ApiError::new(
                    Code::ScanRefused,
                    "This card's pass counts visits, not points: send kind visit.",
                ));
            }
            if req.amount > 0 {
                let added = req.amount.min(goal - before.points).max(0);
                after.points += added;
                after.last_visit_at = Some(now_ms);
                outcome.points_added = added;
                if after.points >= goal {
                    after.points = 0;
                    after.rewards_available += 1;
                    outcome.reward_earned = true;
                }
            } else {
                let wanted = -req.amount;
                if wanted > before.points {
                    return Err(ApiError::new(
                        Code::InsufficientBalance,
                        format!(
                            "The card holds {} points; {wanted} cannot be deducted.",
                            before.points
                        ),
                    )
                    .param("amount"));
                }
                after.points -= wanted;
                outcome.points_deducted = wanted;
            }
        }
        ScanKind::Redeem => {
            if before.rewards_available < 1 {
                return Err(ApiError::new(
                    Code::NoRewardAvailable,
                    "The card has no reward ready to redeem.",
                ));
            }
            after.rewards_available -= 1;
            after.rewards_redeemed += 1;
        }
    }
    outcome.after = after;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VISITS: CardRules = CardRules {
        points: false,
        goal: 3,
    };
    const POINTS: CardRules = CardRules {
        points: true,
        goal: 100,
    };
    const NOW: i64 = 1_795_338_900_000;

    fn req(kind: ScanKind, amount: i64) -> ScanRequest {
        ScanRequest {
            kind,
            amount,
            confirm_repeat: false,
        }
    }

    fn code(err: ApiError) -> String {
        err.code()
    }

    #[test]
    fn reaching_the_visit_goal_earns_a_reward_and_starts_again() {
        let before = CardCounters {
            visits: 2,
            ..Default::default()
        };
        let out = apply("active", before, VISITS, req(ScanKind::Visit, 0), NOW).unwrap();
        assert!(out.reward_earned);
        assert_eq!(out.after.visits, 0);
        assert_eq!(out.after.rewards_available, 1);
        assert_eq!(out.after.last_visit_at, Some(NOW));
    }

    #[test]
    fn a_visit_within_15_minutes_needs_confirmation() {
        let before = CardCounters {
            last_visit_at: Some(NOW - 14 * 60 * 1000),
            ..Default::default()
        };
        let err = apply("active", before, VISITS, req(ScanKind::Visit, 0), NOW).unwrap_err();
        assert_eq!(code(err), "recent_visit");
        let confirmed = ScanRequest {
            confirm_repeat: true,
            ..req(ScanKind::Visit, 0)
        };
        assert!(apply("active", before, VISITS, confirmed, NOW).is_ok());
        let later = CardCounters {
            last_visit_at: Some(NOW - 15 * 60 * 1000),
            ..Default::default()
        };
        assert!(apply("active", later, VISITS, req(ScanKind::Visit, 0), NOW).is_ok());
    }

    #[test]
    fn points_are_added_up_to_the_goal_only() {
        let before = CardCounters {
            points: 90,
            ..Default::default()
        };
        let out = apply("active", before, POINTS, req(ScanKind::Points, 25), NOW).unwrap();
        assert_eq!(out.points_added, 10);
        assert!(out.reward_earned);
        assert_eq!(out.after.points, 0);
    }

    #[test]
    fn points_are_deducted_up_to_the_balance_only() {
        let before = CardCounters {
            points: 30,
            ..Default::default()
        };
        let out = apply("active", before, POINTS, req(ScanKind::Points, -30), NOW).unwrap();
        assert_eq!(out.points_deducted, 30);
        assert_eq!(out.after.points, 0);
        let err = apply("active", before, POINTS, req(ScanKind::Points, -31), NOW).unwrap_err();
        assert_eq!(code(err), "insufficient_balance");
    }

    #[test]
    fn a_points_action_on_a_visits_card_is_refused() {
        let err = apply(
            "active",
            CardCounters::default(),
            VISITS,
            req(ScanKind::Points, 5),
            NOW,
        )
        .unwrap_err();
        assert_eq!(code(err), "scan_refused");
    }

    #[test]
    fn redeeming_needs_an_available_reward() {
        let err = apply(
            "active",
            CardCounters::default(),
            VISITS,
            req(ScanKind::Redeem, 0),
            NOW,
        )
        .unwrap_err();
        assert_eq!(code(err), "no_reward_available");
        let before = CardCounters {
            rewards_available: 1,
            ..Default::default()
        };
        let out = apply("active", before, VISITS, req(ScanKind::Redeem, 0), NOW).unwrap();
        assert_eq!(out.after.rewards_available, 0);
        assert_eq!(out.after.rewards_redeemed, 1);
    }

    #[test]
    fn a_card_that_is_not_active_refuses_scans() {
        let err = apply(
            "replaced",
            CardCounters::default(),
            VISITS,
            req(ScanKind::Visit, 0),
            NOW,
        )
        .unwrap_err();
        assert_eq!(code(err), "card_not_active");
    }
}
