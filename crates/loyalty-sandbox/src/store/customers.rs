//! Customers and their loyalty cards.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Row, params, params_from_iter};

use super::list::{ListQuery, Page, PageRequest};
use super::{Place, Scope};
use crate::error::ApiResult;
use crate::rules::scan::CardCounters;

/// A loyalty card and its counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// Id (`card_...`).
    pub id: String,
    /// Owner.
    pub customer_id: String,
    /// Business of the card.
    pub business_id: String,
    /// Place of the card.
    pub place: Place,
    /// The pass it is on.
    pub pass_id: String,
    /// `apple` or `google`.
    pub wallet: String,
    /// `active`, `deleted` or `replaced`.
    pub status: String,
    /// Counters, see [`CardCounters`].
    pub counters: CardCounters,
    /// Creation time.
    pub created_at: i64,
}

/// A customer with their cards.
#[derive(Debug, Clone)]
pub struct Customer {
    /// Id (`cus_...`).
    pub id: String,
    /// The pass they are on.
    pub pass_id: String,
    /// Name.
    pub name: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Cards, oldest first.
    pub cards: Vec<Card>,
    /// Creation time.
    pub created_at: i64,
    /// Last change.
    pub updated_at: i64,
}

/// Normal form of an email for comparison: trimmed, lowercase.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// A new customer's details.
#[derive(Debug, Clone)]
pub struct NewCustomer<'a> {
    /// Id to give it.
    pub id: &'a str,
    /// Pass.
    pub pass_id: &'a str,
    /// Name.
    pub name: Option<&'a str>,
    /// Email.
    pub email: Option<&'a str>,
    /// Phone.
    pub phone: Option<&'a str>,
    /// Creation time.
    pub created_at: i64,
}

/// Inserts a customer (without cards).
pub fn insert(conn: &Connection, scope: &Scope, c: &NewCustomer<'_>) -> ApiResult<()> {
    conn.prepare_cached(
        "INSERT INTO customers (id, business_id, place, pass_id, name, email, email_norm, phone, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
    )?
    .execute(params![
        c.id,
        scope.business_id,
        scope.place.as_str(),
        c.pass_id,
        c.name,
        c.email,
        c.email.map(normalize_email),
        c.phone,
        c.created_at
    ])?;
    Ok(())
}

/// Inserts an active card.
pub fn insert_card(conn: &Connection, card: &Card) -> ApiResult<()> {
    conn.prepare_cached(
        "INSERT INTO cards (id, customer_id, business_id, place, pass_id, wallet, status, visits, points, \
         rewards_available, rewards_redeemed, last_visit_at, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        card.id,
        card.customer_id,
        card.business_id,
        card.place.as_str(),
        card.pass_id,
        card.wallet,
        card.status,
        card.counters.visits,
        card.counters.points,
        card.counters.rewards_available,
        card.counters.rewards_redeemed,
        card.counters.last_visit_at,
        card.created_at
    ])?;
    Ok(())
}

/// The id of the customer (not deleted) with this email on this pass.
pub fn find_by_email(conn: &Connection, pass_id: &str, email: &str) -> ApiResult<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM customers WHERE pass_id = ?1 AND email_norm = ?2 AND deleted_at IS NULL LIMIT 1",
        )?
        .query_row(params![pass_id, normalize_email(email)], |r| r.get(0))
        .optional()?)
}

/// Customers of the place that are not deleted.
pub fn count(conn: &Connection, scope: &Scope) -> ApiResult<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*) FROM customers WHERE business_id = ?1 AND place = ?2 AND deleted_at IS NULL",
        )?
        .query_row(params![scope.business_id, scope.place.as_str()], |r| r.get(0))?)
}

const CARD_COLUMNS: &str = "id, customer_id, business_id, place, pass_id, wallet, status, visits, points, \
    rewards_available, rewards_redeemed, last_visit_at, created_at";

fn card_from_row(r: &Row<'_>) -> rusqlite::Result<Card> {
    Ok(Card {
        id: r.get(0)?,
        customer_id: r.get(1)?,
        business_id: r.get(2)?,
        place: Place::parse(&r.get::<_, String>(3)?).unwrap_or(Place::Live),
        pass_id: r.get(4)?,
        wallet: r.get(5)?,
        status: r.get(6)?,
        counters: CardCounters {
            visits: r.get(7)?,
            points: r.get(8)?,
            rewards_available: r.get(9)?,
            rewards_redeemed: r.get(10)?,
            last_visit_at: r.get(11)?,
        },
        created_at: r.get(12)?,
    })
}

/// A card of the scope.
pub fn get_card(conn: &Connection, scope: &Scope, id: &str) -> ApiResult<Option<Card>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {CARD_COLUMNS} FROM cards WHERE id = ?1 AND business_id = ?2 AND place = ?3"
        ))?
        .query_row(
            params![id, scope.business_id, scope.place.as_str()],
            card_from_row,
        )
        .optional()?)
}

/// A card of any business (control routes).
pub fn get_card_any(conn: &Connection, id: &str) -> ApiResult<Option<Card>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {CARD_COLUMNS} FROM cards WHERE id = ?1"))?
        .query_row([id], card_from_row)
        .optional()?)
}

