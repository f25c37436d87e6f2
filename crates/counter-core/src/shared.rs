//! The state the façade, the sender and the connectivity check share.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use jiff::{SignedDuration, Timestamp};
use loyalty_api::{Client, Error as ApiError, RateLimit};
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

/// Why the sender is holding back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GateReason {
    /// Our own backoff after a failure: lifted as soon as the service answers again.
    Backoff,
    /// The service asked to wait (`Retry-After`), or the rate limit is used up (`r=0`):
    /// always honoured to the end.
    Service,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Gate {
    pub until: Instant,
    pub reason: GateReason,
}

#[derive(Debug)]
struct Link {
    connectivity: Connectivity,
    gate: Option<Gate>,
    /// Till minus service, in seconds, while beyond the allowed difference.
    skew_beyond: Option<i64>,
    /// The service's clock as last read (its `Date`), and when, on a clock that never
    /// jumps: the service's time now is that reading plus the time elapsed since.
    service_time: Option<(Timestamp, Instant)>,
}

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
}

impl Core {
    pub(crate) fn new(
        db: Connection,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdSource>,
        config: Config,
    ) -> Self {
        Self {
            db: Mutex::new(db),
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
        }
    }

    /// The database. Calls are short (one statement or one small transaction), so a
    /// plain mutex held across no `.await` is enough.
    pub(crate) fn db(&self) -> MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn link(&self) -> MutexGuard<'_, Link> {
        self.link.lock().unwrap_or_else(|p| p.into_inner())
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

    pub(crate) fn connectivity(&self) -> Connectivity {
        self.link().connectivity
    }

    pub(crate) fn gate(&self) -> Option<Gate> {
        let mut link = self.link();
        match link.gate {
            Some(gate) if gate.until > Instant::now() => Some(gate),
            Some(_) => {
                link.gate = None;
                None
            }
            None => None,
        }
    }

    /// Holds every write back for `wait`: only for what concerns the whole service (its
    /// rate limit, a 503 with `Retry-After`, no connection). A wait beyond
    /// `config.max_service_wait` (an absurd `Retry-After` or reset) is cut to it.
    pub(crate) fn set_gate(&self, wait: std::time::Duration, reason: GateReason) {
        let until = later(wait.min(self.config.max_service_wait));
        let mut link = self.link();
        // A longer wait the service asked for is never shortened by our own backoff.
        match link.gate {
            Some(g) if g.until >= until && g.reason == GateReason::Service => {}
            _ => link.gate = Some(Gate { until, reason }),
        }
    }

    /// Lifts our own backoff, the service-wide one and every item's (not a wait the
    /// service asked for): "send now".
    pub(crate) fn lift_backoff(&self) {
        let mut link = self.link();
        if link.gate.is_some_and(|g| g.reason == GateReason::Backoff) {
            link.gate = None;
        }
        drop(link);
        self.clear_backoff();
        self.wake.notify_one();
    }

    fn set_connectivity(&self, state: Connectivity) {
        let mut link = self.link();
        if link.connectivity == state {
            return;
        }
        link.connectivity = state;
        if state == Connectivity::Online
            && link.gate.is_some_and(|g| g.reason == GateReason::Backoff)
        {
            link.gate = None;
        }
        drop(link);
        tracing::info!(?state, "connectivity changed");
        self.events.publish(Event::Connectivity { state });
        if state == Connectivity::Online {
            self.wake.notify_one();
        }
    }

    /// An answer came back: the service is reachable; compare clocks; respect the limit.
    pub(crate) fn observe_answer(&self, date: Option<Timestamp>, rate_limit: Option<&RateLimit>) {
        self.set_connectivity(Connectivity::Online);
        match date {
            Some(server) => self.observe_server_time(server),
            // A service that sends no Date: the till's clock is the best reading left.
            None => {
                let mut link = self.link();
                if link.service_time.is_none() {
                    link.service_time = Some((self.now(), Instant::now()));
                }
            }
        }
        if let Some(limit) = rate_limit
            && let Some(spent) = limit
                .states
                .iter()
                .filter(|s| s.remaining == 0)
                .max_by_key(|s| s.reset)
        {
            self.set_gate(spent.reset, GateReason::Service);
        }
    }

    /// A request failed: offline when no answer came at all, key refused when the
    /// service refused the key itself.
    pub(crate) fn observe_failure(&self, err: &ApiError) {
        match err {
            ApiError::Transport(t) if t.status.is_none() => {
                self.set_connectivity(Connectivity::Offline)
            }
            ApiError::Problem(p) if p.code.refuses_the_key() => {
                self.set_connectivity(Connectivity::KeyRefused)
            }
            // An answer: the service is there. Only a success shows a refused key works.
            ApiError::Transport(_) | ApiError::Problem(_)
                if self.connectivity() != Connectivity::KeyRefused =>
            {
                self.set_connectivity(Connectivity::Online)
            }
            _ => {}
        }
    }

    fn observe_server_time(&self, server: Timestamp) {
        let till = self.now();
        let skew = till.duration_since(server);
        // The Date header has whole seconds: allow the limit plus that rounding.
        let warning = skew.abs() > self.config.max_clock_skew + SignedDuration::from_secs(1);
        let mut link = self.link();
        link.service_time = Some((server, Instant::now()));
        let before = link.skew_beyond;
        link.skew_beyond = warning.then_some(skew.as_secs());
        // Said when the warning starts or ends, and when the difference changes by a
        // minute while it lasts (the status bar shows minutes).
        let minutes = |s: Option<i64>| s.map(|s| s / 60);
        if before.is_some() != warning || minutes(before) != minutes(link.skew_beyond) {
            drop(link);
            tracing::warn!(
                skew_seconds = skew.as_secs(),
                warning,
                "till clock versus service"
            );
            self.events.publish(Event::ClockSkew {
                skew_seconds: skew.as_secs(),
                warning,
            });
        }
    }

