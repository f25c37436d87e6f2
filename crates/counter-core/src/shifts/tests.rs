//! Shifts, their Zs and the chain, on a till's real database file.

use jiff::{SignedDuration, Timestamp};
use loyalty_api::{CardId, Currency, GiftCardId, IdempotencyKey, MinorUnits, ScanAction};
use rusqlite::Connection;
use rust_decimal::Decimal;

use super::*;
use crate::outbox::Write;
use crate::outbox::store::{self, Made};

const OWNER: PersonId = PersonId(1);

fn till() -> (tempfile::TempDir, Connection) {
    let (dir, conn) = crate::db::new_for_tests();
    crate::pin::set(&conn, "2468", "2026-11-20T09:00:00Z".parse().unwrap()).unwrap();
    (dir, conn)
}

fn at(minutes: i64) -> Timestamp {
    "2026-11-29T09:00:00Z".parse::<Timestamp>().unwrap() + SignedDuration::from_mins(minutes)
}

fn payment(minor: i64) -> Write {
    Write::Payment {
        gift_card_id: GiftCardId::new("gc_0123456789abcdefghijABCD"),
        amount_minor: MinorUnits::new(minor),
        currency: Currency::new("EUR").unwrap(),
        reference: None,
    }
}

fn points(amount: i64) -> Write {
    Write::Scan {
        card_id: CardId::new("card_1"),
        action: ScanAction::Points,
        amount: Some(Decimal::from(amount)),
        confirm_repeat: false,
    }
}

fn enqueue(conn: &Connection, write: &Write, now: Timestamp) -> i64 {
    let made = Made {
        owner: None,
        kiosk: false,
        person: Some(OWNER),
    };
    store::enqueue(conn, write, &IdempotencyKey::new_v4(), now, None, made)
        .unwrap()
        .0
}

fn confirm(conn: &Connection, item: i64, now: Timestamp) {
    conn.execute(
        "UPDATE outbox SET state = 'done', closed_at = ?2 WHERE id = ?1",
        rusqlite::params![item, ts(now)],
    )
    .unwrap();
}

fn close_now(conn: &mut Connection, shift: i64, now: Timestamp) -> SealedZ {
    close(conn, shift, "Owner", OWNER, now).unwrap()
}

#[test]
fn a_shift_opens_once_its_writes_are_its_own_and_its_z_closes_once() {
    let (_dir, mut conn) = till();
    // A write before any shift belongs to none.
    let before = enqueue(&conn, &points(1), at(0));
    let shift = open(&conn, OWNER, at(1)).unwrap();
    assert_eq!(open(&conn, OWNER, at(2)).unwrap(), shift, "a second press");
    let paid = enqueue(&conn, &payment(1250), at(3));
    let added = enqueue(&conn, &points(5), at(4));
    let deducted = enqueue(&conn, &points(-2), at(5));
    confirm(&conn, paid, at(6));
    confirm(&conn, added, at(6));

    let (lines, x) = x_report(&conn, shift.id).unwrap();
    assert_eq!(
        lines.iter().map(|l| l.item).collect::<Vec<_>>(),
        [paid, added, deducted]
    );
    assert!(!lines.iter().any(|l| l.item == before));
    let eur = &x.all.money["EUR"];
    assert_eq!(
        (eur.payments.confirmed.count, eur.payments.confirmed.sum),
        (1, 1250)
    );
    assert_eq!(x.all.loyalty.points_added.confirmed.sum, Decimal::from(5));
    assert_eq!(x.all.loyalty.points_deducted.waiting.sum, Decimal::from(2));
    assert_eq!(
        x.people["Owner"], x.all,
        "one person: their figures are all of them"
    );

    let z = close_now(&mut conn, shift.id, at(10));
    assert_eq!(z.z.number, 1);
    assert_eq!(z.z.report, x, "the Z is the X of its close");
    assert_eq!(z.z.previous_hash, None);
    // A second press, or a close answered twice: the same Z, nothing more.
    assert_eq!(close_now(&mut conn, shift.id, at(11)), z);
    assert_eq!(open_shift(&conn).unwrap(), None);

    // A shift with nothing in it closes, numbered next and chained.
    let empty = open(&conn, OWNER, at(12)).unwrap();
    assert_ne!(empty.id, shift.id);
    let second = close_now(&mut conn, empty.id, at(13));
    assert_eq!(second.z.number, 2);
    assert_eq!(second.z.report.writes, 0);
    assert_eq!(second.z.previous_hash.as_deref(), Some(z.hash.as_str()));
    assert_eq!(verify(&conn).unwrap(), Ok(2));
}

#[test]
fn a_write_confirmed_after_its_close_is_its_shifts_addendum_never_the_next_shifts() {
    let (_dir, mut conn) = till();
    let first = open(&conn, OWNER, at(0)).unwrap();
    let late = enqueue(&conn, &payment(900), at(1));
    let z = close_now(&mut conn, first.id, at(2));
    assert_eq!(z.z.report.all.money["EUR"].payments.waiting.sum, 900);
    let next = open(&conn, OWNER, at(3)).unwrap();
    // The service answers it during the next shift.
    confirm(&conn, late, at(4));
    let (lines, x) = x_report(&conn, next.id).unwrap();
    assert!(lines.is_empty() && x.writes == 0, "not the next shift's");
    let addenda = addenda(&conn, &z.z).unwrap();
    assert_eq!(addenda.len(), 1);
    assert_eq!(addenda[0].item, late);
    assert_eq!(addenda[0].column, Column::Confirmed);
    // The sealed Z did not change, and still verifies.
    assert_eq!(sealed(&conn, 1).unwrap().unwrap(), z);
    assert_eq!(verify(&conn).unwrap(), Ok(1));
}

