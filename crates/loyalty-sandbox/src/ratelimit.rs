//! Rate limits: fixed windows by the server's clock, kept in memory.
//!
//! Three counters are checked for each authenticated request: the key's requests,
//! the business's requests (all its keys, both places), and, for writes, the key's
//! writes. Windows start at multiples of `window_seconds` since the epoch on the
//! server's clock, so moving the clock moves the windows. A refused request does not
//! count. Counters live in memory: a restart starts fresh windows.
//!
//! Failed authentications (unknown keys, OAuth tokens) are counted per client
//! address: after [`AUTH_FAILURES_PER_MINUTE`] in a minute the address is answered
//! 429 rate_limited until the minute ends, before any key lookup.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use crate::store::business::RateLimits;

/// What the rate-limit headers of an answer report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// The limits in force.
    pub limits: RateLimits,
    /// Requests left in the key's window.
    pub remaining: u64,
    /// Seconds until the window resets.
    pub reset: u64,
}

impl Report {
    /// The report of a request that no key was counted for: the default limits, the
    /// whole quota left.
    pub fn unauthenticated(now_ms: i64) -> Report {
        let limits = RateLimits::default();
        Report {
            limits,
            remaining: limits.requests_per_key,
            reset: reset_secs(now_ms, limits.window_seconds),
        }
    }

    /// `RateLimit-Policy: "key";q=600;w=60, "writes";q=120;w=60`.
    pub fn policy_header(&self) -> String {
        let w = self.limits.window_seconds;
        format!(
            "\"key\";q={};w={w}, \"writes\";q={};w={w}",
            self.limits.requests_per_key, self.limits.writes_per_key
        )
    }

    /// `RateLimit: "key";r=599;t=60`.
    pub fn limit_header(&self) -> String {
        format!("\"key\";r={};t={}", self.remaining, self.reset)
    }
}

/// A window's length in milliseconds, at least one second; saturating, so no stored
/// value can overflow the arithmetic (the control route also bounds it).
fn window_ms(window_seconds: u64) -> i64 {
    i64::try_from(window_seconds.max(1).saturating_mul(1000)).unwrap_or(i64::MAX)
}

fn reset_secs(now_ms: i64, window: u64) -> u64 {
    let window_ms = window_ms(window);
    let into = now_ms.rem_euclid(window_ms);
    ((window_ms - into + 999) / 1000).max(1) as u64
}

/// Failed authentications one address may make per minute before it is refused.
pub const AUTH_FAILURES_PER_MINUTE: u64 = 100;

/// Which counter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Counter {
    Key(String),
    Business(String),
    Writes(String),
    AuthFailures(IpAddr),
}

/// The in-memory counters.
#[derive(Debug, Default)]
pub struct RateLimiter {
    windows: Mutex<HashMap<Counter, (i64, u64)>>,
}

impl RateLimiter {
    /// Seconds to wait when `ip` used up its failed authentications this minute.
    pub fn auth_failures_exceeded(&self, ip: IpAddr, now_ms: i64) -> Option<u64> {
        let start = now_ms - now_ms.rem_euclid(60_000);
        let windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        match windows.get(&Counter::AuthFailures(ip)) {
            Some((s, n)) if *s == start && *n >= AUTH_FAILURES_PER_MINUTE => {
                Some(reset_secs(now_ms, 60))
            }
            _ => None,
        }
    }

    /// Counts a failed authentication from `ip`.
    pub fn record_auth_failure(&self, ip: IpAddr, now_ms: i64) {
        let start = now_ms - now_ms.rem_euclid(60_000);
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        let entry = windows
            .entry(Counter::AuthFailures(ip))
            .or_insert((start, 0));
        if entry.0 != start {
            *entry = (start, 0);
        }
        entry.1 += 1;
    }

    /// What the key's window holds now, counting nothing: the numbers an answer that
    /// refuses the key's request before counting it carries (the business's limits,
    /// as GET /v1/me reports them).
    pub fn peek(&self, key_id: &str, limits: RateLimits, now_ms: i64) -> Report {
        let window_ms = window_ms(limits.window_seconds);
        let start = now_ms - now_ms.rem_euclid(window_ms);
        let windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        let used = match windows.get(&Counter::Key(key_id.to_owned())) {
            Some((s, n)) if *s == start => *n,
            _ => 0,
        };
        Report {
            limits,
            remaining: limits.requests_per_key.saturating_sub(used),
            reset: reset_secs(now_ms, limits.window_seconds),
        }
    }

