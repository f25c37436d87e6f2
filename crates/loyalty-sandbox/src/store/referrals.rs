//! Referrals: one customer bringing another to a pass.
//!
//! A referral appears only in the place it was made in; since places are separate,
//! live lists never meet test cards, and the sandbox lists its own (test) referrals
//! the way its `GET /v1/scans` lists its own scans.

use rusqlite::{Connection, Row, params};

use super::Scope;
use super::list::{ListQuery, Page, PageRequest};
use crate::error::ApiResult;

/// A referral.
#[derive(Debug, Clone)]
pub struct Referral {
    /// Id (`ref_...`).
    pub id: String,
    /// Pass.
    pub pass_id: String,
    /// `pending` or `completed`.
    pub status: String,
    /// Who referred.
    pub referrer_customer_id: String,
    /// Who was referred.
    pub referred_customer_id: String,
    /// Whether the referrer was deleted.
    pub referrer_deleted: bool,
    /// Whether the referred customer was deleted.
    pub referred_deleted: bool,
    /// Bonus (visits or points) for the referrer.
    pub referrer_bonus: i64,
    /// Bonus for the referred customer.
    pub referred_bonus: i64,
    /// Creation time.
    pub created_at: i64,
    /// Completion time.
    pub completed_at: Option<i64>,
}

/// Stores a referral.
pub fn insert(conn: &Connection, scope: &Scope, r: &Referral) -> ApiResult<()> {
    conn.execute(
        "INSERT INTO referrals (id, business_id, place, pass_id, status, referrer_customer_id, \
         referred_customer_id, referrer_bonus, referred_bonus, created_at, completed_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            r.id,
            scope.business_id,
            scope.place.as_str(),
            r.pass_id,
            r.status,
            r.referrer_customer_id,
            r.referred_customer_id,
            r.referrer_bonus,
            r.referred_bonus,
            r.created_at,
            r.completed_at
        ],
    )?;
    Ok(())
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Referral> {
    Ok(Referral {
        id: r.get(0)?,
        pass_id: r.get(1)?,
        status: r.get(2)?,
        referrer_customer_id: r.get(3)?,
        referred_customer_id: r.get(4)?,
        referrer_bonus: r.get(5)?,
        referred_bonus: r.get(6)?,
        created_at: r.get(7)?,
        completed_at: r.get(8)?,
        referrer_deleted: r.get::<_, Option<i64>>(9)?.is_some(),
        referred_deleted: r.get::<_, Option<i64>>(10)?.is_some(),
    })
}

/// A page of the scope's referrals.
pub fn list(conn: &Connection, scope: &Scope, page: &PageRequest) -> ApiResult<Page<Referral>> {
    ListQuery::new(
        "SELECT r.id, r.pass_id, r.status, r.referrer_customer_id, r.referred_customer_id, r.referrer_bonus, \
         r.referred_bonus, r.created_at, r.completed_at, a.deleted_at, b.deleted_at FROM referrals r \
         LEFT JOIN customers a ON a.id = r.referrer_customer_id \
         LEFT JOIN customers b ON b.id = r.referred_customer_id \
         WHERE r.business_id = ? AND r.place = ?",
        "r",
        vec![scope.business_id.clone().into(), scope.place.as_str().to_owned().into()],
    )
    .run(conn, page, from_row)
}
