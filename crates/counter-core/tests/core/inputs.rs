//! Every input the shell's commands hand the core, generated hostile: empty, huge,
//! control characters, wrong shapes, negative and overflowing numbers. Each is refused
//! with a clear error and changes nothing: no outbox item, nothing on the server, the
//! kept key still the one in use. A property test: many random cases from a seed that
//! a failure prints.

use counter_core::{Counter, Enrolment, Error, GiftCardIssue, ItemId, ScanOutcome};
use loyalty_api::{CardId, GiftCardId, PassId, ScanAction, Wallet};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;

use crate::Env;

const CASES: usize = 150;

/// Pieces of text no field accepts as they are.
const HOSTILE: &[&str] = &[
    "",
    "   ",
    "\n",
    "\t",
    "\u{0}",
    "\u{1b}[31m",
    "\u{7f}",
    "\u{202e}",
    "card_",
    "card_1",
    "gc_",
    "gc_x",
    "../../v1/me",
    "?x=1#",
    "'; DROP TABLE outbox; --",
    "NaN",
    "-1",
    "-0.01",
    "0",
    "0.00",
    "1e309",
    "99999999999999999999999999999",
    "0x10",
    "12.505",
    "1,000.50",
    "€5",
    "💳",
];

fn hostile(rng: &mut ChaCha8Rng) -> String {
    match rng.random_range(0..4) {
        // One piece.
        0 => (*HOSTILE.choose(rng).unwrap()).to_owned(),
        // Huge.
        1 => {
            HOSTILE
                .choose(rng)
                .unwrap()
                .repeat(rng.random_range(2_000..20_000))
                + "x".repeat(rng.random_range(300..100_000)).as_str()
        }
        // Random characters, control ones among them.
        2 => (0..rng.random_range(1..80))
            .map(|_| char::from_u32(rng.random_range(0..0x30000)).unwrap_or('\u{0}'))
            .chain(std::iter::once('\u{1}'))
            .collect(),
        // Pieces glued together, with a control character inside.
        _ => {
            let a = HOSTILE.choose(rng).unwrap();
            let b = HOSTILE.choose(rng).unwrap();
            format!("{a}\u{8}{b}")
        }
    }
}

fn hostile_points(rng: &mut ChaCha8Rng) -> Option<Decimal> {
    match rng.random_range(0..6) {
        0 => None,
        1 => Some(Decimal::ZERO),
        2 => Some(Decimal::MAX),
        3 => Some(Decimal::MIN),
        4 => Some(Decimal::new(
            rng.random_range(1..1_000),
            1 + rng.random_range(0..3),
        )),
        _ => Some(Decimal::from(rng.random_range(1_000_001_i64..i64::MAX))),
    }
}

/// A refusal a person can read: the app's own code (not a storage failure), and a
/// message that does not echo a huge input back.
fn clear(result: Result<impl std::fmt::Debug, Error>, what: &str) {
    match result {
        Ok(value) => panic!("{what}: accepted: {value:?}"),
        Err(err) => {
            assert_ne!(
                err.code(),
                counter_core::ErrorCode::StorageFailed,
                "{what}: {err}"
            );
            let message = err.to_string();
            assert!(
                message.len() < 1000,
                "{what}: {} chars: {}",
                message.len(),
                message.chars().take(160).collect::<String>()
            );
        }
    }
}

