//! Generated data: the demo sandbox of every business, and `/_sandbox/seed`.
//!
//! Everything is drawn from a ChaCha8 generator seeded with the given seed, so the
//! same seed gives the same names, emails, visit times and counters (relative to the
//! server's clock); ids stay random so two businesses never share one. Cards end in
//! the state their scans lead to by the counter's own rules.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rusqlite::{Connection, params};

use crate::error::ApiResult;
use crate::ids;
use crate::rules::scan::CardCounters;
use crate::rules::scan::{self, CardRules, ScanKind, ScanRequest};
use crate::store::customers::{self, Card, NewCustomer};
use crate::store::locations::{self, Location};
use crate::store::passes::Pass;
use crate::store::referrals::{self, Referral};
use crate::store::scans::{self as scan_rows, NewScan};
use crate::store::{Scope, business};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// How far back the demo's customers go.
pub const DEMO_HISTORY_MS: i64 = 90 * DAY_MS;
/// Demo customers in each sandbox.
pub const DEMO_CUSTOMERS: usize = 25;
/// Demo scans in each sandbox.
pub const DEMO_SCANS: usize = 200;

const FIRST: [&str; 40] = [
    "Olivia", "Liam", "Emma", "Noah", "Amelia", "Oliver", "Sophia", "Elijah", "Mia", "Lucas",
    "Isla", "Mateo", "Ava", "Leo", "Freya", "Arjun", "Chloe", "Hugo", "Zara", "Theo", "Lena",
    "Jonas", "Aisha", "Tomás", "Ingrid", "Kenji", "Priya", "Samuel", "Nora", "Felix", "Maya",
    "Omar", "Clara", "Daniel", "Yara", "Ethan", "Lucía", "Ravi", "Hannah", "Marco",
];
const LAST: [&str; 40] = [
    "Smith",
    "García",
    "Müller",
    "Rossi",
    "Dubois",
    "Nowak",
    "Jensen",
    "Silva",
    "Kowalski",
    "Brown",
    "Patel",
    "Nguyen",
    "Kim",
    "Tanaka",
    "Murphy",
    "O'Brien",
    "Fischer",
    "Bianchi",
    "Martin",
    "Novak",
    "Jones",
    "Lopez",
    "Schmidt",
    "Ricci",
    "Laurent",
    "Hansen",
    "Costa",
    "Wójcik",
    "Taylor",
    "Khan",
    "Sato",
    "Walsh",
    "Weber",
    "Romano",
    "Moreau",
    "Berg",
    "Pereira",
    "Zieliński",
    "Evans",
    "Ali",
];

fn ascii_fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'á' => 'a',
            'é' => 'e',
            'í' => 'i',
            'ó' => 'o',
            'ú' => 'u',
            'ü' => 'u',
            'ń' => 'n',
            other => other,
        })
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// What a generation added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Added {
    /// Customers added.
    pub customers: usize,
    /// Cards added.
    pub cards: usize,
    /// Scans added.
    pub scans: usize,
}

struct Target {
    card: Card,
    rules: CardRules,
    scans: Vec<i64>,
}

