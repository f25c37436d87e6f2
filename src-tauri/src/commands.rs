//! Commands the web UI may call. Each is a thin adapter; each is declared in `build.rs`
//! and granted in `capabilities/default.json`.

use serde::Serialize;
use tauri::Manager;
use ts_rs::TS;

use crate::CommandError;

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
