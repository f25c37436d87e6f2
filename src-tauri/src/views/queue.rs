//! The queue screen: each write, what it was, its answer or refusal, and what a person
//! may decide.

use counter_core::Business;
use counter_core::kinds::ScanAction;
use counter_core::outbox::MadeBy;
use counter_core::views::Answer;
use counter_core::{
    Counter, DecisionReason, ItemChoices, ItemId, ItemState, OutboxItem, Resolution, Write,
};

use counter_core::views::RefusalView;

use super::exported;

exported! {
/// One write of the queue, as data the screen puts in the cashier's language.
pub struct QueueItemView {
    /// Its id.
    pub id: ItemId,
    /// Where it stands.
    pub state: ItemState,
    /// When it was stored (RFC 3339).
    pub created_at: String,
    /// What it was.
    pub what: WriteView,
    /// The service's answer, when done.
    pub answer: Option<AnswerView>,
    /// The refusal, when refused.
    pub refusal: Option<RefusalView>,
    /// The Request-Id of the last answer.
    pub request_id: Option<String>,
    /// Why it needs a decision.
    pub reason: Option<DecisionReason>,
    /// What a person decided.
    pub resolution: Option<ResolutionView>,
    /// Why the last attempt did not get an answer, while it waits.
    pub last_error: Option<String>,
    /// Attempts made.
    pub attempts: u32,
    /// Its Idempotency-Key, for support.
    pub idempotency_key: String,
    /// What a person may decide about it now (the core decides, and checks again).
    pub choices: ItemChoices,
    /// The business it waits for, when it belongs to another than the key in use.
    pub waits_for: Option<Business>,
    /// Who made it.
    pub made_by: MadeBy,
}
}

impl QueueItemView {
    /// `item` as the queue shows it, with who it concerns as the till knows them.
    pub fn new(counter: &Counter, item: &OutboxItem) -> Self {
        Self {
            id: item.id,
            state: item.state,
            created_at: item.created_at.to_string(),
            what: WriteView::new(counter, &item.write),
            answer: item.answer.as_ref().map(AnswerView::from),
            request_id: item
                .request_id
                .clone()
                .or_else(|| item.refusal.as_ref().and_then(|r| r.request_id.clone())),
            refusal: item.refusal.clone().map(RefusalView::from),
            reason: item.reason.clone(),
            resolution: item.resolution.as_ref().map(ResolutionView::from),
            last_error: item.last_error.clone(),
            attempts: item.attempts,
            idempotency_key: item.idempotency_key.clone(),
            choices: counter.choices(item),
            waits_for: counter.waits_for(item).unwrap_or_else(|error| {
                tracing::warn!(%error, "whose write it is could not be read");
                None
            }),
            made_by: item.made_by.clone(),
        }
    }
}

exported! {
/// What a queued write does.
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WriteView {
    /// A visit, points or a redemption on a card.
    Scan {
        /// What was done.
        action: ScanAction,
        /// The card.
        card_id: String,
        /// Its customer's name, when the till knows it.
        customer_name: Option<String>,
        /// Points (negative to deduct), when points.
        amount: Option<String>,
        /// A repeat visit the cashier confirmed.
        repeat: bool,
    },
    /// A gift-card payment.
    Payment {
        /// The amount, exact.
        amount: String,
        /// Its currency.
        currency: String,
        /// The gift card's id, its last four characters (the whole id is its money).
        gift_card_end: String,
        /// Its recipient's name, when the till knows it.
        recipient_name: Option<String>,
        /// The ticket number, if given.
        reference: Option<String>,
    },
    /// An enrolment.
    Enrol {
        /// The customer's name.
        name: String,
        /// Their email.
        email: String,
    },
    /// A gift card issued.
    IssueGiftCard {
        /// The amount, exact.
        amount: String,
        /// Its currency.
        currency: String,
        /// Who receives it.
        recipient_name: String,
    },
    /// A message to card holders confirmed.
    Message {
        /// Its title.
        title: String,
    },
    /// A scheduled message cancelled.
    CancelMessage {
        /// The message's id.
        id: String,
    },
    /// A kind of write this version shows by its kind only.
    Other,
}
}

