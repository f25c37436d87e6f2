//! The façade the Tauri shell holds: one open till.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jiff::Timestamp;
use loyalty_api::{
    ApiKey, CardId, Client, Currency, CustomerId, GiftCardId, KeyMode, Me, MinorUnits, PassId,
    ScanAction, Wallet,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;
use tokio::task::{AbortHandle, JoinHandle};

use crate::cache::{self, CachedGiftCard, CardLookup, CustomerSummary};
use crate::clock::Clock;
use crate::config::{AtRest, Config};
use crate::error::{Error, NotAllowed};
use crate::events::{Connectivity, Event};
use crate::ids::IdSource;
use crate::input::{self, TextField};
use crate::kinds::{Abilities, Scope};
use crate::learner::Learner;
use crate::lock::{LockError, OwnerLock};
use crate::offer::{CardActions, PaymentOffer};
use crate::outbox::business::{Business, OwnerId};
use crate::outbox::store::RepeatConfirmation;
use crate::outbox::{ItemId, ItemState, OutboxItem, QueueCounts, Write, store};
use crate::outcome::Outcome;
use crate::payment::{self, AmountError, OfflinePaymentPolicy};
use crate::roles::Action;
use crate::secrets::{KeptKey, KeyFingerprint, KeyStorage, KeyStore};
use crate::send::{self, Mode, Report};
use crate::settings::{self, KeptConnection, Settings};
use crate::shared::{Core, Sender};
use crate::sync::{self, SyncReport};
use crate::trouble::Trouble;
use crate::views::{
    Answer, BroadcastPreviewView, BroadcastView, CustomerView, GiftCardView, IssuedGiftCardView,
    LedgerEntryView, PassView, PaymentView, ScanResultView,
};

mod browse;
mod camera;
mod connection;
mod customer_screen;
mod customers;
mod figures;
mod kiosk;
mod messages;
mod payments;
mod places;
mod printing;
mod queue;
mod retention;
mod roster;
mod samples;
mod scans;
mod seat;
mod shift_check;
mod shifts;
mod unusual;
mod updates;

pub use crate::config::MANAGER_IDLE;
pub use crate::customer_display::{CustomerDisplay, CustomerScreen};
pub use crate::error::CameraError;
pub use crate::views::Progress;
pub use browse::{BrowsePage, BrowseQuery, BrowseRow};
pub use connection::ConnectGate;
pub use customers::{EnrolOutcome, Enrolment};
pub use figures::{Figure, FigureName, Figures, FiguresPeriod, MAX_FIGURE_DAYS};
pub use kiosk::{CheckIn, KioskStart};
pub use messages::{
    BroadcastDraft, MessageAudience, MessageDraft, MessagePreview, ScheduledMessage, ScheduledState,
};
pub use payments::GiftCardRead;
pub use payments::{
    Balance, GiftCardIssue, InsufficientBalance, IssueChoices, IssuedCard, PaymentOutcome,
};
pub use places::{Place, TillPlaces};
pub use queue::ItemChoices;
pub use roster::BadgeMade;
pub use samples::{SampleCard, SampleCardKind, SampleGiftCard, SampleGiftKind, Samples};
pub use scans::{CardOffer, FreshCard, RepeatVisit, ScanFound, ScanOutcome};
pub use seat::{Credential, PinFor, SeatView};
pub use shifts::{ShiftStatus, ShiftView, XReport, ZSummary, ZView};
pub use unusual::{MAX_UNUSUAL_SCANS, UnusualActivity, UnusualCard};
pub use updates::RestartHold;

/// What the key is, as the UI shows it after connecting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connection {
    /// The business's name.
    pub business_name: String,
    /// Whether it is a test key (the UI shows a TEST banner).
    pub test_mode: bool,
    /// The key's scopes: what it may not do is not offered.
    pub scopes: Vec<Scope>,
    /// Where the key is kept (the UI shows the file warning).
    pub key_storage: KeyStorage,
    /// The business's id (None when kept by a version that did not record it, until
    /// the service is asked again).
    pub business_id: Option<String>,
}

