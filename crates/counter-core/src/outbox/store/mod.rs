//! The outbox's SQL. Every function that changes an item's state commits before it
//! returns (the connection runs `synchronous=FULL`).

use jiff::Timestamp;
use loyalty_api::IdempotencyKey;
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::business::OwnerId;
use super::{
    DecisionReason, ItemId, ItemState, MadeBy, OutboxItem, QueueCounts, Refusal, Resolution, Write,
};
use crate::db::ts;
use crate::ids::PersonId;
use crate::secrets::KeyFingerprint;
use crate::views::Answer;

mod attempts;
mod cards;
mod decisions;
mod owners;

pub(crate) use attempts::*;
pub(crate) use cards::*;
pub(crate) use decisions::*;
pub(crate) use owners::*;

/// Who a new write belongs to, and whether a customer made it at the kiosk.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Made {
    /// The business the till is connected to (None before it ever knew one).
    pub owner: Option<OwnerId>,
    /// A customer's own check-in.
    pub kiosk: bool,
    /// Who made it (None: a customer at the kiosk).
    pub person: Option<PersonId>,
}

fn read_ts(text: Option<String>) -> Option<Timestamp> {
    text.and_then(|t| t.parse().ok())
}

const COLUMNS: &str = "id, state, write, idempotency_key, body, created_at, attempts, \
    last_attempt_at, may_have_arrived_at, answer, replayed, request_id, problem_code, \
    problem_detail, reason, last_error, closed_at, resolution, replaces, arrived_key, \
    arrived_service_at, resend_approved, owner, kiosk, person, \
    (SELECT name FROM people WHERE people.id = person)";

fn item(row: &Row<'_>) -> rusqlite::Result<OutboxItem> {
    let state: String = row.get(1)?;
    let write: String = row.get(2)?;
    let answer: Option<String> = row.get(9)?;
    let code: Option<String> = row.get(12)?;
    let request_id: Option<String> = row.get(11)?;
    let bad = |i, e: Box<dyn std::error::Error + Send + Sync>| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, e)
    };
    Ok(OutboxItem {
        id: ItemId(row.get(0)?),
        state: ItemState::parse(&state).ok_or_else(|| bad(1, state.clone().into()))?,
        write: serde_json::from_str::<Write>(&write).map_err(|e| bad(2, e.into()))?,
        idempotency_key: row.get(3)?,
        body: row.get(4)?,
        created_at: read_ts(row.get(5)?).unwrap_or(Timestamp::UNIX_EPOCH),
        attempts: row.get(6)?,
        last_attempt_at: read_ts(row.get(7)?),
        may_have_arrived_at: read_ts(row.get(8)?),
        answer: answer
            .map(|a| serde_json::from_str::<Answer>(&a))
            .transpose()
            .map_err(|e| bad(9, e.into()))?,
        replayed: row.get(10)?,
        refusal: code.map(|code: String| Refusal {
            code: loyalty_api::ErrorCode::parse(&code),
            detail: row.get(13).ok().flatten(),
            request_id: request_id.clone(),
        }),
        request_id,
        reason: row
            .get::<_, Option<String>>(14)?
            .map(|r| serde_json::from_str::<DecisionReason>(&r))
            .transpose()
            .map_err(|e| bad(14, e.into()))?,
        last_error: row.get(15)?,
        closed_at: read_ts(row.get(16)?),
        resolution: row
            .get::<_, Option<String>>(17)?
            .map(|r| serde_json::from_str::<Resolution>(&r))
            .transpose()
            .map_err(|e| bad(17, e.into()))?,
        replaces: row.get::<_, Option<i64>>(18)?.map(ItemId),
        arrived_key: row
            .get::<_, Option<String>>(19)?
            .map(KeyFingerprint::from_stored),
        arrived_service_at: read_ts(row.get(20)?),
        resend_approved: row.get(21)?,
        owner: row.get::<_, Option<i64>>(22)?.map(OwnerId),
        kiosk: row.get(23)?,
        made_by: match (
            row.get::<_, Option<i64>>(24)?,
            row.get::<_, Option<String>>(25)?,
        ) {
            (Some(id), Some(name)) => MadeBy::Person {
                id: PersonId(id),
                name,
            },
            _ if row.get::<_, bool>(23)? => MadeBy::Kiosk,
            _ => MadeBy::BeforeStaffSeats,
        },
    })
}

