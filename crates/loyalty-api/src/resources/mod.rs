//! The operations, one module per resource. Each is reached from the
//! [`Client`](crate::Client):
//! `client.customers().get(&id)`, `client.scans().create(&key, &scan)`.
//!
//! Every write takes the caller's [`IdempotencyKey`](crate::IdempotencyKey): a
//! retry must send the same key, and only the caller can keep it across restarts.

mod broadcasts;
mod customers;
mod gift_cards;
mod locations;
mod me;
mod passes;
mod referrals;
mod scans;
mod stats;
mod webhook_endpoints;

pub use broadcasts::Broadcasts;
pub use customers::Customers;
pub use gift_cards::GiftCards;
pub use locations::Locations;
pub use passes::Passes;
pub use referrals::Referrals;
pub use scans::Scans;
pub use webhook_endpoints::WebhookEndpoints;
