//! Businesses: plan, limits, and the rate limits their keys get.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::ApiResult;
use crate::ids;

/// Rate limits of a business's keys, in fixed windows of `window_seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// Requests one key may make per window.
    pub requests_per_key: u64,
    /// Requests all keys of the business together may make per window.
    pub requests_per_business: u64,
    /// Writes (POST) one key may make per window.
    pub writes_per_key: u64,
    /// Window length in seconds.
    pub window_seconds: u64,
}

impl Default for RateLimits {
    /// 100 requests a second per key, sustained for the minute, is far beyond a busy
    /// shop (a few scans a minute per till); the numbers only stop runaway loops.
    fn default() -> Self {
        RateLimits {
            requests_per_key: 6000,
            requests_per_business: 12000,
            writes_per_key: 1200,
            window_seconds: 60,
        }
    }
}

/// A business row.
#[derive(Debug, Clone)]
pub struct Business {
    /// Id (`biz_...`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// `free`, `pro` or `enterprise`.
    pub plan: String,
    /// IANA time zone.
    pub time_zone: String,
    /// Live customers allowed by the plan.
    pub customer_limit: i64,
    /// Messages per month.
    pub monthly_messages: i64,
    /// Rate limits of its keys.
    pub limits: RateLimits,
    /// Whether this is the "Demo Coffee" business of `--demo`.
    pub is_demo: bool,
    /// Its cards and gift cards get ids without a type prefix (letters and digits
    /// only), as another service's might: ids are strings, whatever they look like.
    pub plain_ids: bool,
}

/// The human name of a plan.
pub fn plan_name(plan: &str) -> String {
    match plan {
        "enterprise" => "Enterprise".into(),
        "pro" => "Pro".into(),
        "free" => "Free".into(),
        other => {
            let mut chars = other.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        }
    }
}

const COLUMNS: &str = "id, name, plan, time_zone, customer_limit, monthly_messages, \
    requests_per_key, requests_per_business, writes_per_key, window_seconds, is_demo, plain_ids";

fn from_row(r: &Row<'_>) -> rusqlite::Result<Business> {
    Ok(Business {
        id: r.get(0)?,
        name: r.get(1)?,
        plan: r.get(2)?,
        time_zone: r.get(3)?,
        customer_limit: r.get(4)?,
        monthly_messages: r.get(5)?,
        limits: RateLimits {
            requests_per_key: r.get::<_, i64>(6)? as u64,
            requests_per_business: r.get::<_, i64>(7)? as u64,
            writes_per_key: r.get::<_, i64>(8)? as u64,
            window_seconds: r.get::<_, i64>(9)? as u64,
        },
        is_demo: r.get(10)?,
        plain_ids: r.get(11)?,
    })
}

/// Inserts a business.
pub fn insert(conn: &Connection, b: &Business, now_ms: i64) -> ApiResult<()> {
    conn.execute(
        &format!("INSERT INTO businesses ({COLUMNS}, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"),
        params![
            b.id,
            b.name,
            b.plan,
            b.time_zone,
            b.customer_limit,
            b.monthly_messages,
            b.limits.requests_per_key as i64,
            b.limits.requests_per_business as i64,
            b.limits.writes_per_key as i64,
            b.limits.window_seconds as i64,
            b.is_demo,
            b.plain_ids,
            now_ms
        ],
    )?;
    Ok(())
}

/// A new id for a card or gift card of `business_id`: `prefix` and 24 characters, or
/// for a business with plain ids, the 24 letters and digits alone.
pub fn new_card_id(conn: &Connection, business_id: &str, prefix: &str) -> ApiResult<String> {
    let plain: bool = conn
        .prepare_cached("SELECT plain_ids FROM businesses WHERE id = ?1")?
        .query_row([business_id], |r| r.get(0))
        .optional()?
        .unwrap_or(false);
    let id = ids::new_id(prefix);
    Ok(if plain {
        id[prefix.len() + 1..].to_owned()
    } else {
        id
    })
}

/// Reads a business.
pub fn get(conn: &Connection, id: &str) -> ApiResult<Option<Business>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM businesses WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()?)
}

/// The demo business made by `--demo`, if any.
pub fn find_demo(conn: &Connection) -> ApiResult<Option<Business>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM businesses WHERE is_demo = 1 ORDER BY created_at LIMIT 1"
        ))?
        .query_row([], from_row)
        .optional()?)
}

/// Writes every mutable field of `b` back.
pub fn update(conn: &Connection, b: &Business) -> ApiResult<()> {
    conn.execute(
        "UPDATE businesses SET plan = ?2, customer_limit = ?3, monthly_messages = ?4, \
         requests_per_key = ?5, requests_per_business = ?6, writes_per_key = ?7, window_seconds = ?8 \
         WHERE id = ?1",
        params![
            b.id,
            b.plan,
            b.customer_limit,
            b.monthly_messages,
            b.limits.requests_per_key as i64,
            b.limits.requests_per_business as i64,
            b.limits.writes_per_key as i64,
            b.limits.window_seconds as i64
        ],
    )?;
    Ok(())
}

/// The first active pass of each place, for the control routes' answers.
pub fn main_pass_ids(conn: &Connection, id: &str) -> ApiResult<(Option<String>, Option<String>)> {
    let first = |place: &str| -> ApiResult<Option<String>> {
        Ok(conn
            .prepare_cached(
                "SELECT id FROM passes WHERE business_id = ?1 AND place = ?2 \
                 ORDER BY (status = 'active') DESC, created_at, id LIMIT 1",
            )?
            .query_row(params![id, place], |r| r.get(0))
            .optional()?)
    };
    Ok((first("live")?, first("sandbox")?))
}
