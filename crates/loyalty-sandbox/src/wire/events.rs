//! What events carry.

use serde::Serialize;
use serde_json::value::RawValue;

/// The `data` of an event about one resource: the resource as it was answered.
#[derive(Debug, Serialize)]
pub(crate) struct EventData<'a, T> {
    pub(crate) object: &'a T,
}

/// An event as a webhook attempt posts it.
#[derive(Debug, Serialize)]
pub(crate) struct WebhookEvent<'a> {
    pub(crate) id: &'a str,
    pub(crate) r#type: &'a str,
    pub(crate) created_at: String,
    pub(crate) livemode: bool,
    pub(crate) data: &'a RawValue,
}

/// The data of `scan.voided`: a scan or a gift card spend undone (the 2026-11
/// payload). A loyalty card's undo has no gift card nor balance; a gift card's has no
/// card, counter nor rewards.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ScanVoided {
    pub(crate) receipt_id: String,
    pub(crate) kind: &'static str,
    pub(crate) pass_id: Option<String>,
    pub(crate) customer_id: Option<String>,
    pub(crate) customer_pass_id: Option<String>,
    pub(crate) gift_card_id: Option<String>,
    pub(crate) new_value: Option<i64>,
    pub(crate) rewards_available: Option<i64>,
    pub(crate) balance: Option<f64>,
    pub(crate) scanned_at: String,
    pub(crate) timestamp: String,
    /// Present (true) only when the customer is deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) customer_deleted: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) customer_deleted_at: Option<String>,
}