/// One open till: its outbox, cache, settings and connection.
#[derive(Debug)]
pub struct Counter {
    core: Arc<Core>,
    keys: KeyStore,
    tasks: Vec<JoinHandle<()>>,
    /// Cashiers' attempts that outlived their wait: stopped with the counter.
    attempts: Mutex<Vec<AbortHandle>>,
    /// The key in use, as the service last described it.
    kept: std::sync::Mutex<Option<Connection>>,
    /// Why the kept key could not be read when the till opened, until a key is given or
    /// forgotten: read once, not from the keychain at every question.
    unreadable_key: std::sync::Mutex<Option<Trouble>>,
    /// Who is at the till, and what a manager approved (see `seat.rs`).
    presence: std::sync::Mutex<seat::Presence>,
    /// The till is a kiosk now: the core answers only what a kiosk does.
    kiosk_on: AtomicBool,
    /// Messages previewed in this run, by the number the screen holds, with their
    /// tokens (which never leave the core): sent only exactly as previewed.
    previews: std::sync::Mutex<messages::Previews>,
    /// The passes read from the service in this run: what a card counts towards
    /// (passes do not change during a shift; the cache has those of earlier runs).
    passes: Mutex<HashMap<PassId, PassView>>,
    /// What the customer's screen shows (see `customer_screen.rs`).
    customer_screen: Arc<Mutex<customer_screen::Shown>>,
    // Dropped last: the lock outlives the tasks' abort. None while another copy owns
    // the data and this one only reads it.
    lock: Option<OwnerLock>,
    data_dir: PathBuf,
}

impl Drop for Counter {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        for attempt in self
            .attempts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
        {
            attempt.abort();
        }
    }
}

fn outcome_state(core: &Core, id: ItemId) -> Result<OutboxItem, Error> {
    store::get(&core.db(), id)?.ok_or(Error::NoSuchItem)
}

fn not_a_recent_visit() -> Error {
    Error::NotAllowed(NotAllowed::NotARecentVisit)
}

/// One attempt of an item a cashier's call claimed; the claim ends with it.
async fn send_claimed(
    core: Arc<Core>,
    id: ItemId,
    waiting: Arc<AtomicBool>,
) -> Result<Report, Error> {
    let result = async {
        let Some(sender) = core.sender() else {
            return Ok(Report::default());
        };
        if !core.connectivity().may_call_service() || core.gate().is_some() {
            return Ok(Report::default());
        }
        let _sending = core.send_lock.lock().await;
        if !store::is_first_in_line(&core.db(), id)? || core.gate().is_some() {
            return Ok(Report::default());
        }
        Ok(send::send_item(&core, &sender, id, Mode::Interactive(waiting)).await?)
    }
    .await;
    core.unclaim(id);
    core.publish_item(id);
    result
}

