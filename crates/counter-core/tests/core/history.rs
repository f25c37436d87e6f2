//! The queue's history: a day's writes are exactly the writes made on that day of the
//! till, and their CSV holds each with its Idempotency-Key and outcome, quoted so that
//! a spreadsheet reads names as text.

use jiff::Zoned;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use loyalty_api::{PassId, ScanAction};

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
    let (other, _) = env.new_visit_card().await;
    counter
        .record_scan(other.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    drain(&counter).await;

    let day = today.to_string();
    let listed = counter.history(&day, &day, None, 100).unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    let before = counter
        .history(&yesterday.to_string(), &yesterday.to_string(), None, 100)
        .unwrap();
    assert_eq!(before.len(), 1);
    let both = counter
        .history(&yesterday.to_string(), &day, None, 100)
        .unwrap();
    assert_eq!(both.len(), 3);
    assert!(both[0].created_at > both[2].created_at, "newest first");

    // The export is a manager's; it holds exactly the day's writes, oldest first.
    let file = env.till_dir().join("today.csv");
    crate::cashier_signs_in(&counter);
    assert!(matches!(
        counter.export_history(&day, &day, None, &file),
        Err(Error::Pin(_))
    ));
    assert!(!file.exists());
    crate::owner_signs_in(&counter);
    assert_eq!(counter.export_history(&day, &day, None, &file).unwrap(), 2);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let header = rows.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    let mut keys: Vec<&str> = rows.iter().map(|r| &r[column("idempotency_key")]).collect();
    let mut expected: Vec<&str> = listed.iter().map(|i| i.idempotency_key.as_str()).collect();
    keys.sort();
    expected.sort();
    assert_eq!(keys, expected);
    assert_eq!(&rows[0][column("kind")], "enrol");
    assert_eq!(&rows[0][column("name")], "'=Ada, \"the\" first");
    assert_eq!(&rows[0][column("outcome")], "done");
    assert_eq!(&rows[1][column("action")], "visit");
    assert_eq!(&rows[1][column("target")], other.as_str());
    assert!(!rows[1][column("request_id")].is_empty());
    // Each row says who made it: the owner, who worked the till that day.
    assert!(
        rows.iter().all(|r| &r[column("made_by")] == "Owner"),
        "{text}"
    );
    assert!(!text.contains(&env.key), "the API key is in the export");

    // Dates that are not a period are refused, and nothing is written.
    let bad = env.till_dir().join("bad.csv");
    for (from, to) in [
        ("2026-11-23", "2026-11-22"),
        ("2025-01-01", "2026-12-31"),
        ("23/11/2026", "2026-11-23"),
    ] {
        let refused = counter.export_history(from, to, None, &bad);
        assert!(matches!(refused, Err(Error::Input(_))), "{refused:?}");
    }
    assert!(matches!(
        counter.history("2026-11-23", "2026-11-22", None, 10),
        Err(Error::Input(InputError::PeriodBackwards))
    ));
    assert!(!bad.exists());
    counter.close().await;
}
