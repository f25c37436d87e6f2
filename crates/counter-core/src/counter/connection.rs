//! Connecting a key, forgetting it, and what the till knows of the service.

use super::*;
use crate::outbox::business::WaitingWrites;

for_the_ui! {
/// What connecting a key asks now ([`Counter::connect_gate`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectGate {
    /// A key is kept, or writes wait: the manager's PIN is asked first.
    pub needs_manager: bool,
    /// The writes still open, by the business they belong to.
    pub waiting: Vec<WaitingWrites>,
}
}

impl Counter {
    /// Uses the kept key again; a base URL that cannot be used leaves the till without
    /// one. Answers where the key sits when the business it was accepted for is not known.
    pub(super) fn reconnect(
        &self,
        base_url: &str,
        key: ApiKey,
        storage: KeyStorage,
        known: Option<KeptConnection>,
    ) -> Option<KeyStorage> {
        let client = match self.build_client(base_url, key.clone(), Learner::of(&self.core)) {
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
        let service = client.base_url().as_str().to_owned();
        let owner = match known.as_ref().and_then(|k| k.business(&service)) {
            Some(business) => match store::owner_of(&self.core.db(), &business) {
                Ok(owner) => Some(owner),
                Err(error) => {
                    tracing::warn!(%error, "the business of the kept key could not be read");
                    None
                }
            },
            None => None,
        };
        if let Err(error) = self.use_key(client, &key, owner) {
            tracing::warn!(%error, "the kept key could not be put to use");
            return None;
        }
        match known {
            // Its business known, the kept key goes on at once.
            Some(known) if owner.is_some() => {
                *self.kept() = Some(Connection::kept(known, storage));
                None
            }
            // Kept by a version that did not record the business's id: shown as it was,
            // and the service is asked which business the key is for.
            Some(known) => {
                *self.kept() = Some(Connection::kept(known, storage.clone()));
                Some(storage)
            }
            None => Some(storage),
        }
    }

    /// A key kept by an earlier version, which did not remember the business: the
    /// service is asked once, briefly, so that the upgrade does not ask for the key
    /// again. Unanswered in time, the connectivity check asks again later (and Connect
    /// asks when there was no business kept at all; the key stays in use meanwhile).
    pub(super) async fn learn_connection(&self, storage: KeyStorage) {
        let Some(client) = self.core.client() else {
            return;
        };
        let wait = self.core.config.connect_timeout.min(Duration::from_secs(3));
        let me = match tokio::time::timeout(wait, client.me()).await {
            Ok(Ok(me)) => me,
            Ok(Err(_)) | Err(_) => return,
        };
        if let Err(error) = learn_business(&self.core, &me.data, client.base_url().as_str()) {
            tracing::warn!(%error, "the business of the kept key could not be saved");
        }
        *self.kept() = Some(connection_of(&me.data, storage));
    }

    /// What the key connected now may do (nothing without one).
    pub fn may(&self) -> Abilities {
        self.connection().map(|c| c.may()).unwrap_or_default()
    }

    /// What connecting a key asks now: a manager when a key is kept (or could not be
    /// read) or writes wait, and which writes wait, by business. Connect says it before
    /// it asks for the PIN.
    pub fn connect_gate(&self) -> Result<ConnectGate, Error> {
        self.staff()?;
        let waiting = store::waiting_elsewhere(&self.core.db(), None)?;
        // A key file that holds no key is the till's own trouble: connecting again is
        // its remedy, and asks no manager unless writes wait.
        Ok(ConnectGate {
            needs_manager: self.kept().is_some() || !waiting.is_empty(),
            waiting,
        })
    }

    /// Whether the till may switch to the demo now: as connecting another key, a
    /// manager's once a key is kept or writes wait (a connected till switched to the
    /// demo takes no more payments).
    pub fn may_try_demo(&self) -> Result<(), Error> {
        if self.connect_gate()?.needs_manager {
            self.permit(Action::Disconnect)
        } else {
            self.permit(Action::TryDemo)
        }
    }

    /// Checks `key` with GET /v1/me against `base_url`; only a key the service
    /// accepts is kept (keychain, else owner-only file) and used. Replacing a kept key,
    /// or connecting while writes wait, is a manager's decision ([`Counter::connect_gate`]).
    /// Writes of another business than the key's wait for a key of theirs.
    pub async fn connect(&self, base_url: &str, key: &str) -> Result<Connection, Error> {
        self.owner()?;
        self.staff()?;
        let key = ApiKey::new(key)?;
        let needs_manager = self.connect_gate()?.needs_manager;
        if needs_manager {
            // Asked before the service is: a refused key leaves the manager's word unused.
            self.permit_now(Action::Disconnect)?;
        }
        // A candidate teaches the till nothing until its key is in use.
        let learner = Learner::of_candidate(&self.core);
        let client = self.build_client(base_url, key.clone(), learner.clone())?;
        let me = client.me().await?;
        if needs_manager {
            self.permit(Action::Disconnect)?;
        }
        let storage = self.keys.save(&key)?;
        *self.unreadable_key() = None;
        if let KeyStorage::File { path, warning } = &storage {
            self.core.events.publish(Event::KeyStorageWarning {
                path: path.clone(),
                message: warning.clone(),
            });
        }
        let connection = connection_of(&me.data, storage);
        let business = business_of(&me.data, client.base_url().as_str());
        let owner = store::owner_of(&self.core.db(), &business)?;
        let mut saved = settings::load(&self.core.db())?;
        let same_business = saved.base_url.as_deref() == Some(client.base_url().as_str())
            && saved
                .connection
                .as_ref()
                .and_then(|c| c.business_id.as_deref())
                == Some(business.id.as_str());
        if !same_business {
            // Another business's customers are no one's business here.
            self.core.set_sender(None);
            self.forget_business()?;
        }
        saved.base_url = Some(client.base_url().as_str().to_owned());
        saved.connection = Some(connection.to_keep());
        saved.key = KeptKey::of(&key);
        settings::save(&self.core.db(), &saved)?;
        // The new client first: the answer then wakes the sender, which must use it.
        self.use_key(client, &key, Some(owner))?;
        *self.kept() = Some(connection.clone());
        // The candidate's answer, learnt once its key is in use (it wakes the sender).
        learner.adopt();
        self.core.observe_answer(me.date, me.rate_limit.as_ref());
        Ok(connection)
    }

    /// Forgets the key (keychain and file) and the business it was for; queued writes
    /// stay queued, still that business's. A manager's decision: the till cannot work
    /// until a key is given.
    pub fn disconnect(&self) -> Result<(), Error> {
        self.owner()?;
        self.staff()?;
        if self.kept().is_some() {
            self.permit(Action::Disconnect)?;
        }
        // The key forgotten is the one in use; an unreadable one is not known.
        let in_use = self.core.sender().map(|sender| sender.key);
        self.keys.delete()?;
        *self.unreadable_key() = None;
        self.core.set_sender(None);
        *self.kept() = None;
        // The key's business is left: what the till read of it goes too.
        self.forget_business()?;
        self.change_settings(|saved| {
            saved.connection = None;
            saved.key = KeptKey::Forgotten {
                fingerprint: in_use.map(|key| key.as_str().to_owned()),
            };
        })
    }

    /// Forgets what the till read of the business it worked for: customers, their
    /// search index and cards, gift cards, passes and where a walk stood, and the
    /// snapshots taken before an upgrade, which hold them too. Writes still waiting
    /// stay (the outbox's, each with its business). Called once no key is in use, so
    /// that no page of a walk lands after it.
    fn forget_business(&self) -> Result<(), Error> {
        let mut db = self.core.db();
        crate::db::cache_write(&mut db, cache::forget_business)?;
        crate::db::truncate_wal(&db)?;
        crate::db::snapshots::remove(&self.data_dir.join("till.db"), None)
            .map_err(crate::db::OpenError::Private)?;
        Ok(())
    }

    /// The key this till uses, as the service last described it: after a restart, the
    /// business the kept key was accepted for, before the service is asked again. None
    /// when no key is kept (or it cannot be read: see [`Counter::troubles`]).
    pub fn connection(&self) -> Option<Connection> {
        self.kept().clone()
    }

    /// What is wrong with the till's own files, now: a key that could not be read when
    /// the till opened (until a key is given or forgotten), damaged settings, or data
    /// another copy owns. Empty when all is well.
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
        troubles.extend(self.unreadable_key().clone());
        Ok(troubles)
    }