/// Adds `n_customers` customers with active cards on `pass`, created over the
/// `history_ms` before `now`, and `n_scans` scans at times in the `scan_window_ms`
/// before `now` (each after its customer's enrolment), applied by the scan rules.
#[allow(clippy::too_many_arguments)]
pub fn generate(
    conn: &Connection,
    scope: &Scope,
    pass: &Pass,
    n_customers: usize,
    n_scans: usize,
    history_ms: i64,
    scan_window_ms: i64,
    seed: u64,
    now_ms: i64,
) -> ApiResult<Added> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rules = CardRules {
        points: pass.is_points(),
        goal: pass.spec.goal,
    };
    let mut targets = Vec::with_capacity(n_customers);
    let tag: u32 = rng.random_range(0..1_000_000);
    for i in 0..n_customers {
        let first = FIRST[rng.random_range(0..FIRST.len())];
        let last = LAST[rng.random_range(0..LAST.len())];
        let name = format!("{first} {last}");
        let email = format!(
            "{}.{}.{tag}{i}@example.com",
            ascii_fold(first),
            ascii_fold(last)
        );
        let phone = format!("+44 7700 9{:05}", rng.random_range(0..100_000));
        // Enrolled before the scan window, somewhere in the history.
        let earliest = now_ms - history_ms;
        let latest = if scan_window_ms >= history_ms {
            now_ms - 60 * 60 * 1000
        } else {
            now_ms - scan_window_ms
        }
        .max(earliest + 1);
        let created_at = rng.random_range(earliest..latest);
        let customer_id = ids::new_id("cus");
        customers::insert(
            conn,
            scope,
            &NewCustomer {
                id: &customer_id,
                pass_id: &pass.id,
                name: Some(&name),
                email: Some(&email),
                phone: Some(&phone),
                created_at,
            },
        )?;
        let card = Card {
            id: business::new_card_id(conn, &scope.business_id, "card")?,
            customer_id,
            business_id: scope.business_id.clone(),
            place: scope.place,
            pass_id: pass.id.clone(),
            wallet: if rng.random_bool(0.6) {
                "apple"
            } else {
                "google"
            }
            .to_owned(),
            status: "active".into(),
            counters: CardCounters::default(),
            created_at,
        };
        customers::insert_card(conn, &card)?;
        targets.push(Target {
            card,
            rules,
            scans: Vec::new(),
        });
    }
    if targets.is_empty() {
        targets = existing_targets(conn, scope)?;
    }
    let mut added_scans = 0;
    if !targets.is_empty() {
        // Regulars come more often: weight each card.
        let weights: Vec<u32> = targets.iter().map(|_| rng.random_range(1..6)).collect();
        let total: u32 = weights.iter().sum();
        for _ in 0..n_scans {
            let mut pick = rng.random_range(0..total);
            let mut index = 0;
            while pick >= weights[index] {
                pick -= weights[index];
                index += 1;
            }
            let at =
                now_ms - rng.random_range(60 * 60 * 1000..scan_window_ms.max(60 * 60 * 1000 + 1));
            targets[index].scans.push(at);
        }
        for target in &mut targets {
            target.scans.sort_unstable();
            added_scans += apply_scans(conn, scope, target, &mut rng, now_ms)?;
        }
    }
    Ok(Added {
        customers: n_customers,
        cards: n_customers,
        scans: added_scans,
    })
}

