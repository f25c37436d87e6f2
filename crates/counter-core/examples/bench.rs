//! Figures for `make bench` (release build; not part of the tests):
//!
//! 1. the cost of a durable enqueue (a scan stored in the outbox through the façade,
//!    while not connected) against a bare SQLite insert-and-commit on the same kind
//!    of connection (WAL, `synchronous=FULL`), in the same run: the ratio;
//! 2. a drain of 2,000 queued writes against the server's writes-per-key limit: the
//!    achieved rate as a share of the limit;
//! 3. search as you type over 100,000 cached customers: p50 and p99;
//! 4. a scanned card read from the cache and then fresh from the service (p50, p99,
//!    ratio), and a second full sync of the 100,000 (which forgets deleted customers).
//!
//! Run: `cargo run --release -p counter-core --example bench`

use std::sync::Arc;
use std::time::{Duration, Instant};

use counter_core::secrets::SecretsConfig;
use counter_core::{Config, Counter, FreshCard, SystemClock, UuidIds};
use loyalty_api::{CardId, ScanAction};
use rust_decimal::Decimal;
use serde_json::{Value, json};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const ENQUEUES: usize = 400;
const DRAIN: usize = 2_000;
const WRITES_PER_WINDOW: u64 = 300;
const WINDOW_SECONDS: u64 = 10;
const CUSTOMERS: u64 = 100_000;
const FRESH_READS: usize = 200;

struct Server {
    root: String,
    http: reqwest::Client,
    _running: loyalty_sandbox::Running,
}

impl Server {
    async fn control(&self, method: reqwest::Method, path: &str, body: Value) -> Result<Value> {
        let answer = self
            .http
            .request(method, format!("{}{path}", self.root))
            .json(&body)
            .send()
            .await?;
        let status = answer.status();
        let value: Value = answer.json().await?;
        if !status.is_success() {
            return Err(format!("{path}: {status} {value}").into());
        }
        Ok(value)
    }

    async fn post(&self, url: &str, key: &str, body: Value) -> Result<Value> {
        let answer = self
            .http
            .post(url)
            .bearer_auth(key)
            .header("idempotency-key", uuid::Uuid::new_v4().to_string())
            .json(&body)
            .send()
            .await?;
        Ok(answer.json().await?)
    }
}

