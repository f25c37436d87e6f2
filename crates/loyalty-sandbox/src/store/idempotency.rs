//! Stored answers of writes, per API key and Idempotency-Key.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::ApiResult;

/// How long an Idempotency-Key is remembered, by the server's clock.
pub const MEMORY_MS: i64 = 24 * 60 * 60 * 1000;

/// A stored answer.
#[derive(Debug, Clone)]
pub struct StoredAnswer {
    /// Fingerprint of the request (route and canonical body).
    pub fingerprint: Vec<u8>,
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: String,
    /// Body text, exactly as first answered.
    pub body: String,
}

/// The answer stored for this key within the last 24 hours.
pub fn find(
    conn: &Connection,
    api_key_id: &str,
    idem_key: &str,
    now_ms: i64,
) -> ApiResult<Option<StoredAnswer>> {
    Ok(conn
        .prepare_cached(
            "SELECT fingerprint, status, content_type, body FROM idempotency \
             WHERE api_key_id = ?1 AND idem_key = ?2 AND created_at > ?3",
        )?
        .query_row(params![api_key_id, idem_key, now_ms - MEMORY_MS], |r| {
            Ok(StoredAnswer {
                fingerprint: r.get(0)?,
                status: r.get::<_, i64>(1)? as u16,
                content_type: r.get(2)?,
                body: r.get(3)?,
            })
        })
        .optional()?)
}

/// Stores an answer (replacing one older than 24 hours under the same key).
pub fn save(
    conn: &Connection,
    api_key_id: &str,
    idem_key: &str,
    answer: &StoredAnswer,
    now_ms: i64,
) -> ApiResult<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO idempotency (api_key_id, idem_key, fingerprint, status, content_type, body, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        api_key_id,
        idem_key,
        answer.fingerprint,
        answer.status as i64,
        answer.content_type,
        answer.body,
        now_ms
    ])?;
    Ok(())
}
