//! What the core tells the shell, as it happens. The Tauri shell forwards these to
//! the UI; tests subscribe to wait for them.

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::outbox::{ItemId, ItemState, QueueCounts};

for_the_ui! {
/// Whether the service answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Connectivity {
    /// Nothing known yet (no request made, or no key).
    Unknown,
    /// The last request got an answer.
    Online,
    /// The last request got no answer (no connection, time-out, connection closed).
    Offline,
    /// The service answers but refuses the key (revoked, expired, plan ended...):
    /// writes wait for a key that works.
    KeyRefused,
}
}

impl Connectivity {
    /// Whether a request may be tried now.
    pub fn may_call_service(self) -> bool {
        !matches!(self, Connectivity::Offline | Connectivity::KeyRefused)
    }
}

/// Something the UI should know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Online or offline changed.
    Connectivity {
        /// The new state.
        state: Connectivity,
    },
    /// The queue's counts changed.
    QueueCounts(QueueCounts),
    /// An outbox item changed state.
    ItemChanged {
        /// The item.
        id: ItemId,
        /// Its new state.
        state: ItemState,
    },
    /// Progress of a customer sync.
    SyncProgress {
        /// Customers stored so far in this sync.
        done: u64,
        /// The expected total (an estimate; the API gives no count).
        estimated_total: Option<u64>,
        /// Whether the sync has finished.
        finished: bool,
    },
    /// The till's clock and the service's differ by more than the allowed skew, or
    /// (with `warning: false`) no longer do.
    ClockSkew {
        /// Till minus service, in seconds.
        skew_seconds: i64,
        /// Whether this is beyond the allowed difference.
        warning: bool,
    },
    /// The customer's screen shows something else.
    CustomerScreen(crate::customer_display::CustomerScreen),
    /// The receipt printer's state, or the receipts waiting for it, changed.
    Printer(crate::receipts::PrinterReport),
    /// The API key could not go in the keychain and was kept in a file instead.
    KeyStorageWarning {
        /// The file, readable only by this user.
        path: std::path::PathBuf,
        /// What happened, in English (for logs).
        message: String,
    },
}

/// The sending side, cloned wherever events are made.
#[derive(Debug, Clone)]
pub(crate) struct Events(broadcast::Sender<Event>);

impl Events {
    pub(crate) fn new() -> Self {
        Self(broadcast::channel(1024).0)
    }

    pub(crate) fn publish(&self, event: Event) {
        // No subscriber is not an error: the shell may not be listening yet.
        let _ = self.0.send(event);
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.0.subscribe()
    }
}
