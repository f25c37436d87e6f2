//! Webhook deliveries: one row per (event, endpoint), its attempts, and the
//! endpoint's health after each attempt.
//!
//! Events are fanned out in the order they were recorded (`rowid`), from the
//! position kept in `meta.webhook_fanout_rowid`: each event gets a delivery for every
//! endpoint of its business that is active, subscribes to its type, existed when the
//! event happened, and takes its mode (live events everywhere, test events only
//! where `test_events` is on).

use rusqlite::{Connection, params};
use serde_json::json;

use super::effects::{self, EffectKind};
use super::{Place, Scope};
use crate::error::ApiResult;
use crate::ids;

/// Delay before each retry, in seconds, after the 1st, 2nd, ... failed attempt.
/// After the last one the delivery is given up (`failed`).
pub const RETRY_DELAYS_S: [i64; 6] = [5, 30, 120, 600, 3600, 21600];

/// Consecutive failed attempts (across deliveries) after which an endpoint is paused.
pub const PAUSE_AFTER_FAILURES: i64 = 10;

/// Whether events were recorded since the last [`fan_out`] (which would then have
/// work to do).
pub fn fan_out_pending(conn: &Connection) -> ApiResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM events WHERE rowid > \
         (SELECT value FROM meta WHERE name = 'webhook_fanout_rowid'))",
        [],
        |r| r.get(0),
    )?)
}

/// Creates the deliveries of the events recorded since the last call; returns how many.
pub fn fan_out(conn: &Connection, now_ms: i64) -> ApiResult<usize> {
    let from: i64 = conn.query_row(
        "SELECT value FROM meta WHERE name = 'webhook_fanout_rowid'",
        [],
        |r| r.get(0),
    )?;
    let last: Option<i64> = conn.query_row(
        "SELECT MAX(rowid) FROM events WHERE rowid > ?1",
        [from],
        |r| r.get(0),
    )?;
    let Some(last) = last else {
        return Ok(0);
    };
    let mut stmt = conn.prepare_cached(
        "SELECT e.id, w.id, e.business_id FROM events e JOIN webhook_endpoints w ON w.business_id = e.business_id \
         WHERE e.rowid > ?1 AND e.rowid <= ?2 AND w.status = 'active' AND w.created_at <= e.created_at \
         AND (e.livemode = 1 OR w.test_events = 1) \
         AND EXISTS (SELECT 1 FROM json_each(w.events) j WHERE j.value = e.type) \
         ORDER BY e.rowid, w.id",
    )?;
    let pairs = stmt
        .query_map(params![from, last], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    for (event_id, endpoint_id, business_id) in &pairs {
        conn.prepare_cached(
            "INSERT INTO webhook_deliveries (id, event_id, endpoint_id, business_id, status, attempts, next_attempt_at, created_at) \
             VALUES (?1, ?2, ?3, ?4, 'pending', 0, ?5, ?5)",
        )?
        .execute(params![ids::new_id("whd"), event_id, endpoint_id, business_id, now_ms])?;
    }
    conn.execute(
        "UPDATE meta SET value = ?1 WHERE name = 'webhook_fanout_rowid'",
        [last],
    )?;
    Ok(pairs.len())
}

/// A delivery whose attempt is due, with what the attempt needs.
#[derive(Debug, Clone)]
pub struct Due {
    /// Delivery id.
    pub id: String,
    /// Attempts made so far.
    pub attempts: i64,
    /// Endpoint id.
    pub endpoint_id: String,
    /// Where to post.
    pub url: String,
    /// `whsec_...`.
    pub secret: String,
    /// Business and place of the event.
    pub scope: Scope,
    /// Event id (the `webhook-id`).
    pub event_id: String,
    /// Event type.
    pub event_type: String,
    /// Whether the event is live.
    pub livemode: bool,
    /// When the event happened, ms.
    pub event_created_at: i64,
    /// The event's data: JSON text.
    pub data: String,
}

/// Deliveries due at `now_ms` to active endpoints, oldest first, at most `limit`.
pub fn due(conn: &Connection, now_ms: i64, limit: usize) -> ApiResult<Vec<Due>> {
    let mut stmt = conn.prepare_cached(
        "SELECT d.id, d.attempts, w.id, w.url, w.secret, e.business_id, e.place, e.id, e.type, e.livemode, \
         e.data, e.created_at FROM webhook_deliveries d \
         JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id \
         WHERE d.status = 'pending' AND d.next_attempt_at <= ?1 AND w.status = 'active' \
         ORDER BY d.next_attempt_at, d.id LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![now_ms, limit as i64], |r| {
        Ok(Due {
            id: r.get(0)?,
            attempts: r.get(1)?,
            endpoint_id: r.get(2)?,
            url: r.get(3)?,
            secret: r.get(4)?,
            scope: Scope {
                business_id: r.get(5)?,
                place: Place::parse(&r.get::<_, String>(6)?).unwrap_or(Place::Live),
            },
            event_id: r.get(7)?,
            event_type: r.get(8)?,
            livemode: r.get(9)?,
            data: r.get(10)?,
            event_created_at: r.get(11)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// What one attempt gave: the HTTP status, or None when no answer came (refused
/// connection, time-out, bad URL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt {
    /// The answer's status.
    pub http_status: Option<u16>,
}

impl Attempt {
    /// A 2xx answer.
    pub fn succeeded(self) -> bool {
        self.http_status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// Records an attempt: the delivery's next step, the endpoint's health (paused
/// after [`PAUSE_AFTER_FAILURES`] consecutive failures) and a `webhook_delivery`
/// effect.
pub fn record_attempt(conn: &Connection, d: &Due, attempt: Attempt, now_ms: i64) -> ApiResult<()> {
    let attempts = d.attempts + 1;
    let ok = attempt.succeeded();
    let (status, next) = if ok {
        ("succeeded", None)
    } else {
        match RETRY_DELAYS_S.get((attempts - 1) as usize) {
            Some(delay) => ("pending", Some(now_ms + delay * 1000)),
            None => ("failed", None),
        }
    };
    conn.execute(
        "UPDATE webhook_deliveries SET status = ?2, attempts = ?3, next_attempt_at = ?4, last_http = ?5 WHERE id = ?1",
        params![d.id, status, attempts, next, attempt.http_status],
    )?;
    let word = if ok { "succeeded" } else { "failed" };
    if ok {
        conn.execute(
            "UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL, last_success_at = ?2, \
             last_delivery_at = ?2, last_delivery_status = ?3, last_delivery_http = ?4 WHERE id = ?1",
            params![d.endpoint_id, now_ms, word, attempt.http_status],
        )?;
    } else {
        conn.execute(
            "UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, \
             failing_since = COALESCE(failing_since, ?2), \
             last_delivery_at = ?2, last_delivery_status = ?3, last_delivery_http = ?4 WHERE id = ?1",
            params![d.endpoint_id, now_ms, word, attempt.http_status],
        )?;
        conn.execute(
            "UPDATE webhook_endpoints SET status = 'paused', paused_at = ?2, paused_reason = 'consecutive_failures' \
             WHERE id = ?1 AND status = 'active' AND consecutive_failures >= ?3",
            params![d.endpoint_id, now_ms, PAUSE_AFTER_FAILURES],
        )?;
    }
    effects::record(
        conn,
        &d.scope,
        EffectKind::WebhookDelivery,
        json!({
            "event": d.event_type,
            "event_id": d.event_id,
            "endpoint_id": d.endpoint_id,
            "livemode": d.livemode,
            "http_status": attempt.http_status,
            "status": word,
            "attempt": attempts,
        }),
        now_ms,
    )?;
    Ok(())
}