/// Stores a new write, committed before anything is sent. One statement is its own
/// transaction (the counting trigger runs inside it): no BEGIN and COMMIT to parse and
/// run around it.
pub(crate) fn enqueue(
    conn: &Connection,
    write: &Write,
    key: &IdempotencyKey,
    now: Timestamp,
    replaces: Option<ItemId>,
    made: Made,
) -> rusqlite::Result<ItemId> {
    debug_assert!(conn.is_autocommit(), "an enqueue commits on its own");
    insert(conn, write, key, now, replaces, made)
}

/// Stores a customer's check-in unless one of the same card still waits (queued or
/// being sent), checked in the same statement: None when one waits.
pub(crate) fn enqueue_check_in(
    conn: &Connection,
    write: &Write,
    key: &IdempotencyKey,
    now: Timestamp,
    owner: Option<OwnerId>,
) -> rusqlite::Result<Option<ItemId>> {
    let made = Made {
        owner,
        kiosk: true,
        person: None,
    };
    let changed = insert_as(
        conn,
        "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state, created_at,
                             replaces, owner, kiosk, person, till, shift)
         SELECT ?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, ?8, ?9, ?10,
                (SELECT till_id FROM till WHERE id = 1),
                (SELECT id FROM shifts WHERE closed_at IS NULL)
         WHERE NOT EXISTS (
             SELECT 1 FROM outbox WHERE order_key = ?3 AND kiosk = 1
               AND state IN ('queued', 'sending'))",
        (write, key, now, None, made),
    )?;
    Ok((changed == 1).then(|| ItemId(conn.last_insert_rowid())))
}

fn insert(
    conn: &Connection,
    write: &Write,
    key: &IdempotencyKey,
    now: Timestamp,
    replaces: Option<ItemId>,
    made: Made,
) -> rusqlite::Result<ItemId> {
    insert_as(
        conn,
        "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state, created_at,
                             replaces, owner, kiosk, person, till, shift)
         VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, ?8, ?9, ?10,
                 (SELECT till_id FROM till WHERE id = 1),
                 (SELECT id FROM shifts WHERE closed_at IS NULL))",
        (write, key, now, replaces, made),
    )?;
    Ok(ItemId(conn.last_insert_rowid()))
}

/// Runs an INSERT of the outbox whose parameters ?1 to ?10 are a new write's columns;
/// answers how many rows it stored.
fn insert_as(
    conn: &Connection,
    sql: &str,
    (write, key, now, replaces, made): (&Write, &IdempotencyKey, Timestamp, Option<ItemId>, Made),
) -> rusqlite::Result<usize> {
    conn.prepare_cached(sql)?.execute(params![
        write.kind().as_str(),
        key.as_str(),
        write.order_key(),
        serde_json::to_string(write).expect("writes serialize"),
        write.body(),
        ts(now),
        replaces.map(|r| r.0),
        made.owner.map(|o| o.0),
        made.kiosk,
        made.person.map(|p| p.0),
    ])
}

/// The writes of shift `shift`, oldest first.
pub(crate) fn in_shift(conn: &Connection, shift: i64) -> rusqlite::Result<Vec<OutboxItem>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM outbox WHERE shift = ?1 ORDER BY id"
    ))?
    .query_map([shift], item)?
    .collect()
}

/// One item.
pub(crate) fn get(conn: &Connection, id: ItemId) -> rusqlite::Result<Option<OutboxItem>> {
    // Cached: read after every write, and its 22 columns cost more to parse than to read.
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM outbox WHERE id = ?1"))?
        .query_row([id.0], item)
        .optional()
}

