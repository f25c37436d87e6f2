//! The answers of the control routes (`/_sandbox`), which the document leaves out.

use serde::Serialize;

use super::RateLimits;

/// A business, with its first pass in each place.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Business {
    pub(crate) object: &'static str,
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) plan: String,
    pub(crate) plan_name: String,
    pub(crate) time_zone: String,
    pub(crate) customer_limit: i64,
    pub(crate) monthly_messages: i64,
    pub(crate) rate_limits: RateLimits,
    pub(crate) pass_id: Option<String>,
    pub(crate) sandbox_pass_id: Option<String>,
}

/// A gift card's whole ledger, and the card.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GiftCardLedger {
    pub(crate) object: &'static str,
    pub(crate) data: Vec<super::GiftCardTransaction>,
    pub(crate) has_more: bool,
    pub(crate) next_cursor: Option<String>,
    pub(crate) gift_card: super::GiftCard,
}

/// What an undo restored: a loyalty card or a gift card.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum Undone {
    Card(super::Card),
    GiftCard(super::GiftCard),
}

/// A new webhook endpoint: its full url and, this once, its secret.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct WebhookEndpointCreated {
    #[serde(flatten)]
    pub(crate) endpoint: super::WebhookEndpoint,
    pub(crate) secret: String,
}

/// A new API key, shown in full this once.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ApiKey {
    pub(crate) object: &'static str,
    pub(crate) id: String,
    pub(crate) key: String,
    pub(crate) prefix: String,
}

/// A key revoked.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Revoked {
    pub(crate) revoked: bool,
}

/// A customer deleted.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Deleted {
    pub(crate) deleted: bool,
}

/// The server's clock after it moved.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ClockNow {
    pub(crate) now: String,
}

/// What a seed added.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Seeded {
    pub(crate) customers: usize,
    pub(crate) cards: usize,
    pub(crate) scans: usize,
}

/// How many answers the faults just armed will take (0 once cleared).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Armed {
    pub(crate) armed: i64,
}

/// An effect: what the service sent or changed outside its answers, with the
/// details of its kind.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Effect {
    pub(crate) object: &'static str,
    pub(crate) id: String,
    pub(crate) kind: String,
    pub(crate) at: String,
    pub(crate) place: String,
    #[serde(flatten)]
    pub(crate) details: serde_json::Map<String, serde_json::Value>,
}

/// An event as recorded.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Event {
    pub(crate) id: String,
    pub(crate) r#type: String,
    pub(crate) livemode: bool,
    pub(crate) data: Box<serde_json::value::RawValue>,
    pub(crate) created_at: String,
}