impl Counter {
    /// Opens the till whose data lives in `data_dir` (created if missing): takes the
    /// single-owner lock, opens and migrates the database, starts the sender and the
    /// connectivity check, and reconnects with the kept key if there is one; the
    /// business the key was last accepted for is at once [`Counter::connection`].
    ///
    /// A key that cannot be read, damaged settings, or data another copy owns do not
    /// fail the open: the till opens without the key, with defaults, or only reading
    /// its queue, and [`Counter::troubles`] says what is wrong.
    ///
    /// Must be called inside a tokio runtime.
    pub async fn open(
        data_dir: &Path,
        config: Config,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdSource>,
    ) -> Result<Counter, Error> {
        crate::private::dir(data_dir).map_err(|source| LockError::Io {
            path: data_dir.to_owned(),
            source,
        })?;
        let database = data_dir.join("till.db");
        let keys = KeyStore::new(config.secrets.clone(), data_dir);
        // The database's key, read (or made) once by the owner: its connections each
        // need it.
        let (lock, db, sealing) = match OwnerLock::acquire(&data_dir.join("till.lock")) {
            Ok(lock) => {
                let sealing = match config.at_rest {
                    AtRest::Encrypted => Some(
                        keys.database_key(&database)
                            .map_err(crate::db::OpenError::from)?,
                    ),
                    AtRest::InClearForMeasures => None,
                };
                let db = crate::db::open_with(&database, sealing.as_ref())?;
                (Some(lock), db, sealing)
            }
            Err(LockError::AlreadyOwned(_)) => {
                tracing::warn!(dir = %data_dir.display(), "another copy owns the till; reading only");
                // The owner creates the file just after taking the lock: until then there
                // is nothing queued to show.
                let db = if database.exists() {
                    crate::db::open_till_read_only(&keys, &database)?
                } else {
                    let mut empty = rusqlite::Connection::open_in_memory()?;
                    crate::db::migrate(&mut empty)?;
                    empty
                };
                (None, db, None)
            }
            Err(error) => return Err(error.into()),
        };
        let reader = match (&lock, &sealing) {
            (Some(_), sealing) => Some(crate::db::open_read_only(&database, sealing.as_ref())?),
            (None, _) if database.exists() => {
                Some(crate::db::open_till_read_only(&keys, &database)?)
            }
            (None, _) => None,
        };
        let core = Arc::new(Core::new(db, reader, clock, ids, config));
        let mut counter = Counter {
            core: core.clone(),
            keys,
            tasks: Vec::new(),
            attempts: Mutex::new(Vec::new()),
            kept: std::sync::Mutex::new(None),
            unreadable_key: std::sync::Mutex::new(None),
            presence: std::sync::Mutex::default(),
            kiosk_on: AtomicBool::new(false),
            previews: std::sync::Mutex::default(),
            passes: Mutex::new(HashMap::new()),
            customer_screen: Arc::default(),
            lock,
            data_dir: data_dir.to_owned(),
        };
        // The owner sends and checks; a reader must not become a second sender.
        if counter.lock.is_none() {
            return Ok(counter);
        }
        let loaded = settings::read(&core.db())?;
        let saved = loaded.settings;
        retention::forget_old_snapshots(&core, &database, &saved);
        let key = counter.keys.load_kept(&saved.key).unwrap_or_else(|error| {
            tracing::warn!(%error, "the kept key cannot be used; opening without it");
            *counter.unreadable_key() = Some(Trouble::of_key(&error));
            None
        });
        if !matches!(saved.key, KeptKey::Key { .. })
            && loaded.damaged.is_empty()
            && let Some((found, _)) = &key
        {
            // Kept by an earlier version, or put there since the last was forgotten:
            // from now on this key, and no other.
            counter.change_settings(|saved| saved.key = KeptKey::of(found))?;
        }
        if let Some(base_url) = saved.base_url
            && let Some((key, storage)) = key
            && let Some(unknown) = counter.reconnect(&base_url, key, storage, saved.connection)
        {
            counter.learn_connection(unknown).await;
        }
        counter.kiosk_on.store(counter.kiosk()?, Ordering::SeqCst);
        let checkpoints = crate::db::open_with(&database, sealing.as_ref())?;
        counter.tasks.extend([
            tokio::spawn(send::run_worker(core.clone())),
            tokio::spawn(printing::run_printer(core.clone())),
            tokio::spawn(retention::run_forgetter(core.clone())),
            tokio::spawn(shift_check::run_checker(core.clone())),
            tokio::spawn(run_prober(core)),
            tokio::spawn(run_checkpointer(checkpoints)),
        ]);
        Ok(counter)
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Option<Connection>> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn unreadable_key(&self) -> std::sync::MutexGuard<'_, Option<Trouble>> {
        self.unreadable_key
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Refuses what only the till's owner may do, while another copy owns it.
    fn owner(&self) -> Result<(), Error> {
        match self.lock {
            Some(_) => Ok(()),
            None => Err(LockError::AlreadyOwned(self.data_dir.clone()).into()),
        }
    }

    /// Stops the sender and the check, and waits until they have stopped. Dropping
    /// the counter does the same without waiting.
    pub async fn close(mut self) {
        let attempts =
            std::mem::take(&mut *self.attempts.lock().unwrap_or_else(|p| p.into_inner()));
        for attempt in attempts {
            attempt.abort();
        }
        for task in std::mem::take(&mut self.tasks) {
            task.abort();
            let _ = task.await;
        }
    }

    /// Sends with `client` from now on, the writes of `owner` (the key's business).
    /// Writes held because they may have reached the service under this very key go on.
    fn use_key(&self, client: Client, key: &ApiKey, owner: Option<OwnerId>) -> Result<(), Error> {
        let key = KeyFingerprint::of(key);
        let released = self.core.use_sender(Sender { client, key, owner })?;
        if released > 0 {
            tracing::info!(released, "writes held for this key go on");
        }
        Ok(())
    }

    /// Events: connectivity, queue counts, item changes, sync progress, clock skew.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.core.events.subscribe()
    }

