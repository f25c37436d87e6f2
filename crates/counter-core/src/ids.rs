//! The till's own ids: where Idempotency-Keys come from (injected, so tests can
//! predict them), and the numbers of the outbox's items.

use std::sync::atomic::{AtomicU64, Ordering};

use loyalty_api::IdempotencyKey;
use serde::{Deserialize, Serialize};

/// A source of fresh Idempotency-Keys. Each key is made once, stored with its write,
/// and never made again for that write.
pub trait IdSource: Send + Sync + std::fmt::Debug {
    /// A key never returned before.
    fn idempotency_key(&self) -> IdempotencyKey;
}

/// Random UUID v4 keys, as the API recommends.
#[derive(Debug, Clone, Copy, Default)]
pub struct UuidIds;

impl IdSource for UuidIds {
    fn idempotency_key(&self) -> IdempotencyKey {
        IdempotencyKey::new(uuid::Uuid::new_v4().to_string()).expect("a UUID is a valid key")
    }
}

/// Keys `<prefix>-1`, `<prefix>-2`, ...: for tests. The prefix must differ between
/// runs that share a server, or the server will replay an older run's answer.
#[derive(Debug)]
pub struct SequenceIds {
    prefix: String,
    next: AtomicU64,
}

impl SequenceIds {
    /// Keys starting with `prefix`.
    pub fn new(prefix: impl Into<String>) -> Self {
        Self {
            prefix: prefix.into(),
            next: AtomicU64::new(1),
        }
    }
}

impl IdSource for SequenceIds {
    fn idempotency_key(&self) -> IdempotencyKey {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        IdempotencyKey::new(format!("{}-{n}", self.prefix)).expect("visible ASCII prefix")
    }
}

for_the_ui! {
/// The number of an outbox item: its place in the order writes were made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ItemId(
    // Ids stay far below 2^53: a JavaScript number holds them exactly.
    #[cfg_attr(feature = "ts", ts(type = "number"))] pub i64,
);
}

for_the_ui! {
/// A person on the till's roster ([`crate::people`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PersonId(#[cfg_attr(feature = "ts", ts(type = "number"))] pub i64);
}

impl std::fmt::Display for ItemId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}
