//! The outbox table's tests, and what the migrations bring along of it.

use super::*;
use crate::ids::PersonId;
use crate::outbox::business::Business;
use loyalty_api::{CardId, ScanAction};

/// Made for the business every test till is connected to (the first owner), by the
/// till's owner (the first person on its roster).
const MINE: Made = Made {
    owner: Some(OwnerId(1)),
    kiosk: false,
    person: Some(PersonId(1)),
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
    let (dir, conn) = crate::db::new_for_tests();
    let business = Business {
        id: "bus_1".into(),
        name: "Café".into(),
        test_mode: true,
        service: "http://127.0.0.1:1/sandbox".into(),
    };
    assert_eq!(owner_of(&conn, &business).unwrap(), OwnerId(1));
    crate::pin::set(&conn, "2468", "2026-11-20T09:00:00Z".parse().unwrap()).unwrap();
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
    let conn = crate::db::open_for_tests(&path);
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

/// A write an earlier version queued (schema 12, before staff seats) comes along through
/// the migration that added who made each write: still queued, with its key, made
/// "before staff seats".
#[test]
fn a_write_queued_before_staff_seats_is_kept_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("till.db");
    {
        let earlier = crate::db::at_schema(&path, 12);
        let visit = visit("card_0123456789");
        earlier
            .execute(
                "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state,
                                     created_at)
                 VALUES ('scan', 'k1', ?1, ?2, ?3, 'queued', '2026-11-27T10:00:00.000Z')",
                rusqlite::params![
                    visit.order_key(),
                    serde_json::to_string(&visit).unwrap(),
                    visit.body()
                ],
            )
            .unwrap();
    }
    let conn = crate::db::open_for_tests(&path);
    let kept = get(&conn, ItemId(1))
        .unwrap()
        .expect("the queued visit is kept");
    assert_eq!(kept.state, ItemState::Queued);
    assert_eq!(kept.idempotency_key, "k1");
    assert_eq!(kept.made_by, MadeBy::BeforeStaffSeats);
    assert_eq!(count_queued(&conn), 1);
}

fn count_queued(conn: &Connection) -> i64 {
    conn.query_row(
        "SELECT count(*) FROM outbox WHERE state = 'queued'",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

/// Payments an earlier version stored (schema 14, before ids were kept by their last
/// four) come along through migration 15: the queued one still whole (it must be sent),
/// the one answered kept as `****` and its keyed hash once the forgetter's time came;
/// the cached gift cards, keyed by whole ids, are gone (read again when scanned).
#[test]
fn payments_of_schema_14_are_kept_the_queued_whole_the_closed_by_last_four() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("till.db");
    let payment = |card: &str| -> Write {
        serde_json::from_value(serde_json::json!({
            "kind": "payment", "gift_card_id": card, "amount_minor": 500,
            "currency": "EUR", "reference": "Counter 1 #1",
        }))
        .unwrap()
    };
    let (waiting, answered) = ("gc_StillWaiting0001", "gc_AnsweredBefore0002");
    {
        let earlier = crate::db::at_schema(&path, 14);
        earlier
            .execute(
                "INSERT INTO people (name, role, hash, created_at)
                 VALUES ('Owner', 'owner', 'x', '2026-11-27T09:00:00Z')",
                [],
            )
            .unwrap();
        for (n, card, state, closed_at, answer) in [
            (1, waiting, "queued", None, None),
            (
                2,
                answered,
                "done",
                Some("2026-11-27T10:01:00.000Z"),
                Some(format!(
                    r#"{{"object":"gift_card_payment","gift_card":{{"id":"{answered}"}}}}"#
                )),
            ),
        ] {
            let write = payment(card);
            earlier
                .execute(
                    "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state,
                                         created_at, closed_at, answer, person, till)
                     VALUES ('payment', ?1, ?2, ?3, ?4, ?5, '2026-11-27T10:00:00.000Z', ?6, ?7,
                             1, 't1')",
                    rusqlite::params![
                        format!("k{n}"),
                        write.order_key(),
                        serde_json::to_string(&write).unwrap(),
                        write.body(),
                        state,
                        closed_at,
                        answer
                    ],
                )
                .unwrap();
        }
        earlier
            .execute(
                "INSERT INTO gift_cards (id, gift_card, read_at)
                 VALUES (?1, '{}', '2026-11-27T10:00:00.000Z')",
                [answered],
            )
            .unwrap();
    }
    let conn = crate::db::open_for_tests(&path);
    assert_eq!(count_queued(&conn), 1);
    let gift_cards: i64 = conn
        .query_row("SELECT count(*) FROM gift_cards", [], |r| r.get(0))
        .unwrap();
    assert_eq!(gift_cards, 0);

    assert_eq!(
        keep_card_ends(&conn, "2026-11-28T00:00:00Z".parse().unwrap()).unwrap(),
        1
    );
    let queued = get(&conn, ItemId(1)).unwrap().unwrap();
    assert_eq!(queued.state, ItemState::Queued);
    assert_eq!(queued.idempotency_key, "k1");
    assert_eq!(
        queued.write,
        payment(waiting),
        "a write still to send keeps its card whole"
    );
    // (its answer, cut short here, is read as text)
    let done: String = conn
        .query_row("SELECT write FROM outbox WHERE id = 2", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Write>(&done).unwrap(),
        payment("****0002")
    );
    let text: String = conn
        .query_row(
            "SELECT write || body || answer || order_key FROM outbox WHERE id = 2",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!text.contains(answered), "{text}");
    assert!(text.contains("gift_card#"), "{text}");
}