async fn nothing_changed(
    env: &Env,
    counter: &Counter,
    customer: &loyalty_api::CustomerId,
    gift: &GiftCardId,
) {
    assert!(
        counter.queue(false, 10).unwrap().is_empty(),
        "an outbox item was stored"
    );
    assert!(
        env.scans_of(customer).await.is_empty(),
        "a scan reached the server"
    );
    assert!(
        env.spends_of(gift).await.is_empty(),
        "a payment reached the server"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_hostile_input_is_refused_clearly_and_changes_nothing() {
    let seed: u64 = std::env::var("INPUT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(rand::random);
    println!("INPUT_SEED={seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    let customers_before = env.api_get("/v1/customers?limit=100").await["data"]
        .as_array()
        .unwrap()
        .len();

    for case in 0..CASES {
        let text = hostile(&mut rng);
        let what = format!(
            "case {case} (seed {seed}): {:?}",
            text.chars().take(40).collect::<String>()
        );
        let action = *[ScanAction::Visit, ScanAction::Points, ScanAction::Redeem]
            .choose(&mut rng)
            .unwrap();

        // A card that is not a card, whatever the action and points.
        clear(
            counter
                .record_scan(CardId::new(text.clone()), action, hostile_points(&mut rng))
                .await,
            &what,
        );
        // A real card with points that do not fit.
        let points = match action {
            ScanAction::Points => hostile_points(&mut rng).filter(|p| {
                !(p.fract().is_zero() && !p.is_zero() && p.abs() <= Decimal::from(1_000_000))
            }),
            _ => Some(Decimal::ONE),
        };
        clear(
            counter.record_scan(card.clone(), action, points).await,
            &what,
        );
        // A code that could be an id the service issued (they are strings, whatever
        // their look) is looked up, and nothing changes; anything else is refused.
        let read = counter.read_card(&CardId::new(text.clone())).await;
        if counter_core::scanner::plausible_id(&text) {
            assert!(
                matches!(
                    read,
                    Ok(counter_core::FreshCard::NoSuchCard | counter_core::FreshCard::NotChecked)
                ),
                "{what}: {read:?}"
            );
        } else {
            clear(read, &what);
        }

        // Payments: an amount that is not one, a card that is not one, a bad reference.
        clear(counter.take_payment(gift.clone(), &text, None).await, &what);
        clear(
            counter
                .take_payment(GiftCardId::new(text.clone()), "5", None)
                .await,
            &what,
        );
        clear(
            counter
                .take_payment(gift.clone(), "5", Some(format!("T{}\u{0}", text)))
                .await,
            &what,
        );
        clear(
            counter.read_gift_card(&GiftCardId::new(text.clone())).await,
            &what,
        );

        // Queue decisions on items that do not exist, with notes that cannot be kept.
        let id = ItemId(
            *[0, -1, i64::MAX, i64::MIN, rng.random()]
                .choose(&mut rng)
                .unwrap(),
        );
        clear(counter.discard(id, &text), &what);
        clear(counter.retry_item(id), &what);
        clear(counter.confirm_repeat_visit(id).await, &what);

        // Enrolment and gift cards: one field hostile at a time.
        let good = Enrolment {
            pass_id: Some(PassId::new(env.points_pass.clone())),
            name: "Ana".into(),
            email: "ana@example.com".into(),
            wallet: "apple".into(),
            send_welcome: false,
        };
        let field = rng.random_range(0..3);
        let enrol = Enrolment {
            name: if field == 0 {
                format!("{text}\u{0}")
            } else {
                good.name.clone()
            },
            email: if field == 1 {
                text.clone()
            } else {
                good.email.clone()
            },
            wallet: if field == 2 {
                Wallet::parse(&text)
            } else {
                good.wallet
            },
            ..good
        };
        clear(counter.enrol(enrol).await, &what);
        let issue = GiftCardIssue {
            amount: if field == 0 {
                text.clone()
            } else {
                "20".into()
            },
            currency: "EUR".into(),
            locale: if field == 2 {
                format!("{text}\u{0}")
            } else {
                "en".into()
            },
            recipient_name: "Ana".into(),
            recipient_email: if field == 1 {
                text.clone()
            } else {
                "ana@example.com".into()
            },
        };
        clear(counter.issue_gift_card(issue).await, &what);

        // A search that cannot be one; connecting with what is not a key.
        let typed = text.trim();
        if typed.chars().count() > 200 || typed.chars().any(char::is_control) {
            clear(counter.search(&text, 10), &what);
        }
        clear(counter.connect(&text, &text).await, &what);
        clear(counter.connect(&env.sandbox_url(), &text).await, &what);
    }

    nothing_changed(&env, &counter, &customer, &gift).await;
    let customers_after = env.api_get("/v1/customers?limit=100").await["data"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(customers_after, customers_before, "a customer was enrolled");
    // The kept key is still the one in use: a good scan goes, once.
    let fine = counter
        .record_scan(card, ScanAction::Points, Some(Decimal::from(5)))
        .await
        .unwrap();
    assert!(matches!(fine, ScanOutcome::Done { .. }), "{fine:?}");
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 5)]);
}
