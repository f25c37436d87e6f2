//! The local cache: customers and their cards, gift cards, and a full-text index for
//! search as you type.
//!
//! Local intent wins: while a card has writes queued, a downloaded copy of it does
//! not replace the cached one (the queued writes are not in the download), and the
//! card is shown as provisional.

use jiff::Timestamp;
use loyalty_api::{CardId, GiftCardId};
use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use crate::db::ts;
use crate::kept::{self, CardKey};
use crate::outbox::store;
use crate::views::{Answer, CardView, CustomerView, GiftCardView, PassView};

mod search;

pub(crate) use search::search;

/// A card found by its id, with its customer when cached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardLookup {
    /// The card as last stored.
    pub card: CardView,
    /// Its customer (without their cards), when cached.
    pub customer: Option<CustomerSummary>,
    /// Writes for this card are queued: the figures do not include them yet.
    pub provisional: bool,
    /// How many writes for this card are queued.
    pub queued_writes: u32,
}

for_the_ui! {
/// A customer as search shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomerSummary {
    /// The customer's id.
    pub id: loyalty_api::CustomerId,
    /// Name.
    pub name: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Their cards' ids.
    pub card_ids: Vec<CardId>,
}
}

/// A cached gift card and when its balance was read from the service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CachedGiftCard {
    /// The card as last read.
    pub gift_card: GiftCardView,
    /// When (the till's clock).
    pub read_at: Timestamp,
}

fn digits(text: Option<&str>) -> String {
    text.unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .collect()
}

fn order_key(card: &CardId) -> String {
    format!("card:{card}")
}

/// Stores one card unless writes for it are queued (local intent wins).
fn put_card(
    tx: &Connection,
    customer: &loyalty_api::CustomerId,
    card: &CardView,
    now: Timestamp,
    even_if_queued: bool,
) -> rusqlite::Result<()> {
    if !even_if_queued && store::any_open_for(tx, &order_key(&card.id))? {
        return Ok(());
    }
    // Never older over newer: a read asked before an answer was stored loses to it.
    // The customer's row, when cached, is what their cards are found by.
    tx.prepare_cached(
        "INSERT INTO cards (id, customer_id, customer_row, card, stored_at)
         VALUES (?1, ?2, (SELECT rowid FROM customers WHERE id = ?2), ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET customer_id = ?2, customer_row = excluded.customer_row,
             card = ?3, stored_at = ?4
             WHERE cards.stored_at <= ?4",
    )?
    .execute(params![
        card.id.as_str(),
        customer.as_str(),
        serde_json::to_string(card).expect("cards serialize"),
        ts(now)
    ])?;
    Ok(())
}

/// Stores a customer and their cards, and indexes them for search.
pub(crate) fn put_customer(
    tx: &Transaction<'_>,
    customer: &CustomerView,
    now: Timestamp,
) -> rusqlite::Result<()> {
    put_customers(tx, [customer], now)
}

/// Stores customers and their cards, then indexes them all for search in one statement
/// per index.
///
/// One statement because of how FTS5 keeps a transaction's new terms: in memory until the
/// commit, except that every statement that may need undoing halfway (an upsert, a
/// write to the index itself) first writes them to the disk as a segment of their own.
/// Indexed a customer at a time, a page of a walk made a segment per customer and FTS5
/// spent most of the walk merging them.
pub(crate) fn put_customers<'a>(
    tx: &Transaction<'_>,
    customers: impl IntoIterator<Item = &'a CustomerView>,
    now: Timestamp,
) -> rusqlite::Result<()> {
    // With no write queued or being sent (a first sync, a quiet day), no card has one:
    // each card is then stored without asking.
    let none_open = store::counts(tx)?.queued == 0;
    let mut indexed = Vec::new();
    for customer in customers {
        let rowid = store_customer(tx, customer, now, none_open)?;
        indexed.push(serde_json::json!([
            rowid,
            customer.name.as_deref().unwrap_or(""),
            customer.email.as_deref().unwrap_or(""),
            digits(customer.phone.as_deref()),
        ]));
    }
    if indexed.is_empty() {
        return Ok(());
    }
    // A customer indexed before is replaced: FTS5 removes the old row's terms first.
    let indexed = serde_json::Value::Array(indexed).to_string();
    tx.prepare_cached(
        "INSERT OR REPLACE INTO customer_search (rowid, name, email)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?1)",
    )?
    .execute([&indexed])?;
    tx.prepare_cached(
        "INSERT OR REPLACE INTO customer_digits (rowid, digits)
         SELECT value ->> 0, value ->> 3 FROM json_each(?1)",
    )?
    .execute([&indexed])?;
    Ok(())
}

