//! The camera: opened by a scanning screen, closed when it goes; chosen by a manager.

use serde::Serialize;
use tauri::{AppHandle, State, Window};

use crate::CommandError;
use crate::camera::CameraDoor;
use crate::till::Till;

/// What opening the camera gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum CameraOpened {
    /// It plays `source` (a device, or a folder of images played as one); what it sees
    /// comes to the window's mailbox (`crate::mailbox`).
    Playing { source: String },
    /// There is no camera (none found, or the one chosen is gone): scanning and typing
    /// go on without it.
    NoCamera,
}

/// Opens the camera for this window.
#[tauri::command]
pub async fn camera_open(
    app: AppHandle,
    window: Window,
    till: State<'_, Till>,
    camera: State<'_, CameraDoor>,
) -> Result<CameraOpened, CommandError> {
    let chosen = till.session().await.counter.chosen_camera()?;
    let label = window.label().to_owned();
    // Opening a device takes a moment: this thread is let go of meanwhile.
    let opened = tokio::task::block_in_place(|| camera.open(&app, &label, chosen));
    Ok(match opened.map_err(counter_core::Error::from)? {
        Some(source) => CameraOpened::Playing { source },
        None => CameraOpened::NoCamera,
    })
}

/// Closes the camera this window opened.
#[tauri::command]
pub async fn camera_close(
    window: Window,
    camera: State<'_, CameraDoor>,
) -> Result<(), CommandError> {
    camera.close(window.label());
    Ok(())
}

/// A camera the computer has, for Settings.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(export)]
pub struct CameraChoice {
    /// Its name, as its driver gives it.
    pub name: String,
    /// Its device.
    pub device: String,
    /// The one this till uses.
    pub chosen: bool,
}

/// The cameras found, and which one a manager chose (none: the first found).
#[tauri::command]
pub async fn cameras(till: State<'_, Till>) -> Result<Vec<CameraChoice>, CommandError> {
    let session = till.session().await;
    let counter = &session.counter;
    let chosen = counter.camera_choice()?;
    let found = tokio::task::spawn_blocking(counter_camera::cameras)
        .await
        .unwrap_or_default();
    Ok(found
        .into_iter()
        .map(|found| CameraChoice {
            chosen: chosen.as_deref() == Some(found.path.as_str()),
            name: found.name,
            device: found.path,
        })
        .collect())
}

/// Chooses this till's camera, or none for the first found (a manager's).
#[tauri::command]
pub async fn set_camera(till: State<'_, Till>, device: Option<String>) -> Result<(), CommandError> {
    Ok(till.session().await.counter.set_camera(device)?)
}
