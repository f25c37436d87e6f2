//! The state the façade, the sender and the connectivity check share: the till's
//! database, the client the outbox sends with and the key it holds, the business the
//! till works for, and the events it publishes. The link to the service (connectivity,
//! the service-wide gate, its clock) is in [`link`]; the outbox's claims and each
//! item's backoff in [`claims`].

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use jiff::Timestamp;
use loyalty_api::Client;
use rusqlite::Connection;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::clock::Clock;
use crate::config::Config;
use crate::events::{Connectivity, Event, Events};
use crate::ids::IdSource;
use crate::outbox::business::OwnerId;
use crate::outbox::{ItemId, ItemState, store};
use crate::secrets::KeyFingerprint;

mod claims;
mod link;

pub(crate) use link::GateReason;
use link::Link;

/// The client the outbox sends with, which key it holds, and the business that key is
/// for (None until the service has said): only that business's writes go out with it.
#[derive(Debug, Clone)]
pub(crate) struct Sender {
    pub client: Client,
    pub key: KeyFingerprint,
    pub owner: Option<OwnerId>,
}

/// Shared by everything inside one open counter.
#[derive(Debug)]
pub(crate) struct Core {
    db: Mutex<Connection>,
    /// A second connection to the till's file, for the reads a cashier waits on (a
    /// scanned card, a search): WAL lets it read while the first commits, so they never
    /// wait behind a write's sync to the disk. None when there is no file to share (a
    /// till that only reads, before its owner made the file; the tests' memory).
    reader: Option<Mutex<Connection>>,
    pub clock: Arc<dyn Clock>,
    pub ids: Arc<dyn IdSource>,
    pub events: Events,
    pub config: Config,
    sender: RwLock<Option<Sender>>,
    /// The business the till works for (its last key's, kept after the key is
    /// forgotten): new writes are its. None before the till ever knew one.
    owner: Mutex<Option<OwnerId>>,
    link: Mutex<Link>,
    /// Items a cashier's call is sending itself; the worker leaves them alone.
    claimed: Mutex<HashSet<ItemId>>,
    /// Items that failed and wait before their next attempt (their own backoff, so
    /// one failing write never holds the writes of other cards).
    backoff: Mutex<HashMap<ItemId, Instant>>,
    /// Wakes the worker: a new item, the service back, "send now".
    pub wake: Notify,
    /// Only one request of the outbox is in flight at a time.
    pub send_lock: tokio::sync::Mutex<()>,
    /// Held while an item's state and the queue's counts are read and published.
    publishing: Mutex<()>,
    /// The receipt printer's task: its bell and the printer's last state.
    pub printer: crate::receipts::Printing,
}

impl Core {
    pub(crate) fn new(
        db: Connection,
        reader: Option<Connection>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdSource>,
        config: Config,
    ) -> Self {
        Self {
            db: Mutex::new(db),
            reader: reader.map(Mutex::new),
            clock,
            ids,
            events: Events::new(),
            config,
            sender: RwLock::new(None),
            owner: Mutex::new(None),
            link: Mutex::new(Link {
                connectivity: Connectivity::Unknown,
                gate: None,
                skew_beyond: None,
                service_time: None,
            }),
            claimed: Mutex::new(HashSet::new()),
            backoff: Mutex::new(HashMap::new()),
            wake: Notify::new(),
            send_lock: tokio::sync::Mutex::new(()),
            publishing: Mutex::new(()),
            printer: crate::receipts::Printing::new(),
        }
    }