/// Stores a customer (without indexing them) and their cards (`none_open`: knowing that
/// no card has writes queued): answers the customer's row.
fn store_customer(
    tx: &Transaction<'_>,
    customer: &CustomerView,
    now: Timestamp,
    none_open: bool,
) -> rusqlite::Result<i64> {
    // Seen alive now: marked with the current walk, so that walk's end keeps it. (A walk
    // stores 100,000 customers a statement at a time: each stays parsed.)
    let rowid: i64 = tx
        .prepare_cached(
            "INSERT INTO customers (id, pass_id, name, email, phone, created_at, walk)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                 COALESCE((SELECT walk FROM sync_state WHERE list = 'customers'), 0))
         ON CONFLICT(id) DO UPDATE SET pass_id = ?2, name = ?3, email = ?4, phone = ?5,
             created_at = ?6, walk = excluded.walk
         RETURNING rowid",
        )?
        .query_row(
            params![
                customer.id.as_str(),
                customer.pass_id.as_str(),
                customer.name,
                customer.email,
                customer.phone,
                customer.created_at.map(ts),
            ],
            |r| r.get(0),
        )?;
    // Cards read by a scan before their customer was cached are theirs now.
    tx.prepare_cached(
        "UPDATE cards SET customer_row = ?1 WHERE customer_row IS NULL AND customer_id = ?2",
    )?
    .execute(params![rowid, customer.id.as_str()])?;
    for card in &customer.cards {
        put_card(tx, &customer.id, card, now, none_open)?;
    }
    Ok(rowid)
}

/// Removes the customers a finished walk (`walk`) did not see: the service no longer
/// lists them. Answers how many.
pub(crate) fn forget_unseen(tx: &Transaction<'_>, walk: i64) -> rusqlite::Result<u64> {
    // The service no longer lists them: their details leave the closed history too.
    let unseen: Vec<String> = tx
        .prepare("SELECT id FROM customers WHERE walk < ?1")?
        .query_map([walk], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for customer in &unseen {
        store::redact_customer(tx, customer)?;
    }
    for index in ["customer_search", "customer_digits"] {
        tx.execute(
            &format!(
                "DELETE FROM {index} WHERE rowid IN (SELECT rowid FROM customers WHERE walk < ?1)"
            ),
            [walk],
        )?;
    }
    tx.execute(
        "DELETE FROM cards WHERE customer_row IN (SELECT rowid FROM customers WHERE walk < ?1)",
        [walk],
    )?;
    Ok(tx.execute("DELETE FROM customers WHERE walk < ?1", [walk])? as u64)
}

/// Forgets everything the till read of a business: its customers and their search
/// index, their cards, its gift cards and passes, and where a walk of its customers
/// stood (a walk never resumes under another key). Writes still waiting stay: they are
/// the outbox's, and say whose they are.
pub(crate) fn forget_business(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "DELETE FROM customer_search;
         DELETE FROM customer_digits;
         DELETE FROM cards;
         DELETE FROM customers;
         DELETE FROM gift_cards;
         DELETE FROM passes;
         DELETE FROM sync_state;",
    )
}

