//! Figures for `make bench` (release build; not part of the tests):
//!
//! 1. the cost of a durable enqueue (a scan stored in the outbox through the façade,
//!    while not connected) against a bare SQLite insert-and-commit on the same kind
//!    of connection (WAL, `synchronous=FULL`), and the same enqueue with 10,000 writes
//!    already queued against an empty queue: medians of interleaved rounds, measured
//!    twice in one run (the two runs must agree for the figure to mean anything);
//! 2. a drain of 2,000 queued writes against the server's writes-per-key limit: the
//!    achieved rate as a share of the limit;
//! 3. search as you type over 100,000 cached customers, names and phone numbers: p50 and
//!    p99;
//!    The first full sync of them, against a bare client paging the same list from the
//!    same server just before and just after (the ratio to their mean);
//! 4. a scanned card read from the cache and then fresh from the service (p50, p99,
//!    ratio), and a second full sync of the 100,000 (which forgets deleted customers);
//! 5. a big shop: the server seeded up to 1,000,000 customers, synced again, and
//!    searched as you type (names and phone numbers);
//! 6. a shift of 20,000 writes: its X report (median of 5) and its close, which computes
//!    and seals the Z, and `verify` of the chain afterwards; then a shift of 400
//!    confirmed writes checked against the service under a limit of 40 requests per 10
//!    seconds (the check takes at most half);
//! 7. a till of an earlier app with 1,000,000 customers cached, opened by this one: its
//!    snapshot and its migrations (from schema 10, before the cache's own migrations,
//!    and from the schema before this app's).
//!
//! What encrypting the database at rest (SQLCipher) costs is measured beside each: the
//! enqueue of section 1, the first sync of section 3, the sync and the search of
//! section 5, each against the same till kept in clear, interleaved in the same run.
//!
//! Run: `cargo run --release -p counter-core --example bench` (`-- enqueue` for the
//! first figures only, `-- scale` for sections 3 to 5, `-- sync` for the third only,
//! `-- shift` for the sixth only, `-- migrate` for the seventh only).

mod enqueue;
mod migrate;
mod shift;

use std::sync::Arc;
use std::time::{Duration, Instant};

use counter_core::secrets::SecretsConfig;
use counter_core::{AtRest, Config, Counter, FreshCard, SystemClock, UuidIds};
use loyalty_api::{CardId, ScanAction};
use rust_decimal::Decimal;
use serde_json::{Value, json};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const ROUNDS: usize = 41;
const PER_ROUND: usize = 20;
const QUEUED: usize = 10_000;
const DRAIN: usize = 2_000;
const WRITES_PER_WINDOW: u64 = 300;
const WINDOW_SECONDS: u64 = 10;
const CUSTOMERS: u64 = 100_000;
/// The customers of section 5's big shop.
const BIG_SHOP: u64 = 1_000_000;
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

    /// The cards of `n` customers enrolled on `pass_id`, named `{what} 0`, `{what} 1`...
    async fn cards(&self, key: &str, pass_id: &str, what: &str, n: usize) -> Result<Vec<CardId>> {
        let mut cards = Vec::with_capacity(n);
        for n in 0..n {
            let customer = self
                .post(
                    &format!("{}/v1/customers", self.root),
                    key,
                    json!({"pass_id": pass_id, "name": format!("{what} {n}"),
                           "email": format!("{what}{n}@example.com"), "wallet": "apple",
                           "send_welcome": false}),
                )
                .await?;
            cards.push(CardId::new(
                customer["cards"][0]["id"].as_str().ok_or("no card")?,
            ));
        }
        Ok(cards)
    }

    /// A bare client's walk of `GET /v1/customers`, 100 a page, each page's JSON read
    /// for the next cursor: what any client of the list must do, and so the floor of a
    /// till's sync. Answers the seconds it took and the customers it saw.
    async fn walk(&self, key: &str) -> Result<(f64, u64)> {
        let started = Instant::now();
        let (mut cursor, mut seen) = (None::<String>, 0u64);
        loop {
            let mut request = self
                .http
                .get(format!("{}/v1/customers", self.root))
                .bearer_auth(key)
                .query(&[("limit", "100")]);
            if let Some(cursor) = &cursor {
                request = request.query(&[("cursor", cursor)]);
            }
            let page: Value = request.send().await?.error_for_status()?.json().await?;
            seen += page["data"].as_array().map_or(0, Vec::len) as u64;
            match page["next_cursor"].as_str() {
                Some(next) if page["has_more"] == true => cursor = Some(next.to_owned()),
                _ => return Ok((started.elapsed().as_secs_f64(), seen)),
            }
        }
    }
}

fn config() -> Config {
    Config {
        secrets: SecretsConfig::FileOnly,
        ..Config::default()
    }
}

/// A till as [`config`] opens it, but its database in clear: what encryption costs is
/// measured against it.
fn in_clear() -> Config {
    Config {
        at_rest: AtRest::InClearForMeasures,
        ..config()
    }
}