/// Writes a card's counters back.
pub fn save_counters(conn: &Connection, card_id: &str, c: &CardCounters) -> ApiResult<()> {
    conn.prepare_cached(
        "UPDATE cards SET visits = ?2, points = ?3, rewards_available = ?4, rewards_redeemed = ?5, \
         last_visit_at = ?6 WHERE id = ?1",
    )?
    .execute(params![
        card_id,
        c.visits,
        c.points,
        c.rewards_available,
        c.rewards_redeemed,
        c.last_visit_at
    ])?;
    Ok(())
}

/// Changes a card's status.
pub fn set_card_status(conn: &Connection, card_id: &str, status: &str) -> ApiResult<()> {
    conn.execute(
        "UPDATE cards SET status = ?2 WHERE id = ?1",
        params![card_id, status],
    )?;
    Ok(())
}

/// Cards of these customers, oldest first per customer.
fn cards_of(conn: &Connection, customer_ids: &[String]) -> ApiResult<HashMap<String, Vec<Card>>> {
    let mut out: HashMap<String, Vec<Card>> = HashMap::new();
    if customer_ids.is_empty() {
        return Ok(out);
    }
    let marks = vec!["?"; customer_ids.len()].join(", ");
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {CARD_COLUMNS} FROM cards WHERE customer_id IN ({marks}) ORDER BY created_at, id"
    ))?;
    let cards = stmt.query_map(params_from_iter(customer_ids.iter()), card_from_row)?;
    for card in cards {
        let card = card?;
        out.entry(card.customer_id.clone()).or_default().push(card);
    }
    Ok(out)
}

const SELECT: &str =
    "SELECT c.id, c.pass_id, c.name, c.email, c.phone, c.created_at, c.updated_at FROM customers c";

fn from_row(r: &Row<'_>) -> rusqlite::Result<Customer> {
    Ok(Customer {
        id: r.get(0)?,
        pass_id: r.get(1)?,
        name: r.get(2)?,
        email: r.get(3)?,
        phone: r.get(4)?,
        cards: Vec::new(),
        created_at: r.get(5)?,
        updated_at: r.get(6)?,
    })
}

fn attach_cards(conn: &Connection, customers: &mut [Customer]) -> ApiResult<()> {
    let ids: Vec<String> = customers.iter().map(|c| c.id.clone()).collect();
    let mut cards = cards_of(conn, &ids)?;
    for c in customers.iter_mut() {
        c.cards = cards.remove(&c.id).unwrap_or_default();
    }
    Ok(())
}

/// A customer of the scope that is not deleted.
pub fn get(conn: &Connection, scope: &Scope, id: &str) -> ApiResult<Option<Customer>> {
    let found = conn
        .prepare_cached(&format!(
            "{SELECT} WHERE c.id = ?1 AND c.business_id = ?2 AND c.place = ?3 AND c.deleted_at IS NULL"
        ))?
        .query_row(params![id, scope.business_id, scope.place.as_str()], from_row)
        .optional()?;
    match found {
        Some(c) => {
            let mut one = [c];
            attach_cards(conn, &mut one)?;
            let [c] = one;
            Ok(Some(c))
        }
        None => Ok(None),
    }
}

/// Filters of `GET /v1/customers`.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// Exact email, case-insensitive.
    pub email: Option<String>,
    /// Only customers of this pass.
    pub pass_id: Option<String>,
}

/// A page of the scope's customers (deleted ones excluded), with their cards.
pub fn list(
    conn: &Connection,
    scope: &Scope,
    filters: &Filters,
    page: &PageRequest,
) -> ApiResult<Page<Customer>> {
    let mut q = ListQuery::new(
        &format!("{SELECT} WHERE c.business_id = ? AND c.place = ? AND c.deleted_at IS NULL"),
        "c",
        vec![
            scope.business_id.clone().into(),
            scope.place.as_str().to_owned().into(),
        ],
    );
    if let Some(email) = &filters.email {
        q.filter("c.email_norm = ?", normalize_email(email));
    }
    if let Some(pass_id) = &filters.pass_id {
        q.filter("c.pass_id = ?", pass_id.clone());
    }
    let mut page = q.run(conn, page, from_row)?;
    attach_cards(conn, &mut page.items)?;
    Ok(page)
}

/// Deletes a customer (of any business): marks it deleted and its cards `deleted`.
/// Returns the business and place it belonged to, or None when unknown or already deleted.
pub fn delete(conn: &Connection, id: &str, now_ms: i64) -> ApiResult<Option<Scope>> {
    let found: Option<(String, String)> = conn
        .query_row(
            "SELECT business_id, place FROM customers WHERE id = ?1 AND deleted_at IS NULL",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((business_id, place)) = found else {
        return Ok(None);
    };
    conn.execute(
        "UPDATE customers SET deleted_at = ?2, updated_at = ?2 WHERE id = ?1",
        params![id, now_ms],
    )?;
    conn.execute(
        "UPDATE cards SET status = 'deleted' WHERE customer_id = ?1",
        [id],
    )?;
    Ok(Some(Scope {
        business_id,
        place: Place::parse(&place).unwrap_or(Place::Live),
    }))
}

/// When a customer was deleted (None when not deleted or unknown).
pub fn deleted_at(conn: &Connection, id: &str) -> ApiResult<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT deleted_at FROM customers WHERE id = ?1")?
        .query_row([id], |r| r.get::<_, Option<i64>>(0))
        .optional()?
        .flatten())
}
