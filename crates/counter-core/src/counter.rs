//! The façade the Tauri shell holds: one open till.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jiff::Timestamp;
use loyalty_api::{
    ApiKey, CardId, Client, Currency, GiftCardId, KeyMode, Me, MinorUnits, PassId, ScanAction,
    Scope, Wallet,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;
use tokio::task::{AbortHandle, JoinHandle};

use crate::cache::{self, CachedGiftCard, CardLookup, CustomerSummary};
use crate::clock::Clock;
use crate::config::Config;
use crate::core::{Core, Sender};
use crate::error::Error;
use crate::events::{Connectivity, Event};
use crate::ids::IdSource;
use crate::input::{self, TextField};
use crate::lock::{LockError, OwnerLock};
use crate::outbox::send::{self, Mode, Report};
use crate::outbox::store::RepeatConfirmation;
use crate::outbox::{
    DecisionReason, ItemId, ItemState, OutboxItem, QueueCounts, Refusal, Write, store,
};
use crate::payment::{self, AmountError};
use crate::secrets::{KeyFingerprint, KeyStorage, KeyStore};
use crate::settings::{self, KeptConnection, Settings};
use crate::sync::{self, SyncReport};
use crate::trouble::Trouble;
use crate::views::{
    Answer, BroadcastPreviewView, CustomerView, GiftCardView, LedgerEntryView, PassView,
    PaymentView, ScanResultView,
};

/// What the key is, as the UI shows it after connecting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connection {
    /// The business's name.
    pub business_name: String,
    /// Whether it is a test key (the UI shows a TEST banner).
    pub test_mode: bool,
    /// The key's scopes: what it may not do is not offered.
    pub scopes: Vec<String>,
    /// Where the key is kept (the UI shows the file warning).
    pub key_storage: KeyStorage,
}

/// The answer to `record_scan` and `confirm_repeat_visit`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum ScanOutcome {
    /// The service recorded it.
    Recorded {
        /// The outbox item.
        item: ItemId,
        /// The service's answer.
        result: ScanResultView,
    },
    /// Stored and queued: the service could not be reached now.
    Queued {
        /// The outbox item.
        item: ItemId,
        /// The card as the till knows it (provisional).
        known: Option<CardLookup>,
    },
    /// A visit less than 15 minutes after the last: the cashier chooses.
    NeedsConfirmation {
        /// The refused item (closed as refused).
        item: ItemId,
        /// When the last visit was.
        last_visit_at: Option<Timestamp>,
    },
    /// The service refused it.
    Refused {
        /// The outbox item.
        item: ItemId,
        /// Why.
        refusal: Refusal,
    },
    /// A person must decide (see the item's reason).
    NeedsDecision {
        /// The outbox item.
        item: ItemId,
        /// Why.
        reason: DecisionReason,
    },
}

/// A gift-card balance, for the "take exactly what is left" choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Balance {
    /// The amount.
    #[serde(with = "loyalty_api::decimal_string")]
    pub amount: Decimal,
    /// In minor units.
    pub amount_minor: MinorUnits,
    /// The currency.
    pub currency: Currency,
}

/// The answer to `take_payment`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum PaymentOutcome {
    /// The service took it.
    Paid {
        /// The outbox item.
        item: ItemId,
        /// The payment.
        payment: PaymentView,
    },
    /// Stored and queued (offline, within the manager's policy).
    Queued {
        /// The outbox item.
        item: ItemId,
        /// The amount queued.
        amount_minor: MinorUnits,
    },
    /// More than the card holds: nothing taken. Offer to take exactly `balance`.
    InsufficientBalance {
        /// The refused item.
        item: ItemId,
        /// What the card holds.
        balance: Option<Balance>,
    },
    /// The service refused it.
    Refused {
        /// The outbox item.
        item: ItemId,
        /// Why.
        refusal: Refusal,
    },
    /// A person must decide.
    NeedsDecision {
        /// The outbox item.
        item: ItemId,
        /// Why.
        reason: DecisionReason,
    },
}

/// The answer to an enrolment or a gift-card issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum WriteOutcome {
    /// The service did it; its answer.
    Done {
        /// The outbox item.
        item: ItemId,
        /// The answer.
        answer: Answer,
    },
    /// Stored and queued.
    Queued {
        /// The outbox item.
        item: ItemId,
    },
    /// The service refused it.
    Refused {
        /// The outbox item.
        item: ItemId,
        /// Why.
        refusal: Refusal,
    },
    /// A person must decide.
    NeedsDecision {
        /// The outbox item.
        item: ItemId,
        /// Why.
        reason: DecisionReason,
    },
}

/// A person enrolling a customer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enrolment {
    /// The pass (the till's pass setting when None).
    pub pass_id: Option<PassId>,
    /// Name.
    pub name: String,
    /// Email.
    pub email: String,
    /// apple or google.
    pub wallet: String,
    /// Send the welcome email.
    pub send_welcome: bool,
}