    /// A client for `key`, whose every answer `learner` records.
    fn build_client(
        &self,
        base_url: &str,
        key: ApiKey,
        learner: Arc<Learner>,
    ) -> Result<Client, Error> {
        Ok(Client::builder(base_url, key)
            .timeout(self.core.config.request_timeout)
            .connect_timeout(self.core.config.connect_timeout)
            .observer(learner)
            .build()?)
    }

    /// Stores `write`, then sends it at once if the service is reachable and nothing
    /// for the same card waits before it. Returns the item and what the attempt learnt.
    async fn submit(
        &self,
        write: Write,
        replaces: Option<ItemId>,
    ) -> Result<(OutboxItem, Report), Error> {
        let core = &self.core;
        let author = self.author()?;
        let key = core.ids.idempotency_key();
        let id = core.enqueue_claimed(&write, &key, replaces, author)?;
        self.attend(id).await
    }

    /// Sends a claimed item for a cashier, who waits at most `interactive_wait`: past
    /// it the item shows as it stands (queued, or sending), the attempt goes on, and its
    /// answer reaches the card and the queue through events. A slow service never
    /// holds the counter.
    async fn attend(&self, id: ItemId) -> Result<(OutboxItem, Report), Error> {
        let core = self.core.clone();
        if core.sender().is_none()
            || !core.connectivity().may_call_service()
            || core.gate().is_some()
        {
            // Nothing would be sent now: the write waits for the worker.
            core.unclaim(id);
            let item = outcome_state(&core, id)?;
            core.publish_state(id, item.state);
            return Ok((item, Report::default()));
        }
        let waiting = Arc::new(AtomicBool::new(true));
        let mut attempt = tokio::spawn(send_claimed(core.clone(), id, waiting.clone()));
        {
            let mut attempts = self.attempts.lock().unwrap_or_else(|p| p.into_inner());
            attempts.retain(|a| !a.is_finished());
            attempts.push(attempt.abort_handle());
        }
        let report = match tokio::time::timeout(core.config.interactive_wait, &mut attempt).await {
            Ok(Ok(report)) => report?,
            Ok(Err(stopped)) => {
                tracing::error!(%stopped, %id, "a cashier's attempt stopped");
                Report::default()
            }
            Err(_) => {
                // From now on a late answer is the worker's to handle (a repeat visit
                // becomes a decision in the queue rather than a question to nobody).
                waiting.store(false, Ordering::SeqCst);
                Report::default()
            }
        };
        Ok((outcome_state(&core, id)?, report))
    }

    /// Submits `write` and answers what became of it, its answer read by `answer`.
    async fn write_outcome<T>(
        &self,
        write: Write,
        answer: impl FnOnce(Answer) -> Option<T>,
    ) -> Result<Outcome<T>, Error> {
        let (item, _) = self.submit(write, None).await?;
        Outcome::of(&item, answer, |_| None)
    }

    /// Whether the service may be asked something now: connected, answering, and no
    /// wait in force.
    fn may_ask_now(&self) -> bool {
        self.core.client().is_some()
            && self.core.connectivity().may_call_service()
            && self.core.gate().is_none()
    }

    /// The till's settings.
    pub fn settings(&self) -> Result<Settings, Error> {
        Ok(settings::load(&self.core.reader())?)
    }

    /// Saves the till's settings as they are (the base URL changes on the next
    /// `connect`): for a till's set-up; a manager's change goes through the methods
    /// that ask for them ([`Counter::set_offline_payments`]).
    pub fn save_settings(&self, settings: &Settings) -> Result<(), Error> {
        self.staff()?;
        Ok(settings::save(&self.core.db(), settings)?)
    }

    /// What the till allows while the service cannot be reached: a manager's decision.
    pub fn set_offline_payments(&self, policy: OfflinePaymentPolicy) -> Result<(), Error> {
        self.staff()?;
        self.owner()?;
        self.permit(Action::SaveOfflinePayments)?;
        self.change_settings(|saved| saved.offline_payments = policy)
    }

    /// The offline policy as the manager's form shows it, editing the usual currency's
    /// caps.
    pub fn offline_payments_form(&self) -> Result<payment::OfflinePolicyForm, Error> {
        self.staff()?;
        let policy = self.settings()?.offline_payments;
        Ok(payment::OfflinePolicyForm::of(
            &policy,
            &self.usual_currency()?,
        ))
    }

