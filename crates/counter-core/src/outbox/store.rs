//! The outbox's SQL. Every function that changes an item's state commits before it
//! returns (the connection runs `synchronous=FULL`).

use jiff::Timestamp;
use loyalty_api::IdempotencyKey;
use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

use super::{
    DecisionReason, ItemId, ItemState, OutboxItem, QueueCounts, Refusal, Resolution, Write,
};
use crate::views::Answer;

fn ts(t: Timestamp) -> String {
    // Fixed width (milliseconds, Z) so that text order is time order.
    t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

fn read_ts(text: Option<String>) -> Option<Timestamp> {
    text.and_then(|t| t.parse().ok())
}

const COLUMNS: &str = "id, state, write, idempotency_key, body, created_at, attempts, \
    last_attempt_at, may_have_arrived_at, answer, replayed, request_id, problem_code, \
    problem_detail, reason, last_error, closed_at, resolution, replaces";

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
        refusal: code.map(|code| Refusal {
            code,
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
    })
}

/// Stores a new write in one committed transaction, before anything is sent.
pub(crate) fn enqueue(
    conn: &mut Connection,
    write: &Write,
    key: &IdempotencyKey,
    now: Timestamp,
    replaces: Option<ItemId>,
) -> rusqlite::Result<ItemId> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute(
        "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state, created_at, replaces)
         VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7)",
        params![
            write.kind().as_str(),
            key.as_str(),
            write.order_key(),
            serde_json::to_string(write).expect("writes serialize"),
            write.body(),
            ts(now),
            replaces.map(|r| r.0),
        ],
    )?;
    let id = ItemId(tx.last_insert_rowid());
    tx.commit()?;
    Ok(id)
}

/// One item.
pub(crate) fn get(conn: &Connection, id: ItemId) -> rusqlite::Result<Option<OutboxItem>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM outbox WHERE id = ?1"),
        [id.0],
        item,
    )
    .optional()
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
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM outbox {filter} ORDER BY id DESC LIMIT ?1"
    ))?;
    stmt.query_map([limit], item)?.collect()
}

/// How many items wait and how many need a person.
pub(crate) fn counts(conn: &Connection) -> rusqlite::Result<QueueCounts> {
    conn.query_row(
        "SELECT
            COALESCE(SUM(state IN ('queued', 'sending')), 0),
            COALESCE(SUM(state = 'needs_decision'), 0)
         FROM outbox WHERE state IN ('queued', 'sending', 'needs_decision')",
        [],
        |r| {
            Ok(QueueCounts {
                queued: r.get(0)?,
                needs_decision: r.get(1)?,
            })
        },
    )
}

/// The oldest item that may be sent now: queued or sending, with nothing older of the
/// same card or gift card still queued or sending before it.
pub(crate) fn next_sendable(conn: &Connection) -> rusqlite::Result<Option<OutboxItem>> {
    conn.query_row(
        &format!(
            "SELECT {COLUMNS} FROM outbox o
             WHERE o.state IN ('queued', 'sending')
               AND (o.order_key IS NULL OR NOT EXISTS (
                    SELECT 1 FROM outbox p
                    WHERE p.order_key = o.order_key AND p.id < o.id
                      AND p.state IN ('queued', 'sending')))
             ORDER BY o.id LIMIT 1"
        ),
        [],
        item,
    )
    .optional()
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
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM outbox
         WHERE order_key = ?1 AND state IN ('queued', 'sending') ORDER BY id"
    ))?;
    stmt.query_map([order_key], item)?.collect()
}

/// All open payments (for the offline policy's total cap).
pub(crate) fn open_payments(conn: &Connection) -> rusqlite::Result<Vec<OutboxItem>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM outbox
         WHERE kind = 'payment' AND state IN ('queued', 'sending') ORDER BY id"
    ))?;
    stmt.query_map([], item)?.collect()
}

/// Marks an attempt as started, durably, before the request leaves.
pub(crate) fn mark_sending(conn: &Connection, id: ItemId, now: Timestamp) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'sending', attempts = attempts + 1,
             first_attempt_at = COALESCE(first_attempt_at, ?2), last_attempt_at = ?2
         WHERE id = ?1 AND state IN ('queued', 'sending')",
        params![id.0, ts(now)],
    )?;
    Ok(())
}

/// An attempt failed in a way that is worth retrying: back to `queued`. When the
/// request may have reached the service, the earliest such attempt is remembered for
/// the 23-hour rule.
pub(crate) fn attempt_failed(
    conn: &Connection,
    id: ItemId,
    may_have_arrived_at: Option<Timestamp>,
    error: &str,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'queued', last_error = ?3,
             may_have_arrived_at = COALESCE(may_have_arrived_at, ?2)
         WHERE id = ?1 AND state IN ('queued', 'sending')",
        params![id.0, may_have_arrived_at.map(ts), error],
    )?;
    Ok(())
}

/// Notes that an item found in `sending` (after a crash) may have reached the service
/// when its last attempt started.
pub(crate) fn interrupted_attempts_may_have_arrived(conn: &Connection) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE outbox SET may_have_arrived_at = COALESCE(may_have_arrived_at, last_attempt_at),
             last_error = COALESCE(last_error, 'the app stopped while this was being sent')
         WHERE state = 'sending'",
        [],
    )
}

/// The service accepted the write.
pub(crate) fn mark_done(
    conn: &Connection,
    id: ItemId,
    answer: &Answer,
    replayed: bool,
    request_id: Option<&str>,
    now: Timestamp,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'done', answer = ?2, replayed = ?3, request_id = ?4,
             closed_at = ?5, last_error = NULL
         WHERE id = ?1",
        params![
            id.0,
            serde_json::to_string(answer).expect("answers serialize"),
            replayed,
            request_id,
            ts(now)
        ],
    )?;
    Ok(())
}

