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
