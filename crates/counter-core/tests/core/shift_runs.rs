//! Shifts under everything at once, seeded: runs of random writes of every kind by
//! several people, the service out of reach for a while, answers lost after the
//! service did the write, the till dropped without closing (as a kill leaves it) and
//! opened again, the clock moved, a key replaced, shifts opened and closed at random
//! points (with writes still waiting). After the runs, judged by the server's own
//! records: every write in exactly one shift; the confirmed figures of all Zs and
//! their addenda equal to what the server holds of this till's writes, per kind; each
//! Z's check finding no difference; the chain verifying.
//!
//! `SHIFT_RUNS` sets how many runs (1,000 in `make test`; `make soak` more), and
//! `SHIFT_SEED` the seed (printed, so that a failure replays).

use std::time::Duration;

use counter_core::ids::PersonId;
use counter_core::roles::Role;
use counter_core::shifts::report::{Measure, ReportRow};
use counter_core::{Counter, Credential, Enrolment, GiftCardIssue};
use loyalty_api::{CardId, GiftCardId, ScanAction, Wallet};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::{Env, drain};

/// Who works the till beside its owner: name, PIN, role.
const STAFF: [(&str, &str, Role); 2] = [
    ("Mia", "1122", Role::Manager),
    ("Noé", "3344", Role::Cashier),
];

/// Totals of the confirmed writes: what the server must hold.
#[derive(Debug, Default, PartialEq, Eq)]
struct Totals {
    payments: u64,
    paid_minor: i64,
    issued: u64,
    issued_minor: i64,
    visits: u64,
    points_added: Decimal,
    points_deducted: Decimal,
    enrolments: u64,
}

impl Totals {
    fn add_addendum(&mut self, addendum: &counter_core::Addendum) {
        let amount: Decimal = addendum.amount.as_deref().unwrap_or("0").parse().unwrap();
        let minor = i64::try_from((amount * Decimal::from(100)).trunc()).unwrap();
        match addendum.measure {
            Some(Measure::Payments) => {
                self.payments += 1;
                self.paid_minor += minor;
            }
            Some(Measure::Issued) => {
                self.issued += 1;
                self.issued_minor += minor;
            }
            Some(Measure::Visits) => self.visits += 1,
            Some(Measure::PointsAdded) => self.points_added += amount,
            Some(Measure::PointsDeducted) => self.points_deducted += amount,
            Some(Measure::Enrolments) => self.enrolments += 1,
            Some(Measure::Rewards) | None => {}
        }
    }

    fn add_rows(&mut self, rows: &[ReportRow]) {
        let minor = |sum: &Option<String>| {
            let amount: Decimal = sum.as_deref().unwrap_or("0").parse().unwrap();
            i64::try_from((amount * Decimal::from(100)).trunc()).unwrap()
        };
        for row in rows {
            let cell = &row.confirmed;
            match row.measure {
                Measure::Payments => {
                    self.payments += cell.count;
                    self.paid_minor += minor(&cell.sum);
                }
                Measure::Issued => {
                    self.issued += cell.count;
                    self.issued_minor += minor(&cell.sum);
                }
                Measure::Visits => self.visits += cell.count,
                Measure::PointsAdded => {
                    self.points_added += cell
                        .sum
                        .as_deref()
                        .unwrap_or("0")
                        .parse::<Decimal>()
                        .unwrap();
                }
                Measure::PointsDeducted => {
                    self.points_deducted += cell
                        .sum
                        .as_deref()
                        .unwrap_or("0")
                        .parse::<Decimal>()
                        .unwrap();
                }
                Measure::Rewards => {}
                Measure::Enrolments => self.enrolments += cell.count,
            }
        }
    }
}

struct Run {
    rng: ChaCha8Rng,
    staff: Vec<(PersonId, String)>,
    gift_cards: Vec<GiftCardId>,
    points_cards: Vec<CardId>,
    visit_cards: Vec<CardId>,
    enrolled: u64,
}

impl Run {
    /// A random person of the till signs in (the owner too).
    fn someone_signs_in(&mut self, counter: &Counter) {
        let at = self.rng.random_range(0..=self.staff.len());
        match self.staff.get(at) {
            Some((id, pin)) => {
                counter
                    .sign_in(&Credential::Pin {
                        person: *id,
                        pin: pin.clone(),
                    })
                    .unwrap();
            }
            None => crate::owner_signs_in(counter),
        }
    }

