//! The Loyalty Counter desktop shell.
//!
//! This crate is the thin Tauri layer of the app: it opens the window, sets up logging,
//! and exposes commands to the web UI. Commands are adapters (take state and arguments,
//! call one function of the core, map the error); rules and storage live below.
//!
//! Dependencies point down: `loyalty-counter` → `counter-core` → `loyalty-api`.
//!
//! # Layers
//!
//! Each module uses only its own layer or lower ones (`crates/layers` checks it in
//! `make lint`). Bottom to top:
//!
//! 0. `views`, `strict`, `customer`, `kiosk`, `logging`, `instance`, `trouble`,
//!    `demo`, `demo_off`, `windowless`: leaves (what the page receives, the objects it sends
//!    read strictly, the customer's window, the kiosk's session, the log, one copy, what
//!    went wrong, the built-in demo; `demo_off.rs` is the file `demo` is read from in a
//!    build without it; the command line's tasks without a window).
//! 1. `error`, `cli`, `mailbox`: a command's error, the command line, each window's
//!    mailbox of events.
//! 2. `camera`, `till`, `update`: the camera a screen opened, the open till, an update
//!    installed under the app.
//! 3. `commands`: the commands, thin adapters over the core.
//! 4. `command_table`: every command's handler and arguments, read by `build.rs`.
//! 5. `door`, `command_lists`: the door every call comes through; the lists' test.

mod camera;
mod cli;
#[cfg(test)]
mod command_lists;
/// Every command, read by `build.rs` from `src/commands/`: the handler of each and the
/// arguments each takes.
#[macro_use]
mod command_table {
    /// A command and the arguments the page sends it, as `build.rs` read them.
    #[derive(Debug)]
    pub struct Command {
        /// The command's name.
        pub name: &'static str,
        /// Its line of the core's role table.
        pub action: counter_core::roles::Action,
        /// Its arguments, as the page names them (camelCase).
        pub arguments: &'static [&'static str],
    }

    include!(concat!(env!("OUT_DIR"), "/commands.rs"));
}
mod commands;
mod customer;
#[cfg_attr(not(feature = "demo"), path = "demo_off.rs")]
mod demo;
mod door;
mod error;
mod instance;
mod kiosk;
mod logging;
mod mailbox;
mod strict;
mod till;
mod trouble;
mod update;
mod views;
mod windowless;

use tauri::Manager;

pub use cli::Cli;
pub use commands::{AppInfo, ConnectionView};
pub use error::CommandError;
pub use trouble::TroubleView;

/// How long after its page has loaded the window appears, should the page not have
/// built its first screen by then (a script that failed).
const SHOWN_AT_THE_LATEST: std::time::Duration = std::time::Duration::from_secs(1);

