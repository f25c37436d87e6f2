//! The messages screen: a message as the service answered sending or cancelling it.

use counter_core::views::BroadcastView;

use super::exported;

exported! {
/// A message the service took: sent, scheduled or cancelled.
pub struct SentMessage {
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
}
}

impl From<BroadcastView> for SentMessage {
    fn from(message: BroadcastView) -> Self {
        Self {
            id: message.id.as_str().to_owned(),
            status: message.status,
            recipient_count: message.recipient_count,
            scheduled_at: message.scheduled_at.map(|t| t.to_string()),
            cancelled_at: message.cancelled_at.map(|t| t.to_string()),
        }
    }
}
