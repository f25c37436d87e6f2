//! The messages screen: what came of sending or cancelling a message.

use counter_core::views::Answer;
use counter_core::{ItemId, WriteOutcome};

use super::{ReasonView, RefusalView, exported};

exported! {
/// What came of sending a previewed message or cancelling a scheduled one.
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum MessageReply {
    /// The service took it: the message as it answered.
    Done {
        /// The outbox item.
        item: ItemId,
        /// The message's id (the one a cancel takes).
        id: String,
        /// `sending`, `scheduled`, `cancelled`, ...
        status: String,
        /// Who receives it, when the service said.
        #[ts(type = "number | null")]
        recipient_count: Option<i64>,
        /// When it goes out (RFC 3339).
        scheduled_at: Option<String>,
        /// When it was cancelled (RFC 3339).
        cancelled_at: Option<String>,
    },
    /// Stored; it goes when the service answers.
    Queued {
        /// The outbox item.
        item: ItemId,
    },
    /// Refused.
    Refused {
        /// The outbox item.
        item: ItemId,
        /// Why.
        refusal: RefusalView,
    },
    /// A person must decide.
    NeedsDecision {
        /// The outbox item.
        item: ItemId,
        /// Why.
        reason: ReasonView,
    },
}
}

impl From<WriteOutcome> for MessageReply {
    fn from(outcome: WriteOutcome) -> Self {
        match outcome {
            WriteOutcome::Done {
                item,
                answer:
                    Answer::Broadcast {
                        id,
                        status,
                        recipient_count,
                        scheduled_at,
                        cancelled_at,
                    },
            } => MessageReply::Done {
                item,
                id: id.as_str().to_owned(),
                status,
                recipient_count,
                scheduled_at: scheduled_at.map(|t| t.to_string()),
                cancelled_at: cancelled_at.map(|t| t.to_string()),
            },
            // A message write is answered with a message; any other answer is not its.
            WriteOutcome::Done { item, .. } | WriteOutcome::Queued { item } => {
                MessageReply::Queued { item }
            }
            WriteOutcome::Refused { item, refusal } => MessageReply::Refused {
                item,
                refusal: RefusalView::from(&refusal),
            },
            WriteOutcome::NeedsDecision { item, reason } => MessageReply::NeedsDecision {
                item,
                reason: ReasonView::from(&reason),
            },
        }
    }
}
