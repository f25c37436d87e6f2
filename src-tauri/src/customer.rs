//! The customer's screen's window: opened on the monitor a manager chose (full screen
//! there, without decorations), or beside the counter when the computer has one
//! monitor; closed when turned off. What it shows is the core's (`CustomerScreen`); its
//! capability grants it that command and the one its page hears the core by
//! (`page_events`), nothing a cashier can do.

use serde::Serialize;
use tauri::{AppHandle, Manager, Monitor, WebviewUrl, WebviewWindowBuilder};
use ts_rs::TS;

/// The customer's window's label (its capability names it).
pub const LABEL: &str = "customer";
/// Its title.
const TITLE: &str = "Loyalty Counter: customer screen";

/// A monitor, as Settings offers it.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct MonitorView {
    /// Its name, as the system gives it.
    pub name: String,
    /// Its size in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// The counter's window is on it.
    pub counter: bool,
}

fn name(monitor: &Monitor) -> String {
    monitor.name().cloned().unwrap_or_default()
}

/// The computer's monitors.
pub fn monitors(app: &AppHandle) -> Vec<MonitorView> {
    let counter = app
        .get_webview_window("main")
        .and_then(|w| w.current_monitor().ok().flatten())
        .map(|m| name(&m));
    app.available_monitors()
        .unwrap_or_default()
        .iter()
        .map(|m| MonitorView {
            name: name(m),
            width: m.size().width,
            height: m.size().height,
            counter: counter.as_deref() == Some(name(m).as_str()),
        })
        .collect()
}

/// The monitor the customer's screen goes on: the one named, else any but the
/// counter's; None when there is no such monitor (one monitor: a window beside).
fn chosen(app: &AppHandle, wanted: Option<&str>) -> Option<Monitor> {
    let counter = app
        .get_webview_window("main")
        .and_then(|w| w.current_monitor().ok().flatten())
        .map(|m| name(&m));
    let all = app.available_monitors().unwrap_or_default();
    match wanted {
        Some(wanted) => all.into_iter().find(|m| name(m) == wanted),
        None => all.into_iter().find(|m| Some(name(m)) != counter),
    }
}

/// Shows the customer's screen (on `monitor`, by name), or turns it off (None).
pub fn follow(app: &AppHandle, display: Option<Option<String>>) {
    let open = app.get_webview_window(LABEL);
    let Some(monitor) = display else {
        if let Some(window) = open
            && let Err(err) = window.destroy()
        {
            tracing::warn!(%err, "the customer's screen could not be closed");
        }
        return;
    };
    let target = chosen(app, monitor.as_deref());
    let window = match open {
        Some(window) => window,
        None => {
            let built = WebviewWindowBuilder::new(app, LABEL, WebviewUrl::App("index.html".into()))
                .title(TITLE)
                .inner_size(800.0, 600.0)
                .background_color(tauri::window::Color(0x1c, 0x19, 0x17, 0xff))
                .focused(false)
                .build();
            match built {
                Ok(window) => window,
                Err(err) => {
                    tracing::error!(%err, "the customer's screen could not be opened");
                    return;
                }
            }
        }
    };
    // On its own monitor it fills it; beside the counter it is a window.
    if let Some(target) = target {
        let _ = window.set_decorations(false);
        let _ = window.set_position(*target.position());
        let _ = window.set_fullscreen(true);
    } else {
        let _ = window.set_fullscreen(false);
        let _ = window.set_decorations(true);
    }
}