/// The service refused the write for good.
pub(crate) fn mark_refused(
    conn: &Connection,
    id: ItemId,
    refusal: &Refusal,
    now: Timestamp,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'refused', problem_code = ?2, problem_detail = ?3,
             request_id = ?4, closed_at = ?5
         WHERE id = ?1",
        params![
            id.0,
            refusal.code,
            refusal.detail,
            refusal.request_id,
            ts(now)
        ],
    )?;
    Ok(())
}

/// A person must decide; `refusal` keeps the service's answer when there was one.
pub(crate) fn mark_needs_decision(
    conn: &Connection,
    id: ItemId,
    reason: &DecisionReason,
    refusal: Option<&Refusal>,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'needs_decision', reason = ?2,
             problem_code = COALESCE(?3, problem_code),
             problem_detail = COALESCE(?4, problem_detail),
             request_id = COALESCE(?5, request_id)
         WHERE id = ?1",
        params![
            id.0,
            serde_json::to_string(reason).expect("reasons serialize"),
            refusal.map(|r| r.code.as_str()),
            refusal.and_then(|r| r.detail.as_deref()),
            refusal.and_then(|r| r.request_id.as_deref()),
        ],
    )?;
    Ok(())
}

/// A person closed the item (discarded it, or replaced it by a confirmed repeat):
/// it becomes `refused`, with what they decided in `resolution`.
pub(crate) fn close_by_person(
    conn: &Connection,
    id: ItemId,
    resolution: &Resolution,
    now: Timestamp,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'refused', resolution = ?2, closed_at = COALESCE(closed_at, ?3)
         WHERE id = ?1",
        params![
            id.0,
            serde_json::to_string(resolution).expect("resolutions serialize"),
            ts(now)
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use loyalty_api::{CardId, ScanAction};

    fn visit(card: &str) -> Write {
        Write::Scan {
            card_id: CardId::new(card),
            action: ScanAction::Visit,
            amount: None,
            confirm_repeat: false,
        }
    }

    fn setup() -> (tempfile::TempDir, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::db::open(&dir.path().join("till.db")).unwrap();
        (dir, conn)
    }

    fn key(n: u32) -> IdempotencyKey {
        IdempotencyKey::new(format!("k-{n}")).unwrap()
    }

    #[test]
    fn a_write_is_stored_queued_with_its_key_and_exact_body() {
        let (_dir, mut conn) = setup();
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let id = enqueue(&mut conn, &visit("card_1"), &key(1), now, None).unwrap();
        let stored = get(&conn, id).unwrap().unwrap();
        assert_eq!(stored.state, ItemState::Queued);
        assert_eq!(stored.idempotency_key, "k-1");
        assert_eq!(stored.body, visit("card_1").body());
        assert_eq!(stored.created_at, now);
        assert_eq!(counts(&conn).unwrap().queued, 1);
    }

    #[test]
    fn a_second_write_of_the_same_card_waits_for_the_first_but_others_do_not() {
        let (_dir, mut conn) = setup();
        let now = Timestamp::UNIX_EPOCH;
        let a1 = enqueue(&mut conn, &visit("card_a"), &key(1), now, None).unwrap();
        let a2 = enqueue(&mut conn, &visit("card_a"), &key(2), now, None).unwrap();
        let b1 = enqueue(&mut conn, &visit("card_b"), &key(3), now, None).unwrap();
        assert!(is_first_in_line(&conn, a1).unwrap());
        assert!(!is_first_in_line(&conn, a2).unwrap());
        assert!(is_first_in_line(&conn, b1).unwrap());
        assert_eq!(next_sendable(&conn).unwrap().unwrap().id, a1);
        let refusal = Refusal {
            code: "card_not_active".into(),
            detail: None,
            request_id: None,
        };
        mark_refused(&conn, a1, &refusal, now).unwrap();
        // A refused item never blocks the ones behind it.
        assert_eq!(next_sendable(&conn).unwrap().unwrap().id, a2);
        assert!(is_first_in_line(&conn, a2).unwrap());
    }

    #[test]
    fn an_item_found_sending_after_a_crash_may_have_reached_the_service() {
        let (_dir, mut conn) = setup();
        let t0: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let id = enqueue(&mut conn, &visit("card_1"), &key(1), t0, None).unwrap();
        mark_sending(&conn, id, t0).unwrap();
        assert_eq!(interrupted_attempts_may_have_arrived(&conn).unwrap(), 1);
        let item = get(&conn, id).unwrap().unwrap();
        assert_eq!(item.state, ItemState::Sending);
        assert_eq!(item.may_have_arrived_at, Some(t0));
        assert_eq!(next_sendable(&conn).unwrap().unwrap().id, id);
    }

    #[test]
    fn the_earliest_attempt_that_may_have_arrived_is_kept() {
        let (_dir, mut conn) = setup();
        let t0: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let t1: Timestamp = "2026-11-22T10:15:00Z".parse().unwrap();
        let id = enqueue(&mut conn, &visit("card_1"), &key(1), t0, None).unwrap();
        attempt_failed(&conn, id, None, "could not connect").unwrap();
        assert_eq!(get(&conn, id).unwrap().unwrap().may_have_arrived_at, None);
        attempt_failed(&conn, id, Some(t0), "connection closed").unwrap();
        attempt_failed(&conn, id, Some(t1), "timed out").unwrap();
        assert_eq!(
            get(&conn, id).unwrap().unwrap().may_have_arrived_at,
            Some(t0)
        );
    }
}
