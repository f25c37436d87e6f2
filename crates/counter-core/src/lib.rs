//! `counter-core`: everything the counter does, without any window.
//!
//! - **The outbox** ([`outbox`]): every write is stored with its own Idempotency-Key
//!   and exact body, in one committed SQLite transaction, before the first attempt;
//!   one sender delivers it when the service answers, with backoff, `Retry-After` and
//!   the rate limit honoured; a write is closed only on the service's answer or a
//!   person's decision. Nothing is lost, nothing is done twice.
//! - **The counter's rules**: scans and the repeat-visit question
//!   ([`Counter::record_scan`], [`Counter::confirm_repeat_visit`]), exact gift-card
//!   payments and the offline policy ([`payment`]), scanner input ([`scanner`]).
//! - **The local cache** of customers and cards, synced from the service, with
//!   search as you type ([`Counter::search`]).
//! - **Keys and settings**: the API key in the keychain ([`secrets`]), the rest in
//!   SQLite ([`settings`]), with what the service said of the key, so a restart opens
//!   the same business at once ([`Counter::connection`]). A key or settings that
//!   cannot be read, or data another copy owns, open the till anyway and are told
//!   ([`Counter::troubles`]).
//!
//! Time and ids are injected ([`Clock`], [`IdSource`]); nothing deep inside reads the
//! system clock or makes a UUID. The Tauri shell holds one [`Counter`] and forwards
//! its [`Event`]s.
//!
//! ```no_run
//! # async fn example() -> Result<(), counter_core::Error> {
//! use std::sync::Arc;
//! use counter_core::{Config, Counter, SystemClock, UuidIds};
//! use loyalty_api::{CardId, ScanAction};
//!
//! let counter = Counter::open(
//!     std::path::Path::new("/var/lib/loyalty-counter"),
//!     Config::default(),
//!     Arc::new(SystemClock),
//!     Arc::new(UuidIds),
//! )
//! .await?;
//! counter.connect("https://api.example/sandbox", "lc_test_...").await?;
//! let outcome = counter
//!     .record_scan(CardId::new("card_..."), ScanAction::Visit, None)
//!     .await?;
//! # Ok(()) }
//! ```
//!
//! # Layers
//!
//! Each module uses only its own layer or lower ones, and the modules of one layer use
//! each other one way only (`crates/layers` checks it in `make lint`). Bottom to top:
//!
//! 0. `clock`, `ids`, `kinds`, `keys`, `zoom`, `language`, `lock`, `secrets`,
//!    `optional_decimal`, `roles`, `private`, [`update`]: leaves (time, ids, the API's
//!    kinds, keyboard layouts, zoom, the till's languages, the one-copy lock, the key in
//!    the keychain, a decimal kept as text, what each role may do, files only the till's
//!    user reads, the app's binary upgraded under it).
//! 1. `db`, `pin`, `people`, `roster_file`, `config`: the till's SQLite file and its
//!    migrations, each person's PIN, the roster, the roster signed for the shop's other
//!    tills, what the shell sets.
//! 2. [`error`]: the core's error type, its codes, and the error data the modules share.
//! 3. [`scanner`], [`input`], [`payment`], [`trouble`]: what was scanned or typed,
//!    amounts and the offline policy, what went wrong opening the till.
//! 4. [`views`], [`offer`], [`customer_display`], [`receipts`], `kept`, [`tallies`]:
//!    what the service's answers show, what a card allows, the customer's screen,
//!    receipts laid out, what the till keeps of a gift card's id once no write needs it
//!    whole, a shift report's rows and check as plain data.
//! 5. [`outbox`], [`settings`]: the writes' table, the till's settings.
//! 6. [`cache`], [`history`], `outcome`, [`events`], [`print_jobs`], [`shifts`]: the
//!    customers cached, the queue's history, a write's outcome, what the shell hears,
//!    the print queue, shifts and their X and Z reports.
//! 7. `shared`: the state every task of an open counter shares.
//! 8. `learner`, `sync`, `send`: what each answer teaches the till, the walks that fill
//!    the cache, the sender that drains the outbox.
//! 9. `counter`: the façade, [`Counter`], that the shell holds.

#![warn(missing_docs)]

/// Marks a type the app's UI receives: with the `ts` feature, the tests export it to
/// TypeScript beside the shell's types (`ui/src/lib/ipc/bindings/`).
macro_rules! for_the_ui {
    ($item:item) => {
        #[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
        $item
    };
}

pub mod cache;
pub mod clock;
pub mod config;
mod counter;
pub mod customer_display;
pub mod db;
mod error;
pub mod events;
pub mod history;
pub mod ids;
pub mod input;
mod kept;
pub mod keys;
pub mod kinds;
pub mod language;
mod learner;
pub mod lock;
pub mod offer;
mod optional_decimal;
pub mod outbox;
mod outcome;
pub mod payment;
pub mod people;
pub mod pin;
pub mod print_jobs;
pub mod private;
pub mod receipts;
pub mod roles;
pub mod roster_file;
pub mod scanner;
pub mod secrets;
mod send;
pub mod settings;
mod shared;
pub mod shifts;
mod sync;
pub mod tallies;
pub mod trouble;
pub mod update;
pub mod views;
pub mod zoom;

pub use clock::{Clock, ManualClock, SystemClock, Uptime};
pub use config::{AtRest, Config};
pub use counter::{
    BadgeMade, Balance, BroadcastDraft, BrowsePage, BrowseQuery, BrowseRow, CameraError, CardOffer,
    CheckIn, ConnectGate, Connection, Counter, Credential, CustomerDisplay, CustomerScreen,
    EnrolOutcome, Enrolment, Figure, FigureName, Figures, FiguresPeriod, FreshCard, GiftCardIssue,
    GiftCardRead, InsufficientBalance, IssueChoices, IssuedCard, ItemChoices, KioskStart,
    MANAGER_IDLE, MAX_FIGURE_DAYS, MAX_UNUSUAL_SCANS, MessageAudience, MessageDraft,
    MessagePreview, PaymentOutcome, PinFor, Place, Progress, RepeatVisit, RestartHold, SampleCard,
    SampleCardKind, SampleGiftCard, SampleGiftKind, Samples, ScanFound, ScanOutcome,
    ScheduledMessage, ScheduledState, SeatView, ShiftStatus, ShiftView, TillPlaces,
    UnusualActivity, UnusualCard, XReport, ZSummary, ZView,
};
pub use error::{ArgumentsError, Error, ErrorCode, ErrorData, NotAllowed};
pub use events::{Connectivity, Event};
pub use ids::{IdSource, SequenceIds, UuidIds};
pub use outbox::business::{Business, WaitingWrites};
pub use outbox::{
    DecisionReason, ItemId, ItemState, OutboxItem, QueueCounts, Refusal, Resolution, Write,
};
pub use outcome::{Never, Outcome};
pub use sync::SyncReport;
pub use tallies::Addendum;
pub use trouble::Trouble;
