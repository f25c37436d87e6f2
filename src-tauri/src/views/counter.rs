//! The counter screen: a card read from the scanner, its pass, what may be done, and
//! the answer to an action.

use counter_core::cache::{CardLookup, CustomerSummary};
use counter_core::kinds::{CardStatus, ScanAction};
use counter_core::offer::CardActions;
use counter_core::scanner::NotACard;
use counter_core::views::{CardView, PassView};
use counter_core::{CardOffer, Counter, Error, FreshCard, Outcome, ScanOutcome};
use loyalty_api::CardId;

use super::exported;

exported! {
/// A loyalty card as the counter screen shows it, with what may be done with it (the
/// core decides: the key's scopes, the card's pass).
pub struct CardPanel {
    /// The card's id.
    pub card_id: String,
    /// Its pass (what it counts towards).
    pub pass_id: String,
    /// Whether it accepts scans.
    pub status: CardStatus,
    /// The customer's name, when known.
    pub customer_name: Option<String>,
    /// The customer's email, when known.
    pub customer_email: Option<String>,
    /// Visits towards the goal.
    #[ts(type = "number")]
    pub visits: i64,
    /// Points held.
    #[ts(type = "number")]
    pub points: i64,
    /// Rewards ready.
    #[ts(type = "number")]
    pub rewards_available: i64,
    /// Rewards redeemed so far.
    #[ts(type = "number")]
    pub rewards_redeemed: i64,
    /// The last visit (RFC 3339).
    pub last_visit_at: Option<String>,
    /// Queued writes not yet in these figures.
    pub queued_writes: u32,
    /// Its pass, when the till has read it.
    pub pass: Option<PassView>,
    /// What may be done with it now.
    pub actions: CardActions,
    /// A loyalty slip can be printed.
    pub print_slip: bool,
    /// Loyalty scans of it at this till today, when unusually many.
    pub unusual_scans: Option<u32>,
}
}

impl CardPanel {
    /// `card` with what `counter` offers for it; its customer when known, and the
    /// `queued` writes for it not yet in its figures.
    pub fn new(
        counter: &Counter,
        card: &CardView,
        customer: Option<&CustomerSummary>,
        queued: u32,
    ) -> Self {
        Self::offered(card, customer, queued, counter.card_offer(card, queued))
    }

    /// A card as the cache knows it, with the offer already made for it.
    pub fn with_offer(lookup: &CardLookup, offer: CardOffer) -> Self {
        Self::offered(
            &lookup.card,
            lookup.customer.as_ref(),
            lookup.queued_writes,
            offer,
        )
    }

    fn offered(
        card: &CardView,
        customer: Option<&CustomerSummary>,
        queued: u32,
        offer: CardOffer,
    ) -> Self {
        Self {
            card_id: card.id.as_str().to_owned(),
            pass_id: card.pass_id.as_str().to_owned(),
            status: card.status,
            customer_name: customer.and_then(|c| c.name.clone()),
            customer_email: customer.and_then(|c| c.email.clone()),
            visits: card.visits,
            points: card.points,
            rewards_available: card.rewards_available,
            rewards_redeemed: card.rewards_redeemed,
            last_visit_at: card.last_visit_at.map(|t| t.to_string()),
            queued_writes: queued,
            pass: offer.pass,
            actions: offer.actions,
            print_slip: offer.print_slip,
            unusual_scans: offer.unusual_scans,
        }
    }

    /// A card as the cache knows it.
    pub fn of_lookup(counter: &Counter, lookup: &CardLookup) -> Self {
        Self::new(
            counter,
            &lookup.card,
            lookup.customer.as_ref(),
            lookup.queued_writes,
        )
    }
}

exported! {
/// What the scanner or the keyboard gave, read by the core.
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ScanRead {
    /// A loyalty card, with what the till knows of it.
    Card {
        /// The card's id.
        id: String,
        /// The cached card, when the till has seen it.
        known: Option<Box<CardPanel>>,
        /// What may be done with it (the known card's, else what the key may do).
        actions: CardActions,
    },
    /// A gift card.
    GiftCard {
        /// Its id.
        id: String,
    },
    /// Not a card.
    NotACard {
        /// Why.
        reason: NotACard,
    },
}
}

exported! {
/// A scan the service recorded.
pub struct Recorded {
    /// What it was.
    kind: ScanAction,
    /// Visits added.
    #[ts(type = "number")]
    visits_added: i64,
    /// Points added.
    #[ts(type = "number")]
    points_added: i64,
    /// Points deducted.
    #[ts(type = "number")]
    points_deducted: i64,
    /// A reward was earned: celebrate.
    reward_earned: bool,
    /// The card after it.
    card: CardPanel,
}
}

exported! {
/// A visit less than 15 minutes after the card's last: the cashier is asked.
pub struct RepeatQuestion {
    /// The last visit (RFC 3339).
    last_visit_at: Option<String>,
}
}

exported! {
/// The answer to a scan: what became of it and, while it waits in the queue, the card
/// as the till knows it (provisional: the service has not counted it yet).
pub struct ScanReply {
    /// What became of it.
    #[serde(flatten)]
    #[ts(flatten)]
    outcome: Outcome<Recorded, RepeatQuestion>,
    /// The card as the till knows it, while the scan is queued.
    provisional: Option<CardPanel>,
}
}

impl ScanReply {
    /// The core's outcome of a scan on `card`, with the card as the counter shows it.
    pub fn new(counter: &Counter, outcome: ScanOutcome, card: &CardId) -> Result<Self, Error> {
        let provisional = match outcome {
            Outcome::Queued { .. } => counter
                .lookup_card(card)?
                .map(|known| CardPanel::of_lookup(counter, &known)),
            _ => None,
        };
        let outcome = outcome.map(
            |result| Recorded {
                kind: result.kind,
                visits_added: result.visits_added,
                points_added: result.points_added,
                points_deducted: result.points_deducted,
                reward_earned: result.reward_earned,
                card: CardPanel::new(counter, &result.card, None, 0),
            },
            |repeat| RepeatQuestion {
                last_visit_at: repeat.last_visit_at.map(|t| t.to_string()),
            },
        );
        Ok(Self {
            outcome,
            provisional,
        })
    }
}

exported! {
/// A card read from the service now.
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FreshCardView {
    /// The card as the service has it (or with this till's queued writes pending).
    Found {
        /// The card.
        card: Box<CardPanel>,
    },
    /// The service has no such card: never enrolled, or its customer was deleted.
    NoSuchCard,
    /// Not read (unreachable, key refused, a wait in force, no first sync yet): the
    /// cached card stands.
    NotChecked,
}
}

impl FreshCardView {
    /// The core's fresh read, with the card as the counter shows it.
    pub fn new(counter: &Counter, fresh: FreshCard) -> Self {
        match fresh {
            FreshCard::Found(lookup) => FreshCardView::Found {
                card: Box::new(CardPanel::of_lookup(counter, &lookup)),
            },
            FreshCard::NoSuchCard => FreshCardView::NoSuchCard,
            FreshCard::NotChecked => FreshCardView::NotChecked,
        }
    }
}