fn config() -> Config {
    Config {
        secrets: SecretsConfig::FileOnly,
        ..Config::default()
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let sandbox = loyalty_sandbox::Sandbox::open(loyalty_sandbox::Config {
        db: Some(dir.path().join("server.db")),
        control: true,
        demo: false,
    })?;
    let running = sandbox
        .serve(tokio::net::TcpListener::bind("127.0.0.1:0").await?)
        .await?;
    let server = Server {
        root: running.base_url(),
        http: reqwest::Client::new(),
        _running: running,
    };
    let business = server
        .control(
            reqwest::Method::POST,
            "/_sandbox/businesses",
            json!({"name": "Bench Café", "pass": {"name": "Points", "loyalty_type": "points",
                   "goal": 100000, "reward_title": "Cake", "locale": "en"}}),
        )
        .await?;
    let business_id = business["id"].as_str().ok_or("no business id")?.to_owned();
    let pass_id = business["pass_id"].as_str().ok_or("no pass id")?.to_owned();
    let key = server
        .control(
            reqwest::Method::POST,
            "/_sandbox/keys",
            json!({"business_id": business_id, "mode": "live"}),
        )
        .await?["key"]
        .as_str()
        .ok_or("no key")?
        .to_owned();

    // 1. Durable enqueue against a bare insert-and-commit.
    let bare_path = dir.path().join("bare.db");
    let bare = counter_core::db::open(&bare_path)?;
    bare.execute_batch("CREATE TABLE bare (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")?;
    let started = Instant::now();
    for n in 0..ENQUEUES {
        bare.execute(
            "INSERT INTO bare (body) VALUES (?1)",
            [format!(
                r#"{{"card_id":"card_{n}","kind":"points","amount":1}}"#
            )],
        )?;
    }
    let bare_each = started.elapsed() / ENQUEUES as u32;
    drop(bare);

    let till = dir.path().join("till-enqueue");
    let counter = Counter::open(&till, config(), Arc::new(SystemClock), Arc::new(UuidIds)).await?;
    let started = Instant::now();
    for n in 0..ENQUEUES {
        counter
            .record_scan(
                CardId::new(format!("card_{n}")),
                ScanAction::Points,
                Some(Decimal::ONE),
            )
            .await?;
    }
    let enqueue_each = started.elapsed() / ENQUEUES as u32;
    counter.close().await;
    println!(
        "durable enqueue: {:.3} ms each; bare insert+commit: {:.3} ms each; ratio {:.2}",
        enqueue_each.as_secs_f64() * 1e3,
        bare_each.as_secs_f64() * 1e3,
        enqueue_each.as_secs_f64() / bare_each.as_secs_f64()
    );

    // 2. Drain 2,000 queued writes against the writes-per-key limit.
    server
        .control(
            reqwest::Method::PATCH,
            &format!("/_sandbox/businesses/{business_id}"),
            json!({"rate_limits": {"writes_per_key": WRITES_PER_WINDOW,
                   "window_seconds": WINDOW_SECONDS, "requests_per_key": 100000,
                   "requests_per_business": 100000}}),
        )
        .await?;
    let mut cards = Vec::new();
    for n in 0..20 {
        let customer = server
            .post(
                &format!("{}/v1/customers", server.root),
                &key,
                json!({"pass_id": pass_id, "name": format!("Drain {n}"),
                       "email": format!("drain{n}@example.com"), "wallet": "apple",
                       "send_welcome": false}),
            )
            .await?;
        cards.push(CardId::new(
            customer["cards"][0]["id"].as_str().ok_or("no card")?,
        ));
    }
    let till = dir.path().join("till-drain");
    let counter = Counter::open(&till, config(), Arc::new(SystemClock), Arc::new(UuidIds)).await?;
    for n in 0..DRAIN {
        counter
            .record_scan(
                cards[n % cards.len()].clone(),
                ScanAction::Points,
                Some(Decimal::ONE),
            )
            .await?;
    }
    // A fresh window, so the run is not helped by the setup's leftover quota.
    tokio::time::sleep(Duration::from_secs(WINDOW_SECONDS)).await;
    let started = Instant::now();
    counter.connect(&server.root, &key).await?;
    let drained = counter.drained(Duration::from_secs(1800)).await?;
    let elapsed = started.elapsed();
    let done = counter
        .queue(false, 10_000)?
        .iter()
        .filter(|i| i.state == counter_core::ItemState::Done)
        .count();
    let limit_rate = WRITES_PER_WINDOW as f64 / WINDOW_SECONDS as f64;
    let achieved = done as f64 / elapsed.as_secs_f64();
    // Fixed windows: a drain that starts inside a window gets that window's whole
    // quota, so the nominal share can pass 100%. The windows it touched tell the rest.
    let windows_needed = (DRAIN as u64).div_ceil(WRITES_PER_WINDOW);
    let windows_touched = elapsed.as_secs() / WINDOW_SECONDS + 1;
    println!(
        "drain: {done} of {DRAIN} writes done (drained: {drained}) in {:.1} s = {:.1} writes/s; \
         limit {WRITES_PER_WINDOW} per {WINDOW_SECONDS} s = {limit_rate:.1}/s; share {:.0}% of the \
         nominal rate; {windows_needed} windows needed at the least, about {windows_touched} touched",
        elapsed.as_secs_f64(),
        achieved,
        100.0 * achieved / limit_rate
    );
    counter.close().await;

    // 3. Search as you type over 100,000 cached customers.
    let seeding = Instant::now();
    server
        .control(
            reqwest::Method::POST,
            "/_sandbox/seed",
            json!({"business_id": business_id, "place": "live", "customers": CUSTOMERS,
                   "scans": 0, "seed": 42}),
        )
        .await?;
    println!(
        "seeded {CUSTOMERS} customers in {:.1} s",
        seeding.elapsed().as_secs_f64()
    );
    let till = dir.path().join("till-search");
    let counter = Counter::open(&till, config(), Arc::new(SystemClock), Arc::new(UuidIds)).await?;
    counter.connect(&server.root, &key).await?;
    let syncing = Instant::now();
    let report = counter.sync(None).await?;
    println!(
        "synced {} customers into the cache in {:.1} s",
        report.cached,
        syncing.elapsed().as_secs_f64()
    );
    // Names to type, spread over the cache.
    let mut names = Vec::new();
    for typed in ["a", "e", "i", "m", "s", "l", "c", "p", "r", "j"] {
        for hit in counter.search(typed, 20)? {
            if let Some(name) = hit.name {
                names.push(name);
            }
        }
    }
    let mut timings = Vec::new();
    for name in &names {
        let chars: Vec<char> = name.chars().collect();
        for end in 1..=chars.len().min(8) {
            let typed: String = chars[..end].iter().collect();
            let started = Instant::now();
            let hits = counter.search(&typed, 10)?;
            timings.push(started.elapsed());
            std::hint::black_box(hits);
        }
    }
    timings.sort();
    println!(
        "search as you type over {} cached customers: {} searches, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        report.cached,
        timings.len(),
        percentile(&timings, 0.50).as_secs_f64() * 1e3,
        percentile(&timings, 0.99).as_secs_f64() * 1e3,
        timings.last().map(|d| d.as_secs_f64() * 1e3).unwrap_or(0.0)
    );

    // 4. A scanned card: the cached one at once, then the service's (one GET of its
    //    customer, stored); then a second full sync, which also forgets deleted ones.
    let mut cards: Vec<CardId> = Vec::new();
    for name in names.iter().take(FRESH_READS) {
        if let Some(hit) = counter.search(name, 1)?.into_iter().next() {
            cards.extend(hit.card_ids.into_iter().take(1));
        }
    }
    let (mut cached, mut fresh) = (Vec::new(), Vec::new());
    for card in &cards {
        let started = Instant::now();
        std::hint::black_box(counter.lookup_card(card)?);
        cached.push(started.elapsed());
        let started = Instant::now();
        let read = counter.read_card(card).await?;
        fresh.push(started.elapsed());
        if !matches!(read, FreshCard::Found(_)) {
            return Err(format!("{card}: {read:?}").into());
        }
    }
    cached.sort();
    fresh.sort();
    let (cached_p50, fresh_p50) = (percentile(&cached, 0.50), percentile(&fresh, 0.50));
    println!(
        "a scanned card over {} cached customers ({} cards): cached p50 {:.3} ms; fresh from \
         the service p50 {:.3} ms, p99 {:.3} ms; fresh/cached {:.0}x",
        report.cached,
        cards.len(),
        cached_p50.as_secs_f64() * 1e3,
        fresh_p50.as_secs_f64() * 1e3,
        percentile(&fresh, 0.99).as_secs_f64() * 1e3,
        fresh_p50.as_secs_f64() / cached_p50.as_secs_f64().max(1e-9)
    );
    let resync = Instant::now();
    let again = counter.sync(None).await?;
    println!(
        "second full sync of {} customers: {:.1} s, {} forgotten",
        again.cached,
        resync.elapsed().as_secs_f64(),
        again.removed
    );
    counter.close().await;
    Ok(())
}
