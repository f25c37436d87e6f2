//! When and how long to retry: a policy apart from the transport.
//!
//! The policy is pure: [`RetryPolicy::decide`] takes the failure, how many attempts
//! failed so far and the current time, and says "retry after this wait" or "give up".
//! An outbox that keeps its attempt count across restarts calls it directly;
//! [`RetryPolicy::retry_write`] is the in-process loop for everyone else.
//!
//! Backoff is a small computation rather than an iterator (backon's shape), because
//! the outbox needs the wait of *attempt n* without replaying n steps, and tests need
//! to inject the jitter.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use crate::code::ErrorCode;
use crate::error::{Error, TransportKind};
use crate::idempotency::IdempotencyKey;
pub use crate::retry_after::RetryAfter;

/// Whether a failed request may succeed if sent again unchanged (a write with the
/// same Idempotency-Key).
///
/// Retryable: no connection, a timeout, a connection closed before or during the
/// answer, 409 `idempotency_in_progress`, 429, 500, 502, 503 and 504 (502 and 504
/// are what proxies in front of the service answer when it is away). Everything
/// else is final: the same request would get the same answer.
pub fn is_retryable(err: &Error) -> bool {
    match err {
        Error::Transport(t) => match t.kind {
            TransportKind::Connect
            | TransportKind::Timeout
            | TransportKind::ConnectionClosed
            | TransportKind::BodyCutShort => true,
            _ => t.status.is_some_and(retryable_status),
        },
        Error::Problem(p) => {
            p.code == ErrorCode::IdempotencyInProgress || retryable_status(p.status)
        }
    }
}

fn retryable_status(status: u16) -> bool {
    matches!(status, 429 | 500 | 502 | 503 | 504)
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Send the same request again (same Idempotency-Key) after this wait.
    RetryAfter(Duration),
    /// The failure is final, or the attempts are used up.
    GiveUp,
}

/// How a backoff delay is spread so that many tills do not retry in step.
#[derive(Clone, Default)]
pub enum Jitter {
    /// No jitter: exactly the exponential delay.
    None,
    /// A uniformly random delay between half the exponential delay and all of it.
    #[default]
    Equal,
    /// A caller's function of the exponential delay (tests pass a fixed one).
    Custom(Arc<dyn Fn(Duration) -> Duration + Send + Sync>),
}

impl fmt::Debug for Jitter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Jitter::None => f.write_str("None"),
            Jitter::Equal => f.write_str("Equal"),
            Jitter::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl Jitter {
    fn apply(&self, delay: Duration) -> Duration {
        match self {
            Jitter::None => delay,
            Jitter::Equal => {
                use rand::Rng;
                let half = delay / 2;
                let extra_ms = rand::rng().random_range(0..=half.as_millis() as u64);
                half + Duration::from_millis(extra_ms)
            }
            Jitter::Custom(f) => f(delay),
        }
    }
}

/// When to retry and how long to wait.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Attempts in all, the first included; `u32::MAX` for an outbox that never gives up.
    pub max_attempts: u32,
    /// The backoff delay after the first failure.
    pub initial_delay: Duration,
    /// The longest backoff delay (a server's Retry-After is honoured even if longer).
    pub max_delay: Duration,
    /// The spread applied to backoff delays.
    pub jitter: Jitter,
}

impl Default for RetryPolicy {
    /// Five attempts, waits from 500 ms doubling up to 30 s, equal jitter.
    fn default() -> Self {
        Self {
            max_attempts: 5,
            initial_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            jitter: Jitter::Equal,
        }
    }
}

impl RetryPolicy {
    /// The jittered backoff after `failed_attempts` failures (1 for the first):
    /// `initial_delay * 2^(failed_attempts - 1)`, at most `max_delay`.
    pub fn backoff(&self, failed_attempts: u32) -> Duration {
        let exponent = failed_attempts.saturating_sub(1).min(31);
        let delay = self
            .initial_delay
            .checked_mul(1u32 << exponent)
            .unwrap_or(self.max_delay)
            .min(self.max_delay);
        self.jitter.apply(delay)
    }

    /// Decides after `failed_attempts` failed attempts (1 after the first), the last
    /// of which failed with `err`. The wait is the service's Retry-After (measured
    /// from `now` when it is a date) or else the backoff.
    pub fn decide(&self, err: &Error, failed_attempts: u32, now: Timestamp) -> Decision {
        if !is_retryable(err) || failed_attempts >= self.max_attempts {
            return Decision::GiveUp;
        }
        let wait = match err.retry_after() {
            Some(after) => after.delay_from(now),
            None => self.backoff(failed_attempts),
        };
        Decision::RetryAfter(wait)
    }

