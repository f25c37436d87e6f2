//! The figures of `GET /v1/stats`, counted from the stored rows of one place over
//! `[start_ms, end_ms)` (whole days in the business's time zone, computed by the
//! route). Each figure's definition is in [`crate::decisions`] ("Stats").

use rusqlite::{Connection, params};

use super::Scope;
use crate::error::ApiResult;

/// The figures of a period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Figures {
    /// Visits and points scans not undone (the scans `GET /v1/scans` lists).
    pub scans: i64,
    /// Those of kind `visit`.
    pub visits: i64,
    /// Distinct customers of those scans (deleted ones included).
    pub active_customers: i64,
    /// Active customers with a listed scan before the period too.
    pub returning_customers: i64,
    /// Customers who joined in the period (deleted ones included).
    pub new_customers: i64,
    /// Listed scans that earned a reward.
    pub rewards_earned: i64,
    /// Redemptions not undone.
    pub rewards_redeemed: i64,
    /// Gift cards issued, whatever their status now.
    pub gift_cards_issued: i64,
}

/// Counts the figures of `scope` over `[start_ms, end_ms)`.
pub fn figures(conn: &Connection, scope: &Scope, start_ms: i64, end_ms: i64) -> ApiResult<Figures> {
    let p = params![scope.business_id, scope.place.as_str(), start_ms, end_ms];
    const LISTED: &str = "s.business_id = ?1 AND s.place = ?2 AND s.voided_at IS NULL \
        AND s.kind IN ('visit', 'points')";
    let (scans, visits, active_customers, rewards_earned): (i64, i64, i64, i64) = conn.query_row(
        &format!(
            "SELECT COUNT(*), COALESCE(SUM(s.kind = 'visit'), 0), COUNT(DISTINCT s.customer_id), \
             COALESCE(SUM(s.reward_earned), 0) FROM scans s \
             WHERE {LISTED} AND s.created_at >= ?3 AND s.created_at < ?4"
        ),
        p,
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let returning_customers: i64 = conn.query_row(
        &format!(
            "SELECT COUNT(DISTINCT s.customer_id) FROM scans s \
             WHERE {LISTED} AND s.created_at >= ?3 AND s.created_at < ?4 \
             AND EXISTS (SELECT 1 FROM scans b WHERE b.customer_id = s.customer_id \
                 AND b.business_id = ?1 AND b.place = ?2 AND b.voided_at IS NULL \
                 AND b.kind IN ('visit', 'points') AND b.created_at < ?3)"
        ),
        p,
        |r| r.get(0),
    )?;
    let rewards_redeemed: i64 = conn.query_row(
        "SELECT COUNT(*) FROM scans s WHERE s.business_id = ?1 AND s.place = ?2 AND s.kind = 'redeem' \
         AND s.voided_at IS NULL AND s.created_at >= ?3 AND s.created_at < ?4",
        p,
        |r| r.get(0),
    )?;
    let new_customers: i64 = conn.query_row(
        "SELECT COUNT(*) FROM customers WHERE business_id = ?1 AND place = ?2 \
         AND created_at >= ?3 AND created_at < ?4",
        p,
        |r| r.get(0),
    )?;
    let gift_cards_issued: i64 = conn.query_row(
        "SELECT COUNT(*) FROM gift_cards WHERE business_id = ?1 AND place = ?2 \
         AND created_at >= ?3 AND created_at < ?4",
        p,
        |r| r.get(0),
    )?;
    Ok(Figures {
        scans,
        visits,
        active_customers,
        returning_customers,
        new_customers,
        rewards_earned,
        rewards_redeemed,
        gift_cards_issued,
    })
}
