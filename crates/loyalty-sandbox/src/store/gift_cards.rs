//! Gift cards and their ledger.
//!
//! Money is stored in minor units of the card's currency; the balance column has a
//! CHECK (>= 0), a last guard behind the payment rule.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::list::{ListQuery, Page, PageRequest};
use super::{Place, Scope};
use crate::error::ApiResult;
use crate::money;

/// How many ledger entries a retrieved gift card shows.
pub const TRANSACTIONS_SHOWN: usize = 20;

/// A gift card.
#[derive(Debug, Clone)]
pub struct GiftCard {
    /// Id (`gc_...`).
    pub id: String,
    /// Business.
    pub business_id: String,
    /// Place.
    pub place: Place,
    /// The pass it takes its look from.
    pub pass_id: Option<String>,
    /// Template of its look.
    pub template_id: String,
    /// ISO 4217 code.
    pub currency: String,
    /// Minor-unit exponent.
    pub exponent: u32,
    /// Issued amount, minor units.
    pub initial_minor: i64,
    /// Balance, minor units.
    pub balance_minor: i64,
    /// `issued`, `active`, `depleted` or `cancelled`.
    pub status: String,
    /// Recipient's name.
    pub recipient_name: Option<String>,
    /// Recipient's email.
    pub recipient_email: Option<String>,
    /// The customer the recipient is, if any.
    pub customer_id: Option<String>,
    /// Whether that customer was deleted.
    pub customer_deleted: bool,
    /// Language of its emails.
    pub locale: String,
    /// Issue time.
    pub created_at: i64,
    /// When the recipient opened it.
    pub claimed_at: Option<i64>,
    /// When it was used up.
    pub depleted_at: Option<i64>,
    /// When it was cancelled.
    pub cancelled_at: Option<i64>,
}

/// A ledger entry.
#[derive(Debug, Clone)]
pub struct Transaction {
    /// Id (`gctx_...`).
    pub id: String,
    /// `issue` or `spend`.
    pub kind: String,
    /// Amount, minor units.
    pub amount_minor: i64,
    /// Balance after it.
    pub balance_after_minor: i64,
    /// The business's ticket number.
    pub reference: Option<String>,
    /// Where.
    pub location_id: Option<String>,
    /// When.
    pub created_at: i64,
}

impl GiftCard {
    /// The money string of an amount of this card.
    pub fn money(&self, minor: i64) -> String {
        money::format_minor(minor, self.exponent)
    }
}

const SELECT: &str = "SELECT g.id, g.business_id, g.place, g.pass_id, g.template_id, g.currency, g.exponent, \
    g.initial_minor, g.balance_minor, g.status, g.recipient_name, g.recipient_email, g.customer_id, \
    c.deleted_at, g.locale, g.created_at, g.claimed_at, g.depleted_at, g.cancelled_at \
    FROM gift_cards g LEFT JOIN customers c ON c.id = g.customer_id";

fn from_row(r: &Row<'_>) -> rusqlite::Result<GiftCard> {
    Ok(GiftCard {
        id: r.get(0)?,
        business_id: r.get(1)?,
        place: Place::parse(&r.get::<_, String>(2)?).unwrap_or(Place::Live),
        pass_id: r.get(3)?,
        template_id: r.get(4)?,
        currency: r.get(5)?,
        exponent: r.get(6)?,
        initial_minor: r.get(7)?,
        balance_minor: r.get(8)?,
        status: r.get(9)?,
        recipient_name: r.get(10)?,
        recipient_email: r.get(11)?,
        customer_id: r.get(12)?,
        customer_deleted: r.get::<_, Option<i64>>(13)?.is_some(),
        locale: r.get(14)?,
        created_at: r.get(15)?,
        claimed_at: r.get(16)?,
        depleted_at: r.get(17)?,
        cancelled_at: r.get(18)?,
    })
}

/// Stores a new card.
pub fn insert(conn: &Connection, g: &GiftCard) -> ApiResult<()> {
    conn.prepare_cached(
        "INSERT INTO gift_cards (id, business_id, place, pass_id, template_id, currency, exponent, initial_minor, \
         balance_minor, status, recipient_name, recipient_email, customer_id, locale, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        g.id,
        g.business_id,
        g.place.as_str(),
        g.pass_id,
        g.template_id,
        g.currency,
        g.exponent,
        g.initial_minor,
        g.balance_minor,
        g.status,
        g.recipient_name,
        g.recipient_email,
        g.customer_id,
        g.locale,
        g.created_at
    ])?;
    Ok(())
}

