//! Commands the web UI may call. Each is a thin adapter: take the state and arguments,
//! call one function of the till, map the error. Each is declared in `build.rs` and
//! granted in `capabilities/default.json`.

use serde::Serialize;
use tauri::{Manager, State};
use ts_rs::TS;

use crate::CommandError;
use crate::till::Till;

/// What the app is and where it keeps its data.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = "../../ui/src/lib/ipc/bindings/")]
pub struct AppInfo {
    /// The product name, "Loyalty Counter".
    pub name: String,
    /// The app's version, from its package.
    pub version: String,
    /// The folder that holds the app's data (outbox, cache, demo server).
    pub data_dir: String,
    /// The folder that holds the app's daily log files.
    pub log_dir: String,
}

/// The key the till is connected with, as the UI shows it. The key itself never
/// crosses to the UI.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = "../../ui/src/lib/ipc/bindings/")]
pub struct ConnectionView {
    /// The business the key belongs to.
    pub business_name: String,
    /// A test key: the UI shows the TEST banner.
    pub test_mode: bool,
    /// What the key may do.
    pub scopes: Vec<String>,
    /// This is the built-in demo.
    pub demo: bool,
    /// Set when the key could not go in the keychain and sits in a file instead.
    pub key_storage_warning: Option<String>,
}

impl ConnectionView {
    fn new(connection: counter_core::Connection, demo: bool) -> Self {
        let key_storage_warning = match connection.key_storage {
            counter_core::secrets::KeyStorage::File { warning, .. } => Some(warning),
            counter_core::secrets::KeyStorage::Keychain => None,
        };
        Self {
            business_name: connection.business_name,
            test_mode: connection.test_mode,
            scopes: connection.scopes,
            demo,
            key_storage_warning,
        }
    }
}

/// Names the app, its version and its folders.
#[tauri::command]
pub fn app_info(app: tauri::AppHandle) -> Result<AppInfo, CommandError> {
    let paths = app.path();
    let folder = |dir: tauri::Result<std::path::PathBuf>| {
        dir.map(|d| d.display().to_string()).map_err(|e| {
            CommandError::new(
                "app_dir_unavailable",
                format!("The app's folders are unavailable: {e}"),
            )
        })
    };
    Ok(AppInfo {
        name: app.package_info().name.clone(),
        version: app.package_info().version.to_string(),
        data_dir: folder(paths.app_data_dir())?,
        log_dir: folder(paths.app_log_dir())?,
    })
}

/// Checks the key with the service (GET /v1/me) and, if it is accepted, keeps it.
#[tauri::command]
pub async fn connect(
    till: State<'_, Till>,
    base_url: String,
    api_key: String,
) -> Result<ConnectionView, CommandError> {
    let connection = till.connect(&base_url, &api_key).await?;
    Ok(ConnectionView::new(connection, false))
}

/// Starts the built-in demo and connects to it.
#[tauri::command]
pub async fn try_demo(till: State<'_, Till>) -> Result<ConnectionView, CommandError> {
    let connection = till.try_demo().await?;
    Ok(ConnectionView::new(connection, true))
}

/// The key the till is connected with in this run, if any.
#[tauri::command]
pub async fn current_connection(
    till: State<'_, Till>,
) -> Result<Option<ConnectionView>, CommandError> {
    let session = till.session().await;
    Ok(session
        .connection
        .clone()
        .map(|connection| ConnectionView::new(connection, session.is_demo())))
}
