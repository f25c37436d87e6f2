//! The kiosk's window: full screen, without decorations, above every other window,
//! deaf to closing and keeping the keyboard while the kiosk runs. The core keeps
//! whether the till is a kiosk (it survives a restart); the shell holds the window.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use tauri::{AppHandle, Manager, Runtime};
use ts_rs::TS;

/// How long the kiosk waits, untouched, before it returns to its home screen.
pub const IDLE_SECONDS: u32 = 60;

/// The most times the kiosk takes the keyboard back within [`REFOCUS_WINDOW`].
const MOST_REFOCUSES: u32 = 10;
const REFOCUS_WINDOW: Duration = Duration::from_secs(2);

/// Whether the window is held as a kiosk, and after how long idle it goes home.
#[derive(Debug)]
pub struct Kiosk {
    on: AtomicBool,
    needs_pin: AtomicBool,
    idle_seconds: u32,
    /// When the window last took the keyboard back, and how often since.
    refocused: Mutex<(Instant, u32)>,
}

/// What the page needs of the kiosk.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct KioskStatus {
    /// The till runs as a kiosk.
    pub on: bool,
    /// Seconds untouched before the kiosk goes back to its home screen.
    pub idle_seconds: u32,
    /// `--kiosk` was given while no manager PIN was set: the window asks a manager to
    /// choose one, then turns the kiosk on.
    pub needs_pin: bool,
}

impl Kiosk {
    /// A kiosk that goes home after `idle_seconds` untouched (`--kiosk-idle`).
    pub fn new(idle_seconds: u32) -> Self {
        Self {
            on: AtomicBool::new(false),
            needs_pin: AtomicBool::new(false),
            idle_seconds,
            refocused: Mutex::new((Instant::now(), 0)),
        }
    }

    /// Whether closing is refused now.
    pub fn holds(&self) -> bool {
        self.on.load(Ordering::SeqCst)
    }

    /// Holds the window as a kiosk, or lets it go: full screen, no decorations, always
    /// on top, or a normal window again.
    pub fn apply<R: Runtime>(&self, app: &AppHandle<R>, on: bool) -> KioskStatus {
        self.on.store(on, Ordering::SeqCst);
        if on {
            self.needs_pin.store(false, Ordering::SeqCst);
        }
        if let Some(window) = app.get_webview_window("main") {
            // Best effort: a window manager may refuse any of these.
            let _ = window.set_decorations(!on);
            let _ = window.set_minimizable(!on);
            let _ = window.set_always_on_top(on);
            let _ = window.set_fullscreen(on);
        }
        self.status()
    }

    /// The kiosk's window lost the keyboard (Alt+Tab, another window activated): it
    /// takes it back, so that the scanner never types into another app. Not more than
    /// [`MOST_REFOCUSES`] times in [`REFOCUS_WINDOW`]: a window that insists (a system
    /// prompt) keeps it, and two windows never pass it back and forth for ever.
    pub fn hold_focus<R: Runtime>(&self, window: &tauri::Window<R>) {
        if !self.holds() {
            return;
        }
        let mut refocused = self.refocused.lock().unwrap_or_else(|p| p.into_inner());
        let (since, times) = &mut *refocused;
        if since.elapsed() > REFOCUS_WINDOW {
            (*since, *times) = (Instant::now(), 0);
        }
        *times += 1;
        if *times > MOST_REFOCUSES {
            if *times == MOST_REFOCUSES + 1 {
                tracing::warn!("another window insists on the keyboard; the kiosk lets it be");
            }
            return;
        }
        let _ = window.unminimize();
        let _ = window.set_focus();
    }

    /// Follows the open till's setting: the window changes only where it differs (each
    /// change is a round trip to the window system).
    pub fn follow<R: Runtime>(&self, app: &AppHandle<R>, on: bool) -> KioskStatus {
        if self.holds() == on {
            self.status()
        } else {
            self.apply(app, on)
        }
    }

    /// `--kiosk` was given while no manager PIN was set: the till opened as a counter,
    /// and the window asks a manager to choose a PIN before it becomes a kiosk.
    pub fn ask_for_pin_first(&self) {
        self.needs_pin.store(true, Ordering::SeqCst);
    }

    /// Follows the till's setting, for the page's opening answer: the PIN is asked for
    /// once per start (the first answer says so; a manager who cancels keeps a counter,
    /// and Settings can make it a kiosk later).
    pub fn opening<R: Runtime>(&self, app: &AppHandle<R>, on: bool) -> KioskStatus {
        let status = self.follow(app, on);
        self.needs_pin.store(false, Ordering::SeqCst);
        status
    }

    /// Where it stands.
    pub fn status(&self) -> KioskStatus {
        KioskStatus {
            on: self.holds(),
            idle_seconds: self.idle_seconds,
            needs_pin: self.needs_pin.load(Ordering::SeqCst),
        }
    }
}