    /// One random write, made by whoever is signed in (a manager's issue by the owner).
    async fn write(&mut self, env: &Env, counter: &Counter) {
        match self.rng.random_range(0..10) {
            0..=2 => {
                let card = self.gift_cards[self.rng.random_range(0..self.gift_cards.len())].clone();
                let cents = self.rng.random_range(1..=300);
                let amount = format!("{}.{:02}", cents / 100, cents % 100);
                let reference = self.rng.random_bool(0.5).then(|| format!("T-{cents}"));
                let _ = counter.take_payment(card, &amount, reference).await;
            }
            3..=4 => {
                let card =
                    self.points_cards[self.rng.random_range(0..self.points_cards.len())].clone();
                let points = self.rng.random_range(-3..=6);
                let points = if points == 0 { 1 } else { points };
                let _ = counter
                    .record_scan(card, ScanAction::Points, Some(Decimal::from(points)))
                    .await;
            }
            5..=6 => {
                let card =
                    self.visit_cards[self.rng.random_range(0..self.visit_cards.len())].clone();
                let action = if self.rng.random_bool(0.2) {
                    ScanAction::Redeem
                } else {
                    ScanAction::Visit
                };
                let _ = counter.record_scan(card, action, None).await;
            }
            7..=8 => {
                self.enrolled += 1;
                let n = crate::uuid_like();
                let _ = counter
                    .enrol(Enrolment {
                        pass_id: Some(loyalty_api::PassId::new(env.points_pass.clone())),
                        name: format!("Run {n}"),
                        email: format!("run.{n}@example.com"),
                        wallet: Wallet::Apple,
                        send_welcome: false,
                    })
                    .await;
            }
            _ => {
                crate::owner_signs_in(counter);
                let euros = self.rng.random_range(5..=20);
                let _ = counter
                    .issue_gift_card(GiftCardIssue {
                        amount: euros.to_string(),
                        currency: "EUR".into(),
                        locale: "en".into(),
                        recipient_name: "Ana".into(),
                        recipient_email: "ana@example.com".into(),
                    })
                    .await;
            }
        }
    }