    /// Saves the settings as they can be read, each damaged one at its default: the
    /// remedy for [`Trouble::SettingsDamaged`].
    pub fn reset_damaged_settings(&self) -> Result<Settings, Error> {
        self.staff()?;
        self.owner()?;
        self.permit(Action::ResetDamagedSettings)?;
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
}

impl KeptConnection {
    /// The business it was for, on `service`, once its id is known.
    fn business(&self, service: &str) -> Option<Business> {
        Some(Business {
            id: self.business_id.clone()?,
            name: self.business_name.clone(),
            test_mode: self.test_mode,
            service: service.to_owned(),
        })
    }
}

pub(super) fn connection_of(me: &Me, key_storage: KeyStorage) -> Connection {
    Connection {
        business_name: me.business.name.clone(),
        test_mode: me.mode == KeyMode::Test,
        scopes: me.scopes.clone(),
        key_storage,
        business_id: Some(me.business.id.to_string()),
    }
}

/// The business `me` describes, on `service`.
pub(super) fn business_of(me: &Me, service: &str) -> Business {
    Business {
        id: me.business.id.to_string(),
        name: me.business.name.clone(),
        test_mode: me.mode == KeyMode::Test,
        service: service.to_owned(),
    }
}

/// The service said which business the key in use is for (`me`), and the till had not
/// kept it (an earlier version's settings): the till is that business's from now on,
/// its writes go out, and the settings keep the business for the next start.
pub(super) fn learn_business(core: &Core, me: &Me, service: &str) -> Result<(), Error> {
    let owner = store::owner_of(&core.db(), &business_of(me, service))?;
    core.learn_owner(owner)?;
    let db = core.db();
    let mut saved = settings::load(&db)?;
    saved.connection = Some(KeptConnection {
        business_id: Some(me.business.id.to_string()),
        business_name: me.business.name.clone(),
        test_mode: me.mode == KeyMode::Test,
        scopes: me.scopes.clone(),
    });
    Ok(settings::save(&db, &saved)?)
}