    /// Counts a request, or refuses it with the report to answer (remaining 0).
    pub fn check(
        &self,
        key_id: &str,
        business_id: &str,
        write: bool,
        limits: RateLimits,
        now_ms: i64,
    ) -> Result<Report, Report> {
        let window_ms = window_ms(limits.window_seconds);
        let start = now_ms - now_ms.rem_euclid(window_ms);
        let reset = reset_secs(now_ms, limits.window_seconds);
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        let used = |counter: Counter| -> u64 {
            match windows.get(&counter) {
                Some((s, n)) if *s == start => *n,
                _ => 0,
            }
        };
        let key_used = used(Counter::Key(key_id.to_owned()));
        let business_used = used(Counter::Business(business_id.to_owned()));
        let writes_used = used(Counter::Writes(key_id.to_owned()));
        let refused = key_used >= limits.requests_per_key
            || business_used >= limits.requests_per_business
            || (write && writes_used >= limits.writes_per_key);
        if refused {
            return Err(Report {
                limits,
                remaining: 0,
                reset,
            });
        }
        windows.insert(Counter::Key(key_id.to_owned()), (start, key_used + 1));
        windows.insert(
            Counter::Business(business_id.to_owned()),
            (start, business_used + 1),
        );
        if write {
            windows.insert(Counter::Writes(key_id.to_owned()), (start, writes_used + 1));
        }
        Ok(Report {
            limits,
            remaining: limits.requests_per_key.saturating_sub(key_used + 1),
            reset,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> RateLimits {
        RateLimits {
            requests_per_key: 3,
            requests_per_business: 5,
            writes_per_key: 1,
            window_seconds: 60,
        }
    }

    #[test]
    fn a_key_is_refused_once_its_window_is_used_and_served_in_the_next() {
        let rl = RateLimiter::default();
        let t = 1_795_338_900_000;
        assert_eq!(rl.check("k", "b", false, limits(), t).unwrap().remaining, 2);
        rl.check("k", "b", false, limits(), t).unwrap();
        rl.check("k", "b", false, limits(), t).unwrap();
        let refused = rl.check("k", "b", false, limits(), t + 1000).unwrap_err();
        assert_eq!(refused.remaining, 0);
        assert_eq!(refused.reset, 59);
        assert!(rl.check("k", "b", false, limits(), t + 60_000).is_ok());
    }

    #[test]
    fn a_peek_reports_the_window_without_counting() {
        let rl = RateLimiter::default();
        let t = 1_795_338_900_000;
        rl.check("k", "b", false, limits(), t).unwrap();
        let seen = rl.peek("k", limits(), t);
        assert_eq!((seen.remaining, seen.limits), (2, limits()));
        assert_eq!(
            rl.peek("k", limits(), t).remaining,
            2,
            "a peek counts nothing"
        );
    }

    #[test]
    fn writes_and_the_business_have_their_own_counters() {
        let rl = RateLimiter::default();
        let t = 1_795_338_900_000;
        rl.check("k", "b", true, limits(), t).unwrap();
        assert!(rl.check("k", "b", true, limits(), t).is_err());
        rl.check("k2", "b", false, limits(), t).unwrap();
        rl.check("k2", "b", false, limits(), t).unwrap();
        rl.check("k3", "b", false, limits(), t).unwrap();
        rl.check("k3", "b", false, limits(), t).unwrap();
        assert!(
            rl.check("k3", "b", false, limits(), t).is_err(),
            "business total is 5"
        );
    }

    #[test]
    fn a_window_of_i64_max_seconds_overflowed_and_crashed_the_request_now_it_saturates() {
        let rl = RateLimiter::default();
        let huge = RateLimits {
            window_seconds: i64::MAX as u64,
            ..limits()
        };
        let report = rl.check("k", "b", false, huge, 1_795_338_900_000).unwrap();
        assert_eq!(report.remaining, 2);
        assert!(report.reset >= 1);
    }

    #[test]
    fn headers_use_the_structured_field_form() {
        let r = Report {
            limits: RateLimits {
                requests_per_key: 600,
                requests_per_business: 1000,
                writes_per_key: 120,
                window_seconds: 60,
            },
            remaining: 599,
            reset: 60,
        };
        assert_eq!(
            r.policy_header(),
            "\"key\";q=600;w=60, \"writes\";q=120;w=60"
        );
        assert_eq!(r.limit_header(), "\"key\";r=599;t=60");
    }
}
