//! The period of `GET /v1/stats`: which whole days a request asks for.
//!
//! `from` and `to` are `YYYY-MM-DD`, both included. Neither: today and the 29 days
//! before; only `to`: it and the 29 before; only `from`: up to today. `from` after
//! `to` or more than 366 days answer invalid_parameter `from`; a malformed or
//! impossible date answers invalid_parameter naming it. "Today" is passed in (the
//! server clock's date in the business's zone).

use jiff::ToSpan;
use jiff::civil::Date;

use crate::error::{ApiError, ApiResult};

/// The default period, in days.
pub const DEFAULT_DAYS: i64 = 30;
/// The longest period, in days.
pub const MAX_DAYS: i64 = 366;

/// Parses a strict `YYYY-MM-DD` date.
pub fn parse_date(text: &str) -> Option<Date> {
    let b = text.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shaped {
        return None;
    }
    text.parse::<Date>().ok()
}

/// The period asked for: (from, to), both included.
pub fn period(from: Option<&str>, to: Option<&str>, today: Date) -> ApiResult<(Date, Date)> {
    let read = |name: &str, text: Option<&str>| -> ApiResult<Option<Date>> {
        match text {
            None => Ok(None),
            Some(t) => parse_date(t).map(Some).ok_or_else(|| {
                ApiError::invalid_parameter(
                    name,
                    format!("{name} must be a date written YYYY-MM-DD."),
                )
            }),
        }
    };
    let from = read("from", from)?;
    let to = read("to", to)?;
    let before = |d: Date| {
        d.checked_sub((DEFAULT_DAYS - 1).days())
            .map_err(|_| ApiError::invalid_parameter("to", "to is out of range."))
    };
    let (from, to) = match (from, to) {
        (Some(f), Some(t)) => (f, t),
        (Some(f), None) => (f, today),
        (None, Some(t)) => (before(t)?, t),
        (None, None) => (before(today)?, today),
    };
    if from > to {
        return Err(ApiError::invalid_parameter(
            "from",
            "from must not be after to.",
        ));
    }
    let days = from
        .until(to)
        .map(|s| s.get_days() as i64 + 1)
        .unwrap_or(i64::MAX);
    if days > MAX_DAYS {
        return Err(ApiError::invalid_parameter(
            "from",
            format!("The period is {days} days; at most {MAX_DAYS}."),
        ));
    }
    Ok((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn without_days_the_period_is_today_and_the_29_days_before() {
        let today = date(2026, 11, 22);
        assert_eq!(
            period(None, None, today).unwrap(),
            (date(2026, 10, 24), today)
        );
        assert_eq!(
            period(None, Some("2026-01-31"), today).unwrap(),
            (date(2026, 1, 2), date(2026, 1, 31))
        );
        assert_eq!(
            period(Some("2026-11-01"), None, today).unwrap(),
            (date(2026, 11, 1), today)
        );
    }

    #[test]
    fn periods_are_at_most_366_days_and_in_order() {
        let today = date(2026, 11, 22);
        assert!(period(Some("2024-01-01"), Some("2024-12-31"), today).is_ok()); // leap year: 366
        assert!(period(Some("2025-01-01"), Some("2026-01-02"), today).is_err()); // 367
        assert!(period(Some("2026-02-01"), Some("2026-01-01"), today).is_err());
    }

    #[test]
    fn dates_are_strictly_yyyy_mm_dd() {
        assert!(parse_date("2026-01-31").is_some());
        for bad in [
            "20260131",
            "2026-1-31",
            "2026-02-30",
            "2026-01-31T00:00",
            "",
            "+02026-01-31",
        ] {
            assert!(parse_date(bad).is_none(), "{bad}");
        }
    }
}
