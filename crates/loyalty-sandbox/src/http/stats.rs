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

use super::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::rules::stats_period::period;
use crate::state::AppState;
use crate::store::stats;

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
        (status = 200, description = "Figures for whole days in the business's time zone.", body = crate::wire::Stats),
        (status = 400, description = "invalid_parameter: a malformed date, `from` after `to`, more than 366 days (`param` names it).", body = crate::wire::Problem, content_type = "application/problem+json"),
    ))]
pub(crate) async fn get_stats(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<crate::wire::Stats>> {
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
    Ok(Json(crate::wire::Stats {
        object: "stats".into(),
        from: from.to_string(),
        to: to.to_string(),
        time_zone: zone,
        scans: f.scans,
        visits: f.visits,
        active_customers: f.active_customers,
        returning_customers: f.returning_customers,
        new_customers: f.new_customers,
        rewards_earned: f.rewards_earned,
        rewards_redeemed: f.rewards_redeemed,
        gift_cards_issued: f.gift_cards_issued,
    }))
}