// `if let` rather than `match`: a kind of write the core adds later shows as `Other`.
impl WriteView {
    /// `write`, naming who it concerns from the till's cache (a failed read names
    /// nobody: the id stays).
    pub fn new(counter: &Counter, write: &Write) -> Self {
        if let Write::Scan {
            card_id,
            action,
            amount,
            confirm_repeat,
        } = write
        {
            let known = counter.lookup_card(card_id).ok().flatten();
            WriteView::Scan {
                action: *action,
                card_id: card_id.as_str().to_owned(),
                customer_name: known.and_then(|k| k.customer).and_then(|c| c.name),
                amount: amount.map(|a| a.to_string()),
                repeat: *confirm_repeat,
            }
        } else if let Write::Payment {
            gift_card_id,
            amount_minor,
            currency,
            reference,
        } = write
        {
            WriteView::Payment {
                amount: counter_core::payment::to_decimal(*amount_minor, currency).to_string(),
                currency: currency.to_string(),
                gift_card_end: counter_core::receipts::last_four(gift_card_id.as_str()),
                recipient_name: counter
                    .gift_card(gift_card_id)
                    .ok()
                    .flatten()
                    .and_then(|g| g.gift_card.recipient_name),
                reference: reference.clone(),
            }
        } else if let Write::Enrol { name, email, .. } = write {
            WriteView::Enrol {
                name: name.clone(),
                email: email.clone(),
            }
        } else if let Write::IssueGiftCard {
            amount,
            currency,
            recipient_name,
            ..
        } = write
        {
            WriteView::IssueGiftCard {
                amount: amount.to_string(),
                currency: currency.to_string(),
                recipient_name: recipient_name.clone(),
            }
        } else if let Write::ConfirmBroadcast { title, .. } = write {
            WriteView::Message {
                title: title.clone(),
            }
        } else if let Write::CancelBroadcast { broadcast_id } = write {
            WriteView::CancelMessage {
                id: broadcast_id.as_str().to_owned(),
            }
        } else {
            WriteView::Other
        }
    }
}

exported! {
/// The service's answer to a write that went through.
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnswerView {
    /// The card after a scan.
    Scan {
        /// Visits.
        #[ts(type = "number")]
        visits: i64,
        /// Points.
        #[ts(type = "number")]
        points: i64,
        /// Rewards ready.
        #[ts(type = "number")]
        rewards_available: i64,
    },
    /// A payment taken.
    Payment {
        /// The amount taken, exact.
        amount: String,
        /// Its currency.
        currency: String,
        /// What is left on the card.
        balance_after: String,
    },
    /// The customer enrolled.
    Customer {
        /// Their id.
        id: String,
    },
    /// The gift card issued.
    GiftCard {
        /// Its id's last four characters (the whole id is its money).
        card_end: String,
    },
    /// An answer this screen does not detail (messages).
    Other,
}
}

impl From<&Answer> for AnswerView {
    fn from(answer: &Answer) -> Self {
        if let Answer::ScanResult(r) = answer {
            AnswerView::Scan {
                visits: r.card.visits,
                points: r.card.points,
                rewards_available: r.card.rewards_available,
            }
        } else if let Answer::GiftCardPayment(p) = answer {
            AnswerView::Payment {
                amount: p.amount.to_string(),
                currency: p.gift_card.currency.to_string(),
                balance_after: p.balance_after.to_string(),
            }
        } else if let Answer::Customer(c) = answer {
            AnswerView::Customer {
                id: c.id.as_str().to_owned(),
            }
        } else if let Answer::GiftCard(issued) = answer {
            AnswerView::GiftCard {
                card_end: counter_core::receipts::last_four(issued.gift_card.id.as_str()),
            }
        } else {
            AnswerView::Other
        }
    }
}

exported! {
/// What a person decided about a write.
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResolutionView {
    /// Withdrawn, with the person's note (possibly empty).
    Discarded {
        /// What they wrote.
        note: String,
    },
    /// Confirmed as a repeat visit: the write sent in its place.
    RepeatConfirmed {
        /// That write's id.
        replacement: ItemId,
    },
}
}

impl From<&Resolution> for ResolutionView {
    fn from(resolution: &Resolution) -> Self {
        match resolution {
            Resolution::Discarded { note } => ResolutionView::Discarded { note: note.clone() },
            Resolution::RepeatConfirmed { replacement } => ResolutionView::RepeatConfirmed {
                replacement: *replacement,
            },
        }
    }
}