/// An item's state alone (what an event says), without reading the whole row.
pub(crate) fn state_of(conn: &Connection, id: ItemId) -> rusqlite::Result<Option<ItemState>> {
    let state: Option<String> = conn
        .prepare_cached("SELECT state FROM outbox WHERE id = ?1")?
        .query_row([id.0], |r| r.get(0))
        .optional()?;
    Ok(state.and_then(|s| ItemState::parse(&s)))
}

/// Items, newest first; with `open_only`, those still queued, sending or needing a decision.
pub(crate) fn list(
    conn: &Connection,
    open_only: bool,
    limit: u32,
) -> rusqlite::Result<Vec<OutboxItem>> {
    let filter = if open_only {
        "WHERE state IN ('queued', 'sending', 'needs_decision')"
    } else {
        ""
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM outbox {filter} ORDER BY id DESC LIMIT ?1"
    ))?;
    stmt.query_map([limit], item)?.collect()
}

/// The items made from `from` (included) to `to` (excluded), in `state` when given:
/// newest first for a screen, oldest first for a record; at most `limit`.
pub(crate) fn made_between(
    conn: &Connection,
    (from, to): (Timestamp, Timestamp),
    state: Option<ItemState>,
    newest_first: bool,
    limit: u32,
) -> rusqlite::Result<Vec<OutboxItem>> {
    // By instant, not by text: stored times carry as many fractional digits as they need.
    let order = if newest_first { "DESC" } else { "ASC" };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM outbox
         WHERE julianday(created_at) >= julianday(?1) AND julianday(created_at) < julianday(?2)
           AND (?3 IS NULL OR state = ?3)
         ORDER BY id {order} LIMIT ?4"
    ))?;
    stmt.query_map(
        params![
            from.to_string(),
            to.to_string(),
            state.map(ItemState::as_str),
            limit
        ],
        item,
    )?
    .collect()
}

/// How many items wait and how many need a person.
pub(crate) fn counts(conn: &Connection) -> rusqlite::Result<QueueCounts> {
    // Kept by triggers (schema 5): one small table, not a count of the queue.
    conn.prepare_cached(
        "SELECT
            COALESCE(SUM(CASE WHEN state IN ('queued', 'sending') THEN n END), 0),
            COALESCE(SUM(CASE WHEN state = 'needs_decision' THEN n END), 0)
         FROM outbox_counts",
    )?
    .query_row([], |r| {
        Ok(QueueCounts {
            queued: r.get(0)?,
            needs_decision: r.get(1)?,
        })
    })
}

/// The oldest item of `owner` that may be sent now and passes `ready` (not waiting out
/// its own backoff, not being sent by a cashier): queued or sending, with nothing older
/// of the same card or gift card still queued or sending before it. An item that is not
/// ready holds only the items of its own card behind it; another business's items wait
/// for a key of theirs. `ready` runs while the database is locked: it must take no
/// other lock.
pub(crate) fn next_sendable(
    conn: &Connection,
    owner: OwnerId,
    ready: impl Fn(ItemId) -> bool,
) -> rusqlite::Result<Option<OutboxItem>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM outbox o
         WHERE o.state IN ('queued', 'sending') AND o.owner = ?1
           AND (o.order_key IS NULL OR NOT EXISTS (
                SELECT 1 FROM outbox p
                WHERE p.order_key = o.order_key AND p.id < o.id
                  AND p.state IN ('queued', 'sending')))
         ORDER BY o.id"
    ))?;
    let mut rows = stmt.query([owner.0])?;
    while let Some(row) = rows.next()? {
        let id = ItemId(row.get(0)?);
        if ready(id) {
            return item(row).map(Some);
        }
    }
    Ok(None)
}