/// A gift card to issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GiftCardIssue {
    /// The amount, as typed.
    pub amount: String,
    /// The currency.
    pub currency: String,
    /// The email's language.
    pub locale: String,
    /// The recipient's name.
    pub recipient_name: String,
    /// The recipient's email.
    pub recipient_email: String,
}

/// What a fresh read of a card found ([`Counter::read_card`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FreshCard {
    /// The card as the service has it now (or with this till's queued writes pending).
    Found(Box<CardLookup>),
    /// The service has no such card: never enrolled here, or its customer was deleted.
    NoSuchCard,
    /// Not read: unreachable, key refused, a wait in force, or no first sync yet.
    NotChecked,
}

/// A message to card holders, as the manager writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BroadcastDraft {
    /// The pass whose card holders receive it.
    pub pass_id: PassId,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// Who receives it (`active`, ...).
    pub audience: String,
    /// When it goes out; now when None.
    pub scheduled_at: Option<Timestamp>,
    /// Targeting, passed through.
    pub targeting: Option<serde_json::Value>,
}

impl BroadcastDraft {
    fn to_api(&self) -> loyalty_api::BroadcastMessage {
        loyalty_api::BroadcastMessage {
            pass_id: self.pass_id.clone(),
            title: self.title.clone(),
            body: self.body.clone(),
            audience: loyalty_api::Audience::parse(&self.audience),
            scheduled_at: self.scheduled_at,
            targeting: self.targeting.clone(),
        }
    }
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

/// The service's refusal of a refused item. An item a person closed (discarded, or
/// replaced) has none: asked about again (a stale screen), it is said to be withdrawn.
fn refusal_of(item: &OutboxItem) -> Result<Refusal, Error> {
    item.refusal.clone().ok_or_else(|| {
        Error::NotAllowed("This write was withdrawn at the counter; the queue keeps it.".into())
    })
}

fn not_a_recent_visit() -> Error {
    Error::NotAllowed(
        "Only a visit refused as too recent can be confirmed as a repeat visit.".into(),
    )
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
        std::fs::create_dir_all(data_dir).map_err(|source| LockError::Io {
            path: data_dir.to_owned(),
            source,
        })?;
        let database = data_dir.join("till.db");
        let (lock, db) = match OwnerLock::acquire(&data_dir.join("till.lock")) {
            Ok(lock) => (Some(lock), crate::db::open(&database)?),
            Err(LockError::AlreadyOwned(_)) => {
                tracing::warn!(dir = %data_dir.display(), "another copy owns the till; reading only");
                // The owner creates the file just after taking the lock: until then there
                // is nothing queued to show.
                let db = if database.exists() {
                    crate::db::open_read_only(&database)?
                } else {
                    let mut empty = rusqlite::Connection::open_in_memory()?;
                    crate::db::migrate(&mut empty)?;
                    empty
                };
                (None, db)
            }
            Err(error) => return Err(error.into()),
        };
        let keys = KeyStore::new(config.secrets.clone(), data_dir);
        let core = Arc::new(Core::new(db, clock, ids, config));
        let mut counter = Counter {
            core: core.clone(),
            keys,
            tasks: Vec::new(),
            attempts: Mutex::new(Vec::new()),
            kept: std::sync::Mutex::new(None),
            lock,
            data_dir: data_dir.to_owned(),
        };
        // The owner sends and checks; a reader must not become a second sender.
        if counter.lock.is_none() {
            return Ok(counter);
        }
        let saved = settings::load(&core.db())?;
        if let Some(base_url) = saved.base_url
            && let Some(unknown) = counter.reconnect(&base_url, saved.connection)
        {
            counter.learn_connection(unknown).await;
        }
        counter
            .tasks
            .push(tokio::spawn(send::run_worker(core.clone())));
        counter.tasks.push(tokio::spawn(run_prober(core)));
        Ok(counter)
    }

    /// Uses the kept key again, if it can be read; what cannot is left to
    /// [`Counter::troubles`] and the till opens without a key. Answers where the key
    /// sits when the business it was accepted for is not known.
    fn reconnect(&self, base_url: &str, known: Option<KeptConnection>) -> Option<KeyStorage> {
        let (key, storage) = match self.keys.load() {
            Ok(Some(kept)) => kept,
            Ok(None) => return None,
            Err(error) => {
                tracing::warn!(%error, "the kept key cannot be used; opening without it");
                return None;
            }
        };
        let client = match self.build_client(base_url, key.clone()) {
            Ok(client) => client,
            Err(error) => {
                tracing::warn!(%error, "the kept base URL cannot be used; opening without a key");
                return None;
            }
        };
        if let KeyStorage::File { path, warning } = &storage {
            self.core.events.publish(Event::KeyStorageWarning {
                path: path.clone(),
                message: warning.clone(),
            });
        }
        // Writes an earlier version stored without recording keys went under this one.
        if let Err(error) = store::stamp_unrecorded_key(&self.core.db(), &KeyFingerprint::of(&key))
        {
            tracing::warn!(%error, "writes in flight could not be marked with their key");
        }
        if let Err(error) = self.use_key(client, &key) {
            tracing::warn!(%error, "the kept key could not be put to use");
            return None;
        }
        match known {
            Some(known) => {
                *self.kept() = Some(Connection::kept(known, storage));
                None
            }
            None => Some(storage),
        }
    }

