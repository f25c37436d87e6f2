//! Section 6 of `make bench`: a shift's reports and close, and its check against the
//! service under a rate limit.

use std::time::{Duration, Instant};

use counter_core::secrets::SecretsConfig;
use loyalty_api::{CardId, ScanAction};
use rust_decimal::Decimal;
use serde_json::json;

use crate::{Result, Server, WINDOW_SECONDS, config, median, open_till};

/// The writes of section 6's shift.
const SHIFT_WRITES: usize = 20_000;

/// Section 6: a shift of [`SHIFT_WRITES`] writes of every loyalty kind, queued while
/// the till is not connected: its X report, then its close (the Z computed and sealed),
/// then `verify`.
pub async fn shift_report(dir: &std::path::Path) -> Result<()> {
    let counter = open_till(&dir.join("till-shift"), config()).await?;
    let shift = counter.open_shift()?;
    let actions = [ScanAction::Visit, ScanAction::Points, ScanAction::Redeem];
    for n in 0..SHIFT_WRITES {
        let card = CardId::new(format!("card_{:010}", n % 500));
        let action = actions[n % actions.len()];
        // Points from -3 to 3, none zero.
        let points = match n as i64 % 7 - 3 {
            0 => 1,
            points => points,
        };
        let amount = (action == ScanAction::Points).then_some(Decimal::from(points));
        counter.record_scan(card, action, amount).await?;
    }
    let mut xs = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let x = counter.x_report()?;
        xs.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(x.rows.writes, SHIFT_WRITES as u64);
    }
    let started = Instant::now();
    let z = counter.close_shift(shift.id).await?;
    let close_ms = started.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(z.rows.writes, SHIFT_WRITES as u64);
    let till = dir.join("till-shift");
    let keys = counter_core::secrets::KeyStore::new(SecretsConfig::FileOnly, &till);
    let db = counter_core::db::open_till(&keys, &till.join("till.db"))?;
    let started = Instant::now();
    let verified = counter_core::shifts::verify(&db)?;
    let verify_ms = started.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(verified, Ok(1));
    println!(
        "a shift of {SHIFT_WRITES} writes: X report {:.0} ms (median of 5), close with its Z \
         computed and sealed {close_ms:.0} ms (goal < 1000 ms), verify {verify_ms:.0} ms",
        median(xs)
    );
    counter.close().await;
    Ok(())
}

/// The requests per window of section 6's check.
const CHECK_REQUESTS: u64 = 40;

/// Section 6, its second half: a shift of confirmed writes (points on 30 cards, 60
/// customers enrolled, 40 payments on 10 gift cards) closed under a limit of
/// [`CHECK_REQUESTS`] requests per window: how long its check takes to the last write,
/// and how many requests it made (the till's log line).
pub async fn shift_check(
    dir: &std::path::Path,
    server: &Server,
    key: &str,
    business_id: &str,
    pass_id: &str,
) -> Result<()> {
    let limits = |requests: u64| {
        json!({"rate_limits": {"writes_per_key": 100000, "window_seconds": WINDOW_SECONDS,
               "requests_per_key": requests, "requests_per_business": 100000}})
    };
    let business = format!("/_sandbox/businesses/{business_id}");
    server
        .control(reqwest::Method::PATCH, &business, limits(100_000))
        .await?;
    let cards = server.cards(key, pass_id, "check", 30).await?;
    let mut gift_cards = Vec::new();
    for _ in 0..10 {
        let card = server
            .post(
                &format!("{}/v1/gift_cards", server.root),
                key,
                json!({"amount": 100, "currency": "EUR", "locale": "en",
                       "recipient": {"name": "Ana", "email": "ana@example.com"}}),
            )
            .await?;
        let id = card["id"].as_str().ok_or("no gift card")?.to_owned();
        server
            .control(
                reqwest::Method::POST,
                &format!("/_sandbox/gift_cards/{id}/claim"),
                json!({}),
            )
            .await?;
        gift_cards.push(loyalty_api::GiftCardId::new(id));
    }
    let counter = open_till(&dir.join("till-check"), config()).await?;
    counter.connect(&server.root, key).await?;
    let shift = counter.open_shift()?;
    for n in 0..300 {
        counter
            .record_scan(
                cards[n % cards.len()].clone(),
                ScanAction::Points,
                Some(Decimal::ONE),
            )
            .await?;
    }
    for n in 0..60 {
        counter
            .enrol(counter_core::Enrolment {
                pass_id: Some(loyalty_api::PassId::new(pass_id)),
                name: format!("Enrolled {n}"),
                email: format!("enrolled{n}@example.com"),
                wallet: loyalty_api::Wallet::Apple,
                send_welcome: false,
            })
            .await?;
    }
    for n in 0..40 {
        counter
            .take_payment(gift_cards[n % gift_cards.len()].clone(), "1", None)
            .await?;
    }
    counter.drained(Duration::from_secs(600)).await?;
    server
        .control(reqwest::Method::PATCH, &business, limits(CHECK_REQUESTS))
        .await?;
    // A fresh window.
    tokio::time::sleep(Duration::from_secs(WINDOW_SECONDS)).await;
    let started = Instant::now();
    let z = counter.close_shift(shift.id).await?;
    let sealed_after = started.elapsed().as_secs_f64();
    let mut check = z.check;
    while check.unchecked > 0 {
        check = counter.z_report(z.number).await?.check;
    }
    println!(
        "the check of a shift of {} confirmed writes under {CHECK_REQUESTS} requests per \
         {WINDOW_SECONDS} s: sealed after {sealed_after:.1} s, every write checked after {:.1} s \
         ({} matched, {} differences); the requests it made are in the log line above",
        z.rows.writes,
        started.elapsed().as_secs_f64(),
        check.matched,
        check.differences.len()
    );
    counter.close().await;
    Ok(())
}