/// `verify` names the first Z whose records were changed by hand, whatever was
/// changed: an amount, a write deleted, the Z's own row.
#[test]
fn verify_names_the_first_z_that_no_longer_agrees() {
    let tampered = |change: &str| -> Result<u32, Broken> {
        let (_dir, mut conn) = till();
        for n in 0..3 {
            let shift = open(&conn, OWNER, at(10 * n)).unwrap();
            let item = enqueue(&conn, &payment(100 + n), at(10 * n + 1));
            confirm(&conn, item, at(10 * n + 2));
            enqueue(&conn, &points(3), at(10 * n + 3));
            close_now(&mut conn, shift.id, at(10 * n + 5));
        }
        assert_eq!(verify(&conn).unwrap(), Ok(3));
        conn.execute_batch(change).unwrap();
        verify(&conn).unwrap()
    };
    let second_payment = "(SELECT id FROM outbox WHERE shift = 2 AND kind = 'payment')";
    let amount = tampered(&format!(
        "UPDATE outbox SET write = json_set(write, '$.amount_minor', 1) WHERE id = {second_payment}"
    ));
    assert_eq!(amount.unwrap_err().number, 2);
    let deleted = tampered(&format!("DELETE FROM outbox WHERE id = {second_payment}"));
    assert_eq!(deleted.unwrap_err().number, 2);
    let edited =
        tampered("UPDATE shifts SET z = json_set(z, '$.report.writes', 1) WHERE z_number = 1");
    assert_eq!(edited.unwrap_err().number, 1);
    let rehashed = tampered("UPDATE shifts SET z_hash = 'x' WHERE z_number = 3");
    assert_eq!(rehashed.unwrap_err().number, 3);
    let gap = tampered("UPDATE shifts SET z_number = 4 WHERE z_number = 3");
    assert_eq!(gap.unwrap_err().number, 3);
    let unconfirmed = tampered(&format!(
        "UPDATE outbox SET state = 'queued', closed_at = NULL WHERE id = {second_payment}"
    ));
    assert_eq!(unconfirmed.unwrap_err().number, 2);
}

/// A till of schema 15 (before shifts) with a write waiting migrates to 16: the write
/// is kept, waiting, in no shift; a shift opened after does not count it, and is sent
/// as it was.
#[test]
fn a_write_waiting_in_a_schema_15_till_is_kept_and_belongs_to_no_shift() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("till.db");
    let write = payment(700);
    {
        let earlier = crate::db::at_schema(&path, 15);
        earlier
            .execute(
                "INSERT INTO people (name, role, hash, created_at)
                 VALUES ('Owner', 'owner', 'x', '2026-11-28T09:00:00Z')",
                [],
            )
            .unwrap();
        earlier
            .execute(
                "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state,
                                     created_at, person, till)
                 VALUES ('payment', 'k-waiting', ?1, ?2, ?3, 'queued',
                         '2026-11-28T10:00:00.000Z', 1, 't1')",
                rusqlite::params![
                    write.order_key(),
                    serde_json::to_string(&write).unwrap(),
                    write.body()
                ],
            )
            .unwrap();
    }
    let conn = crate::db::open_for_tests(&path);
    let kept = store::get(&conn, crate::outbox::ItemId(1))
        .unwrap()
        .unwrap();
    assert_eq!(kept.state, ItemState::Queued);
    assert_eq!(kept.idempotency_key, "k-waiting");
    assert_eq!(kept.body, write.body());
    let shift: Option<i64> = conn
        .query_row("SELECT shift FROM outbox WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert_eq!(shift, None);
    let open = open(&conn, OWNER, at(0)).unwrap();
    assert!(x_report(&conn, open.id).unwrap().0.is_empty());
}

/// A till of schema 16 with a sealed Z and a write settled after its close migrates to
/// 18: the Z still verifies, its addendum stays its own, and nothing is checked or
/// taken yet (checks and X reports start empty).
#[test]
fn a_schema_16_till_with_a_sealed_z_migrates_to_checks_and_x_reports() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("till.db");
    {
        let mut earlier = crate::db::at_schema(&path, 16);
        earlier
            .execute(
                "INSERT INTO people (name, role, hash, created_at)
                 VALUES ('Owner', 'owner', 'x', '2026-11-28T09:00:00Z')",
                [],
            )
            .unwrap();
        let shift = open(&earlier, OWNER, at(0)).unwrap();
        let item = enqueue(&earlier, &payment(700), at(1));
        close(&mut earlier, shift.id, "Owner", OWNER, at(2)).unwrap();
        confirm(&earlier, item, at(3));
    }
    let conn = crate::db::open_for_tests(&path);
    assert_eq!(verify(&conn).unwrap(), Ok(1));
    let z = sealed(&conn, 1).unwrap().unwrap();
    assert_eq!(addenda(&conn, &z.z).unwrap().len(), 1);
    assert!(check::of_shift(&conn, z.z.shift).unwrap().is_empty());
    assert!(xs_taken(&conn, z.z.shift).unwrap().is_empty());
    let next = open(&conn, OWNER, at(4)).unwrap();
    assert_eq!(note_x(&conn, next.id, at(5), Some(OWNER), 0).unwrap(), 1);
    assert_eq!(xs_taken(&conn, next.id).unwrap()[0].by, "Owner");
}
