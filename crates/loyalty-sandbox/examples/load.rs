//! Load figures of loyalty-sandbox on this machine (run by `make bench`, not by tests).
//!
//! Starts the server in-process on 127.0.0.1:0 with a file database in a temporary
//! directory (WAL, synchronous=FULL: the durable configuration), then measures
//! requests per second and p50/p99 latency of `GET /sandbox/v1/customers` and
//! `POST /sandbox/v1/scans` at 1 and 32 concurrent connections, each for a bounded
//! time, and the raw cost of one SQLite write transaction with the same settings.
//!
//!     cargo run --release -p loyalty-sandbox --example load [-- SECONDS]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use loyalty_sandbox::{Config, Sandbox};
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("load.db");
    let sandbox = Sandbox::open(Config {
        db: Some(db.clone()),
        control: true,
        demo: true,
    })?;
    let keys = sandbox.demo_keys().cloned().expect("demo keys");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let running = sandbox.serve(listener).await?;
    let root = running.base_url();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()?;

    // Limits a load run would hit otherwise.
    http.patch(format!("{root}/_sandbox/businesses/{}", keys.business_id))
        .json(&json!({"rate_limits": {"requests_per_key": 100_000_000, "requests_per_business": 100_000_000, "writes_per_key": 100_000_000}}))
        .send()
        .await?
        .error_for_status()?;
    let customers: Value = http
        .get(format!("{root}/sandbox/v1/customers?limit=100"))
        .bearer_auth(&keys.test_key)
        .send()
        .await?
        .json()
        .await?;
    let cards: Arc<Vec<String>> = Arc::new(
        customers["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["cards"][0]["id"].as_str().unwrap().to_owned())
            .collect(),
    );

    println!(
        "loyalty-sandbox load ({} s per row, file db with WAL and synchronous=FULL, {} cores)",
        seconds,
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    println!();
    println!(
        "{:<28} {:>5} {:>9} {:>9} {:>10} {:>10}",
        "request", "conns", "requests", "req/s", "p50 ms", "p99 ms"
    );
    for (name, write) in [("GET /v1/customers", false), ("POST /v1/scans", true)] {
        for conns in [1usize, 32] {
            let row = run(
                &http,
                &root,
                &keys.test_key,
                &cards,
                write,
                conns,
                Duration::from_secs(seconds),
            )
            .await;
            println!(
                "{:<28} {:>5} {:>9} {:>9.0} {:>10.2} {:>10.2}",
                name, conns, row.count, row.per_second, row.p50_ms, row.p99_ms
            );
        }
    }
    running.shutdown().await?;

    let (count, per_tx) = raw_sqlite(
        &dir.path().join("raw.db"),
        Duration::from_secs(seconds.min(3)),
    )?;
    println!();
    println!(
        "raw SQLite write transaction (BEGIN IMMEDIATE; INSERT; COMMIT, WAL, synchronous=FULL): {count} in the run, {:.3} ms each, {:.0}/s",
        per_tx * 1000.0,
        1.0 / per_tx
    );
    Ok(())
}

struct Row {
    count: usize,
    per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
}

async fn run(
    http: &reqwest::Client,
    root: &str,
    key: &str,
    cards: &Arc<Vec<String>>,
    write: bool,
    conns: usize,
    length: Duration,
) -> Row {
    let counter = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline = started + length;
    let mut tasks = tokio::task::JoinSet::new();
    for worker in 0..conns {
        let (http, root, key, cards, counter) = (
            http.clone(),
            root.to_owned(),
            key.to_owned(),
            cards.clone(),
            counter.clone(),
        );
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let t = Instant::now();
                let resp = if write {
                    let card = &cards[(n as usize + worker) % cards.len()];
                    http.post(format!("{root}/sandbox/v1/scans"))
                        .bearer_auth(&key)
                        .header("Idempotency-Key", format!("load-{conns}-{n}"))
                        .json(&json!({"card_id": card, "kind": "visit", "confirm_repeat": true}))
                        .send()
                        .await
                } else {
                    http.get(format!("{root}/sandbox/v1/customers"))
                        .bearer_auth(&key)
                        .send()
                        .await
                };
                let resp = resp.expect("request");
                assert!(resp.status().is_success(), "status {}", resp.status());
                let _ = resp.bytes().await.expect("body");
                latencies.push(t.elapsed());
            }
            latencies
        });
    }
    let mut all = Vec::new();
    while let Some(done) = tasks.join_next().await {
        all.extend(done.expect("worker"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort_unstable();
    let pct =
        |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)].as_secs_f64() * 1000.0;
    Row {
        count: all.len(),
        per_second: all.len() as f64 / elapsed,
        p50_ms: pct(0.50),
        p99_ms: pct(0.99),
    }
}

fn raw_sqlite(path: &std::path::Path, length: Duration) -> anyhow::Result<(usize, f64)> {
    let mut conn = rusqlite::Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")?;
    let started = Instant::now();
    let mut count = 0;
    while started.elapsed() < length {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO t (body) VALUES (?1)",
            ["a scan row of about this size, with its card"],
        )?;
        tx.commit()?;
        count += 1;
    }
    Ok((count, started.elapsed().as_secs_f64() / count as f64))
}
