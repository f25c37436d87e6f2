//! API keys: stored as SHA-256 hashes with their visible prefix.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::ApiResult;
use crate::keys::{self, Mode};
use crate::store::json_strings;

/// A stored key with what authentication needs.
#[derive(Debug, Clone)]
pub struct KeyRow {
    /// Key id (`key_...`).
    pub id: String,
    /// Owning business.
    pub business_id: String,
    /// Live or test.
    pub mode: Mode,
    /// SHA-256 of the key text.
    pub hash: Vec<u8>,
    /// Visible start of the key.
    pub prefix: String,
    /// Granted scopes.
    pub scopes: Vec<String>,
    /// Expiry, ms since the epoch.
    pub expires_at: Option<i64>,
    /// Revocation time.
    pub revoked_at: Option<i64>,
}

/// Why a stored key opens nothing any more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    /// Revoked by its business.
    Revoked,
    /// Past its expiry.
    Expired,
}

impl KeyRow {
    /// Why the key opens nothing at `now_ms`, or `None` while it still does.
    pub fn spent_at(&self, now_ms: i64) -> Option<Spent> {
        if self.revoked_at.is_some() {
            Some(Spent::Revoked)
        } else if self.expires_at.is_some_and(|at| at <= now_ms) {
            Some(Spent::Expired)
        } else {
            None
        }
    }
}

/// Stores a new key.
#[allow(clippy::too_many_arguments)]
pub fn insert(
    conn: &Connection,
    id: &str,
    business_id: &str,
    mode: Mode,
    secret: &str,
    scopes: &[String],
    expires_at: Option<i64>,
    now_ms: i64,
) -> ApiResult<()> {
    conn.execute(
        "INSERT INTO api_keys (id, business_id, mode, hash, prefix, scopes, created_at, expires_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            id,
            business_id,
            mode.as_str(),
            keys::hash(secret),
            keys::prefix(secret),
            serde_json::to_string(scopes)?,
            now_ms,
            expires_at
        ],
    )?;
    Ok(())
}

/// Finds a key by the hash of its text (the stored hash compared in constant time).
pub fn find_by_hash(conn: &Connection, hash: &[u8]) -> ApiResult<Option<KeyRow>> {
    let row = conn
        .prepare_cached(
            "SELECT id, business_id, mode, hash, prefix, scopes, expires_at, revoked_at \
             FROM api_keys WHERE hash = ?1",
        )?
        .query_row([hash], |r| {
            Ok(KeyRow {
                id: r.get(0)?,
                business_id: r.get(1)?,
                mode: Mode::parse(&r.get::<_, String>(2)?).unwrap_or(Mode::Live),
                hash: r.get(3)?,
                prefix: r.get(4)?,
                scopes: json_strings(&r.get::<_, String>(5)?),
                expires_at: r.get(6)?,
                revoked_at: r.get(7)?,
            })
        })
        .optional()?;
    Ok(row.filter(|row| keys::hashes_match(&row.hash, hash)))
}

/// Revokes a key; false when no such key.
pub fn revoke(conn: &Connection, id: &str, now_ms: i64) -> ApiResult<bool> {
    let exists: Option<Option<i64>> = conn
        .query_row("SELECT revoked_at FROM api_keys WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?;
    match exists {
        None => Ok(false),
        Some(Some(_)) => Ok(true),
        Some(None) => {
            conn.execute(
                "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1",
                params![id, now_ms],
            )?;
            Ok(true)
        }
    }
}
