//! The outbox: every write is a row of a plain table, committed with its
//! Idempotency-Key and exact body before the first attempt, and closed only once the
//! service has answered it (PowerSync's shape).
//!
//! States, as a cashier reads them:
//!
//! - `queued`: stored, waiting to be sent (or to be sent again);
//! - `sending`: an attempt is under way. Found in this state after a crash, the item
//!   is sent again with the same key; the service's replay counts as success;
//! - `done`: the service accepted it; its answer is stored;
//! - `refused`: the service refused it for good (code, detail and Request-Id kept),
//!   or a person discarded it (`resolution` says so). Nothing behind it waits for it;
//! - `needs_decision`: a person must choose (the reason says why), for example a write
//!   that may have reached the service more than 23 hours ago, which the service may
//!   have forgotten, so sending it again could record it twice.
//!
//! Invariants: the key of an item never changes; an item leaves `queued`/`sending`
//! only on an answer of the service or a person's decision; items of one card (or one
//! gift card) are sent in the order they were made.

pub mod business;
pub(crate) mod store;
mod write;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

pub use write::{Write, WriteKind};

pub use crate::ids::ItemId;
use crate::secrets::KeyFingerprint;
use crate::views::{Answer, RefusalView};

/// How long a closed write keeps its gift card's id whole (the counter shows the
/// answer, a card just issued is handed over); after that its last four and a keyed
/// hash alone.
pub const ANSWER_KEEPS_ITS_CARD: jiff::SignedDuration = jiff::SignedDuration::from_mins(10);

for_the_ui! {
/// Where an item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemState {
    /// Stored, waiting to be sent.
    Queued,
    /// An attempt is under way (or was, when the app stopped).
    Sending,
    /// Accepted by the service; the answer is stored.
    Done,
    /// Refused for good, or discarded by a person.
    Refused,
    /// A person must choose what to do.
    NeedsDecision,
}
}

impl ItemState {
    /// Its name in the database and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemState::Queued => "queued",
            ItemState::Sending => "sending",
            ItemState::Done => "done",
            ItemState::Refused => "refused",
            ItemState::NeedsDecision => "needs_decision",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "queued" => ItemState::Queued,
            "sending" => ItemState::Sending,
            "done" => ItemState::Done,
            "refused" => ItemState::Refused,
            "needs_decision" => ItemState::NeedsDecision,
            _ => return None,
        })
    }

    /// Queued or sending: the worker will still send it.
    pub fn is_open(self) -> bool {
        matches!(self, ItemState::Queued | ItemState::Sending)
    }
}

/// A final refusal by the service, as kept with a `refused` item. The screens receive
/// it as a [`RefusalView`](crate::views::RefusalView).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "crate::views::RefusalView")]
pub struct Refusal {
    /// The problem's stable code (`recent_visit`, `insufficient_balance`, ...; kept as
    /// text in the database, so a code a later service adds is kept too).
    pub code: loyalty_api::ErrorCode,
    /// The service's explanation, for people.
    pub detail: Option<String>,
    /// The Request-Id to quote.
    pub request_id: Option<String>,
}

/// One write of the outbox, as the queue screen shows it.
///
/// `Debug` leaves the body out: a message confirm's body holds its token.
#[derive(Clone, PartialEq, Serialize)]
pub struct OutboxItem {
    /// Its number.
    pub id: ItemId,
    /// Where it stands.
    pub state: ItemState,
    /// What it does.
    pub write: Write,
    /// Its Idempotency-Key (not a secret: it only names this write).
    pub idempotency_key: String,
    /// The exact JSON body sent on every attempt.
    pub body: String,
    /// When it was made (the till's clock).
    pub created_at: Timestamp,
    /// Attempts made so far.
    pub attempts: u32,
    /// When the last attempt started.
    pub last_attempt_at: Option<Timestamp>,
    /// The start of the earliest attempt that may have reached the service.
    pub may_have_arrived_at: Option<Timestamp>,
    /// The service's answer, once done.
    pub answer: Option<Answer>,
    /// Whether that answer was a replay of an earlier attempt's.
    pub replayed: bool,
    /// The Request-Id of the answer that closed it.
    pub request_id: Option<String>,
    /// The refusal, when refused by the service.
    pub refusal: Option<Refusal>,
    /// Why a person must decide, when `needs_decision`.
    pub reason: Option<DecisionReason>,
    /// What went wrong on the last failed attempt (kept while it is retried).
    pub last_error: Option<String>,
    /// When it was closed.
    pub closed_at: Option<Timestamp>,
    /// What a person decided, or what replaced it.
    pub resolution: Option<Resolution>,
    /// The item this one replaces (a confirmed repeat visit replaces the refused one).
    pub replaces: Option<ItemId>,
    /// The API key (its fingerprint) of the first attempt that may have arrived: the
    /// write is never sent under another key without a person's word.
    pub arrived_key: Option<KeyFingerprint>,
    /// The service's time at that attempt: the 23-hour rule is measured from it.
    pub arrived_service_at: Option<Timestamp>,
    /// A person chose to send it again after a rule stopped it.
    pub resend_approved: bool,
    /// The business it belongs to (None until the till knows its own).
    #[serde(skip)]
    pub(crate) owner: Option<business::OwnerId>,
    /// A customer's own check-in at the kiosk: never a cashier's repeat-visit question.
    #[serde(default)]
    pub kiosk: bool,
    /// Who made it.
    #[serde(default)]
    pub made_by: MadeBy,
}

