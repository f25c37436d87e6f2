//! Messages to card holders: preview, confirm, cancel.

use std::fmt;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::ids::{BroadcastId, PassId};
use crate::macros::string_enum;

string_enum!(
    /// Who receives a message.
    Audience {
        /// Holders of active cards.
        Active => "active",
        /// Every card holder.
        All => "all",
    }
);

string_enum!(
    /// A message's status.
    BroadcastStatus {
        /// Going out now.
        Sending => "sending",
        /// Scheduled for later; can be cancelled.
        Scheduled => "scheduled",
        /// Sent.
        Sent => "sent",
        /// Cancelled before it went out.
        Cancelled => "cancelled",
    }
);

/// A message as previewed and then confirmed: the confirm repeats it exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BroadcastMessage {
    /// The pass whose card holders receive it.
    pub pass_id: PassId,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// Who receives it.
    pub audience: Audience,
    /// When it goes out; now when None.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduled_at: Option<Timestamp>,
    /// Targeting; its shape is not fixed by the spec, so passed as JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub targeting: Option<serde_json::Value>,
}

/// The single-use token of a preview (valid 10 minutes, for the key that asked).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ConfirmationToken(String);

impl ConfirmationToken {
    /// Wraps a token text (for example one kept while a manager decides).
    pub fn new(token: impl Into<String>) -> Self {
        Self(token.into())
    }

    /// The token's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ConfirmationToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // It authorises sending to every customer: keep it out of logs.
        f.write_str("ConfirmationToken([redacted])")
    }
}

/// The previewed message's text.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PreviewMessage {
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// Whether it was translated.
    #[serde(default)]
    pub translated: bool,
}

/// The month's message quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Quota {
    /// Messages left.
    pub remaining: i64,
    /// Messages per month.
    pub total: i64,
}

/// Who would receive the message.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Recipients {
    /// The audience.
    pub audience: Audience,
    /// Cards reached.
    pub cards: i64,
    /// People reached.
    pub people: i64,
}

/// The answer of a preview: nothing was sent.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct BroadcastPreview {
    /// The token that confirms exactly this message.
    pub confirmation_token: ConfirmationToken,
    /// When the token expires.
    pub expires_at: Timestamp,
    /// The message.
    pub message: PreviewMessage,
    /// The quota.
    pub quota: Quota,
    /// Who would receive it.
    pub recipients: Recipients,
    /// When it would go out.
    #[serde(default)]
    pub scheduled_at: Option<Timestamp>,
}

/// A message after confirm or cancel.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Broadcast {
    /// Its id (the one a cancel takes).
    pub id: BroadcastId,
    /// Its status.
    pub status: BroadcastStatus,
    /// Recipients (on confirm).
    #[serde(default)]
    pub recipient_count: Option<i64>,
    /// Sent so far (on confirm).
    #[serde(default)]
    pub sent_count: Option<i64>,
    /// When it goes out.
    #[serde(default)]
    pub scheduled_at: Option<Timestamp>,
    /// When it was cancelled (on cancel).
    #[serde(default)]
    pub cancelled_at: Option<Timestamp>,
}

#[derive(Serialize)]
pub(crate) struct ConfirmBody<'a> {
    #[serde(flatten)]
    pub message: &'a BroadcastMessage,
    pub confirmation_token: &'a ConfirmationToken,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_confirm_repeats_the_message_and_adds_the_token() {
        let message = BroadcastMessage {
            pass_id: PassId::new("pass_1"),
            title: "Hi".into(),
            body: "Free coffee".into(),
            audience: Audience::Active,
            scheduled_at: Some("2026-11-23T09:00:00Z".parse().unwrap()),
            targeting: None,
        };
        let token = ConfirmationToken::new("tok_1");
        let body = serde_json::to_value(ConfirmBody {
            message: &message,
            confirmation_token: &token,
        })
        .unwrap();
        assert_eq!(
            body,
            serde_json::json!({"pass_id":"pass_1","title":"Hi","body":"Free coffee",
                "audience":"active","scheduled_at":"2026-11-23T09:00:00Z","confirmation_token":"tok_1"})
        );
        assert!(!format!("{token:?}").contains("tok_1"));
    }
}
