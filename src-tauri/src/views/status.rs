//! The status bar: online or not, what waits, and the core's events as the UI hears them.

use counter_core::receipts::PrinterState;
use counter_core::{Connectivity, Event, ItemId, ItemState};

use super::exported;

exported! {
/// The always-visible status: online or not, what waits, what needs a person.
pub struct QueueStatus {
    /// Whether the service answers.
    pub connectivity: Connectivity,
    /// Writes stored and not yet answered.
    pub queued: u32,
    /// Writes that need a person's decision.
    pub needs_decision: u32,
    /// Till minus service, in seconds, while the till's clock is off by too much.
    #[ts(type = "number | null")]
    pub clock_skew_seconds: Option<i64>,
}
}

exported! {
/// A core event, as a window's page takes it from its mailbox (`crate::mailbox`).
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CoreEvent {
    /// Online or offline changed.
    Connectivity {
        /// Whether the service answers now.
        state: Connectivity,
    },
    /// The queue's counts changed.
    QueueCounts {
        /// Queued writes.
        queued: u32,
        /// Writes needing a decision.
        needs_decision: u32,
    },
    /// An outbox item changed state.
    ItemChanged {
        /// The item.
        id: ItemId,
        /// Its new state.
        state: ItemState,
    },
    /// Customer sync progress.
    SyncProgress {
        /// Customers stored so far.
        #[ts(type = "number")]
        done: u64,
        /// The expected total, if known.
        #[ts(type = "number | null")]
        estimated_total: Option<u64>,
        /// Finished.
        finished: bool,
    },
    /// The till's clock differs from the service's.
    ClockSkew {
        /// Till minus service, in seconds.
        #[ts(type = "number")]
        skew_seconds: i64,
        /// Beyond the allowed difference.
        warning: bool,
    },
    /// The key sits in a file, not the keychain.
    KeyStorageWarning {
        /// The file.
        path: String,
    },
    /// The customer's screen shows something else.
    CustomerScreen {
        /// What it shows now.
        screen: counter_core::CustomerScreen,
    },
    /// The receipt printer's state, or the receipts waiting for it, changed.
    Printer {
        /// What the printer said at the last ask.
        state: PrinterState,
        /// Receipts waiting for it.
        waiting: u32,
        /// Receipts that may have printed, waiting for a person's word.
        unsure: u32,
        /// The status bar shows the printer (the core's rule: `PrinterReport`).
        needs_a_look: bool,
    },
}
}

impl QueueStatus {
    /// From the counter's state now.
    pub fn of(counter: &counter_core::Counter) -> Result<Self, counter_core::Error> {
        let counts = counter.counts()?;
        Ok(Self {
            connectivity: counter.connectivity(),
            queued: counts.queued,
            needs_decision: counts.needs_decision,
            clock_skew_seconds: counter.clock_skew(),
        })
    }
}

impl From<Event> for CoreEvent {
    fn from(event: Event) -> Self {
        match event {
            Event::Connectivity { state } => CoreEvent::Connectivity { state },
            Event::QueueCounts(counts) => CoreEvent::QueueCounts {
                queued: counts.queued,
                needs_decision: counts.needs_decision,
            },
            Event::ItemChanged { id, state } => CoreEvent::ItemChanged { id, state },
            Event::SyncProgress {
                done,
                estimated_total,
                finished,
            } => CoreEvent::SyncProgress {
                done,
                estimated_total,
                finished,
            },
            Event::ClockSkew {
                skew_seconds,
                warning,
            } => CoreEvent::ClockSkew {
                skew_seconds,
                warning,
            },
            Event::KeyStorageWarning { path, .. } => CoreEvent::KeyStorageWarning {
                path: path.display().to_string(),
            },
            Event::CustomerScreen(screen) => CoreEvent::CustomerScreen { screen },
            Event::Printer(report) => CoreEvent::Printer {
                state: report.state,
                waiting: report.waiting,
                unsure: report.unsure,
                needs_a_look: report.needs_a_look,
            },
        }
    }
}

exported! {
/// Whether an update waits, as the status bar shows it.
#[serde(tag = "state", rename_all = "snake_case")]
pub enum UpdateState {
    /// The app runs the version installed.
    Current,
    /// Another version is installed: the till restarts into it between customers.
    Waiting {
        /// Its version.
        version: String,
        /// Why not yet, when the page asked.
        busy: Option<counter_core::update::Busy>,
    },
    /// The till is restarting into it now.
    Restarting {
        /// Its version.
        version: String,
    },
}
}