/// A card of the scope.
pub fn get(conn: &Connection, scope: &Scope, id: &str) -> ApiResult<Option<GiftCard>> {
    Ok(conn
        .prepare_cached(&format!(
            "{SELECT} WHERE g.id = ?1 AND g.business_id = ?2 AND g.place = ?3"
        ))?
        .query_row(
            params![id, scope.business_id, scope.place.as_str()],
            from_row,
        )
        .optional()?)
}

/// A card of any business (control routes).
pub fn get_any(conn: &Connection, id: &str) -> ApiResult<Option<GiftCard>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE g.id = ?1"))?
        .query_row([id], from_row)
        .optional()?)
}

/// Writes status, balance and state times back.
pub fn save_state(conn: &Connection, g: &GiftCard) -> ApiResult<()> {
    conn.prepare_cached(
        "UPDATE gift_cards SET status = ?2, balance_minor = ?3, claimed_at = ?4, depleted_at = ?5, \
         cancelled_at = ?6 WHERE id = ?1",
    )?
    .execute(params![
        g.id,
        g.status,
        g.balance_minor,
        g.claimed_at,
        g.depleted_at,
        g.cancelled_at
    ])?;
    Ok(())
}

/// Filters of `GET /v1/gift_cards`.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// Only cards in this status.
    pub status: Option<String>,
}

/// A page of the scope's gift cards.
pub fn list(
    conn: &Connection,
    scope: &Scope,
    filters: &Filters,
    page: &PageRequest,
) -> ApiResult<Page<GiftCard>> {
    let mut q = ListQuery::new(
        &format!("{SELECT} WHERE g.business_id = ? AND g.place = ?"),
        "g",
        vec![
            scope.business_id.clone().into(),
            scope.place.as_str().to_owned().into(),
        ],
    );
    if let Some(status) = &filters.status {
        q.filter("g.status = ?", status.clone());
    }
    q.run(conn, page, from_row)
}

/// Adds a ledger entry.
pub fn insert_transaction(conn: &Connection, gift_card_id: &str, t: &Transaction) -> ApiResult<()> {
    conn.prepare_cached(
        "INSERT INTO gift_card_transactions (id, gift_card_id, type, amount_minor, balance_after_minor, \
         reference, location_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        t.id,
        gift_card_id,
        t.kind,
        t.amount_minor,
        t.balance_after_minor,
        t.reference,
        t.location_id,
        t.created_at
    ])?;
    Ok(())
}

fn tx_from_row(r: &Row<'_>) -> rusqlite::Result<Transaction> {
    Ok(Transaction {
        id: r.get(0)?,
        kind: r.get(1)?,
        amount_minor: r.get(2)?,
        balance_after_minor: r.get(3)?,
        reference: r.get(4)?,
        location_id: r.get(5)?,
        created_at: r.get(6)?,
    })
}

/// The newest `limit` ledger entries that were not undone, and whether more exist.
pub fn transactions(
    conn: &Connection,
    gift_card_id: &str,
    limit: usize,
) -> ApiResult<(Vec<Transaction>, bool)> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, type, amount_minor, balance_after_minor, reference, location_id, created_at \
         FROM gift_card_transactions WHERE gift_card_id = ?1 AND voided_at IS NULL \
         ORDER BY created_at DESC, rowid DESC LIMIT ?2",
    )?;
    let mut txs: Vec<Transaction> = stmt
        // One more than asked tells whether more exist; a limit too large for SQLite
        // reads everything (LIMIT -1).
        .query_map(
            params![
                gift_card_id,
                i64::try_from(limit).map_or(-1, |l| l.saturating_add(1))
            ],
            tx_from_row,
        )?
        .collect::<Result<_, _>>()?;
    let more = txs.len() > limit;
    txs.truncate(limit);
    Ok((txs, more))
}

/// Every spend of a card that was not undone, oldest first (for tests and checks).
pub fn spends(conn: &Connection, gift_card_id: &str) -> ApiResult<Vec<Transaction>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, type, amount_minor, balance_after_minor, reference, location_id, created_at \
         FROM gift_card_transactions WHERE gift_card_id = ?1 AND type = 'spend' AND voided_at IS NULL \
         ORDER BY created_at, rowid",
    )?;
    let txs = stmt
        .query_map([gift_card_id], tx_from_row)?
        .collect::<Result<_, _>>()?;
    Ok(txs)
}

/// Marks a ledger entry undone.
pub fn void_transaction(conn: &Connection, id: &str, now_ms: i64) -> ApiResult<()> {
    conn.execute(
        "UPDATE gift_card_transactions SET voided_at = ?2 WHERE id = ?1",
        params![id, now_ms],
    )?;
    Ok(())
}