/// A new till, its owner's PIN set and the owner signed in (every write names who made
/// it).
async fn open_till(dir: &std::path::Path, config: Config) -> Result<Counter> {
    let counter = Counter::open(dir, config, Arc::new(SystemClock), Arc::new(UuidIds)).await?;
    counter.set_pin("2468", counter_core::PinFor::OneAction)?;
    Ok(counter)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    // The sync's own account of each walk (how long it waited for the service, how long
    // it stored), printed under the bench's figures.
    {
        use tracing_subscriber::{filter::Targets, prelude::*};
        let walks: Targets =
            "counter_core::sync=info,counter_core::counter::shift_check=info".parse()?;
        tracing_subscriber::registry()
            .with(
                tracing_subscriber::fmt::layer()
                    .without_time()
                    .with_target(false),
            )
            .with(walks)
            .init();
    }
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

    // `-- shift`: section 6 only; `-- migrate`: section 7 only.
    if std::env::args().any(|a| a == "shift") {
        shift::shift_report(dir.path()).await?;
        return shift::shift_check(dir.path(), &server, &key, &business_id, &pass_id).await;
    }
    if std::env::args().any(|a| a == "migrate") {
        return migrate::migration(dir.path());
    }
    // `-- scale`: sections 3 to 5 only; `-- sync`: section 3 only.
    let sync_only = std::env::args().any(|a| a == "sync");
    let scale_only = sync_only || std::env::args().any(|a| a == "scale");
    if !scale_only {
        // 1. Durable enqueue against a bare insert-and-commit, and with 10,000 writes
        // already queued against an empty queue: medians of many interleaved rounds,
        // measured twice, so that the disk's noise shows as a disagreement between runs.
        let mut enqueues = enqueue::Enqueues::open(dir.path()).await?;
        // A first run settles the files (the WALs grow to their working size) and is not
        // shown; the two that follow must agree.
        enqueues.measure(0).await?;
        for run in 1..=2 {
            let figures = enqueues.measure(run).await?;
            println!(
                "run {run}: durable enqueue {:.3} ms vs bare insert+commit {:.3} ms: ratio {:.2} \
                 (median of {ROUNDS} interleaved rounds of {PER_ROUND}); with {QUEUED} queued \
                 {:.3} ms vs empty {:.3} ms: ratio {:.2}; encrypted {:.3} ms vs in clear {:.3} \
                 ms: ratio {:.2}",
                figures.enqueue_ms,
                figures.bare_ms,
                figures.ratio,
                figures.full_ms,
                figures.empty_ms,
                figures.full_ratio,
                figures.empty_ms,
                figures.clear_ms,
                figures.encrypted_ratio,
            );
        }
        enqueues.close().await;
        if std::env::args().any(|a| a == "enqueue") {
            // `-- enqueue`: only the figures above.
            return Ok(());
        }
    }
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
    if !scale_only {
        let cards = server.cards(&key, &pass_id, "drain", 20).await?;
        let till = dir.path().join("till-drain");
        let counter = open_till(&till, config()).await?;
        for n in 0..DRAIN {
            counter
                .record_scan(
                    cards[n % cards.len()].clone(),
                    ScanAction::Points,
                    Some(Decimal::ONE),
                )
                .await?;
        }
        // Connecting while writes wait is the manager's: the owner is signed in.
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
    }

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
    let counter = open_till(&dir.path().join("till-search"), config()).await?;
    counter.connect(&server.root, &key).await?;
    // The same till in clear, for what encryption costs.
    let clear = open_till(&dir.path().join("till-search-clear"), in_clear()).await?;
    clear.connect(&server.root, &key).await?;
    // The till's first walk between two of a bare client over the same list; the till
    // in clear's, between the till's and the second bare walk.
    let (bare_before, listed) = server.walk(&key).await?;
    let syncing = Instant::now();
    let report = counter.sync(None).await?;
    let synced = syncing.elapsed().as_secs_f64();
    let syncing = Instant::now();
    clear.sync(None).await?;
    let synced_in_clear = syncing.elapsed().as_secs_f64();
    let (bare_after, _) = server.walk(&key).await?;
    let bare = (bare_before + bare_after) / 2.0;
    println!(
        "first full sync of {} customers into the cache: {synced:.1} s; a bare client paging \
         the same {listed} from the same server: {bare_before:.1} s before, {bare_after:.1} s \
         after; ratio {:.2} (goal ≤ 1.20); the same till in clear {synced_in_clear:.1} s: \
         encrypted/clear {:.2}",
        report.cached,
        synced / bare,
        synced / synced_in_clear
    );
    // Names to type, spread over the cache; and their phone numbers, as a cashier types
    // one read out without its country code.
    let (mut names, mut phones) = (Vec::new(), Vec::new());
    for typed in ["a", "e", "i", "m", "s", "l", "c", "p", "r", "j"] {
        for hit in counter.search(typed, 20)? {
            names.extend(hit.name);
            phones.extend(hit.phone.map(|p| p.trim_start_matches("+44 ").to_owned()));
        }
    }
    search_as_you_type(&counter, &names, report.cached, "")?;
    search_as_you_type(&counter, &phones, report.cached, "")?;
    for texts in [&names, &phones] {
        encrypted_against_clear(&counter, &clear, texts, report.cached)?;
    }
    if sync_only {
        counter.close().await;
        clear.close().await;
        return Ok(());
    }

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

    // 5. A big shop: 1,000,000 customers (the server seeds 100,000 at a time), synced
    // again, then searched as typed.
    let mut cached = again.cached;
    for seed in 43.. {
        if cached >= BIG_SHOP {
            break;
        }
        let customers = (BIG_SHOP - cached).min(CUSTOMERS);
        server
            .control(
                reqwest::Method::POST,
                "/_sandbox/seed",
                json!({"business_id": business_id, "place": "live",
                       "customers": customers, "scans": 0, "seed": seed}),
            )
            .await?;
        cached += customers;
    }
    let syncing = Instant::now();
    let big = counter.sync(None).await?;
    let synced = syncing.elapsed().as_secs_f64();
    let syncing = Instant::now();
    clear.sync(None).await?;
    let synced_in_clear = syncing.elapsed().as_secs_f64();
    println!(
        "full sync up to {} customers: {synced:.1} s; the same till in clear \
         {synced_in_clear:.1} s: encrypted/clear {:.2}",
        big.cached,
        synced / synced_in_clear
    );
    search_as_you_type(&counter, &names, big.cached, "  p99 ≤ 5 ms")?;
    search_as_you_type(&counter, &phones, big.cached, "  p99 ≤ 5 ms")?;
    for texts in [&names, &phones] {
        encrypted_against_clear(&counter, &clear, texts, big.cached)?;
    }
    counter.close().await;
    clear.close().await;
    if scale_only {
        return Ok(());
    }
    // 6 and 7: a shift's reports, close and check; a till of an earlier app migrated.
    shift::shift_report(dir.path()).await?;
    shift::shift_check(dir.path(), &server, &key, &business_id, &pass_id).await?;
    migrate::migration(dir.path())
}

