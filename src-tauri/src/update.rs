//! Updates installed under the running app (its package upgraded by apt, or by
//! `unattended-upgrades` in the night): noticed, said in the status bar, and restarted
//! into between customers. The core judges the moment
//! ([`counter_core::Counter::restart_moment`]); this watches the binary, asks the new
//! one its version, and replaces the process with it: the same process, so a kiosk
//! session's loop, or whatever started the app, still holds it; its arguments, so a
//! kiosk comes back a kiosk. The till's file holds everything that matters (the queue,
//! an open shift); the person signed in signs in again.

use std::ffi::OsString;
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use counter_core::update::{Installed, Look, Moment, PageAtRest};
use tauri::{AppHandle, Manager};

use crate::mailbox::{Mailboxes, PageEvent};
use crate::till::Till;
use crate::views::UpdateState;

/// How often the binary is looked at: a change is taken at the second look that finds
/// it unchanged, so an upgrade is noticed within two of these.
const LOOK_EVERY: Duration = Duration::from_secs(2);

/// How long the new binary has to say its version.
const VERSION_WITHIN: Duration = Duration::from_secs(10);

/// The update that waits, if any, and how to start it.
#[derive(Debug)]
pub struct Updates {
    /// The binary the app was started from, and its arguments.
    program: Option<PathBuf>,
    arguments: Vec<OsString>,
    state: Mutex<UpdateState>,
}

impl Updates {
    /// The app as it was started: `program` (None when the system cannot say: no update
    /// is then ever noticed) with `arguments`.
    pub fn new(program: Option<PathBuf>, arguments: Vec<OsString>) -> Self {
        Self {
            program,
            arguments,
            state: Mutex::new(UpdateState::Current),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, UpdateState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What waits now, the page being as it says: when an update waits and the counter
    /// is between customers, the till starts restarting into it (and says so).
    pub async fn moment(&self, app: &AppHandle, page: PageAtRest) -> UpdateState {
        let version = match &*self.state() {
            UpdateState::Waiting { version, .. } => version.clone(),
            other => return other.clone(),
        };
        let moment = app
            .state::<Till>()
            .session()
            .await
            .counter
            .restart_moment(page);
        let now = match moment {
            Moment::Later(busy) => UpdateState::Waiting {
                version,
                busy: Some(busy),
            },
            Moment::Now => UpdateState::Restarting { version },
        };
        {
            // Two asks at once: the first to decide restarts; the second hears it.
            let mut state = self.state();
            if matches!(*state, UpdateState::Restarting { .. }) {
                return state.clone();
            }
            *state = now.clone();
        }
        if let UpdateState::Restarting { version } = &now {
            let app = app.clone();
            let version = version.clone();
            tauri::async_runtime::spawn(async move { restart(app, version).await });
        }
        now
    }
}

/// Watches the binary the app was started from, on a task of its own, until an update
/// is installed; then tells every window.
pub fn watch(app: &AppHandle) {
    let updates = app.state::<Updates>();
    let Some(program) = updates.program.clone() else {
        tracing::warn!("the app's own binary is unknown: updates are not watched");
        return;
    };
    let mut installed = match Installed::at(program) {
        Ok(installed) => installed,
        Err(error) => {
            tracing::warn!(%error, "the app's own binary could not be read: updates are not watched");
            return;
        }
    };
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        loop {
            tokio::time::sleep(LOOK_EVERY).await;
            if installed.look() != Look::Replaced {
                continue;
            }
            let program = installed.path().to_path_buf();
            match version_of(program.clone()).await {
                Ok(version) => {
                    tracing::info!(%version, "an update is installed: the till restarts into it between customers");
                    let waiting = UpdateState::Waiting {
                        version,
                        busy: None,
                    };
                    *app.state::<Updates>().state() = waiting.clone();
                    let mailboxes = app.state::<Mailboxes>();
                    for window in app.webview_windows().keys() {
                        mailboxes.post(window, PageEvent::Update(waiting.clone()));
                    }
                    return;
                }
                Err(error) => {
                    // A binary that does not start is no update to restart into: the
                    // till runs on, and takes the next one installed.
                    tracing::error!(%error, "the binary installed does not start: the till runs on as it is");
                    match Installed::at(program) {
                        Ok(now) => installed = now,
                        Err(_) => return,
                    }
                }
            }
        }
    });
}

/// `program --version`'s version ("loyalty-counter 0.1.1" → "0.1.1"), on a blocking
/// thread (the new binary is started and waited for, at most [`VERSION_WITHIN`]).
async fn version_of(program: PathBuf) -> Result<String, String> {
    tauri::async_runtime::spawn_blocking(move || {
        let mut child = std::process::Command::new(&program)
            .arg("--version")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|error| format!("{} --version: {error}", program.display()))?;
        let deadline = std::time::Instant::now() + VERSION_WITHIN;
        while child.try_wait().ok().flatten().is_none() {
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{} --version did not answer", program.display()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = child
            .wait_with_output()
            .map_err(|error| format!("{} --version: {error}", program.display()))?;
        let said = String::from_utf8_lossy(&output.stdout);
        match said.trim().strip_prefix("loyalty-counter ") {
            Some(version) if output.status.success() && !version.is_empty() => {
                Ok(version.to_owned())
            }
            _ => Err(format!(
                "{} --version answered {:?} ({})",
                program.display(),
                said.trim(),
                output.status
            )),
        }
    })
    .await
    .map_err(|error| format!("asking the new binary its version: {error}"))?
}

/// Replaces the process with the binary installed, started as this one was: once no
/// call is under way and no write being sent (the till held), the logs written out.
async fn restart(app: AppHandle, version: String) {
    let updates = app.state::<Updates>();
    let Some(program) = updates.program.clone() else {
        return;
    };
    tracing::info!(%version, "restarting into the update");
    let till = app.state::<Till>();
    let error = till
        .hold_for_restart(|| {
            crate::logging::flush();
            std::process::Command::new(&program)
                .args(&updates.arguments)
                .exec()
        })
        .await;
    // Only when the new binary could not be started at all: the till goes on as it was.
    tracing::error!(%error, "the update could not be started: the till runs on");
    *updates.state() = UpdateState::Current;
}