    /// A key kept by an earlier version, which did not remember the business: the
    /// service is asked once, briefly, so that the upgrade does not ask for the key
    /// again. Unanswered in time, Connect asks (the key stays in use meanwhile).
    async fn learn_connection(&self, storage: KeyStorage) {
        let Some(client) = self.core.client() else {
            return;
        };
        let wait = self.core.config.connect_timeout.min(Duration::from_secs(3));
        let me = match tokio::time::timeout(wait, client.me()).await {
            Ok(Ok(me)) => me,
            Ok(Err(error)) => {
                self.core.observe_failure(&error);
                return;
            }
            Err(_) => return,
        };
        self.core.observe_answer(me.date, me.rate_limit.as_ref());
        let connection = connection_of(&me.data, storage);
        if let Err(error) = self.remember(&connection) {
            tracing::warn!(%error, "the business of the kept key could not be saved");
        }
        *self.kept() = Some(connection);
    }

    /// Keeps what the service said of the key in the settings, for the next start.
    fn remember(&self, connection: &Connection) -> Result<(), Error> {
        let db = self.core.db();
        let mut saved = settings::load(&db)?;
        saved.connection = Some(KeptConnection {
            business_name: connection.business_name.clone(),
            test_mode: connection.test_mode,
            scopes: connection.scopes.clone(),
        });
        Ok(settings::save(&db, &saved)?)
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Option<Connection>> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
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

    /// Sends with `client` from now on. Writes held because they may have reached the
    /// service under this very key go on.
    fn use_key(&self, client: Client, key: &ApiKey) -> Result<(), Error> {
        let key = KeyFingerprint::of(key);
        let released = self.core.use_sender(Sender { client, key })?;
        if released > 0 {
            tracing::info!(released, "writes held for this key go on");
        }
        Ok(())
    }

    /// Events: connectivity, queue counts, item changes, sync progress, clock skew.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.core.events.subscribe()
    }

    fn build_client(&self, base_url: &str, key: ApiKey) -> Result<Client, Error> {
        Ok(Client::builder(base_url, key)
            .timeout(self.core.config.request_timeout)
            .connect_timeout(self.core.config.connect_timeout)
            .build()?)
    }

    /// Checks `key` with GET /v1/me against `base_url`; only a key the service
    /// accepts is kept (keychain, else owner-only file) and used.
    pub async fn connect(&self, base_url: &str, key: &str) -> Result<Connection, Error> {
        self.owner()?;
        let key = ApiKey::new(key)?;
        let client = self.build_client(base_url, key.clone())?;
        let me = client.me().await.inspect_err(|e| {
            // A refused candidate says nothing about the key in use; no answer does.
            if !e
                .code()
                .is_some_and(loyalty_api::ErrorCode::refuses_the_key)
            {
                self.core.observe_failure(e);
            }
        })?;
        let storage = self.keys.save(&key)?;
        if let KeyStorage::File { path, warning } = &storage {
            self.core.events.publish(Event::KeyStorageWarning {
                path: path.clone(),
                message: warning.clone(),
            });
        }
        let connection = connection_of(&me.data, storage);
        let mut saved = settings::load(&self.core.db())?;
        saved.base_url = Some(client.base_url().as_str().to_owned());
        saved.connection = Some(KeptConnection {
            business_name: connection.business_name.clone(),
            test_mode: connection.test_mode,
            scopes: connection.scopes.clone(),
        });
        settings::save(&self.core.db(), &saved)?;
        // The new client first: the answer then wakes the sender, which must use it.
        self.use_key(client, &key)?;
        *self.kept() = Some(connection.clone());
        self.core.observe_answer(me.date, me.rate_limit.as_ref());
        Ok(connection)
    }

    /// Forgets the key (keychain and file) and the business it was for; queued writes
    /// stay queued.
    pub fn disconnect(&self) -> Result<(), Error> {
        self.owner()?;
        self.keys.delete()?;
        self.core.set_sender(None);
        *self.kept() = None;
        let mut saved = settings::load(&self.core.db())?;
        saved.connection = None;
        settings::save(&self.core.db(), &saved)?;
        Ok(())
    }

    /// The key this till uses, as the service last described it: after a restart, the
    /// business the kept key was accepted for, before the service is asked again. None
    /// when no key is kept (or it cannot be read: see [`Counter::troubles`]).
    pub fn connection(&self) -> Option<Connection> {
        self.kept().clone()
    }

    /// What is wrong with the till's own files, now: a key that cannot be read,
    /// damaged settings, or data another copy owns. Empty when all is well.
    pub fn troubles(&self) -> Result<Vec<Trouble>, Error> {
        if self.lock.is_none() {
            // The rest belongs to the copy that owns the till.
            return Ok(vec![Trouble::HeldElsewhere {
                path: self.data_dir.clone(),
            }]);
        }
        let mut troubles = Vec::new();
        let loaded = settings::read(&self.core.db())?;
        if !loaded.damaged.is_empty() {
            troubles.push(Trouble::SettingsDamaged {
                settings: loaded.damaged,
            });
        }
        if let Err(error) = self.keys.load() {
            troubles.push(Trouble::of_key(&error));
        }
        Ok(troubles)
    }

