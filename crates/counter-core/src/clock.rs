//! The till's clock, injected so that tests (and the 23-hour rule) control time.

use std::sync::{Arc, Mutex};

use jiff::{SignedDuration, Timestamp};

/// Where the core reads the time. Nothing in the core calls `Timestamp::now()` itself.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The till's current time.
    fn now(&self) -> Timestamp;
}

/// The operating system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock that stands still until moved: for tests and benchmarks.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<Mutex<Timestamp>>);

impl ManualClock {
    /// A clock showing `at`.
    pub fn new(at: Timestamp) -> Self {
        Self(Arc::new(Mutex::new(at)))
    }

    /// Moves the clock by `by` (forward or back, as a wrong till clock would).
    pub fn advance(&self, by: SignedDuration) {
        let mut now = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *now = now
            .saturating_add(by)
            .expect("a signed duration never overflows here");
    }

    /// Sets the clock to `at`.
    pub fn set(&self, at: Timestamp) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = at;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}