    /// Keeps the manager's form ([`payment::OfflinePolicyForm::apply_to`]: nothing
    /// changes when a currency or a cap is refused); answers the form as saved.
    pub fn save_offline_payments_form(
        &self,
        form: &payment::OfflinePolicyForm,
    ) -> Result<payment::OfflinePolicyForm, Error> {
        let (policy, currency) = form.apply_to(self.settings()?.offline_payments)?;
        self.set_offline_payments(policy.clone())?;
        Ok(payment::OfflinePolicyForm::of(&policy, &currency))
    }

    /// How large the till draws its screens, in per cent ([`crate::zoom`]).
    pub fn zoom(&self) -> Result<u16, Error> {
        Ok(crate::zoom::usable(self.settings()?.zoom_percent))
    }

    /// Zooms one step in or out, or back to normal size, and keeps it for the next
    /// start; answers the new level. Not at a kiosk (its size is the tablet's).
    pub fn change_zoom(&self, change: crate::zoom::ZoomChange) -> Result<u16, Error> {
        self.owner()?;
        self.staff()?;
        let level = crate::zoom::after(self.zoom()?, change);
        self.change_settings(|saved| saved.zoom_percent = Some(level))?;
        Ok(level)
    }

    /// Reads the settings, changes them and keeps them.
    fn change_settings(&self, change: impl FnOnce(&mut Settings)) -> Result<(), Error> {
        let mut saved = settings::load(&self.core.db())?;
        change(&mut saved);
        Ok(settings::save(&self.core.db(), &saved)?)
    }

    /// Where the till's data lives is given at open; this is the lock file, for messages.
    pub fn lock_path(&self) -> PathBuf {
        self.data_dir.join("till.lock")
    }
}

impl Connection {
    /// What the key may do at this till.
    pub fn may(&self) -> Abilities {
        Abilities::of(&self.scopes)
    }

    fn kept(known: KeptConnection, key_storage: KeyStorage) -> Self {
        Self {
            business_name: known.business_name,
            test_mode: known.test_mode,
            scopes: known.scopes,
            key_storage,
            business_id: known.business_id,
        }
    }

    /// What the settings keep of it for the next start.
    fn to_keep(&self) -> KeptConnection {
        KeptConnection {
            business_id: self.business_id.clone(),
            business_name: self.business_name.clone(),
            test_mode: self.test_mode,
            scopes: self.scopes.clone(),
        }
    }
}

/// Every few seconds, what the WAL holds copied into the till's file, on a connection of
/// its own and off the runtime's threads: the writes a cashier waits on never do it
/// (see [`crate::db::checkpoint`]).
async fn run_checkpointer(conn: rusqlite::Connection) {
    const EVERY: Duration = Duration::from_secs(5);
    let mut conn = Some(conn);
    loop {
        tokio::time::sleep(EVERY).await;
        let Some(taken) = conn.take() else { return };
        let done = tokio::task::spawn_blocking(move || {
            if let Err(error) = crate::db::checkpoint(&taken) {
                tracing::warn!(%error, "the till's file could not take in its WAL");
            }
            taken
        });
        match done.await {
            Ok(back) => conn = Some(back),
            Err(_) => return,
        }
    }
}

/// The light periodic check: GET /v1/me, at once when the counter opens (the outbox
/// needs the service's clock before it resends anything that may have arrived), then
/// often while offline, rarely while online.
async fn run_prober(core: Arc<Core>) {
    probe(&core).await;
    loop {
        // Often while offline; rarely while online or while the key is refused (repeated
        // refusals from one address are rate limited).
        let every = if matches!(
            core.connectivity(),
            Connectivity::Online | Connectivity::KeyRefused
        ) {
            core.config.probe_online
        } else {
            core.config.probe_offline
        };
        tokio::time::sleep(every).await;
        probe(&core).await;
    }
}

/// One GET /v1/me with the key in use. What the answer teaches, the client tells the
/// till; the business, when the till does not know it yet (a key kept by an earlier
/// version).
async fn probe(core: &Core) {
    let Some(sender) = core.sender() else {
        return;
    };
    if let Ok(me) = sender.client.me().await
        && sender.owner.is_none()
        && let Err(error) =
            connection::learn_business(core, &me.data, sender.client.base_url().as_str())
    {
        tracing::warn!(%error, "the business of the key in use could not be saved");
    }
}