for_the_ui! {
/// Who made a write.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MadeBy {
    /// A person on the till's roster, by the name they have now.
    Person {
        /// Who.
        id: crate::ids::PersonId,
        /// Their name.
        name: String,
    },
    /// A customer at the kiosk.
    Kiosk,
    /// Made before the till had staff seats: the till, nobody in particular.
    #[default]
    BeforeStaffSeats,
}
}

impl MadeBy {
    /// In a sentence or a cell: the person's name, "kiosk", or "before staff seats".
    pub fn name(&self) -> &str {
        match self {
            MadeBy::Person { name, .. } => name,
            MadeBy::Kiosk => "kiosk",
            MadeBy::BeforeStaffSeats => "before staff seats",
        }
    }
}

impl OutboxItem {
    /// A visit the service refused as too recent, that nobody has resolved yet: the
    /// one kind of item a cashier may confirm as a repeat visit.
    pub fn is_unresolved_recent_visit(&self) -> bool {
        matches!(
            self.write,
            Write::Scan {
                action: loyalty_api::ScanAction::Visit,
                ..
            }
        ) && !self.kiosk
            && matches!(self.state, ItemState::Refused | ItemState::NeedsDecision)
            && self.resolution.is_none()
            && self
                .refusal
                .as_ref()
                .is_some_and(|r| r.code == loyalty_api::ErrorCode::RecentVisit)
    }

    /// Whether a person may send it again: it needs a decision, and sending it again
    /// under its key can change something.
    pub fn may_be_sent_again(&self) -> bool {
        self.state == ItemState::NeedsDecision
            && self
                .reason
                .as_ref()
                .is_some_and(DecisionReason::can_send_again)
    }

    /// Whether a person may withdraw it now: it needs a decision, or it is queued and
    /// no attempt of it may have reached the service. (The store checks the same in
    /// the statement that closes it; this is for the screens.)
    pub fn may_be_discarded(&self) -> bool {
        self.resolution.is_none()
            && match self.state {
                ItemState::NeedsDecision => true,
                ItemState::Queued => self.may_have_arrived_at.is_none(),
                _ => false,
            }
    }
}

impl std::fmt::Debug for OutboxItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutboxItem")
            .field("id", &self.id)
            .field("state", &self.state)
            .field("write", &self.write)
            .field("idempotency_key", &self.idempotency_key)
            .field("body_len", &self.body.len())
            .field("created_at", &self.created_at)
            .field("attempts", &self.attempts)
            .field("last_attempt_at", &self.last_attempt_at)
            .field("may_have_arrived_at", &self.may_have_arrived_at)
            .field("answer", &self.answer)
            .field("replayed", &self.replayed)
            .field("request_id", &self.request_id)
            .field("refusal", &self.refusal)
            .field("reason", &self.reason)
            .field("last_error", &self.last_error)
            .field("closed_at", &self.closed_at)
            .field("resolution", &self.resolution)
            .field("replaces", &self.replaces)
            .field("arrived_key", &self.arrived_key)
            .field("arrived_service_at", &self.arrived_service_at)
            .field("resend_approved", &self.resend_approved)
            .field("owner", &self.owner)
            .field("kiosk", &self.kiosk)
            .finish()
    }
}

