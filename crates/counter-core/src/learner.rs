//! The one place that records what every exchange with the service teaches the till.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use jiff::Timestamp;
use loyalty_api::{Error as ApiError, RateLimit};

use crate::shared::Core;

/// What every exchange with the service teaches the till (connectivity, the service's
/// clock, the rate limit), told by the client itself after each request: the one
/// place it is recorded. A candidate key being checked teaches nothing until it is in
/// use, except that no answer came (offline).
#[derive(Debug)]
pub(crate) struct Learner {
    core: std::sync::Weak<Core>,
    candidate: AtomicBool,
}

impl Learner {
    /// For the key in use.
    pub(crate) fn of(core: &Arc<Core>) -> Arc<Self> {
        Self::new(core, false)
    }

    /// For a key being checked (Connect), until [`Learner::adopt`].
    pub(crate) fn of_candidate(core: &Arc<Core>) -> Arc<Self> {
        Self::new(core, true)
    }

    fn new(core: &Arc<Core>, candidate: bool) -> Arc<Self> {
        Arc::new(Self {
            core: Arc::downgrade(core),
            candidate: AtomicBool::new(candidate),
        })
    }

    /// The candidate key is now the key in use: its answers teach the till.
    pub(crate) fn adopt(&self) {
        self.candidate.store(false, Ordering::SeqCst);
    }

    fn is_candidate(&self) -> bool {
        self.candidate.load(Ordering::SeqCst)
    }
}

impl loyalty_api::Observer for Learner {
    fn answered(&self, date: Option<Timestamp>, rate_limit: Option<&RateLimit>) {
        if let Some(core) = self.core.upgrade()
            && !self.is_candidate()
        {
            core.observe_answer(date, rate_limit);
        }
    }

    fn failed(&self, error: &ApiError) {
        // A refused candidate says nothing about the key in use; no answer does.
        let key_refused = error
            .code()
            .is_some_and(loyalty_api::ErrorCode::refuses_the_key);
        if let Some(core) = self.core.upgrade()
            && !(self.is_candidate() && key_refused)
        {
            core.observe_failure(error);
        }
    }
}
