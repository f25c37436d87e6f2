//! The `Retry-After` header of an answer, read.

use std::time::Duration;

use jiff::Timestamp;

/// The `Retry-After` of an answer: a delay in seconds or an HTTP-date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryAfter {
    /// Wait this long (`Retry-After: 7`).
    Delay(Duration),
    /// Wait until then (`Retry-After: Sun, 22 Nov 2026 09:15:00 GMT`).
    At(Timestamp),
}

impl RetryAfter {
    /// Parses a header value; None when it is neither form.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            return text
                .parse::<u64>()
                .ok()
                .map(|s| Self::Delay(Duration::from_secs(s)));
        }
        jiff::fmt::rfc2822::DateTimeParser::new()
            .parse_timestamp(text)
            .ok()
            .map(Self::At)
    }

    /// The wait from `now`; a date in the past means no wait.
    pub fn delay_from(self, now: Timestamp) -> Duration {
        match self {
            Self::Delay(delay) => delay,
            Self::At(at) => {
                let span = at.duration_since(now);
                Duration::try_from(span).unwrap_or(Duration::ZERO)
            }
        }
    }
}
