//! Whose a write is: every write belongs to the business it was made for, in the mode
//! and on the service the till was connected to then, and is sent only under a key of
//! that business, mode and service. Under any other key it waits.

use serde::{Deserialize, Serialize};

for_the_ui! {
/// A business as `GET /v1/me` described it, on one service.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Business {
    /// Its id (`GET /v1/me`'s `business.id`).
    pub id: String,
    /// Its name, as last read.
    pub name: String,
    /// A test key's business (the sandbox), or a live one.
    pub test_mode: bool,
    /// The service's base URL.
    pub service: String,
}
}

/// The till's own number of a [`Business`] (a row of its `owners` table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct OwnerId(pub i64);

for_the_ui! {
/// Writes still open (queued, being sent or waiting for a decision) that belong to a
/// business other than the one connected: they wait for a key of their own business.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingWrites {
    /// Their business; None for writes of a till that never knew its business.
    pub business: Option<Business>,
    /// How many.
    pub count: u32,
}
}
