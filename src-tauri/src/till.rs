//! The till the app holds: one open counter (the real one, or the demo's), and the demo
//! server when the demo runs. Commands reach the core through it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use counter_core::secrets::{KeyStore, SecretsConfig};
use counter_core::settings::Settings;
use counter_core::{Config, Connection, Counter, KioskStart, SystemClock, Trouble, UuidIds};
use tauri::{AppHandle, Manager};
use tokio::sync::{
    OwnedRwLockWriteGuard, RwLock, RwLockMappedWriteGuard, RwLockReadGuard, RwLockWriteGuard,
};

use crate::demo::DemoServer;
use crate::error::CommandError;
use crate::mailbox::{Mailboxes, PageEvent};

/// The app's till. Managed by Tauri; commands take it as state.
#[derive(Debug)]
pub struct Till {
    data_dir: PathBuf,
    app: AppHandle,
    /// Empty only while the till opens at start: the opener holds the lock until the
    /// session is in place, so every use waits for it and then finds one.
    session: Arc<RwLock<Option<Session>>>,
}

/// The lock on a till that is opening ([`Till::opening`]), held until [`Till::open`]
/// has put its session in place.
#[derive(Debug)]
pub struct OpeningLock(OwnedRwLockWriteGuard<Option<Session>>);

impl OpeningLock {
    /// The counter just opened (before the lock lets other uses in).
    pub fn counter(&self) -> &Counter {
        &self.0.as_ref().expect(OPENED).counter
    }
}

/// What the till opens as at start.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    /// The built-in demo (`--demo`, what `make demo` passes).
    pub demo: bool,
    /// As a kiosk, kept for the next start (`--kiosk`).
    pub kiosk: bool,
}

const OPENED: &str = "a till's session is in place once its opener lets go of the lock";

/// How the till opened at start, for the window.
#[derive(Debug, Clone, Copy)]
pub struct Opened {
    /// The till runs as a kiosk.
    pub kiosk: bool,
    /// `--kiosk` was given while no manager PIN is set: the till opened as a counter,
    /// and a manager chooses a PIN before it becomes a kiosk.
    pub kiosk_needs_pin: bool,
}

/// An open counter, and the demo server it talks to when it is the demo's.
#[derive(Debug)]
pub struct Session {
    /// The counter: outbox, cache, settings, connection.
    pub counter: Counter,
    demo: Option<DemoServer>,
}

impl Session {
    /// Whether this is the built-in demo.
    pub fn is_demo(&self) -> bool {
        self.demo.is_some()
    }

    /// Connects the demo's till to its server: a connection the till kept is this
    /// server's ([`Till::open_demo_till`] forgets any key the server does not take where
    /// the till last reached it), else with a key the server mints now.
    async fn connect_demo(&self) -> Result<Connection, CommandError> {
        let demo = self.demo.as_ref().ok_or_else(|| {
            CommandError::new(counter_core::ErrorCode::DemoFailed, "The demo stopped.")
        })?;
        if let Some(connection) = self.counter.connection() {
            return Ok(connection);
        }
        let key = demo.mint_test_key().await?;
        Ok(self.counter.connect(&demo.sandbox_url(), &key).await?)
    }
}

impl Till {
    /// A till about to open, and the lock that holds every use back until
    /// [`Till::open`] has opened it: the app's window need not wait for the till.
    pub fn opening(app: AppHandle, data_dir: PathBuf) -> (Self, OpeningLock) {
        let session = Arc::new(RwLock::new(None));
        let held = Arc::clone(&session)
            .try_write_owned()
            .expect("a new lock is free");
        let till = Self {
            data_dir,
            app,
            session,
        };
        (till, OpeningLock(held))
    }

    /// Opens the till whose data lives in `<data_dir>/till`, reconnecting with the kept
    /// key if there is one, or the demo's own till as `start` asks (the real one stays
    /// closed, as after Try the demo), then makes it a kiosk if asked and a manager PIN
    /// is set. A key or settings that cannot be read, or a till another copy owns,
    /// still open (see [`Counter::troubles`]): the window says what is wrong. Uses of
    /// the till wait meanwhile; on an error they go on waiting.
    pub async fn open(
        &self,
        opening: &mut OpeningLock,
        start: Start,
    ) -> Result<Opened, CommandError> {
        let session = if start.demo {
            let session = opening.0.insert(self.demo_session().await?);
            session.connect_demo().await?;
            session
        } else {
            let counter = self.open_real().await?;
            opening.0.insert(Session {
                counter,
                demo: None,
            })
        };
        let kiosk_needs_pin = start.kiosk
            && match session.counter.start_as_kiosk()? {
                KioskStart::Started => false,
                KioskStart::NeedsPin => {
                    tracing::warn!("--kiosk: no manager PIN is set yet; the window asks for one");
                    true
                }
                KioskStart::HeldElsewhere => {
                    tracing::warn!("--kiosk: another copy owns the till; this one only reads it");
                    false
                }
            };
        Ok(Opened {
            kiosk: session.counter.kiosk()?,
            kiosk_needs_pin,
        })
    }