    /// Saves the settings as they can be read, each damaged one at its default: the
    /// remedy for [`Trouble::SettingsDamaged`].
    pub fn reset_damaged_settings(&self) -> Result<Settings, Error> {
        self.owner()?;
        let loaded = settings::read(&self.core.db())?;
        settings::save(&self.core.db(), &loaded.settings)?;
        Ok(loaded.settings)
    }

    /// Whether the service answers, as last seen.
    pub fn connectivity(&self) -> Connectivity {
        self.core.connectivity()
    }

    /// Whether the till's clock is off by more than the allowed difference.
    pub fn clock_warning(&self) -> bool {
        self.core.clock_warning()
    }

    /// Till minus service, in seconds, while the till's clock is off by more than the
    /// allowed difference.
    pub fn clock_skew(&self) -> Option<i64> {
        self.core.clock_skew()
    }

    /// Stores `write`, then sends it at once if the service is reachable and nothing
    /// for the same card waits before it. Returns the item and what the attempt learnt.
    async fn submit(
        &self,
        write: Write,
        replaces: Option<ItemId>,
    ) -> Result<(OutboxItem, Report), Error> {
        let core = &self.core;
        let key = core.ids.idempotency_key();
        let id = core.enqueue_claimed(&write, &key, replaces)?;
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
            core.publish_item(id);
            return Ok((outcome_state(&core, id)?, Report::default()));
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

    /// Records a scan: `Visit` (amount None), `Points` (amount = points, negative to
    /// deduct) or `Redeem`.
    pub async fn record_scan(
        &self,
        card: CardId,
        action: ScanAction,
        amount: Option<Decimal>,
    ) -> Result<ScanOutcome, Error> {
        input::card(&card)?;
        input::points(&action, amount)?;
        self.scan(card, action, amount, false, None).await
    }

    async fn scan(
        &self,
        card: CardId,
        action: ScanAction,
        amount: Option<Decimal>,
        confirm_repeat: bool,
        replaces: Option<ItemId>,
    ) -> Result<ScanOutcome, Error> {
        let write = Write::Scan {
            card_id: card.clone(),
            action,
            amount,
            confirm_repeat,
        };
        let (item, report) = self.submit(write, replaces).await?;
        self.scan_outcome(item, report, &card)
    }

    fn scan_outcome(
        &self,
        item: OutboxItem,
        report: Report,
        card: &CardId,
    ) -> Result<ScanOutcome, Error> {
        Ok(match item.state {
            ItemState::Done => match item.answer {
                Some(Answer::ScanResult(result)) => ScanOutcome::Recorded {
                    item: item.id,
                    result,
                },
                _ => unreachable!("a done scan stores a scan result"),
            },
            ItemState::Refused => {
                let refusal = refusal_of(&item)?;
                if refusal.code == loyalty_api::ErrorCode::RecentVisit.as_str() {
                    ScanOutcome::NeedsConfirmation {
                        item: item.id,
                        last_visit_at: report.last_visit_at,
                    }
                } else {
                    ScanOutcome::Refused {
                        item: item.id,
                        refusal,
                    }
                }
            }
            ItemState::NeedsDecision => ScanOutcome::NeedsDecision {
                item: item.id,
                reason: item
                    .reason
                    .expect("an item that needs a decision keeps its reason"),
            },
            ItemState::Queued | ItemState::Sending => ScanOutcome::Queued {
                item: item.id,
                known: cache::lookup_card(&self.core.db(), card)?,
            },
        })
    }

    /// The cashier confirms a repeat visit: a new write with `confirm_repeat: true`
    /// and a new key (the first key's answer is already stored by the service). The
    /// replacement is stored and the first item closed (naming it) in one transaction,
    /// so a second confirmation (a double click, two screens, a restart in between)
    /// stores nothing and answers with the replacement as it stands: one extra visit.
    pub async fn confirm_repeat_visit(&self, item: ItemId) -> Result<ScanOutcome, Error> {
        let core = &self.core;
        let first = outcome_state(core, item)?;
        let Write::Scan { card_id, .. } = &first.write else {
            return Err(not_a_recent_visit());
        };
        let card = card_id.clone();
        let write = Write::Scan {
            card_id: card.clone(),
            action: ScanAction::Visit,
            amount: None,
            confirm_repeat: true,
        };
        let key = core.ids.idempotency_key();
        let confirmation = core.confirm_repeat_claimed(item, &write, &key)?;
        core.publish_item(item);
        let (replacement, report) = match confirmation {
            RepeatConfirmation::Stored(replacement) => self.attend(replacement).await?,
            RepeatConfirmation::AlreadyConfirmed(replacement) => {
                (outcome_state(core, replacement)?, Report::default())
            }
            RepeatConfirmation::NotARecentVisit => return Err(not_a_recent_visit()),
        };
        self.scan_outcome(replacement, report, &card)
    }

    /// A cashier's decision on an item that needs one, or on a queued item that can
    /// safely be withdrawn: it is closed as refused and kept, with `note`. Checked and
    /// closed in one statement, so an item the sender has started sending is never
    /// withdrawn.
    pub fn discard(&self, item: ItemId, note: &str) -> Result<OutboxItem, Error> {
        let note = input::text(TextField::Note, note, 500, false)?.unwrap_or_default();
        outcome_state(&self.core, item)?;
        let closed = !self.core.is_claimed(item)
            && store::discard(&self.core.db(), item, &note, self.core.now())?;
        if !closed {
            return Err(Error::NotAllowed(
                "This item may already have reached the service; it cannot be withdrawn.".into(),
            ));
        }
        self.core.publish_item(item);
        outcome_state(&self.core, item)
    }

    /// Sends an item that needs a decision again, with its own key (the person
    /// checked that it did not reach the service, or accepts the replay). The moment
    /// of its first attempt that may have arrived stays as it was.
    pub fn retry_item(&self, item: ItemId) -> Result<(), Error> {
        let found = outcome_state(&self.core, item)?;
        if found.state != ItemState::NeedsDecision {
            return Err(Error::NotAllowed(
                "Only an item that needs a decision can be sent again.".into(),
            ));
        }
        if !found
            .reason
            .as_ref()
            .is_some_and(DecisionReason::can_send_again)
        {
            return Err(Error::NotAllowed(
                "Sending this again would get the same answer: record another visit, or \
                 discard it."
                    .into(),
            ));
        }
        if !store::approve_resend(&self.core.db(), item)? {
            return Err(Error::NotAllowed(
                "Only an item that needs a decision can be sent again.".into(),
            ));
        }
        self.core.publish_item(item);
        self.send_now();
        Ok(())
    }

    /// Takes a payment from a gift card; `amount` as typed, in the card's currency.
    pub async fn take_payment(
        &self,
        gift_card: GiftCardId,
        amount: &str,
        reference: Option<String>,
    ) -> Result<PaymentOutcome, Error> {
        let core = &self.core;
        input::gift_card(&gift_card)?;
        // A fresh balance when the service answers; the cached one otherwise.
        let mut online = false;
        if let Some(client) = core.client()
            && core.connectivity().may_call_service()
        {
            // Read within the cashier's wait; past it the till goes on as if offline
            // (the cached balance and the manager's policy decide).
            let read = tokio::time::timeout(
                core.config.interactive_wait,
                client.gift_cards().get(&gift_card),
            )
            .await;
            match read {
                Err(_) => tracing::info!("the gift card's balance was not read in time"),
                Ok(Ok(read)) => {
                    core.observe_answer(read.date, read.rate_limit.as_ref());
                    cache::put_gift_card(
                        &core.db(),
                        &GiftCardView::from(&read.gift_card),
                        core.now(),
                    )?;
                    online = true;
                }
                Ok(Err(err)) if err.problem().is_some() => {
                    core.observe_failure(&err);
                    return Err(err.into());
                }
                Ok(Err(err)) => core.observe_failure(&err),
            }
        }
        let cached: CachedGiftCard =
            cache::gift_card(&core.db(), &gift_card)?.ok_or(Error::GiftCardUnknown)?;
        let currency = cached.gift_card.currency.clone();
        let minor = payment::parse_amount(amount, &currency)?;
        let reference = payment::reference(reference.as_deref())?;
        let typed = payment::to_decimal(minor, &currency);
        // Every payment that is or may become money taken from this card counts: queued,
        // being sent, or waiting for a person (it may have arrived).
        let queued_here: i64 = self.payments_at_risk(|g| g == &gift_card, &currency)?;
        let available = payment::to_minor(cached.gift_card.balance, &currency)
            .map(|b| b.get() - queued_here)
            .unwrap_or(0);
        if minor.get() > available {
            return Err(AmountError::OverBalance {
                amount: typed.to_string(),
                available: payment::to_decimal(MinorUnits(available.max(0)), &currency).to_string(),
                currency: currency.to_string(),
            }
            .into());
        }
        if !online {
            let policy = settings::load(&core.db())?.offline_payments;
            let queued_total = self.payments_at_risk(|_| true, &currency)?;
            policy.check(
                typed,
                &currency,
                payment::to_decimal(MinorUnits(queued_total), &currency),
                cached.read_at,
                core.now(),
            )?;
        }
        let write = Write::Payment {
            gift_card_id: gift_card,
            amount_minor: minor,
            currency,
            reference,
        };
        let (item, report) = self.submit(write, None).await?;
        Ok(match item.state {
            ItemState::Done => match item.answer {
                Some(Answer::GiftCardPayment(payment)) => PaymentOutcome::Paid {
                    item: item.id,
                    payment,
                },
                _ => unreachable!("a done payment stores a payment"),
            },
            ItemState::Refused => {
                let refusal = refusal_of(&item)?;
                if refusal.code == loyalty_api::ErrorCode::InsufficientBalance.as_str() {
                    PaymentOutcome::InsufficientBalance {
                        item: item.id,
                        balance: report.balance.map(|b| Balance {
                            amount: b.amount,
                            amount_minor: b.amount_minor,
                            currency: b.currency,
                        }),
                    }
                } else {
                    PaymentOutcome::Refused {
                        item: item.id,
                        refusal,
                    }
                }
            }
            ItemState::NeedsDecision => PaymentOutcome::NeedsDecision {
                item: item.id,
                reason: item
                    .reason
                    .expect("an item that needs a decision keeps its reason"),
            },
            ItemState::Queued | ItemState::Sending => PaymentOutcome::Queued {
                item: item.id,
                amount_minor: minor,
            },
        })
    }

    /// Minor units of payments at risk (queued, sending, needing a decision) in
    /// `currency` whose gift card passes `which`.
    fn payments_at_risk(
        &self,
        which: impl Fn(&GiftCardId) -> bool,
        currency: &Currency,
    ) -> Result<i64, Error> {
        Ok(store::payments_at_risk(&self.core.db())?
            .iter()
            .filter_map(|item| match &item.write {
                Write::Payment {
                    gift_card_id,
                    amount_minor,
                    currency: c,
                    ..
                } if which(gift_card_id) && c == currency => Some(amount_minor.get()),
                _ => None,
            })
            .sum())
    }

    /// Reads a gift card from the service into the cache (its balance read now).
    pub async fn refresh_gift_card(&self, id: &GiftCardId) -> Result<CachedGiftCard, Error> {
        Ok(self.read_gift_card(id).await?.0)
    }

    /// [`Counter::refresh_gift_card`], with the card's recent ledger (newest first) as
    /// the service shows it.
    pub async fn read_gift_card(
        &self,
        id: &GiftCardId,
    ) -> Result<(CachedGiftCard, Vec<LedgerEntryView>), Error> {
        input::gift_card(id)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let read = client
            .gift_cards()
            .get(id)
            .await
            .inspect_err(|e| self.core.observe_failure(e))?;
        self.core
            .observe_answer(read.date, read.rate_limit.as_ref());
        let view = GiftCardView::from(&read.gift_card);
        cache::put_gift_card(&self.core.db(), &view, self.core.now())?;
        let ledger = read
            .transactions
            .iter()
            .map(LedgerEntryView::from)
            .collect();
        Ok((
            CachedGiftCard {
                gift_card: view,
                read_at: self.core.now(),
            },
            ledger,
        ))
    }

    /// The business's active passes (the first page, up to 100: the ones to enrol on).
    pub async fn passes(&self) -> Result<Vec<PassView>, Error> {
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let params = loyalty_api::ListParams {
            limit: Some(100),
            cursor: None,
        };
        let read = client
            .passes()
            .list(&params)
            .await
            .inspect_err(|e| self.core.observe_failure(e))?;
        self.core
            .observe_answer(read.date, read.rate_limit.as_ref());
        Ok(read
            .data
            .data
            .iter()
            .filter(|p| p.status.as_str() == "active")
            .map(PassView::from)
            .collect())
    }

    /// A pass (its goal and reward), read from the service now.
    pub async fn pass(&self, id: &PassId) -> Result<PassView, Error> {
        input::pass(id)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let read = client
            .passes()
            .get(id)
            .await
            .inspect_err(|e| self.core.observe_failure(e))?;
        self.core
            .observe_answer(read.date, read.rate_limit.as_ref());
        Ok(PassView::from(&read.data))
    }

    /// The currency whose offline caps a manager most likely sets: the one most of the
    /// gift cards read at this till are in, else the first with caps, else EUR.
    pub fn usual_currency(&self) -> Result<Currency, Error> {
        let read = cache::usual_currency(&self.core.db())?.and_then(|c| Currency::new(&c).ok());
        let capped = || {
            settings::load(&self.core.db())
                .ok()
                .and_then(|s| s.offline_payments.caps.first().map(|c| c.currency.clone()))
        };
        Ok(read
            .or_else(capped)
            .unwrap_or_else(|| Currency::new("EUR").expect("EUR is a currency")))
    }

    /// A cached gift card.
    pub fn gift_card(&self, id: &GiftCardId) -> Result<Option<CachedGiftCard>, Error> {
        Ok(cache::gift_card(&self.core.db(), id)?)
    }

    /// Enrols a customer.
    pub async fn enrol(&self, enrolment: Enrolment) -> Result<WriteOutcome, Error> {
        let pass_id = match enrolment.pass_id {
            Some(pass) => pass,
            None => settings::load(&self.core.db())?.pass_id.ok_or_else(|| {
                Error::NotAllowed("Choose the pass to enrol customers on.".into())
            })?,
        };
        input::pass(&pass_id)?;
        let wallet = Wallet::parse(&enrolment.wallet);
        if !matches!(wallet, Wallet::Apple | Wallet::Google) {
            return Err(input::InputError::UnknownWallet {
                given: enrolment.wallet.chars().take(64).collect(),
            }
            .into());
        }
        let write = Write::Enrol {
            pass_id,
            name: input::text(TextField::Name, &enrolment.name, 200, true)?.unwrap_or_default(),
            email: input::email(&enrolment.email)?,
            wallet,
            send_welcome: enrolment.send_welcome,
        };
        self.write_outcome(write).await
    }

    /// Issues a gift card.
    pub async fn issue_gift_card(&self, issue: GiftCardIssue) -> Result<WriteOutcome, Error> {
        let currency =
            Currency::new(&issue.currency).map_err(|e| Error::NotAllowed(e.to_string()))?;
        let minor = payment::parse_amount(&issue.amount, &currency)?;
        let write = Write::IssueGiftCard {
            amount: payment::to_decimal(minor, &currency),
            currency,
            locale: input::locale(&issue.locale)?,
            recipient_name: input::text(TextField::Name, &issue.recipient_name, 200, true)?
                .unwrap_or_default(),
            recipient_email: input::email(&issue.recipient_email)?,
        };
        self.write_outcome(write).await
    }

    /// Previews a message to card holders (sends nothing, stores nothing): the
    /// manager reads the recipients and quota, then confirms.
    pub async fn preview_broadcast(
        &self,
        message: &BroadcastDraft,
    ) -> Result<BroadcastPreviewView, Error> {
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let key = self.core.ids.idempotency_key();
        let preview = client
            .broadcasts()
            .preview(&key, &message.to_api())
            .await
            .inspect_err(|e| self.core.observe_failure(e))?;
        self.core
            .observe_answer(preview.date, preview.rate_limit.as_ref());
        Ok(BroadcastPreviewView::from(&preview.data))
    }

    /// Confirms a previewed message through the outbox (sent once, whatever happens).
    pub async fn confirm_broadcast(
        &self,
        message: BroadcastDraft,
        confirmation_token: &str,
    ) -> Result<WriteOutcome, Error> {
        let write = Write::ConfirmBroadcast {
            pass_id: message.pass_id,
            title: message.title,
            body: message.body,
            audience: message.audience,
            scheduled_at: message.scheduled_at,
            targeting: message.targeting,
            confirmation_token: loyalty_api::ConfirmationToken::new(confirmation_token),
        };
        self.write_outcome(write).await
    }

    async fn write_outcome(&self, write: Write) -> Result<WriteOutcome, Error> {
        let (item, _) = self.submit(write, None).await?;
        Ok(match item.state {
            ItemState::Done => WriteOutcome::Done {
                item: item.id,
                answer: item.answer.expect("a done item keeps its answer"),
            },
            ItemState::Refused => WriteOutcome::Refused {
                item: item.id,
                refusal: refusal_of(&item)?,
            },
            ItemState::NeedsDecision => WriteOutcome::NeedsDecision {
                item: item.id,
                reason: item
                    .reason
                    .expect("an item that needs a decision keeps its reason"),
            },
            ItemState::Queued | ItemState::Sending => WriteOutcome::Queued { item: item.id },
        })
    }

    /// The queue: with `open_only`, what is queued, sending or needs a decision;
    /// else everything, newest first, at most `limit`.
    pub fn queue(&self, open_only: bool, limit: u32) -> Result<Vec<OutboxItem>, Error> {
        Ok(store::list(&self.core.db(), open_only, limit)?)
    }

    /// One item.
    pub fn item(&self, id: ItemId) -> Result<OutboxItem, Error> {
        outcome_state(&self.core, id)
    }

    /// The queue's counts.
    pub fn counts(&self) -> Result<QueueCounts, Error> {
        Ok(store::counts(&self.core.db())?)
    }

    /// "Send now": lifts the till's own backoff (never a wait the service asked for)
    /// and wakes the sender.
    pub fn send_now(&self) {
        self.core.lift_backoff();
    }

    /// Waits until nothing is queued or sending, or `timeout` passes; true when empty.
    pub async fn drained(&self, timeout: std::time::Duration) -> Result<bool, Error> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut events = self.subscribe();
        loop {
            if self.counts()?.queued == 0 {
                return Ok(true);
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return Ok(false);
            }
            let _ = tokio::time::timeout(
                left.min(std::time::Duration::from_millis(250)),
                events.recv(),
            )
            .await;
        }
    }

