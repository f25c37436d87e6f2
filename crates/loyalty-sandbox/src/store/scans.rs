//! Counter scans: visits, points and redemptions.
//!
//! Every accepted scan is a row, redemptions included (they can be undone), with the
//! card's counters from before it so the counter's undo can restore them exactly.
//! `GET /v1/scans` lists only visits and points that were not undone.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::Scope;
use super::list::{ListQuery, Page, PageRequest};
use crate::error::ApiResult;
use crate::rules::scan::CardCounters;

/// A scan to store.
#[derive(Debug, Clone)]
pub struct NewScan<'a> {
    /// Id (`scan_...`).
    pub id: &'a str,
    /// Pass of the card.
    pub pass_id: &'a str,
    /// Card scanned.
    pub card_id: &'a str,
    /// Its customer.
    pub customer_id: &'a str,
    /// `visit`, `points` or `redeem`.
    pub kind: &'a str,
    /// The request's amount as a decimal string (`0.00` when none).
    pub amount: String,
    /// Points change really applied (negative for a deduction).
    pub points: i64,
    /// Visits added.
    pub visits_added: i64,
    /// Whether a reward was earned.
    pub reward_earned: bool,
    /// Where.
    pub location_id: Option<&'a str>,
    /// Card counters before the scan.
    pub card_before: CardCounters,
    /// When.
    pub created_at: i64,
}

/// Stores a scan.
pub fn insert(conn: &Connection, scope: &Scope, s: &NewScan<'_>) -> ApiResult<()> {
    conn.prepare_cached(
        "INSERT INTO scans (id, business_id, place, pass_id, card_id, customer_id, kind, amount, points, \
         visits_added, reward_earned, location_id, card_before, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?
    .execute(params![
        s.id,
        scope.business_id,
        scope.place.as_str(),
        s.pass_id,
        s.card_id,
        s.customer_id,
        s.kind,
        s.amount,
        s.points,
        s.visits_added,
        s.reward_earned,
        s.location_id,
        serde_json::to_string(&s.card_before)?,
        s.created_at
    ])?;
    Ok(())
}

/// A scan as `GET /v1/scans` lists it.
#[derive(Debug, Clone)]
pub struct ScanRecord {
    pub(crate) id: String,
    pub(crate) created_at: i64,
    pub(crate) kind: String,
    pub(crate) pass_id: String,
    pub(crate) customer_id: String,
    pub(crate) customer_deleted: bool,
    pub(crate) location_id: Option<String>,
    pub(crate) amount: String,
    pub(crate) points: i64,
}

/// Filters of `GET /v1/scans`.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// Only this customer's scans.
    pub customer_id: Option<String>,
    /// `visit` or `points`.
    pub kind: Option<String>,
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<ScanRecord> {
    Ok(ScanRecord {
        id: r.get(0)?,
        created_at: r.get(1)?,
        kind: r.get(2)?,
        pass_id: r.get(3)?,
        customer_id: r.get(4)?,
        customer_deleted: r.get::<_, Option<i64>>(5)?.is_some(),
        location_id: r.get(6)?,
        amount: r.get(7)?,
        points: r.get(8)?,
    })
}

/// A page of the scope's visits and points scans.
pub fn list(
    conn: &Connection,
    scope: &Scope,
    filters: &Filters,
    page: &PageRequest,
) -> ApiResult<Page<ScanRecord>> {
    let mut q = ListQuery::new(
        "SELECT s.id, s.created_at, s.kind, s.pass_id, s.customer_id, c.deleted_at, s.location_id, \
         s.amount, s.points FROM scans s JOIN customers c ON c.id = s.customer_id \
         WHERE s.business_id = ? AND s.place = ? AND s.kind IN ('visit', 'points') AND s.voided_at IS NULL",
        "s",
        vec![
            scope.business_id.clone().into(),
            scope.place.as_str().to_owned().into(),
        ],
    );
    if let Some(customer_id) = &filters.customer_id {
        q.filter("s.customer_id = ?", customer_id.clone());
    }
    if let Some(kind) = &filters.kind {
        q.filter("s.kind = ?", kind.clone());
    }
    q.run(conn, page, from_row)
}

/// The last scan of a card that was not undone.
#[derive(Debug, Clone)]
pub struct LastScan {
    /// Scan id.
    pub id: String,
    /// `visit`, `points` or `redeem`.
    pub kind: String,
    /// Its pass.
    pub pass_id: String,
    /// Its customer.
    pub customer_id: String,
    /// Counters before it.
    pub card_before: CardCounters,
    /// When it happened.
    pub created_at: i64,
}

/// The card's last scan that was not undone.
pub fn last_for_card(conn: &Connection, card_id: &str) -> ApiResult<Option<LastScan>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, kind, pass_id, customer_id, card_before, created_at FROM scans \
             WHERE card_id = ?1 AND voided_at IS NULL ORDER BY created_at DESC, rowid DESC LIMIT 1",
        )?
        .query_row([card_id], |r| {
            let before: String = r.get(4)?;
            Ok(LastScan {
                id: r.get(0)?,
                kind: r.get(1)?,
                pass_id: r.get(2)?,
                customer_id: r.get(3)?,
                card_before: serde_json::from_str(&before).unwrap_or_default(),
                created_at: r.get(5)?,
            })
        })
        .optional()?)
}

/// Marks a scan undone.
pub fn void(conn: &Connection, id: &str, now_ms: i64) -> ApiResult<()> {
    conn.execute(
        "UPDATE scans SET voided_at = ?2 WHERE id = ?1",
        params![id, now_ms],
    )?;
    Ok(())
}
