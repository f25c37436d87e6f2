//! The till's clock, injected so that tests (and the 23-hour rule) control time.

use std::sync::{Arc, Mutex};

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

/// Where the core reads the time. Nothing in the core calls `Timestamp::now()` itself.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The till's current time.
    fn now(&self) -> Timestamp;

    /// How long the computer has been up, on a clock nobody sets: what the PIN's lock
    /// is measured on, so that setting the wall clock either way never shortens it.
    fn uptime(&self) -> Uptime {
        Uptime::of_system()
    }

    /// Now on the monotonic clock the till waits on: the service's gate, each write's
    /// backoff, the sender's sleeps. Tokio's, so a test that pauses Tokio's time moves
    /// it, and the worker sleeps until the very instants it reads here.
    fn instant(&self) -> tokio::time::Instant {
        tokio::time::Instant::now()
    }
}

/// Time since the computer started, and which start it was (after a reboot the count
/// starts again, under another boot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uptime {
    /// This boot's id (Linux: `/proc/sys/kernel/random/boot_id`).
    pub boot: String,
    /// Time since it, suspended time included (Linux: `/proc/uptime`).
    pub since_boot: Duration,
}

impl Uptime {
    /// The operating system's. Where it cannot be read, the time since this process
    /// started, under a boot id of this process alone: a lock then counts only while the
    /// app runs, and never less.
    pub fn of_system() -> Uptime {
        static FALLBACK: std::sync::OnceLock<(String, std::time::Instant)> =
            std::sync::OnceLock::new();
        let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id");
        let since = std::fs::read_to_string("/proc/uptime");
        if let (Ok(boot), Ok(since)) = (boot, since)
            && let Some(seconds) = since
                .split_whitespace()
                .next()
                .and_then(|s| s.parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
        {
            return Uptime {
                boot: boot.trim().to_owned(),
                since_boot: Duration::from_secs_f64(seconds),
            };
        }
        let (boot, started) = FALLBACK.get_or_init(|| {
            (
                format!("process-{}", uuid::Uuid::new_v4()),
                std::time::Instant::now(),
            )
        });
        Uptime {
            boot: boot.clone(),
            since_boot: started.elapsed(),
        }
    }
}

/// The operating system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock that stands still until moved: for tests and benchmarks. Its wall time and
/// its uptime move apart: [`ManualClock::advance`] sets the wall clock (as a person
/// would), [`ManualClock::pass`] lets time pass, [`ManualClock::reboot`] restarts the
/// computer.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<(Timestamp, Uptime)>>);

impl ManualClock {
    /// A clock showing `at`, on a computer just started.
    pub fn new(at: Timestamp) -> Self {
        let uptime = Uptime {
            boot: "boot-1".to_owned(),
            since_boot: Duration::from_secs(60),
        };
        Self(Arc::new(Mutex::new((at, uptime))))
    }

    fn state(&self) -> std::sync::MutexGuard<'_, (Timestamp, Uptime)> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Moves the wall clock by `by` (forward or back, as a wrong till clock would);
    /// no time passes.
    pub fn advance(&self, by: SignedDuration) {
        let mut state = self.state();
        state.0 = state
            .0
            .saturating_add(by)
            .expect("a signed duration never overflows here");
    }

    /// Sets the wall clock to `at`; no time passes.
    pub fn set(&self, at: Timestamp) {
        self.state().0 = at;
    }

    /// Lets `by` pass: the wall clock and the uptime both move on.
    pub fn pass(&self, by: Duration) {
        let mut state = self.state();
        state.0 = state
            .0
            .saturating_add(by)
            .expect("a duration never overflows here");
        state.1.since_boot += by;
    }

    /// The computer restarts: a new boot, whose uptime starts again.
    pub fn reboot(&self) {
        let mut state = self.state();
        state.1 = Uptime {
            boot: format!("{}+", state.1.boot),
            since_boot: Duration::from_secs(30),
        };
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        self.state().0
    }

    fn uptime(&self) -> Uptime {
        self.state().1.clone()
    }
}