/// Whether `id` is first in line for its card or gift card.
pub(crate) fn is_first_in_line(conn: &Connection, id: ItemId) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT NOT EXISTS (
            SELECT 1 FROM outbox p, outbox o
            WHERE o.id = ?1 AND p.order_key = o.order_key AND p.id < o.id
              AND p.state IN ('queued', 'sending'))",
        [id.0],
        |r| r.get(0),
    )
}

/// Open items of one order key (a card's or gift card's queued writes).
pub(crate) fn open_for(conn: &Connection, order_key: &str) -> rusqlite::Result<Vec<OutboxItem>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM outbox
         WHERE order_key = ?1 AND state IN ('queued', 'sending') ORDER BY id"
    ))?;
    stmt.query_map([order_key], item)?.collect()
}

/// Whether a write for `order_key` is queued or being sent ([`open_for`], not read).
pub(crate) fn any_open_for(conn: &Connection, order_key: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM outbox
                        WHERE order_key = ?1 AND state IN ('queued', 'sending'))",
    )?
    .query_row([order_key], |r| r.get(0))
}

/// Payments that are or may become money taken: queued, being sent, or waiting for a
/// person (one that may have arrived counts until someone closes it). For the balance
/// left on a card and the offline policy's total cap.
pub(crate) fn payments_at_risk(conn: &Connection) -> rusqlite::Result<Vec<OutboxItem>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM outbox
         WHERE kind = 'payment' AND state IN ('queued', 'sending', 'needs_decision')
         ORDER BY id"
    ))?;
    stmt.query_map([], item)?.collect()
}

/// Who took this till's payments from a gift card the service answered, by their
/// reference (each names this till and its number): for the card's ledger.
pub(crate) fn payers_by_reference(
    conn: &Connection,
    gift_card: &loyalty_api::GiftCardId,
) -> rusqlite::Result<std::collections::HashMap<String, String>> {
    // Closed, a payment names its card by the card's keyed hash (a moment after it
    // closed, still by its id).
    let kept = kept_order_key(&crate::kept::CardKey::of(conn)?.hash(gift_card.as_str()));
    let mut stmt = conn.prepare_cached(
        "SELECT json_extract(outbox.body, '$.reference'), people.name
         FROM outbox JOIN people ON people.id = outbox.person
         WHERE outbox.order_key IN (?1, ?2) AND outbox.state = 'done' AND outbox.kind = 'payment'
           AND json_extract(outbox.body, '$.reference') IS NOT NULL",
    )?;
    stmt.query_map(params![format!("gift_card:{gift_card}"), kept], |row| {
        Ok((row.get(0)?, row.get(1)?))
    })?
    .collect()
}

/// Loyalty scans of each card made at this till since `since` and not refused, for the
/// cards with more than `more_than`, the most scanned first, by order key (`card:…`).
pub(crate) fn scans_since(
    conn: &Connection,
    since: Timestamp,
    more_than: u32,
) -> rusqlite::Result<Vec<(String, u32)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT order_key, COUNT(*) FROM outbox
         WHERE kind = 'scan' AND created_at >= ?1 AND state <> 'refused'
         GROUP BY order_key HAVING COUNT(*) > ?2 ORDER BY COUNT(*) DESC, order_key",
    )?;
    stmt.query_map(params![ts(since), more_than], |row| {
        Ok((row.get(0)?, row.get(1)?))
    })?
    .collect()
}

/// [`scans_since`] of one card (its order key): read through the order key's index, on
/// the counter's path when the card opens.
pub(crate) fn scans_of_since(
    conn: &Connection,
    order_key: &str,
    since: Timestamp,
) -> rusqlite::Result<u32> {
    conn.prepare_cached(
        "SELECT COUNT(*) FROM outbox
         WHERE order_key = ?1 AND state <> 'refused' AND kind = 'scan' AND created_at >= ?2",
    )?
    .query_row(params![order_key, ts(since)], |row| row.get(0))
}

#[cfg(test)]
mod tests;