    /// Customers whose name, email or phone start with what was typed.
    pub fn search(&self, typed: &str, limit: u32) -> Result<Vec<CustomerSummary>, Error> {
        let Some(typed) = input::text(TextField::Search, typed, 200, false)? else {
            return Ok(Vec::new());
        };
        Ok(cache::search(&self.core.db(), &typed, limit)?)
    }

    /// A card by its id, from the cache, with whether writes for it are queued.
    pub fn lookup_card(&self, card: &CardId) -> Result<Option<CardLookup>, Error> {
        Ok(cache::lookup_card(&self.core.db(), card)?)
    }

    /// A card read from the service now, into the cache.
    ///
    /// A cached card's customer is read again; a deleted customer is forgotten with
    /// their cards. For a card the cache does not know, the customers enrolled since
    /// the last sync are fetched. Nothing is read while the service is unreachable, the
    /// key refused or a wait in force, nor before a first sync has finished. Writes
    /// still queued for the card keep the cached figures, as in [`Counter::lookup_card`].
    pub async fn read_card(&self, card: &CardId) -> Result<FreshCard, Error> {
        input::card(card)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        if !self.core.connectivity().may_call_service() || self.core.gate().is_some() {
            return Ok(FreshCard::NotChecked);
        }
        let Some(customer) = self
            .lookup_card(card)?
            .and_then(|known| known.customer.map(|c| c.id))
        else {
            if sync::newer(&self.core, &client).await?.is_none() {
                return Ok(FreshCard::NotChecked);
            }
            return self.found(card);
        };
        // Stamped with the time it was asked, so that an answer this till stored while
        // the read was on its way is not overwritten with older figures.
        let asked = self.core.now();
        match client.customers().get(&customer).await {
            Ok(read) => {
                self.core
                    .observe_answer(read.date, read.rate_limit.as_ref());
                let mut db = self.core.db();
                let tx = db.transaction()?;
                cache::put_customer(&tx, &CustomerView::from(&read.data), asked)?;
                tx.commit()?;
            }
            Err(err) if err.code() == Some(&loyalty_api::ErrorCode::NotFound) => {
                let mut db = self.core.db();
                let tx = db.transaction()?;
                cache::forget_customer(&tx, &customer)?;
                tx.commit()?;
            }
            Err(err) => {
                self.core.observe_failure(&err);
                return Err(err.into());
            }
        }
        self.found(card)
    }

