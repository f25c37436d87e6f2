//! Webhook endpoints, registered as the dashboard would (control route) and read
//! through the API without their secret and with the url's query string removed.
//!
//! Endpoints belong to the business, not to a place: both places list all of them.
//! (Delivery to them, and the health fields' updates, are part 2's worker.)

use rusqlite::{Connection, Row, params};

use super::list::{ListQuery, Page, PageRequest};
use crate::error::ApiResult;
use crate::store::json_strings;

/// A webhook endpoint.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// Id (`we_...`).
    pub id: String,
    /// Where events are posted.
    pub url: String,
    /// `whsec_` and base64 of the signing key.
    pub secret: String,
    /// Subscribed event names.
    pub events: Vec<String>,
    /// Payload format (`v2`).
    pub format: String,
    /// Whether sandbox events go there too.
    pub test_events: bool,
    /// `active` or `paused`.
    pub status: String,
    /// Failures since the last success.
    pub consecutive_failures: i64,
    /// First failure of the current run.
    pub failing_since: Option<i64>,
    /// Last successful delivery.
    pub last_success_at: Option<i64>,
    /// When it was paused.
    pub paused_at: Option<i64>,
    /// Why it was paused.
    pub paused_reason: Option<String>,
    /// Last delivery: time, status word, HTTP status.
    pub last_delivery: Option<(i64, String, Option<i64>)>,
    /// Creation time.
    pub created_at: i64,
}

/// The url without its query string (and fragment).
pub fn strip_query(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    &url[..end]
}

/// Stores an endpoint.
pub fn insert(conn: &Connection, business_id: &str, e: &Endpoint) -> ApiResult<()> {
    conn.execute(
        "INSERT INTO webhook_endpoints (id, business_id, url, secret, events, format, test_events, status, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            e.id,
            business_id,
            e.url,
            e.secret,
            serde_json::to_string(&e.events)?,
            e.format,
            e.test_events,
            e.status,
            e.created_at
        ],
    )?;
    Ok(())
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Endpoint> {
    let last_at: Option<i64> = r.get(13)?;
    let last_status: Option<String> = r.get(14)?;
    Ok(Endpoint {
        id: r.get(0)?,
        url: r.get(1)?,
        secret: r.get(2)?,
        events: json_strings(&r.get::<_, String>(3)?),
        format: r.get(4)?,
        test_events: r.get(5)?,
        status: r.get(6)?,
        consecutive_failures: r.get(7)?,
        failing_since: r.get(8)?,
        last_success_at: r.get(9)?,
        paused_at: r.get(10)?,
        paused_reason: r.get(11)?,
        created_at: r.get(12)?,
        last_delivery: match (last_at, last_status) {
            (Some(at), Some(status)) => Some((at, status, r.get(15)?)),
            _ => None,
        },
    })
}

/// A page of the business's endpoints.
pub fn list(conn: &Connection, business_id: &str, page: &PageRequest) -> ApiResult<Page<Endpoint>> {
    ListQuery::new(
        "SELECT w.id, w.url, w.secret, w.events, w.format, w.test_events, w.status, w.consecutive_failures, \
         w.failing_since, w.last_success_at, w.paused_at, w.paused_reason, w.created_at, w.last_delivery_at, \
         w.last_delivery_status, w.last_delivery_http FROM webhook_endpoints w WHERE w.business_id = ?",
        "w",
        vec![business_id.to_owned().into()],
    )
    .run(conn, page, from_row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_string_is_removed_from_urls() {
        assert_eq!(
            strip_query("https://x.test/hook?token=1"),
            "https://x.test/hook"
        );
        assert_eq!(strip_query("http://127.0.0.1:9/h"), "http://127.0.0.1:9/h");
    }
}
