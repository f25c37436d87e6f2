//! The server's one clock.
//!
//! Every rule that depends on time (repeat visits, idempotency memory, key expiry,
//! rate-limit windows, the undo window, demo data) reads [`Clock::now`], never the
//! system clock directly, so `POST /_sandbox/clock` moves all of them at once.

use std::sync::atomic::{AtomicI64, Ordering};

use jiff::{SignedDuration, Timestamp};

/// Wall-clock time plus an offset that only ever grows (moved by the control route).
#[derive(Debug, Default)]
pub struct Clock {
    offset_ms: AtomicI64,
}

impl Clock {
    /// A clock that reads the system time with no offset.
    pub fn new() -> Self {
        Self::default()
    }

    /// The server's current time.
    pub fn now(&self) -> Timestamp {
        // `advance` keeps the offset in range; saturating here means no request can
        // ever panic on the clock.
        Timestamp::now()
            .checked_add(SignedDuration::from_millis(
                self.offset_ms.load(Ordering::SeqCst),
            ))
            .unwrap_or(Timestamp::MAX)
    }

    /// The server's current time in milliseconds since the Unix epoch (how rows store time).
    pub fn now_ms(&self) -> i64 {
        self.now().as_millisecond()
    }

    /// Moves the clock forward by `seconds` and returns the new time, or None (and
    /// leaves the clock alone) when that time is past what timestamps can show
    /// (year 9999). An unchecked `i64::MAX` advance used to overflow and make every
    /// later request panic.
    pub fn advance(&self, seconds: i64) -> Option<Timestamp> {
        let step = seconds.checked_mul(1000)?;
        let updated = self
            .offset_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |offset| {
                let offset = offset.checked_add(step)?;
                Timestamp::now()
                    .checked_add(SignedDuration::from_millis(offset))
                    .ok()
                    .map(|_| offset)
            });
        updated.ok().map(|_| self.now())
    }
}

/// Formats milliseconds since the epoch as the API's timestamp: UTC, milliseconds, `Z`.
pub fn format_ms(ms: i64) -> String {
    match Timestamp::from_millisecond(ms) {
        Ok(ts) => format_ts(ts),
        Err(_) => String::from("1970-01-01T00:00:00.000Z"),
    }
}

/// Formats a timestamp as the API does: `2026-11-22T09:15:00.000Z`.
pub fn format_ts(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Parses an ISO 8601 timestamp with a zone designator into epoch milliseconds.
pub fn parse_ms(text: &str) -> Option<i64> {
    text.parse::<Timestamp>().ok().map(|ts| ts.as_millisecond())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_with_milliseconds_and_z() {
        assert_eq!(format_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_ms(1_795_338_900_123), "2026-11-22T09:15:00.123Z");
    }

    #[test]
    fn advancing_the_clock_moves_now_forward() {
        let clock = Clock::new();
        let before = clock.now_ms();
        assert!(clock.advance(3600).is_some());
        assert!(clock.now_ms() - before >= 3_600_000);
    }

    #[test]
    fn an_advance_past_year_9999_overflowed_and_is_now_refused_leaving_the_clock_alone() {
        let clock = Clock::new();
        assert!(clock.advance(i64::MAX).is_none());
        assert!(clock.advance(400 * 365 * 86_400 * 100).is_none());
        let before = clock.now_ms();
        assert!(before < 4_102_444_800_000, "still before 2100");
        assert!(clock.advance(60).is_some());
    }
}
