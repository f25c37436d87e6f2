//! The state shared by every request.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crate::clock::Clock;
use crate::faults::Faults;
use crate::ratelimit::RateLimiter;
use crate::store::Db;
use crate::webhooks;

/// Everything a request may use: the database, the clock, the limits, the faults.
#[derive(Debug, Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    db: Db,
    clock: Arc<Clock>,
    control: bool,
    limiter: RateLimiter,
    faults: Faults,
    in_flight: Mutex<HashSet<(String, String)>>,
    worker: Worker,
}

impl AppState {
    /// State over a database; `control` turns the `/_sandbox` routes on.
    pub fn new(db: Db, control: bool) -> Self {
        AppState {
            inner: Arc::new(Inner {
                db,
                clock: Arc::new(Clock::new()),
                control,
                limiter: RateLimiter::default(),
                faults: Faults::default(),
                in_flight: Mutex::new(HashSet::new()),
                worker: Worker::default(),
            }),
        }
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    /// The server's clock.
    pub fn clock(&self) -> &Arc<Clock> {
        &self.inner.clock
    }

    /// Whether the control routes are on.
    pub fn control(&self) -> bool {
        self.inner.control
    }

    /// The rate limiter.
    pub fn limiter(&self) -> &RateLimiter {
        &self.inner.limiter
    }

    /// The armed faults.
    pub fn faults(&self) -> &Faults {
        &self.inner.faults
    }

    /// What the background worker's ticks share (see [`crate::worker`]).
    pub fn worker(&self) -> &Worker {
        &self.inner.worker
    }

    /// Marks (API key, Idempotency-Key) in progress; None when it already is.
    pub fn begin_write(&self, key_id: &str, idem_key: &str) -> Option<InFlight> {
        let entry = (key_id.to_owned(), idem_key.to_owned());
        let mut set = self
            .inner
            .in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if !set.insert(entry.clone()) {
            return None;
        }
        Some(InFlight {
            state: self.clone(),
            entry,
        })
    }
}

/// An Idempotency-Key in progress; dropping it (even while unwinding) releases it.
#[derive(Debug)]
pub struct InFlight {
    state: AppState,
    entry: (String, String),
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut set = self
            .state
            .inner
            .in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        set.remove(&self.entry);
    }
}

/// What the background worker's ticks share: the lock that keeps them apart and the
/// HTTP client that delivers webhooks.
#[derive(Debug)]
pub struct Worker {
    pub(crate) lock: tokio::sync::Mutex<()>,
    pub(crate) http: reqwest::Client,
}

impl Default for Worker {
    fn default() -> Self {
        Worker {
            lock: tokio::sync::Mutex::new(()),
            http: webhooks::http_client(),
        }
    }
}