/// Removes a customer the service no longer has (deleted), with their cards, and their
/// details from the closed history.
pub(crate) fn forget_customer(
    tx: &Transaction<'_>,
    id: &loyalty_api::CustomerId,
) -> rusqlite::Result<()> {
    let rowid: Option<i64> = tx
        .query_row(
            "SELECT rowid FROM customers WHERE id = ?1",
            [id.as_str()],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(rowid) = rowid {
        tx.execute("DELETE FROM customer_search WHERE rowid = ?1", [rowid])?;
        tx.execute("DELETE FROM customer_digits WHERE rowid = ?1", [rowid])?;
        tx.execute("DELETE FROM cards WHERE customer_row = ?1", [rowid])?;
    }
    tx.execute(
        "DELETE FROM cards WHERE customer_row IS NULL AND customer_id = ?1",
        [id.as_str()],
    )?;
    tx.execute("DELETE FROM customers WHERE id = ?1", [id.as_str()])?;
    store::redact_customer(tx, id.as_str())?;
    Ok(())
}

/// Stores a gift card read from the service at `read_at`, by its keyed hash and with
/// its id's last four alone (`crate::kept`): the id is the card's money, and a scanned
/// card brings it back.
pub(crate) fn put_gift_card(
    conn: &Connection,
    card: &GiftCardView,
    read_at: Timestamp,
) -> rusqlite::Result<()> {
    let hash = CardKey::of(conn)?.hash(card.id.as_str());
    let mut kept = card.clone();
    kept.id = GiftCardId::new(kept::shown(card.id.as_str()));
    conn.execute(
        "INSERT INTO gift_cards (id, gift_card, read_at) VALUES (?1, ?2, ?3)
         ON CONFLICT(id) DO UPDATE SET gift_card = ?2, read_at = ?3",
        params![
            hash,
            serde_json::to_string(&kept).expect("gift cards serialize"),
            ts(read_at)
        ],
    )?;
    Ok(())
}

/// After an accepted write, the cache holds what the service returned.
pub(crate) fn store_answer(
    tx: &Transaction<'_>,
    answer: &Answer,
    now: Timestamp,
) -> rusqlite::Result<()> {
    match answer {
        Answer::ScanResult(result) => {
            // The service's card includes every write sent so far, and this one.
            put_card(tx, &result.customer_id, &result.card, now, true)
        }
        Answer::GiftCardPayment(payment) => put_gift_card(tx, &payment.gift_card, now),
        Answer::GiftCard(issued) => put_gift_card(tx, &issued.gift_card, now),
        Answer::Broadcast(_) => Ok(()),
        Answer::Customer(customer) => put_customer(tx, customer, now),
    }
}

fn summary(conn: &Connection, id: &str) -> rusqlite::Result<Option<CustomerSummary>> {
    let found = conn
        .query_row(
            "SELECT rowid, id, name, email, phone FROM customers WHERE id = ?1",
            [id],
            |r| {
                let customer = CustomerSummary {
                    id: loyalty_api::CustomerId::new(r.get::<_, String>(1)?),
                    name: r.get(2)?,
                    email: r.get(3)?,
                    phone: r.get(4)?,
                    card_ids: vec![],
                };
                Ok((r.get::<_, i64>(0)?, customer))
            },
        )
        .optional()?;
    let Some((row, mut customer)) = found else {
        return Ok(None);
    };
    let mut stmt =
        conn.prepare_cached("SELECT id FROM cards WHERE customer_row = ?1 ORDER BY id")?;
    customer.card_ids = stmt
        .query_map([row], |r| Ok(CardId::new(r.get::<_, String>(0)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(customer))
}

/// A card by its id, with its customer and whether writes for it are queued.
pub(crate) fn lookup_card(conn: &Connection, id: &CardId) -> rusqlite::Result<Option<CardLookup>> {
    let row: Option<(String, String)> = conn
        .prepare_cached("SELECT customer_id, card FROM cards WHERE id = ?1")?
        .query_row([id.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((customer_id, card)) = row else {
        return Ok(None);
    };
    let card: CardView = serde_json::from_str(&card).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Text, e.into())
    })?;
    let queued = store::open_for(conn, &order_key(id))?.len() as u32;
    Ok(Some(CardLookup {
        card,
        customer: summary(conn, &customer_id)?,
        provisional: queued > 0,
        queued_writes: queued,
    }))
}

/// The currencies of the gift cards this till has read, the most frequent first.
pub(crate) fn currencies(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    conn.prepare_cached(
        "SELECT json_extract(gift_card, '$.currency') AS currency FROM gift_cards
         WHERE currency IS NOT NULL GROUP BY currency ORDER BY count(*) DESC, currency",
    )?
    .query_map([], |r| r.get(0))?
    .collect()
}

/// Forgets the gift cards read before `before` (the retention: each names its
/// recipient); a card scanned again is read again. Answers how many.
pub(crate) fn forget_gift_cards_read_before(
    conn: &Connection,
    before: Timestamp,
) -> rusqlite::Result<usize> {
    conn.execute("DELETE FROM gift_cards WHERE read_at < ?1", [ts(before)])
}

/// A cached gift card, found by the keyed hash of `id` (the card scanned), with its id.
pub(crate) fn gift_card(
    conn: &Connection,
    id: &GiftCardId,
) -> rusqlite::Result<Option<CachedGiftCard>> {
    conn.query_row(
        "SELECT gift_card, read_at FROM gift_cards WHERE id = ?1",
        [CardKey::of(conn)?.hash(id.as_str())],
        |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
    )
    .optional()?
    .map(|(card, read_at)| {
        let mut gift_card: GiftCardView = serde_json::from_str(&card).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, e.into())
        })?;
        gift_card.id = id.clone();
        Ok(CachedGiftCard {
            gift_card,
            read_at: read_at.parse().unwrap_or(Timestamp::UNIX_EPOCH),
        })
    })
    .transpose()
}

/// Keeps a pass as read from the service.
pub(crate) fn put_pass(conn: &Connection, pass: &PassView, now: Timestamp) -> rusqlite::Result<()> {
    let text = serde_json::to_string(pass).expect("passes serialize");
    conn.prepare_cached(
        "INSERT INTO passes (id, pass, read_at) VALUES (?1, ?2, ?3)
         ON CONFLICT(id) DO UPDATE SET pass = ?2, read_at = ?3",
    )?
    .execute(params![pass.id.as_str(), text, now.to_string()])?;
    Ok(())
}

/// A pass the till has read, if any (a row this version cannot read is none).
pub(crate) fn pass(
    conn: &Connection,
    id: &loyalty_api::PassId,
) -> rusqlite::Result<Option<PassView>> {
    let text: Option<String> = conn
        .prepare_cached("SELECT pass FROM passes WHERE id = ?1")?
        .query_row([id.as_str()], |r| r.get(0))
        .optional()?;
    Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
}

/// A cached customer by id.
pub(crate) fn customer(
    conn: &Connection,
    id: &loyalty_api::CustomerId,
) -> rusqlite::Result<Option<CustomerSummary>> {
    summary(conn, id.as_str())
}

/// How many customers are cached.
pub(crate) fn customer_count(conn: &Connection) -> rusqlite::Result<u64> {
    conn.query_row("SELECT COUNT(*) FROM customers", [], |r| r.get(0))
}

#[cfg(test)]
mod tests;
