//! Shifts at the counter against the real server: a cashier opens one (the first
//! sign-in of the day is offered it), a manager closes it, and its Z counts what the
//! server holds; a cashier's close is refused whatever the page sends; a write settled
//! after the close is that Z's addendum, never the next shift's.

use counter_core::pin::PinError;
use counter_core::roles::Action;
use counter_core::shifts::check::Check;
use counter_core::shifts::report::{Measure, ReportRow};
use counter_core::{Error, NotAllowed, PaymentOutcome, ScanOutcome};
use loyalty_api::ScanAction;
use serde_json::json;

use crate::{Env, drain};

fn row(rows: &[ReportRow], measure: Measure) -> &ReportRow {
    rows.iter()
        .find(|row| row.measure == measure)
        .unwrap_or_else(|| panic!("no {measure:?} row in {rows:#?}"))
}

fn manager_only<T: std::fmt::Debug>(result: Result<T, Error>) {
    assert!(
        matches!(result, Err(Error::Pin(PinError::ManagerOnly))),
        "{result:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cashier_opens_a_shift_a_manager_closes_it_once_and_its_z_counts_what_the_server_holds() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let anna = crate::cashier_signs_in(&counter);

    // The first sign-in of the day is offered a shift; she opens it, twice: one shift.
    let status = counter.shift_status().unwrap();
    assert!(status.offer && status.open.is_none(), "{status:?}");
    let shift = counter.open_shift().unwrap();
    assert_eq!(counter.open_shift().unwrap(), shift);
    assert_eq!(shift.opened_by, "Anna");
    let status = counter.shift_status().unwrap();
    assert_eq!(status.open.as_ref(), Some(&shift));
    assert!(!status.offer);

    let paid = counter
        .take_payment(gift.clone(), "12.5", None)
        .await
        .unwrap();
    assert!(matches!(paid, PaymentOutcome::Done { .. }), "{paid:?}");
    let visit = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(visit, ScanOutcome::Done { .. }), "{visit:?}");
    drain(&counter).await;

    // Her role may not see the figures nor close, whatever the page sends: asked at the
    // door, or called straight.
    for action in [
        Action::XReport,
        Action::CloseShift,
        Action::ZReports,
        Action::ExportZ,
    ] {
        manager_only(crate::door(&counter, action, json!({"shift": shift.id})));
    }
    manager_only(counter.x_report());
    manager_only(counter.close_shift(shift.id).await);
    assert_eq!(counter.shift_status().unwrap().open.as_ref(), Some(&shift));

    // The owner approves the close on her screen: the Z names the owner as who closed.
    // The owner takes an X on her screen first: numbered, and kept in the shift's history.
    crate::approved(&counter, Action::XReport, json!({}));
    let x = counter.x_report().unwrap();
    assert_eq!((x.number, x.rows.writes), (1, 2));
    assert_eq!(counter.shift_status().unwrap().xs.len(), 1);
    crate::approved(&counter, Action::CloseShift, json!({"shift": shift.id}));
    let z = counter.close_shift(shift.id).await.unwrap();
    assert_eq!((z.xs.len(), z.xs[0].writes), (1, 2));
    let owner = counter.people().unwrap().into_iter().next().unwrap();
    assert_ne!(owner.id, anna);
    assert_eq!((z.number, z.closed_by.as_str()), (1, owner.name.as_str()));
    assert_eq!(z.shift.opened_by, "Anna");
    // Checked against the server's records before it was sealed.
    assert_eq!(
        (
            z.check.matched,
            z.check.unchecked,
            z.check.differences.len()
        ),
        (2, 0, 0),
        "{:?}",
        z.check
    );

    // What the server holds, the Z counts: one payment of 12.50, one visit.
    assert_eq!(env.spends_of(&gift).await, ["12.50"]);
    assert_eq!(env.scans_of(&customer).await.len(), 1);
    let payments = row(&z.rows.all, Measure::Payments);
    assert_eq!(payments.currency.as_deref(), Some("EUR"));
    assert_eq!(
        (payments.confirmed.count, payments.confirmed.sum.as_deref()),
        (1, Some("12.50"))
    );
    assert_eq!(payments.waiting.count, 0);
    assert_eq!(row(&z.rows.all, Measure::Visits).confirmed.count, 1);
    assert_eq!(z.rows.people.len(), 1);
    assert_eq!(z.rows.people[0].person, "Anna");
    assert_eq!(z.rows.writes, 2);

    // Closing again (a second press) closes nothing more: the same Z.
    crate::owner_signs_in(&counter);
    assert_eq!(counter.close_shift(shift.id).await.unwrap(), z);
    assert_eq!(counter.z_reports().unwrap().len(), 1);
    assert!(matches!(
        counter.x_report(),
        Err(Error::NotAllowed(NotAllowed::NoShiftOpen))
    ));
    let status = counter.shift_status().unwrap();
    assert!(status.open.is_none() && !status.offer && status.last_z == Some(1));

    // The CSV holds each write, and totals equal to the screen's.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("z-1.csv");
    assert_eq!(counter.export_z(1, &path).unwrap(), 2);
    let csv = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("line,z,till,till_name,shift,item,"),
        "{csv}"
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("write,")).count(), 2);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("total,") && l.contains(",All,payments,EUR,12.50,1,confirmed,")),
        "{csv}"
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o077,
        0
    );
    assert!(matches!(
        counter.z_report(2).await,
        Err(Error::NotAllowed(NotAllowed::NoSuchZ))
    ));
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_settled_after_its_shift_closed_is_that_zs_addendum_not_the_next_shifts() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    let first = counter.open_shift().unwrap();
    env.fault(
        json!({"path": format!("/v1/gift_cards/{gift}/payments"), "count": 10000,
                     "status": 429, "code": "rate_limited"}),
    )
    .await;
    let queued = counter.take_payment(gift.clone(), "7", None).await.unwrap();
    assert!(
        matches!(queued, PaymentOutcome::Queued { .. }),
        "{queued:?}"
    );

    let z = counter.close_shift(first.id).await.unwrap();
    let payments = row(&z.rows.all, Measure::Payments);
    assert_eq!(
        (payments.waiting.count, payments.waiting.sum.as_deref()),
        (1, Some("7.00"))
    );
    assert_eq!(payments.confirmed.count, 0);
    assert!(z.addenda.is_empty());

    let second = counter.open_shift().unwrap();
    assert_ne!(second.id, first.id);
    env.control("DELETE", "/_sandbox/faults", json!({})).await;
    drain(&counter).await;
    assert_eq!(env.spends_of(&gift).await, ["7.00"]);

    // The first Z as sealed, with the payment settled after its close.
    let again = counter.z_report(1).await.unwrap();
    assert_eq!(
        (again.hash.as_str(), &again.rows),
        (z.hash.as_str(), &z.rows)
    );
    assert_eq!(again.addenda.len(), 1);
    let addendum = &again.addenda[0];
    assert_eq!(addendum.number, 1);
    assert_eq!(addendum.measure, Some(Measure::Payments));
    assert_eq!(addendum.amount.as_deref(), Some("7.00"));
    // Confirmed after the close, checked when the Z is opened.
    assert_eq!((again.check.matched, again.check.unchecked), (1, 0));
    // The next shift counts nothing of it.
    let x = counter.x_report().unwrap();
    assert_eq!(x.shift, second);
    assert_eq!(x.rows.writes, 0);
    assert_eq!(row(&x.rows.all, Measure::Visits).confirmed.count, 0);
    assert!(!x.rows.all.iter().any(|r| r.measure == Measure::Payments));
    let summaries = counter.z_reports().unwrap();
    assert_eq!((summaries[0].number, summaries[0].addenda), (1, 1));
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_z_says_which_writes_the_servers_records_lack_and_checks_later_what_it_could_not_reach()
{
    let env = Env::start().await;
    let kept = env.gift_card(50).await;
    let undone = env.gift_card(50).await;
    let (card, _) = env.new_visit_card().await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    let shift = counter.open_shift().unwrap();

    // A payment the server keeps; a payment and a visit it undoes (the counter's
    // five-second undo, made at the service): the till holds all three as confirmed.
    for (gift, amount) in [(&kept, "4.20"), (&undone, "9")] {
        let paid = counter
            .take_payment(gift.clone(), amount, Some("T-7".into()))
            .await
            .unwrap();
        assert!(matches!(paid, PaymentOutcome::Done { .. }), "{paid:?}");
    }
    env.control(
        "POST",
        "/_sandbox/undo",
        json!({"gift_card_id": undone.as_str()}),
    )
    .await;
    let visit = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(visit, ScanOutcome::Done { .. }), "{visit:?}");
    env.control("POST", "/_sandbox/undo", json!({"card_id": card.as_str()}))
        .await;
    // A reward redeemed is no scan the service lists: nothing to check it against.
    let redeem = counter
        .record_scan(card.clone(), ScanAction::Redeem, None)
        .await
        .unwrap();
    let redeemed = matches!(redeem, ScanOutcome::Done { .. });
    drain(&counter).await;

    // The service's records out of reach at the close: the Z closes, not yet checked.
    for path in ["/v1/gift_cards", "/v1/scans"] {
        env.fault(
            json!({"path": path, "count": 100, "status": 503, "code": "service_unavailable"}),
        )
        .await;
    }
    let z = counter.close_shift(shift.id).await.unwrap();
    assert_eq!(z.check.matched, 0, "{:?}", z.check);
    assert!(z.check.unchecked >= 3, "{:?}", z.check);

    // The service answers again: opening the Z checks it.
    env.control("DELETE", "/_sandbox/faults", json!({})).await;
    let again = counter.z_report(z.number).await.unwrap();
    assert_eq!(again.hash, z.hash, "the sealed Z never changes");
    let check = &again.check;
    assert_eq!((check.matched, check.unchecked), (1, 0), "{check:?}");
    assert_eq!(check.no_record, u32::from(redeemed), "{check:?}");
    let missing: Vec<&Check> = check.differences.iter().map(|d| &d.check).collect();
    assert_eq!(missing, [&Check::Missing, &Check::Missing], "{check:?}");

    // The CSV says it of each write.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("z.csv");
    counter.export_z(z.number, &path).unwrap();
    let csv = std::fs::read_to_string(&path).unwrap();
    assert_eq!(csv.matches(",matched,").count(), 1, "{csv}");
    assert_eq!(csv.matches(",missing,").count(), 2, "{csv}");
    counter.close().await;
}
