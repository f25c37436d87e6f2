//! The outbox's SQL. Every function that changes an item's state commits before it
//! returns (the connection runs `synchronous=FULL`).

use jiff::Timestamp;
use loyalty_api::IdempotencyKey;
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::business::OwnerId;
use super::{
    DecisionReason, ItemId, ItemState, OutboxItem, QueueCounts, Refusal, Resolution, Write,
};
use crate::secrets::KeyFingerprint;
use crate::views::Answer;

mod attempts;
mod decisions;
mod owners;

pub(crate) use attempts::*;
pub(crate) use decisions::*;
pub(crate) use owners::*;

/// Who a new write belongs to, and whether a customer made it at the kiosk.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Made {
    /// The business the till is connected to (None before it ever knew one).
    pub owner: Option<OwnerId>,
    /// A customer's own check-in.
    pub kiosk: bool,
}

fn ts(t: Timestamp) -> String {
    // Fixed width (milliseconds, Z) so that text order is time order.
    t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

fn read_ts(text: Option<String>) -> Option<Timestamp> {
    text.and_then(|t| t.parse().ok())
}

const COLUMNS: &str = "id, state, write, idempotency_key, body, created_at, attempts, \
    last_attempt_at, may_have_arrived_at, answer, replayed, request_id, problem_code, \
    problem_detail, reason, last_error, closed_at, resolution, replaces, arrived_key, \
    arrived_service_at, resend_approved, owner, kiosk";

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
    let made = Made { owner, kiosk: true };
    let changed = insert_as(
        conn,
        "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state, created_at,
                             replaces, owner, kiosk)
         SELECT ?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, ?8, ?9
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
                             replaces, owner, kiosk)
         VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, ?8, ?9)",
        (write, key, now, replaces, made),
    )?;
    Ok(ItemId(conn.last_insert_rowid()))
}

/// Runs an INSERT of the outbox whose parameters ?1 to ?9 are a new write's columns;
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
    ])
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
mod tests {
    use super::*;
    use crate::outbox::business::Business;
    use loyalty_api::{CardId, ScanAction};

