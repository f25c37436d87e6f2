//! Logging: to standard error and to a daily rolling file in the app's log folder.
//!
//! Nothing secret is ever logged: the API key lives in types whose `Debug` and `Display`
//! redact it, and no code formats request headers.

use std::io::IsTerminal as _;
use std::path::Path;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::{fmt, layer::SubscriberExt, util::SubscriberInitExt};

/// The lines the file's writer thread may have waiting: past them, a line is dropped
/// rather than the app made to wait for the disk. The crate's default (128,000) is a
/// buffer of 4 MB, allocated and written through when the app starts: a tenth of what
/// the app's own process holds beyond a bare window's, for a till that logs a few lines
/// a minute.
const LINES_WAITING_AT_MOST: usize = 1_024;

/// Keeps the log file's writer alive until [`flush`]: dropping it writes out what is
/// left.
static FILE_WRITER: std::sync::Mutex<Option<WorkerGuard>> = std::sync::Mutex::new(None);

/// Installs the global subscriber and a panic hook that logs panics.
///
/// The levels come from `RUST_LOG` ("warn,counter_core=debug": a level, and a level for
/// each target) and default to `info` for the app's crates.
pub fn init(log_dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    // The logs are the till's user's alone, as its data are.
    counter_core::private::dir(log_dir)?;
    let file = tracing_appender::rolling::Builder::new()
        .rotation(tracing_appender::rolling::Rotation::DAILY)
        .filename_prefix("loyalty-counter")
        .filename_suffix("log")
        .max_log_files(14)
        .build(log_dir)?;
    let (file, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LINES_WAITING_AT_MOST)
        .finish(file);
    let filter = levels("warn,loyalty_counter_lib=info,counter_core=info");

    tracing_subscriber::registry()
        .with(filter)
        // Colours only for a person at a terminal: piped, the lines stay plain text.
        .with(
            fmt::layer()
                .with_ansi(std::io::stderr().is_terminal())
                .with_writer(std::io::stderr),
        )
        .with(fmt::layer().with_ansi(false).with_writer(file))
        .try_init()?;

    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        tracing::error!(panic = %info, "the app panicked");
        default_hook(info);
    }));
    *FILE_WRITER.lock().unwrap_or_else(|p| p.into_inner()) = Some(guard);
    Ok(())
}

/// Writes out what waits for the log file, and stops writing to it (the process is
/// about to be replaced: `crate::update`); standard error still hears the rest.
pub fn flush() {
    drop(FILE_WRITER.lock().unwrap_or_else(|p| p.into_inner()).take());
}

/// The levels `RUST_LOG` sets, or `default` when it is unset or not a list of levels.
fn levels(default: &str) -> Targets {
    std::env::var("RUST_LOG")
        .ok()
        .and_then(|set| set.parse().ok())
        .unwrap_or_else(|| default.parse().expect("the default levels parse"))
}

/// When the app started, to log how long its window took to show a first screen: the
/// figure a shop complains about when a till is slow in the morning (and the marker
/// `make measure` times start-up by).
#[derive(Debug)]
pub struct StartUp {
    at: std::time::Instant,
    told: std::sync::atomic::AtomicBool,
}

impl StartUp {
    /// Starts the clock; call it first thing.
    pub fn now() -> Self {
        Self {
            at: std::time::Instant::now(),
            told: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Milliseconds since the start.
    pub fn millis(&self) -> u128 {
        self.at.elapsed().as_millis()
    }

    /// Logs, once per run, the first screen on display and the time it took: in all,
    /// and since the page began to load (the rest is the process, the till and WebKit).
    pub fn first_screen(&self, screen: impl std::fmt::Debug, page_millis: u32) {
        if !self.told.swap(true, std::sync::atomic::Ordering::Relaxed) {
            let millis = self.millis();
            tracing::info!(?screen, millis, page_millis, "first screen on display");
        }
    }
}