    /// The current session, for reading.
    pub async fn session(&self) -> RwLockReadGuard<'_, Session> {
        RwLockReadGuard::map(self.session.read().await, |s| s.as_ref().expect(OPENED))
    }

    /// Runs `then` once no call is under way and no write is being sent, none starting
    /// until it returns: the moment the process is replaced by an update's
    /// (`crate::update`). Everything the till keeps is in its file by then.
    pub async fn hold_for_restart<T>(&self, then: impl FnOnce() -> T) -> T {
        let session = self.session_mut().await;
        let _held = session.counter.hold_for_restart().await;
        then()
    }

    /// The current session, to change or replace.
    async fn session_mut(&self) -> RwLockMappedWriteGuard<'_, Session> {
        RwLockWriteGuard::map(self.session.write().await, |s| s.as_mut().expect(OPENED))
    }

    /// Checks the key with the service and keeps it (see [`Counter::connect`]). From the
    /// demo, the real till is connected beside it first: the demo stops only once the
    /// key is accepted, and a refused key leaves the demo as it was. Leaving the demo
    /// is the manager's once its till has a PIN.
    pub async fn connect(&self, base_url: &str, api_key: &str) -> Result<Connection, CommandError> {
        {
            let mut session = self.session_mut().await;
            if session.is_demo() {
                session.counter.may_be_left()?;
                let counter = self.open_real().await?;
                return match counter.connect(base_url, api_key).await {
                    Ok(connection) => {
                        let real = Session {
                            counter,
                            demo: None,
                        };
                        self.replace(&mut session, real).await;
                        Ok(connection)
                    }
                    Err(error) => {
                        counter.close().await;
                        Err(error.into())
                    }
                };
            }
        }
        // Checking the key with the service can take a while: the session is only read
        // meanwhile, so the counter and the queue never wait for it.
        let session = self.session().await;
        Ok(session.counter.connect(base_url, api_key).await?)
    }

    /// Forgets the key (to connect with another); queued writes stay queued for a key of
    /// their business. From the demo: leaves it (the manager's, once it has a PIN).
    pub async fn disconnect(&self) -> Result<(), CommandError> {
        let mut session = self.session_mut().await;
        if session.is_demo() {
            session.counter.may_be_left()?;
            self.leave_demo(&mut session).await
        } else {
            Ok(session.counter.disconnect()?)
        }
    }

    /// Puts each damaged setting back to its default.
    pub async fn reset_damaged_settings(&self) -> Result<Settings, CommandError> {
        Ok(self.session().await.counter.reset_damaged_settings()?)
    }

    /// Opens the real till again, as at start, when another copy owned it: once that
    /// copy has closed, this window becomes the owner. Nothing to do otherwise.
    pub async fn reopen(&self) -> Result<(), CommandError> {
        let mut session = self.session_mut().await;
        let held = session
            .counter
            .troubles()?
            .iter()
            .any(|t| matches!(t, Trouble::HeldElsewhere { .. }));
        if held && !session.is_demo() {
            // The reader holds no lock: the new counter takes it if it is free.
            let counter = self.open_real().await?;
            self.replace(
                &mut session,
                Session {
                    counter,
                    demo: None,
                },
            )
            .await;
        }
        Ok(())
    }

    /// Puts the demo business back to its first state: the demo stops, its server's and
    /// its till's data are removed, and it starts afresh. Only from the demo, by a
    /// manager (Settings).
    pub async fn reset_demo(&self) -> Result<Connection, CommandError> {
        {
            let mut session = self.session_mut().await;
            if !session.is_demo() {
                return Err(
                    counter_core::Error::from(counter_core::NotAllowed::NotInTheDemo).into(),
                );
            }
            session
                .counter
                .manager_decides(counter_core::roles::Action::ResetDemo)?;
            self.leave_demo(&mut session).await?;
            std::fs::remove_dir_all(self.data_dir.join("demo")).map_err(|e| {
                CommandError::new(counter_core::ErrorCode::DemoFailed, e.to_string())
            })?;
        }
        let mut session = self.session_mut().await;
        self.start_demo(&mut session).await
    }

    /// Stops the demo, if it runs, and opens the real till (not connected) in its place.
    async fn leave_demo(&self, session: &mut Session) -> Result<(), CommandError> {
        if session.is_demo() {
            let counter = self.open_real().await?;
            let real = Session {
                counter,
                demo: None,
            };
            self.replace(session, real).await;
        }
        Ok(())
    }

    /// Starts the built-in demo server (or keeps the running one) and connects a till of
    /// its own to it with the demo's test key. The real till's data is not touched.
    /// From a connected till, a manager's ([`Counter::may_try_demo`]).
    pub async fn try_demo(&self) -> Result<Connection, CommandError> {
        let mut session = self.session_mut().await;
        if !session.is_demo() {
            session.counter.may_try_demo()?;
        }
        self.start_demo(&mut session).await
    }

    async fn start_demo(&self, session: &mut Session) -> Result<Connection, CommandError> {
        if !session.is_demo() {
            let next = self.demo_session().await?;
            self.replace(session, next).await;
        }
        session.connect_demo().await
    }

    /// The real till, whose data lives in `<data_dir>/till`.
    async fn open_real(&self) -> Result<Counter, CommandError> {
        open_counter(&self.app, &self.data_dir.join("till"), Config::default()).await
    }

    /// The demo server started, and the demo's till opened in its own folder.
    async fn demo_session(&self) -> Result<Session, CommandError> {
        let server = DemoServer::start(&self.data_dir).await?;
        match self.open_demo_till(&server).await {
            Ok(counter) => Ok(Session {
                counter,
                demo: Some(server),
            }),
            Err(error) => {
                server.stop().await;
                Err(error)
            }
        }
    }

    /// Opens the demo's till, with the key it kept if `server` still takes it there.
    async fn open_demo_till(&self, server: &DemoServer) -> Result<Counter, CommandError> {
        // The demo's test key, for the app's own local server, stays in the demo's
        // folder: it has no place in the person's keychain.
        let secrets = SecretsConfig::FileOnly;
        let dir = self.data_dir.join("demo/till");
        let keys = || KeyStore::new(secrets.clone(), &dir);
        if !server.takes_key_kept_in(keys()).await? {
            // Forgotten before the till opens: it would go at once to the address the till
            // last reached, where another program may listen now.
            keys().delete().map_err(counter_core::Error::from)?;
        }
        // Only now: the next start listens where this one does, and a till that still
        // kept a key for another port would send it there.
        server.write_address(&self.data_dir)?;
        let config = Config {
            secrets,
            ..Config::default()
        };
        open_counter(&self.app, &dir, config).await
    }

    async fn replace(&self, session: &mut Session, next: Session) {
        // Between the demo's till and the shop's, the people come along: whoever was
        // signed in is still, and a till with no one yet takes the other's roster.
        if let Err(error) = next.counter.carry_people_from(&session.counter) {
            tracing::warn!(%error, "the people did not come along to the other till");
        }
        let previous = std::mem::replace(session, next);
        previous.counter.close().await;
        if let Some(server) = previous.demo {
            server.stop().await;
        }
    }
}

/// Opens a counter and forwards its events to the windows' pages until it closes.
async fn open_counter(
    app: &AppHandle,
    dir: &Path,
    config: Config,
) -> Result<Counter, CommandError> {
    let counter = Counter::open(dir, config, Arc::new(SystemClock), Arc::new(UuidIds)).await?;
    let mut events = counter.subscribe();
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match events.recv().await {
                Ok(event) => {
                    // What the customer's screen shows goes to its window alone (when it
                    // is open); the rest to the counter's: neither page handles the
                    // other's events on its way to drawing its own.
                    let to = match event {
                        counter_core::Event::CustomerScreen(_) => crate::customer::LABEL,
                        _ => "main",
                    };
                    if app.get_webview_window(to).is_none() {
                        continue;
                    }
                    let event = PageEvent::Core(crate::views::CoreEvent::from(event));
                    app.state::<Mailboxes>().post(to, event);
                }
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "the UI missed core events")
                }
                Err(RecvError::Closed) => break,
            }
        }
    });
    Ok(counter)
}
