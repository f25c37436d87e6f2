//! The Loyalty Counter desktop shell.
//!
//! This crate is the thin Tauri layer of the app: it opens the window, sets up logging,
//! and exposes commands to the web UI. Commands are adapters (take state and arguments,
//! call one function of the core, map the error); rules and storage live below.
//!
//! Dependencies point down: `loyalty-counter` → `counter-core` → `loyalty-api`.

mod commands;
mod demo;
mod error;
mod kiosk;
mod logging;
mod till;
mod trouble;
mod views;

use tauri::Manager;

pub use commands::{AppInfo, ConnectionView};
pub use error::CommandError;
pub use trouble::TroubleView;

/// Builds and runs the app until its last window closes.
///
/// # Panics
///
/// Panics when the Tauri runtime cannot start (no display, broken configuration): there
/// is nothing the app could show the user in that case.
pub fn run() {
    let started = logging::StartUp::now();
    tauri::Builder::default()
        // Registered first so that a second launch hands over to the running app
        // before the second copy sets anything up.
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            focus_main_window(app);
        }))
        // The system's save dialog, for the queue's history.
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            let log_dir = app.path().app_log_dir()?;
            // The guard flushes the file writer when dropped: keep it for the app's life.
            app.manage(logging::init(&log_dir)?);
            tracing::info!(millis = started.millis(), "setting up");
            app.manage(started);
            tracing::info!(
                version = env!("CARGO_PKG_VERSION"),
                "Loyalty Counter started"
            );
            // The window last (`create: false` in tauri.conf.json), just before the event
            // loop runs and maps it. Mapping waits for WebKit's web process; a window
            // built first would be mapped only once the till had opened, by which time
            // that process is often starting and cannot answer until a half-second
            // time-out (seen with strace: each side waiting for the other).
            let window = app
                .config()
                .app
                .windows
                .iter()
                .find(|w| w.label == "main")
                .ok_or("tauri.conf.json has no main window")?
                .clone();
            let data_dir = app.path().app_data_dir()?;
            let till =
                tauri::async_runtime::block_on(till::Till::open(app.handle().clone(), data_dir))?;
            // `--demo` (what `make demo` passes) opens the app already in the demo.
            if std::env::args().any(|arg| arg == "--demo") {
                tauri::async_runtime::block_on(till.try_demo())?;
            }
            // `--kiosk` makes this till a kiosk (kept: a restart comes back as one).
            let kiosk = kiosk::Kiosk::from_args();
            let on = tauri::async_runtime::block_on(async {
                let session = till.session().await;
                if std::env::args().any(|arg| arg == "--kiosk") {
                    session.counter.start_as_kiosk()?;
                }
                session.counter.kiosk()
            })?;
            tauri::WebviewWindowBuilder::from_config(app.handle(), &window)?.build()?;
            kiosk.apply(app.handle(), on);
            app.manage(kiosk);
            app.manage(till);
            Ok(())
        })
        // A kiosk's window does not close: not by Alt+F4, not by the window manager.
        .on_window_event(|window, event| {
            if let tauri::WindowEvent::CloseRequested { api, .. } = event
                && window.state::<kiosk::Kiosk>().holds()
            {
                api.prevent_close();
            }
        })
        .invoke_handler(tauri::generate_handler![
            commands::app_info,
            commands::first_screen_shown,
            commands::check_base_url,
            commands::check_amount,
            commands::connect,
            commands::try_demo,
            commands::disconnect,
            commands::saved_base_url,
            commands::opening,
            commands::reset_damaged_settings,
            commands::reopen,
            commands::queue_status,
            commands::read_scan,
            commands::read_card,
            commands::record_scan,
            commands::confirm_repeat_visit,
            commands::queue,
            commands::send_now,
            commands::discard_item,
            commands::retry_item,
            commands::gift_card,
            commands::take_payment,
            commands::search_customers,
            commands::sync_customers,
            commands::offline_payments,
            commands::save_offline_payments,
            commands::pass,
            commands::passes,
            commands::enrol,
            commands::manager::pin_status,
            commands::manager::set_pin,
            commands::manager::check_pin,
            commands::manager::change_pin,
            commands::manager::manager_leaves,
            commands::manager::issue_choices,
            commands::manager::issue_gift_card,
            commands::manager::history,
            commands::manager::export_history,
            commands::manager::figures,
            commands::manager::browse,
            commands::manager::demo_samples,
            commands::manager::reset_demo,
            commands::manager::till_places,
            commands::manager::set_till_places,
            commands::manager::preview_message,
            commands::manager::send_message,
            commands::manager::scheduled_messages,
            commands::manager::cancel_message,
            commands::manager::set_kiosk,
            commands::manager::check_in,
        ])
        .run(tauri::generate_context!())
        .expect("the Tauri runtime failed to start");
}

fn focus_main_window(app: &tauri::AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        // Best effort: a window manager may refuse any of these.
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}