    fn found(&self, card: &CardId) -> Result<FreshCard, Error> {
        Ok(match self.lookup_card(card)? {
            Some(lookup) => FreshCard::Found(Box::new(lookup)),
            None => FreshCard::NoSuchCard,
        })
    }

    /// A full sync of customers and cards (resuming an interrupted one); `max_pages`
    /// stops after that many pages, and the next call goes on.
    ///
    /// The walk borrows nothing of the counter, so a shell can let go of it while the
    /// walk runs: scans, payments, a disconnect or a key change never wait for a sync,
    /// and a key change stops it between pages.
    pub fn sync(
        &self,
        max_pages: Option<u32>,
    ) -> impl Future<Output = Result<SyncReport, Error>> + Send + 'static {
        let core = self.core.clone();
        async move {
            let sender = core.sender().ok_or(Error::NotConnected)?;
            sync::full(&core, &sender, max_pages).await
        }
    }

    /// The customers enrolled since the last sync (borrowing nothing, as [`Counter::sync`]).
    pub fn top_up(&self) -> impl Future<Output = Result<SyncReport, Error>> + Send + 'static {
        let core = self.core.clone();
        async move {
            let sender = core.sender().ok_or(Error::NotConnected)?;
            sync::top_up(&core, &sender).await
        }
    }

    /// Stores a customer the shell already has (for example from another screen).
    pub fn cache_customer(&self, customer: &CustomerView) -> Result<(), Error> {
        let mut db = self.core.db();
        let tx = db.transaction()?;
        cache::put_customer(&tx, customer, self.core.now())?;
        tx.commit()?;
        Ok(())
    }

    /// The till's settings.
    pub fn settings(&self) -> Result<Settings, Error> {
        Ok(settings::load(&self.core.db())?)
    }

    /// Saves the till's settings (the base URL changes on the next `connect`).
    pub fn save_settings(&self, settings: &Settings) -> Result<(), Error> {
        Ok(settings::save(&self.core.db(), settings)?)
    }

    /// Where the till's data lives is given at open; this is the lock file, for messages.
    pub fn lock_path(&self) -> PathBuf {
        self.data_dir.join("till.lock")
    }
}

impl Connection {
    fn kept(known: KeptConnection, key_storage: KeyStorage) -> Self {
        Self {
            business_name: known.business_name,
            test_mode: known.test_mode,
            scopes: known.scopes,
            key_storage,
        }
    }
}

fn connection_of(me: &Me, key_storage: KeyStorage) -> Connection {
    Connection {
        business_name: me.business.name.clone(),
        test_mode: me.mode == KeyMode::Test,
        scopes: me
            .scopes
            .iter()
            .map(|s: &Scope| s.as_str().to_owned())
            .collect(),
        key_storage,
    }
}

/// The light periodic check: GET /v1/me, at once when the counter opens (the outbox
/// needs the service's clock before it resends anything that may have arrived), then
/// often while offline, rarely while online.
async fn run_prober(core: Arc<Core>) {
    if let Some(client) = core.client() {
        match client.me().await {
            Ok(me) => core.observe_answer(me.date, me.rate_limit.as_ref()),
            Err(err) => core.observe_failure(&err),
        }
    }
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
        let Some(client) = core.client() else {
            continue;
        };
        match client.me().await {
            Ok(me) => core.observe_answer(me.date, me.rate_limit.as_ref()),
            Err(err) => core.observe_failure(&err),
        }
    }
}
