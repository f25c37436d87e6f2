//! Webhook endpoints (read only; managed in the dashboard).

use jiff::Timestamp;
use serde::Deserialize;

use crate::ids::WebhookEndpointId;
use crate::macros::string_enum;

string_enum!(
    /// An endpoint's status.
    EndpointStatus {
        /// Receiving deliveries.
        Active => "active",
        /// Paused after failures or by hand.
        Paused => "paused",
        /// Turned off.
        Disabled => "disabled",
    }
);

string_enum!(
    /// The payload format of an endpoint.
    WebhookFormat {
        /// Version 2 payloads (dated definitions such as scan.voided 2026-11).
        V2 => "v2",
    }
);

string_enum!(
    /// The name of an event an endpoint subscribes to (the full list is open).
    EventName {
        /// A customer was enrolled.
        CustomerCreated => "customer.created",
        /// A scan was recorded.
        ScanRecorded => "scan.recorded",
        /// A payment was taken from a gift card.
        GiftCardSpent => "gift_card.spent",
        /// A scan or spend was undone at the counter.
        ScanVoided => "scan.voided",
    }
);

string_enum!(
    /// A delivery's outcome.
    DeliveryStatus {
        /// Delivered.
        Succeeded => "succeeded",
        /// Not delivered.
        Failed => "failed",
    }
);

/// The last delivery attempt to an endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct LastDelivery {
    /// When.
    pub at: Timestamp,
    /// The endpoint's HTTP status, when it answered.
    #[serde(default)]
    pub http_status: Option<u16>,
    /// The outcome.
    pub status: DeliveryStatus,
}

/// A registered webhook endpoint (its signing secret is never included).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct WebhookEndpoint {
    /// Its id.
    pub id: WebhookEndpointId,
    /// Its URL, without query string.
    pub url: String,
    /// Its status.
    pub status: EndpointStatus,
    /// The events it subscribes to.
    pub events: Vec<EventName>,
    /// The payload format.
    pub format: WebhookFormat,
    /// Created.
    pub created_at: Timestamp,
    /// Failures in a row.
    #[serde(default)]
    pub consecutive_failures: u32,
    /// Failing since.
    #[serde(default)]
    pub failing_since: Option<Timestamp>,
    /// Last success.
    #[serde(default)]
    pub last_success_at: Option<Timestamp>,
    /// Paused since.
    #[serde(default)]
    pub paused_at: Option<Timestamp>,
    /// Why it was paused.
    #[serde(default)]
    pub paused_reason: Option<String>,
    /// The last delivery.
    #[serde(default)]
    pub last_delivery: Option<LastDelivery>,
}