/// What encryption costs a search as you type: each prefix of `texts` searched on the
/// encrypted till and on the same till in clear, one after the other (which first
/// alternates); the p50 and p99 of each, and the ratio of their p50s.
fn encrypted_against_clear(
    encrypted: &Counter,
    clear: &Counter,
    texts: &[String],
    cached: u64,
) -> Result<()> {
    let (mut on_encrypted, mut on_clear) = (Vec::new(), Vec::new());
    let time = |counter: &Counter, typed: &str, into: &mut Vec<Duration>| -> Result<()> {
        let started = Instant::now();
        std::hint::black_box(counter.search(typed, 10)?);
        into.push(started.elapsed());
        Ok(())
    };
    let mut turn = 0usize;
    for text in texts {
        let chars: Vec<char> = text.chars().collect();
        for end in 1..=chars.len().min(8) {
            let typed: String = chars[..end].iter().collect();
            turn += 1;
            if turn.is_multiple_of(2) {
                time(encrypted, &typed, &mut on_encrypted)?;
                time(clear, &typed, &mut on_clear)?;
            } else {
                time(clear, &typed, &mut on_clear)?;
                time(encrypted, &typed, &mut on_encrypted)?;
            }
        }
    }
    on_encrypted.sort();
    on_clear.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "search as you type over {cached} (typing {:?}…), encrypted against in clear: p50 \
         {:.3} vs {:.3} ms (ratio {:.2}), p99 {:.3} vs {:.3} ms",
        texts.first().map(String::as_str).unwrap_or_default(),
        ms(percentile(&on_encrypted, 0.50)),
        ms(percentile(&on_clear, 0.50)),
        percentile(&on_encrypted, 0.50).as_secs_f64()
            / percentile(&on_clear, 0.50).as_secs_f64().max(1e-9),
        ms(percentile(&on_encrypted, 0.99)),
        ms(percentile(&on_clear, 0.99)),
    );
    Ok(())
}

/// Every name of `names` typed a letter at a time (up to 8), each prefix searched for
/// 10 hits: p50, p99 and maximum.
/// Types each of `texts` a character at a time (its first 8), searching after each.
fn search_as_you_type(counter: &Counter, texts: &[String], cached: u64, goal: &str) -> Result<()> {
    let mut timings = Vec::new();
    for text in texts {
        let chars: Vec<char> = text.chars().collect();
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
        "search as you type over {cached} cached customers (typing {:?}…): {} searches, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms{goal}",
        texts.first().map(String::as_str).unwrap_or_default(),
        timings.len(),
        percentile(&timings, 0.50).as_secs_f64() * 1e3,
        percentile(&timings, 0.99).as_secs_f64() * 1e3,
        timings.last().map(|d| d.as_secs_f64() * 1e3).unwrap_or(0.0)
    );
    Ok(())
}