/// Builds and runs the app, started with `cli`, until its last window closes.
///
/// # Panics
///
/// Panics when the Tauri runtime cannot start (no display, broken configuration): there
/// is nothing the app could show the user in that case.
pub fn run(cli: Cli) {
    let started = logging::StartUp::now();
    // Before a file is made: the app's and its web view's are its user's alone.
    counter_core::private::from_now_on();
    let context = tauri::generate_context!();
    let identifier = &context.config().identifier;
    if let Some(cli::Command::Verify { demo }) = cli.command {
        std::process::exit(windowless::verify(identifier, demo));
    }
    if let Some(when) = &cli.restore_snapshot {
        std::process::exit(windowless::restore_snapshot(identifier, cli.demo, when));
    }
    // A second launch hands over to the running copy before it sets anything up. A copy
    // that cannot tell runs on: the till's own lock keeps its data to one owner.
    let first = match instance::claim() {
        Ok(instance::Claim::First(listener)) => Some(listener),
        Ok(instance::Claim::HandedOver) => {
            eprintln!("Loyalty Counter is already running: its window is brought forward.");
            return;
        }
        Err(error) => {
            eprintln!("could not tell whether Loyalty Counter is already running: {error}");
            None
        }
    };
    tauri::Builder::default()
        // The system's save dialog, for the queue's history.
        .plugin(tauri_plugin_dialog::init())
        .setup(move |app| {
            let log_dir = app.path().app_log_dir()?;
            logging::init(&log_dir)?;
            tracing::info!(millis = started.millis(), "setting up");
            app.manage(started);
            if let Some(listener) = first {
                let handle = app.handle().clone();
                instance::answer(listener, move || focus_main_window(&handle))?;
            }
            tracing::info!(version = %cli::VERSION, "Loyalty Counter started");
            // Updates installed under the app are restarted into between customers.
            app.manage(update::Updates::new(
                std::env::current_exe().ok(),
                std::env::args_os().skip(1).collect(),
            ));
            update::watch(app.handle());
            // The window first (`create: false` in tauri.conf.json), hidden until its page
            // has built its first screen (below), and nothing after it that blocks. The
            // till opens meanwhile, in the background; the page's calls wait for it.
            let window = app
                .config()
                .app
                .windows
                .iter()
                .find(|w| w.label == "main")
                .ok_or("tauri.conf.json has no main window")?
                .clone();
            // The app's data (the tills, the demo, the key file) are the user's alone.
            let data_dir = app.path().app_data_dir()?;
            counter_core::private::dir(&data_dir)?;
            let (till, mut opening) = till::Till::opening(app.handle().clone(), data_dir);
            app.manage(till);
            app.manage(kiosk::Kiosk::new(cli.kiosk_idle));
            app.manage(camera::CameraDoor::new(cli.camera.clone()));
            app.manage(mailbox::Mailboxes::default());
            let start = till::Start {
                demo: cli.demo,
                kiosk: cli.kiosk,
            };
            tauri::WebviewWindowBuilder::from_config(app.handle(), &window)?.build()?;
            if start.kiosk {
                // Known without the till: the window is a kiosk's from its first frame.
                app.state::<kiosk::Kiosk>().apply(app.handle(), true);
            }
            let app = app.handle().clone();
            let show_customer = cli.customer_display;
            tauri::async_runtime::spawn(async move {
                match app.state::<till::Till>().open(&mut opening, start).await {
                    Ok(opened) => {
                        // The size the till was last drawn at.
                        if let Ok(level) = opening.counter().zoom() {
                            apply_zoom(&app, level);
                        }
                        let kiosk = app.state::<kiosk::Kiosk>();
                        if opened.kiosk_needs_pin {
                            kiosk.ask_for_pin_first();
                        }
                        kiosk.follow(&app, opened.kiosk);
                        // The customer's screen, as a manager set it (or `--customer-display`).
                        let display = opening
                            .counter()
                            .settings()
                            .ok()
                            .and_then(|s| s.customer_display);
                        if display.is_some() || show_customer {
                            customer::follow(&app, Some(display.and_then(|d| d.monitor)));
                        }
                        drop(opening);
                    }
                    Err(err) => {
                        // Said where the person looks (a till whose data cannot be read,
                        // or whose key is not on this computer), then the app ends, as a
                        // failed set-up does; the lock is held until then, so no call
                        // finds a till that is not there.
                        tracing::error!(%err, "the till could not be opened");
                        use tauri_plugin_dialog::{DialogExt as _, MessageDialogKind};
                        let ending = app.clone();
                        app.dialog()
                            .message(format!("{}.", err.message))
                            .title("Loyalty Counter could not open the till")
                            .kind(MessageDialogKind::Error)
                            .show(move |_| ending.exit(1));
                        std::future::pending::<()>().await;
                    }
                }
            });
            Ok(())
        })
        // The window appears when the page has built its first screen
        // (`first_screen_built`), not while WebKit's web process starts up: mapped then,
        // it waited for that process in a synchronous exchange the process could not yet
        // answer, until a half-second time-out (seen with strace: each side waiting for
        // the other), in about half of all starts. Should the page's script never get that
        // far, the window appears anyway, a moment after the page has loaded. (WebKit
        // says the page has loaded before its module script has run: showing the window
        // then showed it blank, ~45 ms before the counter.)
        //
        // A page that begins to load hears the core from then on (`mailbox`).
        .on_page_load(|webview, payload| match payload.event() {
            tauri::webview::PageLoadEvent::Started => {
                webview.state::<mailbox::Mailboxes>().open(webview.label());
            }
            tauri::webview::PageLoadEvent::Finished => {
                let window = webview.window();
                tauri::async_runtime::spawn(async move {
                    tokio::time::sleep(SHOWN_AT_THE_LATEST).await;
                    if !window.is_visible().unwrap_or(true) {
                        show_window(&window);
                    }
                });
            }
        })
        // A kiosk's window does not close, not by Alt+F4, not by the window manager, and
        // does not let another window keep the keyboard.
        .on_window_event(|window, event| {
            let kiosk = window.state::<kiosk::Kiosk>();
            match event {
                tauri::WindowEvent::CloseRequested { api, .. } if kiosk.holds() => {
                    api.prevent_close();
                }
                tauri::WindowEvent::Focused(false) => kiosk.hold_focus(window),
                tauri::WindowEvent::Destroyed => {
                    window.state::<mailbox::Mailboxes>().close(window.label())
                }
                _ => {}
            }
        })
        // Every call of the page comes through the app's door, which refuses a malformed
        // one in the shape of every refusal before it is decoded.
        .register_asynchronous_uri_scheme_protocol("ipc", door::answer)
        .invoke_handler(every_command!())
        .run(context)
        .expect("the Tauri runtime failed to start");
}

/// Draws the main window's page at `percent` of its size.
fn apply_zoom(app: &tauri::AppHandle, percent: u16) {
    if let Some(window) = app.get_webview_window("main")
        && let Err(err) = window.set_zoom(f64::from(percent) / 100.0)
    {
        tracing::warn!(%err, percent, "the window could not be zoomed");
    }
}

/// Shows the main window, created hidden (see `on_page_load` in [`run`]).
fn show_window(window: &tauri::Window) {
    if let Err(err) = window.show() {
        tracing::error!(%err, "the window could not be shown");
    }
}

fn focus_main_window(app: &tauri::AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        // Best effort: a window manager may refuse any of these.
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}
