//! `GET /v1/stats` (scope `read`): figures for whole days in the business's time zone.
//!
//! Query: `from` and `to`, dates written `YYYY-MM-DD`, both included. Neither:
//! today (by the server's clock, in the business's zone) and the 29 days before.
//! Only `to`: that day and the 29 before. Only `from`: from that day to today.
//! `from` after `to`, a period longer than 366 days, or a date that is not a real
//! `YYYY-MM-DD` day answer 400 invalid_parameter naming the parameter (`from` for
//! the order and the length). A repeated parameter is invalid_parameter too;
//! unknown parameters are ignored. Days in the future are allowed (their figures are 0).

use axum::Json;
use axum::extract::State;
use axum::http::Uri;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};
use serde_json::{Value, json};

use super::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::stats;

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

/// The start of `day` in `tz`, in ms (the first instant of the day, DST aware).
fn start_of(day: Date, tz: &TimeZone) -> ApiResult<i64> {
    day.to_zoned(tz.clone())
        .map(|z| z.timestamp().as_millisecond())
        .map_err(|e| ApiError::invalid_parameter("to", format!("The day is out of range: {e}.")))
}

/// GET /v1/stats.
#[utoipa::path(get, path = "/v1/stats", tag = "reads",
    params(
        ("from" = Option<String>, Query, format = Date, description = "First day (YYYY-MM-DD), included."),
        ("to" = Option<String>, Query, format = Date, description = "Last day (YYYY-MM-DD), included."),
    ),
    responses(
        (status = 200, description = "Figures for whole days in the business's time zone.", body = crate::openapi::Stats),
        (status = 400, description = "invalid_parameter: a malformed date, `from` after `to`, more than 366 days (`param` names it).", body = crate::openapi::Problem, content_type = "application/problem+json"),
    ))]
pub async fn get_stats(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let pairs: Vec<(String, String)> =
        axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&uri)
            .map(|q| q.0)
            .map_err(|_| ApiError::invalid_parameter("query", "The query string is malformed."))?;
    let mut from = None;
    let mut to = None;
    for (name, value) in &pairs {
        let slot = match name.as_str() {
            "from" => &mut from,
            "to" => &mut to,
            _ => continue,
        };
        if slot.replace(value.as_str()).is_some() {
            return Err(ApiError::invalid_parameter(
                name,
                format!("{name} is given more than once."),
            ));
        }
    }
    let zone = caller.business.time_zone.clone();
    let tz = TimeZone::get(&zone).unwrap_or(TimeZone::UTC);
    let now = Timestamp::from_millisecond(state.clock().now_ms()).map_err(ApiError::internal)?;
    let today = now.to_zoned(tz.clone()).date();
    let (from, to) = period(from, to, today)?;
    let start = start_of(from, &tz)?;
    let end = match to.checked_add(1.day()) {
        Ok(next) => start_of(next, &tz)?,
        Err(_) => return Err(ApiError::invalid_parameter("to", "to is out of range.")),
    };
    let scope = caller.scope();
    let f = state
        .db()
        .read(move |c| stats::figures(c, &scope, start, end))
        .await?;
    Ok(Json(json!({
        "object": "stats",
        "from": from.to_string(),
        "to": to.to_string(),
        "time_zone": zone,
        "scans": f.scans,
        "visits": f.visits,
        "active_customers": f.active_customers,
        "returning_customers": f.returning_customers,
        "new_customers": f.new_customers,
        "rewards_earned": f.rewards_earned,
        "rewards_redeemed": f.rewards_redeemed,
        "gift_cards_issued": f.gift_cards_issued,
    })))
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