    /// A fault the next writes meet, sometimes: the service out of reach, or an answer
    /// lost after the service did the write.
    async fn maybe_fault(&mut self, env: &Env) {
        let path = ["/v1/gift_cards", "/v1/scans", "/v1/customers"][self.rng.random_range(0..3)];
        match self.rng.random_range(0..10) {
            0 | 1 => {
                let count = self.rng.random_range(1..=3);
                env.fault(json!({"path": path, "count": count, "status": 503,
                                 "code": "service_unavailable"}))
                    .await;
            }
            2 => {
                env.fault(json!({"path": path, "count": 1, "drop_after_commit": true}))
                    .await;
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shifts_opened_and_closed_at_random_under_faults_and_kills_count_what_the_server_holds() {
    let runs: u32 = std::env::var("SHIFT_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let seed: u64 = std::env::var("SHIFT_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(rand::random);
    println!("SHIFT_SEED={seed} SHIFT_RUNS={runs}");
    let env = Env::start().await;
    // Room for the checks and the writes: the limits are not what is tested here.
    env.control(
        "PATCH",
        &format!("/_sandbox/businesses/{}", env.business_id),
        json!({"rate_limits": {"writes_per_key": 100000, "window_seconds": 10,
               "requests_per_key": 100000, "requests_per_business": 100000}}),
    )
    .await;
    let mut gift_cards = Vec::new();
    for _ in 0..6 {
        gift_cards.push(env.gift_card(1000).await);
    }
    let (mut points_cards, mut visit_cards) = (Vec::new(), Vec::new());
    for _ in 0..4 {
        points_cards.push(env.new_card().await.0);
        visit_cards.push(env.new_visit_card().await.0);
    }
    let customers_before = count_all(&env, "/v1/customers").await;
    let scans_before: std::collections::HashSet<String> = all(&env, "/v1/scans")
        .await
        .iter()
        .map(|scan| scan["id"].as_str().unwrap().to_owned())
        .collect();
    let cards_before = count_all(&env, "/v1/gift_cards").await;

    let mut counter = env.counter().await;
    // The key the till works with: a kill keeps it, a replacement changes it.
    let mut key = env.key.clone();
    let mut staff = Vec::new();
    for (name, pin, role) in STAFF {
        staff.push((
            counter.add_person(name, role, pin).unwrap().id,
            pin.to_owned(),
        ));
    }
    let mut run = Run {
        rng: ChaCha8Rng::seed_from_u64(seed),
        staff,
        gift_cards: gift_cards.clone(),
        points_cards,
        visit_cards,
        enrolled: 0,
    };
    for _ in 0..runs {
        if counter.shift_status().unwrap().open.is_none() {
            run.someone_signs_in(&counter);
            counter.open_shift().unwrap();
        }
        for _ in 0..run.rng.random_range(0..=3) {
            run.maybe_fault(&env).await;
            run.someone_signs_in(&counter);
            run.write(&env, &counter).await;
        }
        if run.rng.random_bool(0.05) {
            // Dropped as a kill leaves it (no close), then opened again.
            drop(counter);
            tokio::time::sleep(Duration::from_millis(20)).await;
            counter = env.open_with(crate::test_config()).await;
            counter.connect(&env.sandbox_url(), &key).await.unwrap();
        }
        if run.rng.random_bool(0.05) {
            env.clock.advance(jiff::SignedDuration::from_mins(
                run.rng.random_range(-90..=90),
            ));
        }
        if run.rng.random_bool(0.02) {
            // Another key of the business, once what waits has gone under the first.
            env.control("DELETE", "/_sandbox/faults", json!({})).await;
            drain(&counter).await;
            key = env.mint_key().await.1;
            crate::owner_signs_in(&counter);
            counter.connect(&env.sandbox_url(), &key).await.unwrap();
        }
        if run.rng.random_bool(0.6) {
            crate::owner_signs_in(&counter);
            let open = counter.shift_status().unwrap().open.unwrap();
            counter.close_shift(open.id).await.unwrap();
        }
    }

    // Everything settles: the faults end, the queue drains, the last shift closes.
    env.control("DELETE", "/_sandbox/faults", json!({})).await;
    drain(&counter).await;
    crate::owner_signs_in(&counter);
    if let Some(open) = counter.shift_status().unwrap().open {
        counter.close_shift(open.id).await.unwrap();
    }

    // Every write in exactly one shift, each shift's in its Z.
    let db = env.till_db();
    let outside: i64 = db
        .query_row("SELECT COUNT(*) FROM outbox WHERE shift IS NULL", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(outside, 0, "writes outside any shift");
    let writes: i64 = db
        .query_row("SELECT COUNT(*) FROM outbox", [], |r| r.get(0))
        .unwrap();
    let last = counter.shift_status().unwrap().last_z.unwrap();
    let mut counted = 0;
    let mut totals = Totals::default();
    for number in 1..=last {
        let z = counter.z_report(number).await.unwrap();
        counted += z.rows.writes;
        totals.add_rows(&z.rows.all);
        // Each write settled after the close, counted once, in its own shift's Z.
        for addendum in &z.addenda {
            totals.add_addendum(addendum);
        }
        if z.check.unchecked > 0 {
            let unchecked: Vec<(i64, String, String, Option<String>)> = db
                .prepare(
                    "SELECT id, kind, state, answer FROM outbox WHERE shift = ?1
                     AND id NOT IN (SELECT item FROM checks)",
                )
                .unwrap()
                .query_map([z.shift.id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            panic!("Z {number}: {:?}; not checked: {unchecked:#?}", z.check);
        }
        if let Some(difference) = z.check.differences.first() {
            let (kind, write, answer, arrived): (String, String, Option<String>, Option<String>) =
                db.query_row(
                    "SELECT kind, write, answer, arrived_service_at FROM outbox WHERE id = ?1",
                    [difference.item],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .unwrap();
            panic!(
                "seed {seed}, Z {number}: {difference:?}: {kind} {write} answered {answer:?} \
                 (service's time {arrived:?})"
            );
        }
    }
    assert_eq!(counted, writes as u64, "each write in exactly one Z");
    assert_eq!(
        counter_core::shifts::verify(&db).unwrap(),
        Ok(last),
        "the chain"
    );

    // What the server holds of this till's writes, per kind.
    let mut server = Totals::default();
    for card in &gift_cards {
        let read = env.api_get(&format!("/v1/gift_cards/{card}")).await;
        let balance: Decimal = read["balance"].as_str().unwrap().parse().unwrap();
        server.paid_minor +=
            i64::try_from(((Decimal::from(1000) - balance) * Decimal::from(100)).trunc()).unwrap();
    }
    let scans = all(&env, "/v1/scans").await;
    for scan in scans
        .iter()
        .filter(|s| !scans_before.contains(s["id"].as_str().unwrap()))
    {
        let amount: Decimal = scan["amount"]
            .as_str()
            .unwrap_or("0")
            .parse()
            .unwrap_or_default();
        match scan["kind"].as_str() {
            Some("visit") => server.visits += 1,
            Some("points") if amount.is_sign_negative() => server.points_deducted += -amount,
            Some("points") => server.points_added += amount,
            _ => {}
        }
    }
    let issued = all(&env, "/v1/gift_cards").await;
    for card in &issued[..issued.len() - cards_before] {
        server.issued += 1;
        let amount: Decimal = card["initial_amount"].as_str().unwrap().parse().unwrap();
        server.issued_minor += i64::try_from((amount * Decimal::from(100)).trunc()).unwrap();
    }
    server.enrolments = (count_all(&env, "/v1/customers").await - customers_before) as u64;
    // The number of payments is the till's; their sum is the server's.
    server.payments = totals.payments;
    if totals != server {
        let open: Vec<(i64, String, String, Option<String>)> = db
            .prepare(
                "SELECT id, kind, state, reason FROM outbox
                 WHERE state NOT IN ('done') AND may_have_arrived_at IS NOT NULL",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        eprintln!("not confirmed, may have arrived: {open:#?}");
    }
    assert_eq!(totals, server, "seed {seed}: the Zs against the server");
    assert!(
        run.enrolled > 0 && totals.payments > 0,
        "the runs wrote too little"
    );
    counter.close().await;
}

/// Every item of a list, newest first.
async fn all(env: &Env, path: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            Some(c) => format!("{path}?limit=100&cursor={c}"),
            None => format!("{path}?limit=100"),
        };
        let page = env.api_get(&url).await;
        items.extend(page["data"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(next) if page["has_more"] == true => cursor = Some(next.to_owned()),
            _ => return items,
        }
    }
}

async fn count_all(env: &Env, path: &str) -> usize {
    all(env, path).await.len()
}
