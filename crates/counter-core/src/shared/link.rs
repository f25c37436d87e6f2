//! The link to the service: whether it answers (connectivity), the service-wide gate
//! (its rate limit, a `Retry-After`, our own backoff while it does not answer), and its
//! clock as last read.

use jiff::{SignedDuration, Timestamp};
use loyalty_api::{Error as ApiError, RateLimit};
use std::sync::MutexGuard;
use tokio::time::Instant;

use super::Core;
use crate::events::{Connectivity, Event};

/// Why the sender is holding back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GateReason {
    /// Our own backoff after a failure: lifted as soon as the service answers again.
    Backoff,
    /// The service asked to wait (`Retry-After`), or the rate limit is used up (`r=0`):
    /// always honoured to the end.
    Service,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Gate {
    pub until: Instant,
    pub reason: GateReason,
}

#[derive(Debug)]
pub(super) struct Link {
    pub(super) connectivity: Connectivity,
    pub(super) gate: Option<Gate>,
    /// Till minus service, in seconds, while beyond the allowed difference.
    pub(super) skew_beyond: Option<i64>,
    /// The service's clock as last read (its `Date`), and when, on a clock that never
    /// jumps: the service's time now is that reading plus the time elapsed since.
    pub(super) service_time: Option<(Timestamp, Instant)>,
}

impl Core {
    fn link(&self) -> MutexGuard<'_, Link> {
        self.link.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn connectivity(&self) -> Connectivity {
        self.link().connectivity
    }

    pub(crate) fn gate(&self) -> Option<Gate> {
        let mut link = self.link();
        match link.gate {
            Some(gate) if gate.until > self.clock.instant() => Some(gate),
            Some(_) => {
                link.gate = None;
                None
            }
            None => None,
        }
    }

    /// Holds every write back for `wait`: only for what concerns the whole service (its
    /// rate limit, a 503 with `Retry-After`, no connection). A wait beyond
    /// `config.max_service_wait` (an absurd `Retry-After` or reset) is cut to it.
    pub(crate) fn set_gate(&self, wait: std::time::Duration, reason: GateReason) {
        let until = self.later(wait.min(self.config.max_service_wait));
        let mut link = self.link();
        // A longer wait the service asked for is never shortened by our own backoff.
        match link.gate {
            Some(g) if g.until >= until && g.reason == GateReason::Service => {}
            _ => link.gate = Some(Gate { until, reason }),
        }
    }

    /// Lifts our own backoff, the service-wide one and every item's (not a wait the
    /// service asked for): "send now".
    pub(crate) fn lift_backoff(&self) {
        let mut link = self.link();
        if link.gate.is_some_and(|g| g.reason == GateReason::Backoff) {
            link.gate = None;
        }
        drop(link);
        self.clear_backoff();
        self.wake.notify_one();
    }

    fn set_connectivity(&self, state: Connectivity) {
        let mut link = self.link();
        if link.connectivity == state {
            return;
        }
        link.connectivity = state;
        if state == Connectivity::Online
            && link.gate.is_some_and(|g| g.reason == GateReason::Backoff)
        {
            link.gate = None;
        }
        drop(link);
        tracing::info!(?state, "connectivity changed");
        self.events.publish(Event::Connectivity { state });
        if state == Connectivity::Online {
            self.wake.notify_one();
        }
    }

    /// An answer came back: the service is reachable; compare clocks; respect the limit.
    pub(crate) fn observe_answer(&self, date: Option<Timestamp>, rate_limit: Option<&RateLimit>) {
        self.set_connectivity(Connectivity::Online);
        match date {
            Some(server) => self.observe_server_time(server),
            // A service that sends no Date: the till's clock is the best reading left.
            None => {
                let mut link = self.link();
                if link.service_time.is_none() {
                    link.service_time = Some((self.now(), self.clock.instant()));
                }
            }
        }
        if let Some(limit) = rate_limit
            && let Some(spent) = limit
                .states
                .iter()
                .filter(|s| s.remaining == 0)
                .max_by_key(|s| s.reset)
        {
            self.set_gate(spent.reset, GateReason::Service);
        }
    }

    /// A request failed: offline when no answer came at all, key refused when the
    /// service refused the key itself.
    pub(crate) fn observe_failure(&self, err: &ApiError) {
        match err {
            ApiError::Transport(t) if t.status.is_none() => {
                self.set_connectivity(Connectivity::Offline)
            }
            ApiError::Problem(p) if p.code.refuses_the_key() => {
                self.set_connectivity(Connectivity::KeyRefused)
            }
            // An answer: the service is there. Only a success shows a refused key works.
            ApiError::Transport(_) | ApiError::Problem(_)
                if self.connectivity() != Connectivity::KeyRefused =>
            {
                self.set_connectivity(Connectivity::Online)
            }
            _ => {}
        }
    }

    fn observe_server_time(&self, server: Timestamp) {
        let till = self.now();
        let skew = till.duration_since(server);
        // The Date header has whole seconds: allow the limit plus that rounding.
        let warning = skew.abs() > self.config.max_clock_skew + SignedDuration::from_secs(1);
        let mut link = self.link();
        link.service_time = Some((server, self.clock.instant()));
        let before = link.skew_beyond;
        link.skew_beyond = warning.then_some(skew.as_secs());
        // Said when the warning starts or ends, and when the difference changes by a
        // minute while it lasts (the status bar shows minutes).
        let minutes = |s: Option<i64>| s.map(|s| s / 60);
        if before.is_some() != warning || minutes(before) != minutes(link.skew_beyond) {
            drop(link);
            tracing::warn!(
                skew_seconds = skew.as_secs(),
                warning,
                "till clock versus service"
            );
            self.events.publish(Event::ClockSkew {
                skew_seconds: skew.as_secs(),
                warning,
            });
        }
    }

    /// The service's time now, as far as the till can tell: its last `Date` plus the
    /// time elapsed since on a clock that never jumps. None until the service has
    /// answered once since the counter opened. The 23-hour rule is measured on it,
    /// because the service forgets Idempotency-Keys by its own clock, and the till's
    /// wall clock can be wrong or corrected at any moment.
    pub(crate) fn service_now(&self) -> Option<Timestamp> {
        let (read, at) = self.link().service_time?;
        let elapsed = SignedDuration::try_from(at.elapsed()).unwrap_or(SignedDuration::MAX);
        read.checked_add(elapsed).ok()
    }

    pub(crate) fn clock_warning(&self) -> bool {
        self.clock_skew().is_some()
    }

    pub(crate) fn clock_skew(&self) -> Option<i64> {
        self.link().skew_beyond
    }

    /// `wait` from now, saturating rather than overflowing (a wait of years is only
    /// ever asked for by a broken answer, and is capped before it gets here anyway).
    pub(super) fn later(&self, wait: std::time::Duration) -> Instant {
        let now = self.clock.instant();
        now.checked_add(wait)
            .unwrap_or_else(|| now + std::time::Duration::from_secs(86_400 * 365))
    }
}