fn existing_targets(conn: &Connection, scope: &Scope) -> ApiResult<Vec<Target>> {
    let mut stmt = conn.prepare(
        "SELECT c.id, p.loyalty_type, p.goal FROM cards c JOIN passes p ON p.id = c.pass_id \
         WHERE c.business_id = ?1 AND c.place = ?2 AND c.status = 'active' ORDER BY c.created_at, c.id",
    )?;
    let rows: Vec<(String, String, i64)> = stmt
        .query_map(params![scope.business_id, scope.place.as_str()], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (id, kind, goal) in rows {
        if let Some(card) = customers::get_card(conn, scope, &id)? {
            out.push(Target {
                card,
                rules: CardRules {
                    points: kind == "points",
                    goal,
                },
                scans: Vec::new(),
            });
        }
    }
    Ok(out)
}

fn apply_scans(
    conn: &Connection,
    scope: &Scope,
    target: &mut Target,
    rng: &mut ChaCha8Rng,
    now_ms: i64,
) -> ApiResult<usize> {
    let mut count = 0;
    let mut counters = target.card.counters;
    let mut last_at = target.card.created_at;
    for &wanted in &target.scans {
        // Keep scans after enrolment and 15 minutes apart, as a real counter would.
        let at = wanted.max(last_at + 16 * 60 * 1000);
        if at > now_ms {
            continue;
        }
        let (kind, amount) = if target.rules.points {
            (ScanKind::Points, rng.random_range(5..40))
        } else {
            (ScanKind::Visit, 0)
        };
        let request = ScanRequest {
            kind,
            amount,
            confirm_repeat: true,
        };
        let Ok(outcome) = scan::apply("active", counters, target.rules, request, at) else {
            continue;
        };
        scan_rows::insert(
            conn,
            scope,
            &NewScan {
                id: &ids::new_id("scan"),
                pass_id: &target.card.pass_id,
                card_id: &target.card.id,
                customer_id: &target.card.customer_id,
                kind: kind.as_str(),
                amount: format!("{amount}.00"),
                points: outcome.points_added,
                visits_added: outcome.visits_added,
                reward_earned: outcome.reward_earned,
                location_id: None,
                card_before: counters,
                created_at: at,
            },
        )?;
        counters = outcome.after;
        last_at = at;
        count += 1;
    }
    customers::save_counters(conn, &target.card.id, &counters)?;
    target.card.counters = counters;
    Ok(count)
}

/// Fills a new sandbox: 25 customers, 200 scans over the past 60 days, two
/// locations (one closed) and three completed referrals between demo customers.
pub fn fill_sandbox(
    conn: &Connection,
    scope: &Scope,
    pass: &Pass,
    seed: u64,
    now_ms: i64,
) -> ApiResult<()> {
    generate(
        conn,
        scope,
        pass,
        DEMO_CUSTOMERS,
        DEMO_SCANS,
        DEMO_HISTORY_MS,
        60 * DAY_MS,
        seed,
        now_ms,
    )?;
    let places = [
        (
            "Market Street",
            true,
            "12 Market Street",
            51.5145,
            -0.0920,
            80 * DAY_MS,
        ),
        (
            "Station Kiosk",
            false,
            "Platform 1, Central Station",
            51.5310,
            -0.1240,
            85 * DAY_MS,
        ),
    ];
    for (name, active, address, lat, lon, age) in places {
        locations::insert(
            conn,
            scope,
            &Location {
                id: ids::new_id("loc"),
                pass_id: Some(pass.id.clone()),
                name: name.to_owned(),
                active,
                address: address.to_owned(),
                city: "London".into(),
                country: "GB".into(),
                latitude: lat,
                longitude: lon,
                created_at: now_ms - age,
            },
        )?;
    }
    let mut stmt = conn.prepare(
        "SELECT id, created_at FROM customers WHERE business_id = ?1 AND place = ?2 ORDER BY created_at, id LIMIT 6",
    )?;
    let people: Vec<(String, i64)> = stmt
        .query_map(params![scope.business_id, scope.place.as_str()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<Result<_, _>>()?;
    for pair in people.chunks(2) {
        if let [(referrer, _), (referred, joined)] = pair {
            referrals::insert(
                conn,
                scope,
                &Referral {
                    id: ids::new_id("ref"),
                    pass_id: pass.id.clone(),
                    status: "completed".into(),
                    referrer_customer_id: referrer.clone(),
                    referred_customer_id: referred.clone(),
                    referrer_deleted: false,
                    referred_deleted: false,
                    referrer_bonus: 1,
                    referred_bonus: 1,
                    created_at: joined - DAY_MS,
                    completed_at: Some(*joined),
                },
            )?;
        }
    }
    Ok(())
}

/// The gift cards the app's demo business starts with, for a newcomer to tap: one to
/// pay with, one the recipient has not opened yet, one nearly used up. Recipients are
/// `sample-…@demo.example`: no one receives anything (a sandbox sends nothing).
pub fn add_gift_card_samples(conn: &Connection, scope: &Scope, now_ms: i64) -> ApiResult<()> {
    use crate::actions::gift_cards::{Issue, Payment, issue, pay};
    use crate::store::gift_cards;

    let samples = [
        ("Ada Lovelace", "sample-active@demo.example", 5_000, true, 0),
        (
            "Grace Hopper",
            "sample-unclaimed@demo.example",
            2_500,
            false,
            0,
        ),
        (
            "Alan Turing",
            "sample-nearly-empty@demo.example",
            3_000,
            true,
            2_850,
        ),
    ];
    for (name, email, amount_minor, claimed, spent) in samples {
        let issued = issue(
            conn,
            scope,
            &Issue {
                amount_minor,
                currency: "EUR".into(),
                exponent: 2,
                locale: "en".into(),
                recipient_name: name.into(),
                recipient_email: email.into(),
            },
            now_ms,
        )?;
        let id = issued.id;
        if claimed && let Some(mut card) = gift_cards::get(conn, scope, &id)? {
            card.status = "active".into();
            card.claimed_at = Some(now_ms);
            gift_cards::save_state(conn, &card)?;
        }
        if spent > 0 {
            pay(
                conn,
                scope,
                &Payment {
                    gift_card_id: id,
                    amount_minor: spent,
                    currency: "EUR".into(),
                    reference: Some("DEMO-1".into()),
                    location_id: None,
                },
                now_ms,
            )?;
        }
    }
    Ok(())
}
