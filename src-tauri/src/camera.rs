//! The till's camera, open while a scanning screen shows it: the kiosk's home, the
//! counter's camera panel. Its frames are decoded on GStreamer's threads, never the
//! window's or the outbox's; what it reads goes to the mailbox of the window that opened
//! it (`crate::mailbox`), whose page reads it as it reads a wedge scan (the same command,
//! the same identification, the same write).

use std::sync::Mutex;

use base64::Engine as _;
use counter_camera::{Camera, Sight, Source};
use counter_core::CameraError;
use tauri::{AppHandle, Manager};

use crate::mailbox::{CameraSight, Mailboxes, PageEvent};

/// The camera, when a screen has it open.
#[derive(Debug, Default)]
pub struct CameraDoor {
    /// `--camera`: what the till plays, whatever a manager chose.
    given: Option<Source>,
    open: Mutex<Option<Open>>,
}

#[derive(Debug)]
struct Open {
    window: String,
    _camera: Camera,
}

impl CameraDoor {
    pub fn new(given: Option<Source>) -> Self {
        Self {
            given,
            open: Mutex::default(),
        }
    }

    /// Opens the camera for `window` (closing it for any other): `--camera`, else the
    /// one a manager chose, else the first one found. Answers what it plays, or `None`
    /// when there is no camera to open.
    pub fn open(
        &self,
        app: &AppHandle,
        window: &str,
        chosen: Option<String>,
    ) -> Result<Option<String>, CameraError> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        // The device is released before it is opened again.
        *open = None;
        let found = match (&self.given, chosen) {
            (Some(given), _) => Some(given.clone()),
            // The one chosen is gone: no camera, as when none was ever found.
            (None, Some(chosen)) => Source::device(chosen.as_ref()).ok(),
            (None, None) => counter_camera::cameras()
                .into_iter()
                .find_map(|found| Source::device(found.path.as_ref()).ok()),
        };
        let Some(source) = found else {
            return Ok(None);
        };
        let (app, to) = (app.clone(), window.to_owned());
        let camera = Camera::open(&source, move |sight| {
            let sight = match sight {
                Sight::Preview(jpeg) => CameraSight::Preview {
                    url: format!(
                        "data:image/jpeg;base64,{}",
                        base64::engine::general_purpose::STANDARD.encode(jpeg)
                    ),
                },
                Sight::Code { code, arrived } => {
                    log_read(code.symbology, arrived);
                    CameraSight::Code { text: code.text }
                }
                Sight::Failed(reason) => {
                    tracing::warn!(%reason, "the camera stopped");
                    CameraSight::Failed
                }
            };
            app.state::<Mailboxes>().post(&to, PageEvent::Camera(sight));
        })
        .map_err(|err| {
            tracing::warn!(%err, %source, "the camera could not be opened");
            CameraError::Failed
        })?;
        tracing::info!(%source, window, "camera opened");
        *open = Some(Open {
            window: window.to_owned(),
            _camera: camera,
        });
        Ok(Some(source.to_string()))
    }

    /// Closes the camera if `window` has it (the device is released).
    pub fn close(&self, window: &str) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if open.as_ref().is_some_and(|o| o.window == window) {
            *open = None;
            tracing::info!(window, "camera closed");
        }
    }
}

/// Logs a code read (never what it says): its symbology, and when its frame arrived on
/// the wall clock the window's page shares, in milliseconds since 1970 (`make measure`
/// times frame → card on screen by it).
fn log_read(symbology: counter_camera::Symbology, arrived: std::time::Instant) {
    let age = arrived.elapsed();
    let arrived_unix_ms = std::time::SystemTime::now()
        .checked_sub(age)
        .and_then(|at| at.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0.0, |since| since.as_secs_f64() * 1000.0);
    tracing::info!(
        symbology = symbology.name(),
        age_ms = age.as_secs_f64() * 1000.0,
        arrived_unix_ms,
        "the camera read a code"
    );
}