    /// Runs `attempt` until it succeeds or the policy gives up, passing it the same
    /// Idempotency-Key every time: a write is only ever retried with its own key.
    ///
    /// ```no_run
    /// # async fn example(client: loyalty_api::Client, scan: loyalty_api::NewScan) -> Result<(), loyalty_api::Error> {
    /// use loyalty_api::{IdempotencyKey, RetryPolicy};
    /// let key = IdempotencyKey::new_v4(); // stored with the write before the first attempt
    /// let result = RetryPolicy::default()
    ///     .retry_write(&key, |key| client.scans().create(key, &scan))
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub async fn retry_write<'k, T, F, Fut>(
        &self,
        key: &'k IdempotencyKey,
        mut attempt: F,
    ) -> Result<T, Error>
    where
        F: FnMut(&'k IdempotencyKey) -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        self.retry(|| attempt(key)).await
    }

    /// Runs a read (or any idempotent call) until it succeeds or the policy gives up.
    pub async fn retry<T, F, Fut>(&self, mut attempt: F) -> Result<T, Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        let mut failed = 0u32;
        loop {
            match attempt().await {
                Ok(value) => return Ok(value),
                Err(err) => {
                    failed = failed.saturating_add(1);
                    match self.decide(&err, failed, Timestamp::now()) {
                        Decision::GiveUp => return Err(err),
                        Decision::RetryAfter(wait) => {
                            tracing::debug!(attempt = failed, ?wait, error = %err, "retrying");
                            tokio::time::sleep(wait).await;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::TransportError;
    use crate::problem::Problem;
    use reqwest::header::{HeaderMap, HeaderValue};

    fn problem(status: u16, code: &str, retry_after: Option<&'static str>) -> Error {
        let mut headers = HeaderMap::new();
        if let Some(value) = retry_after {
            headers.insert("retry-after", HeaderValue::from_static(value));
        }
        let body = format!(r#"{{"code":"{code}"}}"#);
        Problem::from_answer(status, &headers, body.as_bytes())
            .unwrap()
            .into()
    }

    fn transport(kind: TransportKind, status: Option<u16>) -> Error {
        let mut err = TransportError::new(kind, "test");
        if let Some(status) = status {
            err = err.with_answer(status, None);
        }
        err.into()
    }

    fn no_jitter() -> RetryPolicy {
        RetryPolicy {
            jitter: Jitter::None,
            ..RetryPolicy::default()
        }
    }

    /// Waits short enough to run on the real clock.
    fn quick() -> RetryPolicy {
        RetryPolicy {
            initial_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(2),
            ..no_jitter()
        }
    }

    #[test]
    fn connection_failures_timeouts_and_busy_answers_are_retryable() {
        assert!(is_retryable(&transport(TransportKind::Connect, None)));
        assert!(is_retryable(&transport(TransportKind::Timeout, None)));
        assert!(is_retryable(&transport(
            TransportKind::ConnectionClosed,
            None
        )));
        assert!(is_retryable(&transport(
            TransportKind::BodyCutShort,
            Some(200)
        )));
        assert!(is_retryable(&problem(409, "idempotency_in_progress", None)));
        assert!(is_retryable(&problem(429, "rate_limited", None)));
        assert!(is_retryable(&problem(500, "internal_error", None)));
        assert!(is_retryable(&problem(503, "service_unavailable", None)));
        assert!(is_retryable(&problem(
            503,
            "rate_limiter_unavailable",
            None
        )));
        assert!(is_retryable(&transport(TransportKind::NotJson, Some(502))));
    }

    #[test]
    fn refusals_and_garbage_answers_are_final() {
        assert!(!is_retryable(&problem(409, "recent_visit", None)));
        assert!(!is_retryable(&problem(409, "insufficient_balance", None)));
        assert!(!is_retryable(&problem(422, "validation_failed", None)));
        assert!(!is_retryable(&problem(401, "invalid_api_key", None)));
        assert!(!is_retryable(&problem(409, "some_new_conflict", None)));
        assert!(!is_retryable(&transport(TransportKind::Tls, None)));
        assert!(!is_retryable(&transport(
            TransportKind::InvalidJson,
            Some(200)
        )));
        assert!(!is_retryable(&transport(TransportKind::NotJson, Some(404))));
    }

    #[test]
    fn an_unknown_code_with_a_retryable_status_is_retried() {
        assert!(is_retryable(&problem(503, "maintenance_window", None)));
    }

    #[test]
    fn backoff_doubles_from_the_initial_delay_up_to_the_maximum() {
        let policy = no_jitter();
        let waits: Vec<u64> = (1..=8)
            .map(|n| policy.backoff(n).as_millis() as u64)
            .collect();
        assert_eq!(waits, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
        assert_eq!(policy.backoff(1000), Duration::from_secs(30));
    }

    #[test]
    fn equal_jitter_stays_between_half_and_all_of_the_delay() {
        let policy = RetryPolicy::default();
        for _ in 0..200 {
            let wait = policy.backoff(3);
            assert!(
                wait >= Duration::from_secs(1) && wait <= Duration::from_secs(2),
                "{wait:?}"
            );
        }
    }

    #[test]
    fn an_injected_jitter_is_applied_to_the_backoff() {
        let policy = RetryPolicy {
            jitter: Jitter::Custom(Arc::new(|d| d / 4)),
            ..RetryPolicy::default()
        };
        assert_eq!(policy.backoff(2), Duration::from_millis(250));
    }

    #[test]
    fn the_wait_comes_from_retry_after_seconds_before_backoff() {
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let policy = no_jitter();
        assert_eq!(
            policy.decide(&problem(429, "rate_limited", Some("7")), 1, now),
            Decision::RetryAfter(Duration::from_secs(7))
        );
        assert_eq!(
            policy.decide(&problem(500, "internal_error", None), 2, now),
            Decision::RetryAfter(Duration::from_secs(1))
        );
    }

    #[test]
    fn the_wait_comes_from_a_retry_after_http_date() {
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let err = problem(
            503,
            "service_unavailable",
            Some("Sun, 22 Nov 2026 09:15:30 GMT"),
        );
        assert_eq!(
            no_jitter().decide(&err, 1, now),
            Decision::RetryAfter(Duration::from_secs(30))
        );
        let past = problem(
            503,
            "service_unavailable",
            Some("Sun, 22 Nov 2026 09:00:00 GMT"),
        );
        assert_eq!(
            no_jitter().decide(&past, 1, now),
            Decision::RetryAfter(Duration::ZERO)
        );
    }

    #[test]
    fn retry_after_parses_seconds_and_dates_and_ignores_garbage() {
        assert_eq!(
            RetryAfter::parse(" 12 "),
            Some(RetryAfter::Delay(Duration::from_secs(12)))
        );
        assert!(matches!(
            RetryAfter::parse("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(RetryAfter::At(_))
        ));
        assert_eq!(RetryAfter::parse("-3"), None);
        assert_eq!(RetryAfter::parse("soon"), None);
        assert_eq!(RetryAfter::parse(""), None);
    }

    #[test]
    fn the_policy_gives_up_on_final_errors_and_after_its_attempts() {
        let now = Timestamp::UNIX_EPOCH;
        let policy = no_jitter();
        assert_eq!(
            policy.decide(&problem(409, "recent_visit", None), 1, now),
            Decision::GiveUp
        );
        let busy = problem(503, "service_unavailable", None);
        assert!(matches!(
            policy.decide(&busy, 4, now),
            Decision::RetryAfter(_)
        ));
        assert_eq!(policy.decide(&busy, 5, now), Decision::GiveUp);
    }

    #[tokio::test]
    async fn a_write_is_retried_with_the_same_key_until_it_succeeds() {
        let key = IdempotencyKey::new("k-1").unwrap();
        let mut seen = Vec::new();
        let result = quick()
            .retry_write(&key, |key| {
                seen.push(key.clone());
                let n = seen.len();
                async move {
                    if n < 3 {
                        Err(transport(TransportKind::ConnectionClosed, None))
                    } else {
                        Ok(n)
                    }
                }
            })
            .await
            .unwrap();
        assert_eq!(result, 3);
        assert!(seen.iter().all(|k| k == &key));
    }

    #[tokio::test]
    async fn a_final_error_is_returned_at_once() {
        let mut calls = 0;
        let err = quick()
            .retry(|| {
                calls += 1;
                async { Err::<(), _>(problem(409, "card_not_active", None)) }
            })
            .await
            .unwrap_err();
        assert_eq!(calls, 1);
        assert_eq!(err.code(), Some(&ErrorCode::CardNotActive));
    }
}