    /// Made for the business every test till is connected to (the first owner).
    const MINE: Made = Made {
        owner: Some(OwnerId(1)),
        kiosk: false,
    };

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
        let business = Business {
            id: "bus_1".into(),
            name: "Café".into(),
            test_mode: true,
            service: "http://127.0.0.1:1/sandbox".into(),
        };
        assert_eq!(owner_of(&conn, &business).unwrap(), OwnerId(1));
        (dir, conn)
    }

    fn key(n: u32) -> IdempotencyKey {
        IdempotencyKey::new(format!("k-{n}")).unwrap()
    }

    #[test]
    fn a_write_is_stored_queued_with_its_key_and_exact_body() {
        let (_dir, conn) = setup();
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let id = enqueue(&conn, &visit("card_1"), &key(1), now, None, MINE).unwrap();
        let stored = get(&conn, id).unwrap().unwrap();
        assert_eq!(stored.state, ItemState::Queued);
        assert_eq!(stored.idempotency_key, "k-1");
        assert_eq!(stored.body, visit("card_1").body());
        assert_eq!(stored.created_at, now);
        assert_eq!(counts(&conn).unwrap().queued, 1);
    }

    #[test]
    fn a_second_write_of_the_same_card_waits_for_the_first_but_others_do_not() {
        let (_dir, conn) = setup();
        let now = Timestamp::UNIX_EPOCH;
        let a1 = enqueue(&conn, &visit("card_a"), &key(1), now, None, MINE).unwrap();
        let a2 = enqueue(&conn, &visit("card_a"), &key(2), now, None, MINE).unwrap();
        let b1 = enqueue(&conn, &visit("card_b"), &key(3), now, None, MINE).unwrap();
        assert!(is_first_in_line(&conn, a1).unwrap());
        assert!(!is_first_in_line(&conn, a2).unwrap());
        assert!(is_first_in_line(&conn, b1).unwrap());
        assert_eq!(
            next_sendable(&conn, OwnerId(1), |_| true)
                .unwrap()
                .unwrap()
                .id,
            a1
        );
        let refusal = Refusal {
            code: loyalty_api::ErrorCode::CardNotActive,
            detail: None,
            request_id: None,
        };
        mark_refused(&conn, a1, &refusal, now).unwrap();
        // A refused item never blocks the ones behind it.
        assert_eq!(
            next_sendable(&conn, OwnerId(1), |_| true)
                .unwrap()
                .unwrap()
                .id,
            a2
        );
        // An item waiting out its own backoff holds only its own card's items.
        assert_eq!(
            next_sendable(&conn, OwnerId(1), |id| id != a2)
                .unwrap()
                .unwrap()
                .id,
            b1
        );
        assert!(is_first_in_line(&conn, a2).unwrap());
    }

    #[test]
    fn the_counts_follow_every_change_of_state() {
        let (_dir, conn) = setup();
        let now = Timestamp::UNIX_EPOCH;
        let fp = KeyFingerprint::from_stored("0123456789abcdef".into());
        let a = enqueue(&conn, &visit("card_a"), &key(1), now, None, MINE).unwrap();
        let b = enqueue(&conn, &visit("card_b"), &key(2), now, None, MINE).unwrap();
        assert_eq!(
            counts(&conn).unwrap(),
            QueueCounts {
                queued: 2,
                needs_decision: 0
            }
        );
        mark_sending(&conn, a, now, &fp, None).unwrap();
        mark_needs_decision(&conn, b, &DecisionReason::BodyChanged, None).unwrap();
        assert_eq!(
            counts(&conn).unwrap(),
            QueueCounts {
                queued: 1,
                needs_decision: 1
            }
        );
        assert!(discard(&conn, b, "", now).unwrap());
        assert_eq!(
            counts(&conn).unwrap(),
            QueueCounts {
                queued: 1,
                needs_decision: 0
            }
        );
    }

    #[test]
    fn a_discarded_item_is_never_marked_sending_and_a_sending_one_never_discarded() {
        let (_dir, conn) = setup();
        let now = Timestamp::UNIX_EPOCH;
        let fp = KeyFingerprint::from_stored("0123456789abcdef".into());
        // The worker read it as queued; a person withdraws it before the attempt.
        let withdrawn = enqueue(&conn, &visit("card_a"), &key(1), now, None, MINE).unwrap();
        assert!(discard(&conn, withdrawn, "", now).unwrap());
        assert!(!mark_sending(&conn, withdrawn, now, &fp, None).unwrap());
        // Being sent: it cannot be withdrawn.
        let sending = enqueue(&conn, &visit("card_b"), &key(2), now, None, MINE).unwrap();
        assert!(mark_sending(&conn, sending, now, &fp, None).unwrap());
        assert!(!discard(&conn, sending, "", now).unwrap());
        assert_eq!(
            get(&conn, sending).unwrap().unwrap().state,
            ItemState::Sending
        );
    }

    #[test]
    fn a_send_again_covers_the_attempts_before_it_and_not_the_next() {
        let (_dir, conn) = setup();
        let t0: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let a = KeyFingerprint::from_stored("aaaaaaaaaaaaaaaa".into());
        let b = KeyFingerprint::from_stored("bbbbbbbbbbbbbbbb".into());
        let id = enqueue(&conn, &visit("card_1"), &key(1), t0, None, MINE).unwrap();
        mark_sending(&conn, id, t0, &a, Some(t0)).unwrap();
        attempt_failed(&conn, id, true, "connection closed").unwrap();
        mark_needs_decision(&conn, id, &DecisionReason::BodyChanged, None).unwrap();
        assert!(approve_resend(&conn, id).unwrap());
        let approved = get(&conn, id).unwrap().unwrap();
        assert!(approved.resend_approved);
        assert_eq!(
            approved.may_have_arrived_at,
            Some(t0),
            "the first moment stays"
        );
        // The resend, under another key, may have arrived too: no approval covers it.
        mark_sending(&conn, id, t0, &b, Some(t0)).unwrap();
        attempt_failed(&conn, id, true, "timed out").unwrap();
        let again = get(&conn, id).unwrap().unwrap();
        assert!(!again.resend_approved);
        assert_eq!(again.arrived_key, Some(b));
        assert_eq!(again.may_have_arrived_at, Some(t0));
    }

    #[test]
    fn an_outcome_never_reopens_an_item_a_person_closed() {
        let (_dir, conn) = setup();
        let now = Timestamp::UNIX_EPOCH;
        let id = enqueue(&conn, &visit("card_1"), &key(1), now, None, MINE).unwrap();
        assert!(discard(&conn, id, "", now).unwrap());
        mark_needs_decision(&conn, id, &DecisionReason::BodyChanged, None).unwrap();
        let refusal = Refusal {
            code: loyalty_api::ErrorCode::CardNotActive,
            detail: None,
            request_id: None,
        };
        mark_refused(&conn, id, &refusal, now).unwrap();
        let closed = get(&conn, id).unwrap().unwrap();
        assert_eq!(closed.state, ItemState::Refused);
        assert!(closed.reason.is_none() && closed.refusal.is_none());
        assert!(closed.resolution.is_some());
    }

    #[test]
    fn an_item_found_sending_after_a_crash_may_have_reached_the_service() {
        let (_dir, conn) = setup();
        let t0: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let id = enqueue(&conn, &visit("card_1"), &key(1), t0, None, MINE).unwrap();
        let fp = KeyFingerprint::from_stored("0123456789abcdef".into());
        assert!(mark_sending(&conn, id, t0, &fp, Some(t0)).unwrap());
        assert_eq!(interrupted_attempts_may_have_arrived(&conn).unwrap(), 1);
        let item = get(&conn, id).unwrap().unwrap();
        assert_eq!(item.state, ItemState::Sending);
        assert_eq!(item.may_have_arrived_at, Some(t0));
        assert_eq!(item.arrived_service_at, Some(t0));
        assert_eq!(item.arrived_key, Some(fp));
        assert_eq!(
            next_sendable(&conn, OwnerId(1), |_| true)
                .unwrap()
                .unwrap()
                .id,
            id
        );
    }

    #[test]
    fn the_earliest_attempt_that_may_have_arrived_is_kept() {
        let (_dir, conn) = setup();
        let t0: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let t1: Timestamp = "2026-11-22T10:15:00Z".parse().unwrap();
        let id = enqueue(&conn, &visit("card_1"), &key(1), t0, None, MINE).unwrap();
        let first = KeyFingerprint::from_stored("aaaaaaaaaaaaaaaa".into());
        let second = KeyFingerprint::from_stored("bbbbbbbbbbbbbbbb".into());
        mark_sending(&conn, id, t0, &first, Some(t0)).unwrap();
        attempt_failed(&conn, id, false, "could not connect").unwrap();
        assert_eq!(get(&conn, id).unwrap().unwrap().may_have_arrived_at, None);
        mark_sending(&conn, id, t0, &first, Some(t0)).unwrap();
        attempt_failed(&conn, id, true, "connection closed").unwrap();
        mark_sending(&conn, id, t1, &second, Some(t1)).unwrap();
        attempt_failed(&conn, id, true, "timed out").unwrap();
        let item = get(&conn, id).unwrap().unwrap();
        assert_eq!(item.may_have_arrived_at, Some(t0));
        assert_eq!(item.arrived_service_at, Some(t0));
        assert_eq!(item.arrived_key, Some(first));
    }

    #[test]
    fn reasons_and_resolutions_written_as_sentences_are_read_as_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        {
            // A file as the first version left it: schema 1, sentences in the outbox.
            let conn = crate::db::at_schema(&path, 1);
            let write = r#"{"kind":"scan","card_id":"card_1","action":"visit","amount":null,"confirm_repeat":false}"#;
            let rows = [
                (
                    "k1",
                    "needs_decision",
                    Some(
                        "The service says this card's last visit was at a moment, less than 15 minutes before.",
                    ),
                    None,
                ),
                (
                    "k2",
                    "needs_decision",
                    Some(
                        "This write may have reached the service at 2026-11-20T10:00:00Z, more than 23 hours ago. The service forgets a write's key after 24 hours.",
                    ),
                    None,
                ),
                (
                    "k3",
                    "refused",
                    None,
                    Some("discarded: already on the card"),
                ),
                ("k4", "refused", None, Some("repeat visit confirmed as #7")),
            ];
            for (key, state, reason, resolution) in rows {
                conn.execute(
                    "INSERT INTO outbox (kind, idempotency_key, write, body, state, created_at,
                         may_have_arrived_at, reason, resolution)
                     VALUES ('scan', ?1, ?2, '{}', ?3, '2026-11-20T10:00:00.000Z',
                         '2026-11-20T10:00:00.000Z', ?4, ?5)",
                    rusqlite::params![key, write, state, reason, resolution],
                )
                .unwrap();
            }
        }
        let conn = crate::db::open(&path).unwrap();
        let item = |n: i64| get(&conn, ItemId(n)).unwrap().unwrap();
        assert_eq!(
            item(1).reason,
            Some(DecisionReason::RecentVisit {
                last_visit_at: None
            })
        );
        assert!(matches!(
            item(2).reason,
            Some(DecisionReason::KeyMayBeForgotten { hours: 23, .. })
        ));
        assert_eq!(
            item(3).resolution,
            Some(Resolution::Discarded {
                note: "already on the card".into()
            })
        );
        assert_eq!(
            item(4).resolution,
            Some(Resolution::RepeatConfirmed {
                replacement: ItemId(7)
            })
        );
    }
}