    /// The database. Calls are short (one statement or one small transaction), so a
    /// plain mutex held across no `.await` is enough.
    pub(crate) fn db(&self) -> MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The database for reading only: what the last commit left, read beside a write
    /// in progress (the writer's connection when there is no second one).
    pub(crate) fn reader(&self) -> MutexGuard<'_, Connection> {
        match &self.reader {
            Some(reader) => reader.lock().unwrap_or_else(|p| p.into_inner()),
            None => self.db(),
        }
    }

    pub(crate) fn client(&self) -> Option<Client> {
        self.sender().map(|s| s.client)
    }

    /// The client with the fingerprint of its key.
    pub(crate) fn sender(&self) -> Option<Sender> {
        self.sender
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub(crate) fn set_sender(&self, sender: Option<Sender>) {
        *self.sender.write().unwrap_or_else(|p| p.into_inner()) = sender;
        self.wake.notify_one();
    }

    /// Sends with `sender` from now on, and lets the items held for its key go on, in
    /// one step under the sender's lock: a check of [`Core::hold_for_its_key`] sees the
    /// old key and its hold is released, or sees the new one. (Lock order: the sender,
    /// then the database.)
    ///
    /// A sender whose business is known makes the till that business's: the writes it
    /// stored before it knew any become that business's too.
    pub(crate) fn use_sender(&self, sender: Sender) -> rusqlite::Result<usize> {
        let mut current = self.sender.write().unwrap_or_else(|p| p.into_inner());
        let released = store::release_for_key(&self.db(), &sender.key)?;
        if let Some(owner) = sender.owner {
            self.belong_to(owner)?;
        }
        // A write waiting out a refusal of the last key (403 insufficient_scope) is tried
        // with this one at once.
        self.clear_backoff();
        *current = Some(sender);
        drop(current);
        self.wake.notify_one();
        Ok(released)
    }

    /// Runs `write` on the database while `key` stays the key in use (lock order: the
    /// sender, then the database): None, and nothing written, once another key or none
    /// is. What a walk read with a key never lands after that key was left.
    pub(crate) fn while_key_in_use<T>(
        &self,
        key: &KeyFingerprint,
        write: impl FnOnce(&mut Connection) -> T,
    ) -> Option<T> {
        let current = self.sender.read().unwrap_or_else(|p| p.into_inner());
        if !current.as_ref().is_some_and(|sender| &sender.key == key) {
            return None;
        }
        let written = write(&mut self.db());
        drop(current);
        Some(written)
    }

    /// The business the till works for now.
    pub(crate) fn owner(&self) -> Option<OwnerId> {
        *self.owner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The till works for `owner` from now on; writes stored without an owner are its.
    fn belong_to(&self, owner: OwnerId) -> rusqlite::Result<()> {
        let stamped = store::stamp_unowned(&self.db(), owner)?;
        if stamped > 0 {
            tracing::info!(
                stamped,
                "writes stored before the till knew its business are its"
            );
        }
        *self.owner.lock().unwrap_or_else(|p| p.into_inner()) = Some(owner);
        Ok(())
    }

    /// The service told which business the sender's key is for (a key kept by an
    /// earlier version, which did not record it): its writes may go out now.
    pub(crate) fn learn_owner(&self, owner: OwnerId) -> rusqlite::Result<()> {
        let mut current = self.sender.write().unwrap_or_else(|p| p.into_inner());
        self.belong_to(owner)?;
        if let Some(sender) = current.as_mut() {
            sender.owner.get_or_insert(owner);
        }
        drop(current);
        self.wake.notify_one();
        Ok(())
    }

    /// Holds `item`, which may have reached the service at `first`, when the key in use
    /// now is not the one it may have arrived under (or that key is not known): it
    /// needs a decision, or that key back. True when held.
    pub(crate) fn hold_for_its_key(
        &self,
        item: &crate::outbox::OutboxItem,
        first: Timestamp,
    ) -> rusqlite::Result<bool> {
        let current = self.sender.read().unwrap_or_else(|p| p.into_inner());
        let same = match (&item.arrived_key, current.as_ref()) {
            (Some(arrived), Some(sender)) => *arrived == sender.key,
            _ => false,
        };
        if same {
            return Ok(false);
        }
        let reason = crate::outbox::DecisionReason::SentUnderAnotherKey {
            first_attempt_at: first,
        };
        store::mark_needs_decision(&self.db(), item.id, &reason, None)?;
        Ok(true)
    }

    pub(crate) fn now(&self) -> Timestamp {
        self.clock.now()
    }

    pub(crate) fn uptime(&self) -> crate::clock::Uptime {
        self.clock.uptime()
    }

    /// Publishes an item's new state and the queue's counts.
    pub(crate) fn publish_item(&self, id: ItemId) {
        let _in_order = self.publishing.lock().unwrap_or_else(|p| p.into_inner());
        let state = store::state_of(&self.db(), id);
        if let Ok(Some(state)) = state {
            self.publish_read(id, state);
        }
    }

    /// [`Core::publish_item`] for an item whose state the caller has just read.
    pub(crate) fn publish_state(&self, id: ItemId, state: ItemState) {
        let _in_order = self.publishing.lock().unwrap_or_else(|p| p.into_inner());
        self.publish_read(id, state);
    }

    /// Publishes an item's state and the queue's counts, read now. The caller holds
    /// `publishing`: two threads that change the queue publish their counts in the
    /// order they read them, so the last count published is never an older one (the
    /// status bar once read "0 queued" while writes were still on their way).
    fn publish_read(&self, id: ItemId, state: ItemState) {
        self.events.publish(Event::ItemChanged { id, state });
        if let Ok(counts) = store::counts(&self.db()) {
            self.events.publish(Event::QueueCounts(counts));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use jiff::SignedDuration;
    use loyalty_api::RateLimit;

    use super::*;
    use crate::clock::ManualClock;
    use crate::ids::SequenceIds;

    fn core(clock: ManualClock) -> Core {
        Core::new(
            Connection::open_in_memory().unwrap(),
            None,
            Arc::new(clock),
            Arc::new(SequenceIds::new("t")),
            Config::default(),
        )
    }

    #[tokio::test]
    async fn a_wait_the_service_asked_for_is_not_shortened_by_backoff_or_by_coming_online() {
        let core = core(ManualClock::new(Timestamp::UNIX_EPOCH));
        core.set_gate(Duration::from_secs(30), GateReason::Service);
        core.set_gate(Duration::from_millis(100), GateReason::Backoff);
        assert_eq!(core.gate().unwrap().reason, GateReason::Service);
        core.lift_backoff();
        core.observe_answer(None, None);
        assert!(core.gate().is_some());
    }

    #[tokio::test]
    async fn our_own_backoff_ends_when_the_service_answers_again() {
        let core = core(ManualClock::new(Timestamp::UNIX_EPOCH));
        core.set_gate(Duration::from_secs(30), GateReason::Backoff);
        core.observe_answer(None, None);
        assert!(core.gate().is_none());
    }

    #[tokio::test]
    async fn a_used_up_rate_limit_holds_the_sender_until_the_window_resets() {
        let core = core(ManualClock::new(Timestamp::UNIX_EPOCH));
        let limit = RateLimit {
            states: vec![loyalty_api::RateLimitState {
                policy: "key".into(),
                remaining: 0,
                reset: Duration::from_secs(7),
            }],
            policies: vec![],
        };
        core.observe_answer(None, Some(&limit));
        let gate = core.gate().unwrap();
        assert_eq!(gate.reason, GateReason::Service);
        assert!(gate.until > core.clock.instant() + Duration::from_secs(6));
    }

    #[tokio::test]
    async fn an_absurd_retry_after_or_reset_is_capped_and_never_a_crash() {
        let core = core(ManualClock::new(Timestamp::UNIX_EPOCH));
        let cap = core.clock.instant() + core.config.max_service_wait + Duration::from_secs(1);
        core.set_gate(Duration::MAX, GateReason::Service);
        assert!(core.gate().unwrap().until <= cap);
        let limit = RateLimit {
            states: vec![loyalty_api::RateLimitState {
                policy: "key".into(),
                remaining: 0,
                reset: Duration::from_secs(u64::MAX),
            }],
            policies: vec![],
        };
        core.observe_answer(None, Some(&limit));
        assert!(core.gate().unwrap().until <= cap);
        core.back_off(ItemId(1), Duration::MAX);
        assert!(core.is_backing_off(ItemId(1)));
        assert!(core.next_backoff_end().unwrap() <= cap);
    }

    #[tokio::test]
    async fn one_item_backing_off_holds_no_other_and_send_now_ends_it() {
        let core = core(ManualClock::new(Timestamp::UNIX_EPOCH));
        core.back_off(ItemId(1), Duration::from_secs(60));
        assert!(core.is_backing_off(ItemId(1)));
        assert!(!core.is_backing_off(ItemId(2)));
        assert!(core.gate().is_none(), "no service-wide wait");
        core.lift_backoff();
        assert!(!core.is_backing_off(ItemId(1)));
    }

    #[tokio::test]
    async fn a_clock_more_than_two_minutes_off_the_service_is_a_warning() {
        let server: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let clock = ManualClock::new(server + SignedDuration::from_secs(119));
        let core = core(clock.clone());
        let mut events = core.events.subscribe();
        core.observe_answer(Some(server), None);
        assert!(!core.clock_warning());
        clock.set(server - SignedDuration::from_mins(3));
        core.observe_answer(Some(server), None);
        assert!(core.clock_warning());
        let mut saw = false;
        while let Ok(event) = events.try_recv() {
            if let Event::ClockSkew {
                skew_seconds,
                warning: true,
            } = event
            {
                assert_eq!(skew_seconds, -180);
                saw = true;
            }
        }
        assert!(saw);
    }
}