for_the_ui! {
/// Why a person must decide what becomes of a write. Stored as JSON; the screens put
/// it in the cashier's language (times as RFC 3339 text), and `Display` gives it in
/// English for logs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DecisionReason {
    /// It may have reached the service at `first_attempt_at`, more than `hours` ago;
    /// the service forgets a key after 24 hours, so a resend could record it twice.
    KeyMayBeForgotten {
        /// The start of the first attempt that may have arrived.
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        first_attempt_at: Timestamp,
        /// The till's limit, in hours.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        hours: i64,
    },
    /// The stored body differs from what this version would send under its key.
    BodyChanged,
    /// A queued visit was answered `recent_visit`.
    RecentVisit {
        /// The card's last visit, as the service gave it.
        #[cfg_attr(feature = "ts", ts(type = "string | null"))]
        last_visit_at: Option<Timestamp>,
    },
    /// The answer could not be read, so the service may have recorded the write.
    AnswerUnreadable {
        /// What went wrong, for the details.
        error: String,
    },
    /// It may have reached the service under another API key than the one connected
    /// now. The service remembers Idempotency-Keys per API key, so under this key it
    /// could be done a second time. It goes on by itself if that key is connected
    /// again; otherwise a person checks the card and sends it again or discards it.
    SentUnderAnotherKey {
        /// The start of the first attempt that may have arrived.
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        first_attempt_at: Timestamp,
    },
    /// The service says its Idempotency-Key was already used for a different request
    /// (422 `idempotency_key_reused`): a bug or a changed body. Sending it again would
    /// get the same answer; a person checks the card and discards it.
    IdempotencyKeyReused,
}
}

impl DecisionReason {
    /// Whether sending it again under its key can change anything: not for a visit the
    /// service already answered "too recent" (the answer would be replayed), nor for a
    /// body this version would not send.
    pub fn can_send_again(&self) -> bool {
        matches!(
            self,
            Self::KeyMayBeForgotten { .. }
                | Self::AnswerUnreadable { .. }
                | Self::SentUnderAnotherKey { .. }
        )
    }
}

impl std::fmt::Display for DecisionReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::KeyMayBeForgotten {
                first_attempt_at,
                hours,
            } => write!(
                f,
                "This write may have reached the service at {first_attempt_at}, more than \
                 {hours} hours ago. The service forgets a write's key after 24 hours, so \
                 sending it again could record it twice. Check the customer's card, then send \
                 it again or discard it."
            ),
            Self::BodyChanged => f.write_str(
                "This write's stored body no longer matches what this version would send.",
            ),
            Self::RecentVisit { last_visit_at } => {
                let when =
                    last_visit_at.map_or_else(|| "a moment ago".to_owned(), |t| t.to_string());
                write!(
                    f,
                    "The service says this card's last visit was at {when}, less than 15 \
                     minutes before. Record another visit, or discard this one."
                )
            }
            Self::AnswerUnreadable { error } => write!(
                f,
                "The service's answer could not be read ({error}); it may have recorded this \
                 write. Check the card, then send it again or discard it."
            ),
            Self::SentUnderAnotherKey { first_attempt_at } => write!(
                f,
                "This write may have reached the service at {first_attempt_at} under the API \
                 key connected then. Under the key connected now it could be recorded twice. \
                 Connect that key again, or check the card, then send it again or discard it."
            ),
            Self::IdempotencyKeyReused => f.write_str(
                "The service says this write's Idempotency-Key was already used for a \
                 different request. Check the card, then discard it.",
            ),
        }
    }
}

/// What a person decided about a write, kept with it. Stored as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Resolution {
    /// Withdrawn by a person, with their note (possibly empty).
    Discarded {
        /// What they wrote.
        note: String,
    },
    /// A refused visit the cashier confirmed as a repeat visit: the new write.
    RepeatConfirmed {
        /// The write sent in its place.
        replacement: ItemId,
    },
}

impl std::fmt::Display for Resolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Discarded { note } if note.is_empty() => f.write_str("discarded"),
            Self::Discarded { note } => write!(f, "discarded: {note}"),
            Self::RepeatConfirmed { replacement } => {
                write!(f, "repeat visit confirmed as {replacement}")
            }
        }
    }
}

/// How many items wait, and how many need a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct QueueCounts {
    /// Queued or sending.
    pub queued: u32,
    /// Needing a decision.
    pub needs_decision: u32,
}

impl From<Refusal> for RefusalView {
    /// A stored refusal, with the status its code always has.
    fn from(r: Refusal) -> Self {
        Self::new(&r.code, r.code.status(), r.detail, r.request_id)
    }
}
