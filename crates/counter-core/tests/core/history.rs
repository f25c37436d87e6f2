//! The queue's history: a day's writes are exactly the writes made on that day of the
//! till, and their CSV holds each with its Idempotency-Key and outcome, quoted so that
//! a spreadsheet reads names as text.

use jiff::Zoned;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use loyalty_api::{PassId, ScanAction};

use counter_core::history::CardIds;
use counter_core::input::InputError;
use counter_core::{Enrolment, Error};

use crate::{Env, drain};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_days_history_holds_exactly_its_writes_and_its_csv_their_keys() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let zone = TimeZone::system();
    let at = |day: Date, hour: i8| {
        day.at(hour, 0, 0, 0)
            .to_zoned(zone.clone())
            .unwrap()
            .timestamp()
    };
    let today = Zoned::now().date();
    let yesterday = today.yesterday().unwrap();
    let (card, _) = env.new_visit_card().await;

    // Yesterday evening: one visit. Today: an enrolment whose name looks like a
    // formula and holds a comma and quotes, and a visit.
    env.clock.set(at(yesterday, 23));
    counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    env.clock.set(at(today, 0));
    counter
        .enrol(Enrolment {
            pass_id: Some(PassId::new(env.points_pass.clone())),
            name: "=Ada, \"the\" first".into(),
            email: "ada.history@example.com".into(),
            wallet: "google".into(),
            send_welcome: false,
        })
        .await
        .unwrap();
    env.clock.advance(jiff::SignedDuration::from_mins(30));
    let gift = env.gift_card(40).await;
    counter
        .take_payment(gift.clone(), "5", Some("T-9".into()))
        .await
        .unwrap();
    let (other, _) = env.new_visit_card().await;
    counter
        .record_scan(other.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    drain(&counter).await;

    let day = today.to_string();
    let listed = counter.history(&day, &day, None, 100).unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    let before = counter
        .history(&yesterday.to_string(), &yesterday.to_string(), None, 100)
        .unwrap();
    assert_eq!(before.len(), 1);
    let both = counter
        .history(&yesterday.to_string(), &day, None, 100)
        .unwrap();
    assert_eq!(both.len(), 4);
    assert!(both[0].created_at > both[3].created_at, "newest first");

    // The export is a manager's; it holds exactly the day's writes, oldest first.
    let file = env.till_dir().join("today.csv");
    // The history too: a year of writes is behind the export's permission.
    crate::cashier_signs_in(&counter);
    assert!(matches!(
        counter.export_history(&day, &day, None, &file, CardIds::LastFour),
        Err(Error::Pin(_))
    ));
    assert!(matches!(
        counter.history(&day, &day, None, 100),
        Err(Error::Pin(_))
    ));
    assert!(!file.exists());
    crate::owner_signs_in(&counter);
    assert_eq!(
        counter
            .export_history(&day, &day, None, &file, CardIds::LastFour)
            .unwrap(),
        3
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the export is readable by others");
    }
    let text = std::fs::read_to_string(&file).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let header = rows.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    let mut keys: Vec<&str> = rows.iter().map(|r| &r[column("idempotency_key")]).collect();
    let mut expected: Vec<&str> = listed.iter().map(|i| i.idempotency_key.as_str()).collect();
    keys.sort();
    expected.sort();
    assert_eq!(keys, expected);
    assert_eq!(&rows[0][column("kind")], "enrol");
    assert_eq!(&rows[0][column("name")], "'=Ada, \"the\" first");
    assert_eq!(&rows[0][column("outcome")], "done");
    // A gift card by its last four characters: its whole id is its money.
    assert_eq!(&rows[1][column("kind")], "payment");
    let end = &gift.as_str()[gift.as_str().len() - 4..];
    assert_eq!(&rows[1][column("target")], end);
    assert!(
        !text.contains(gift.as_str()),
        "a whole gift-card id: {text}"
    );
    assert_eq!(&rows[2][column("action")], "visit");
    assert_eq!(&rows[2][column("target")], other.as_str());
    assert!(!rows[2][column("request_id")].is_empty());
    // Each row says who made it: the owner, who worked the till that day.
    assert!(
        rows.iter().all(|r| &r[column("made_by")] == "Owner"),
        "{text}"
    );
    assert!(!text.contains(&env.key), "the API key is in the export");
    // Whole, when the manager asks for it, while the till still has it.
    let whole = env.till_dir().join("whole.csv");
    counter
        .export_history(&day, &day, None, &whole, CardIds::Whole)
        .unwrap();
    assert!(
        std::fs::read_to_string(&whole)
            .unwrap()
            .contains(gift.as_str())
    );

    // Dates that are not a period are refused, and nothing is written.
    let bad = env.till_dir().join("bad.csv");
    for (from, to) in [
        ("2026-11-23", "2026-11-22"),
        ("2025-01-01", "2026-12-31"),
        ("23/11/2026", "2026-11-23"),
    ] {
        let refused = counter.export_history(from, to, None, &bad, CardIds::LastFour);
        assert!(matches!(refused, Err(Error::Input(_))), "{refused:?}");
    }
    assert!(matches!(
        counter.history("2026-11-23", "2026-11-22", None, 10),
        Err(Error::Input(InputError::PeriodBackwards))
    ));
    assert!(!bad.exists());
    counter.close().await;

    // Minutes after its write closed, the till keeps the card's last four alone (and a
    // keyed hash): even the manager's export of whole ids cannot give it back.
    env.clock
        .advance(counter_core::outbox::ANSWER_KEEPS_ITS_CARD + jiff::SignedDuration::from_secs(60));
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let whole = env.till_dir().join("whole.csv");
    loop {
        counter
            .export_history(&day, &day, None, &whole, CardIds::Whole)
            .unwrap();
        let text = std::fs::read_to_string(&whole).unwrap();
        if !text.contains(gift.as_str()) {
            assert!(text.contains(&format!("****{end}")), "{text}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "still whole: {text}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(counter.history(&day, &day, None, 100).unwrap().len(), 3);
    // A card scanned again is still matched with its payments here, by its keyed hash:
    // the service's ledger says who took each.
    let (_, ledger) = counter.read_gift_card(&gift).await.unwrap();
    assert!(
        ledger
            .iter()
            .any(|entry| entry.made_by.as_deref() == Some("Owner")),
        "{ledger:?}"
    );
    counter.close().await;

    // Nor is it anywhere in the till's database (its card is cached by its keyed hash).
    assert!(
        !env.till_holds(gift.as_str()),
        "a whole gift-card id in till.db"
    );
}

/// The outbox's rows as text (write, body, answer): what a copied file would show of
/// each write.
fn outbox_text(env: &Env) -> String {
    let db = env.till_db();
    db.prepare("SELECT write || body || coalesce(answer, '') FROM outbox")
        .unwrap()
        .query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A retention of one day, the clock moved two: every closed write keeps no customer's
/// name or email (in its write, its request or its answer), a voucher no recipient, and
/// the history still counts the same writes with the same amounts. The retention is a
/// manager's, from 1 to 3650 days.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_retention_closed_writes_keep_what_is_counted_and_no_customers_details() {
    let env = Env::start().await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    counter
        .enrol(Enrolment {
            pass_id: Some(PassId::new(env.points_pass.clone())),
            name: "Ada Retained".into(),
            email: "ada.retained@example.com".into(),
            wallet: "google".into(),
            send_welcome: false,
        })
        .await
        .unwrap();
    counter
        .issue_gift_card(counter_core::GiftCardIssue {
            amount: "20".into(),
            currency: "EUR".into(),
            locale: "en".into(),
            recipient_name: "Grace Retained".into(),
            recipient_email: "grace.retained@example.com".into(),
        })
        .await
        .unwrap();
    let gift = env.gift_card(40).await;
    counter
        .take_payment(gift.clone(), "5", Some("T-9".into()))
        .await
        .unwrap();
    drain(&counter).await;
    let before = outbox_text(&env);
    for kept in ["Ada Retained", "ada.retained@example.com", "Grace Retained"] {
        assert!(before.contains(kept), "{kept} not kept at first");
    }
    let day = Zoned::now().date().to_string();
    let listed = counter.history(&day, &day, None, 100).unwrap();
    assert_eq!(listed.len(), 3);

    // Out of range, or a cashier's: refused, nothing changes.
    for wrong in [0, 3651] {
        assert!(matches!(
            counter.set_retention_days(wrong),
            Err(Error::NotAllowed(
                counter_core::NotAllowed::RetentionOutOfRange { max: 3650 }
            ))
        ));
    }
    crate::cashier_signs_in(&counter);
    assert!(matches!(counter.set_retention_days(1), Err(Error::Pin(_))));
    crate::owner_signs_in(&counter);
    assert_eq!(counter.retention_days().unwrap(), 90);
    counter.set_retention_days(1).unwrap();
    assert_eq!(counter.retention_days().unwrap(), 1);
    // A day is not over: nothing is forgotten yet.
    assert!(outbox_text(&env).contains("ada.retained@example.com"));
    counter.close().await;

    env.clock.advance(jiff::SignedDuration::from_hours(48));
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let text = outbox_text(&env);
        let gone = [
            "Ada Retained",
            "ada.retained@example.com",
            "Grace Retained",
            "grace.retained",
        ]
        .iter()
        .all(|personal| !text.contains(personal));
        if gone {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "still kept: {text}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // What the history counts stays: the same writes, kinds and outcomes.
    let after = counter.history(&day, &day, None, 100).unwrap();
    let shape = |items: &[counter_core::outbox::OutboxItem]| {
        items
            .iter()
            .map(|i| (i.id, i.write.kind(), i.state, i.idempotency_key.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&after), shape(&listed));
    let receipts: String = {
        let db = env.till_db();
        db.prepare("SELECT receipt FROM print_jobs")
            .unwrap()
            .query_map([], |row| row.get::<_, String>(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert!(!receipts.contains("Grace Retained"), "{receipts}");
    counter.close().await;
}

/// A customer the service no longer lists (deleted at the service) leaves the till at
/// the next walk: the cache, and their details in the closed history (their enrolment
/// is still counted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_deleted_at_the_service_leaves_the_closed_history_at_the_next_walk() {
    let env = Env::start().await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    let enrolled = counter
        .enrol(Enrolment {
            pass_id: Some(PassId::new(env.points_pass.clone())),
            name: "Ada Deleted".into(),
            email: "ada.deleted@example.com".into(),
            wallet: "google".into(),
            send_welcome: false,
        })
        .await
        .unwrap();
    let counter_core::Outcome::Done { answer, .. } = enrolled else {
        panic!("{enrolled:?}");
    };
    let kept = counter
        .enrol(Enrolment {
            pass_id: Some(PassId::new(env.points_pass.clone())),
            name: "Bea Kept".into(),
            email: "bea.kept@example.com".into(),
            wallet: "google".into(),
            send_welcome: false,
        })
        .await
        .unwrap();
    assert!(matches!(kept, counter_core::Outcome::Done { .. }));
    drain(&counter).await;
    counter.sync(None).await.unwrap();
    assert!(outbox_text(&env).contains("ada.deleted@example.com"));

    env.control(
        "DELETE",
        &format!("/_sandbox/customers/{}", answer.id),
        serde_json::json!({}),
    )
    .await;
    let walk = counter.sync(None).await.unwrap();
    assert_eq!(walk.removed, 1);
    let text = outbox_text(&env);
    assert!(
        !text.contains("Ada Deleted") && !text.contains("ada.deleted"),
        "{text}"
    );
    assert!(
        text.contains("bea.kept@example.com"),
        "another customer went too"
    );
    let day = Zoned::now().date().to_string();
    assert_eq!(counter.history(&day, &day, None, 100).unwrap().len(), 2);
    assert!(counter.search("Ada Deleted", 5).unwrap().is_empty());
    counter.close().await;
}