    /// The service's time now, as far as the till can tell: its last `Date` plus the
    /// time elapsed since on a clock that never jumps. None until the service has
    /// answered once since the counter opened. The 23-hour rule is measured on it,
    /// because the service forgets Idempotency-Keys by its own clock, and the till's
    /// wall clock can be wrong or corrected at any moment.
    pub(crate) fn service_now(&self) -> Option<Timestamp> {
        let (read, at) = self.link().service_time?;
        let elapsed = SignedDuration::try_from(at.elapsed()).unwrap_or(SignedDuration::MAX);
        read.checked_add(elapsed).ok()
    }

    /// Holds one item back for `wait` after a failure of its own.
    pub(crate) fn back_off(&self, id: ItemId, wait: std::time::Duration) {
        let until = later(wait.min(self.config.max_service_wait));
        self.backoff
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, until);
    }

    /// Whether `id` is waiting out its own backoff.
    pub(crate) fn is_backing_off(&self, id: ItemId) -> bool {
        let mut backoff = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
        match backoff.get(&id) {
            Some(until) if *until > Instant::now() => true,
            Some(_) => {
                backoff.remove(&id);
                false
            }
            None => false,
        }
    }

    /// When the first item's own backoff ends, if any waits.
    pub(crate) fn next_backoff_end(&self) -> Option<Instant> {
        let mut backoff = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        backoff.retain(|_, until| *until > now);
        backoff.values().min().copied()
    }

    /// Ends every item's own backoff ("send now").
    fn clear_backoff(&self) {
        self.backoff
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    pub(crate) fn clock_warning(&self) -> bool {
        self.clock_skew().is_some()
    }

    pub(crate) fn clock_skew(&self) -> Option<i64> {
        self.link().skew_beyond
    }

    /// Stores a write and claims it for the caller in one step: the claim is taken
    /// before the row is visible, so the worker can never pick the item up first.
    pub(crate) fn enqueue_claimed(
        &self,
        write: &crate::outbox::Write,
        key: &loyalty_api::IdempotencyKey,
        replaces: Option<ItemId>,
    ) -> rusqlite::Result<ItemId> {
        let made = store::Made {
            owner: self.owner(),
            kiosk: false,
        };
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        let id = store::enqueue(&self.db(), write, key, self.now(), replaces, made)?;
        claimed.insert(id);
        Ok(id)
    }

    /// Stores a customer's check-in and claims it, unless one of the same card still
    /// waits ([`store::enqueue_check_in`]): None then.
    pub(crate) fn enqueue_check_in_claimed(
        &self,
        write: &crate::outbox::Write,
        key: &loyalty_api::IdempotencyKey,
    ) -> rusqlite::Result<Option<ItemId>> {
        let owner = self.owner();
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        let id = store::enqueue_check_in(&self.db(), write, key, self.now(), owner)?;
        claimed.extend(id);
        Ok(id)
    }

    /// Confirms a repeat visit ([`store::confirm_repeat`]) and claims a new
    /// replacement for the caller in the same step, as [`Core::enqueue_claimed`] does.
    pub(crate) fn confirm_repeat_claimed(
        &self,
        first: ItemId,
        replacement: &crate::outbox::Write,
        key: &loyalty_api::IdempotencyKey,
    ) -> rusqlite::Result<store::RepeatConfirmation> {
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        let found = store::confirm_repeat(&mut self.db(), first, replacement, key, self.now())?;
        if let store::RepeatConfirmation::Stored(id) = found {
            claimed.insert(id);
        }
        Ok(found)
    }

    /// Ends a cashier's claim on an item: from now on it is the worker's. Without a key
    /// the worker has nothing to send, and waking it would only cost a switch of threads
    /// on every write stored offline; the key's arrival wakes it, and it then finds this
    /// item unclaimed (the claim ends before the key is looked at).
    pub(crate) fn unclaim(&self, id: ItemId) {
        self.claimed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
        if self
            .sender
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
        {
            self.wake.notify_one();
        }
    }

    /// The items not to pick now: claimed by a cashier's call, or waiting out their own
    /// backoff. Read before the database is locked: taking these locks while holding
    /// the database would invert the order `enqueue_claimed` takes them in (claims,
    /// then database), and the two could wait for each other forever.
    pub(crate) fn not_ready(&self) -> HashSet<ItemId> {
        let mut ids: HashSet<ItemId> = self
            .claimed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let now = Instant::now();
        let backoff = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
        ids.extend(
            backoff
                .iter()
                .filter(|(_, until)| **until > now)
                .map(|(id, _)| *id),
        );
        ids
    }

    pub(crate) fn is_claimed(&self, id: ItemId) -> bool {
        self.claimed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&id)
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

/// `wait` from now, saturating rather than overflowing (a wait of years is only ever
/// asked for by a broken answer, and is capped before it gets here anyway).
fn later(wait: std::time::Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(wait)
        .unwrap_or_else(|| now + std::time::Duration::from_secs(86_400 * 365))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::clock::ManualClock;
    use crate::ids::SequenceIds;

    fn core(clock: ManualClock) -> Core {
        Core::new(
            Connection::open_in_memory().unwrap(),
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
        assert!(gate.until > Instant::now() + Duration::from_secs(6));
    }

    #[tokio::test]
    async fn an_absurd_retry_after_or_reset_is_capped_and_never_a_crash() {
        let core = core(ManualClock::new(Timestamp::UNIX_EPOCH));
        let cap = Instant::now() + core.config.max_service_wait + Duration::from_secs(1);
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
