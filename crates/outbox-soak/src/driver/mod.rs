//! The driver: sets up a business, starts the server and the till as children,
//! injects the faults and the kills while the till works, then drains, settles,
//! reconciles and scans for the API keys.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use counter_core::{Counter, ItemState, OutboxItem, UuidIds};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::reconcile::{self, ServerRecords};
use crate::till::{self, OffsetClock};

mod children;
mod drain;
mod faults;
mod setup;

use children::{ServerChild, TillChild};
use drain::{connect, drain, open_items};
use faults::{FAULTS, Fault};
use setup::setup;

/// How big a run is.
#[derive(Debug, Clone)]
pub struct Plan {
    name: &'static str,
    dir: PathBuf,
    seed: u64,
    /// Outbox items to make.
    target_writes: i64,
    points_cards: usize,
    gift_cards: usize,
    /// Kills of the till while it works.
    kills: usize,
    /// How many times each kind of fault is injected.
    repeats: usize,
    /// The till's pace: milliseconds between steps, on average.
    pace_ms: u64,
    /// How long the poison card refuses its payments.
    poison_hold: Duration,
    /// The whole run stops here, whatever happens.
    deadline: Duration,
    /// The final drain gives up here.
    drain_deadline: Duration,
    /// No progress of the queue for this long: print what is stuck.
    stall: Duration,
}

impl Plan {
    /// The same plan with another overall deadline, in seconds.
    pub fn with_deadline(mut self, secs: Option<u64>) -> Plan {
        if let Some(secs) = secs {
            self.deadline = Duration::from_secs(secs);
        }
        self
    }

    pub fn full(dir: PathBuf, seed: u64) -> Plan {
        Plan {
            name: "full",
            dir,
            seed,
            target_writes: 5_000,
            points_cards: 60,
            gift_cards: 60,
            kills: 60,
            repeats: 3,
            pace_ms: 15,
            poison_hold: Duration::from_secs(10),
            deadline: Duration::from_secs(30 * 60),
            drain_deadline: Duration::from_secs(120),
            stall: Duration::from_secs(15),
        }
    }

    pub fn short(dir: PathBuf, seed: u64) -> Plan {
        Plan {
            name: "short",
            dir,
            seed,
            target_writes: 300,
            points_cards: 10,
            gift_cards: 6,
            kills: 5,
            repeats: 1,
            pace_ms: 40,
            poison_hold: Duration::from_secs(4),
            deadline: Duration::from_secs(100),
            drain_deadline: Duration::from_secs(30),
            stall: Duration::from_secs(8),
        }
    }
}

/// What the till's output tells the driver.
#[derive(Debug, Default)]
struct Seen {
    /// The newest item and the last step made.
    items: AtomicI64,
    step: AtomicI64,
    /// Steps the service answered at once, and steps left queued.
    answered: AtomicI64,
    left_queued: AtomicI64,
    /// Open items, as the till last said.
    queued: AtomicI64,
    done: AtomicBool,
}

struct Run {
    plan: Plan,
    exe: PathBuf,
    http: reqwest::Client,
    log: File,
    rng: ChaCha8Rng,
    port: u16,
    server: Option<ServerChild>,
    till: Option<TillChild>,
    till_starts: usize,
    seen: Arc<Seen>,
    business_id: String,
    /// Every key text used (for the final scan), and the ids, newest last.
    keys: Vec<String>,
    key_ids: Vec<String>,
    clock_offset: i64,
    clock_moves: usize,
    faults: BTreeMap<Fault, u64>,
    kills: u64,
    undo: Vec<tokio::task::JoinHandle<anyhow::Result<String>>>,
    /// Poison windows in which no other write was answered.
    stuck_behind_poison: u64,
    findings: Vec<String>,
}

fn dir_of(plan: &Plan, sub: &str) -> PathBuf {
    plan.dir.join(sub)
}

impl Run {
    fn say(&mut self, line: impl AsRef<str>) {
        let line = line.as_ref();
        println!("{line}");
        let _ = writeln!(self.log, "{line}");
    }

    fn root(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn key(&self) -> &str {
        self.keys.last().map_or("", String::as_str)
    }

    /// A control route, tried again while the server restarts.
    async fn control(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> anyhow::Result<Value> {
        control_at(&self.http, &self.root(), method, path, body).await
    }

    /// A write of the API with the newest key (setup only, not through the till).
    async fn api_post(&self, path: &str, body: Value, n: usize) -> anyhow::Result<Value> {
        let answer = self
            .http
            .post(format!("{}{path}", self.root()))
            .bearer_auth(self.key())
            .header("idempotency-key", format!("setup-{}-{n}", self.plan.seed))
            .json(&body)
            .send()
            .await?;
        let status = answer.status();
        let value: Value = answer.json().await?;
        if !status.is_success() {
            bail!("POST {path}: {status} {}", value["code"]);
        }
        Ok(value)
    }
}

/// A control route of the server at `root`, tried again while it restarts.
async fn control_at(
    http: &reqwest::Client,
    root: &str,
    method: reqwest::Method,
    path: &str,
    body: Value,
) -> anyhow::Result<Value> {
    let mut last = None;
    for _ in 0..40 {
        let request = http
            .request(method.clone(), format!("{root}{path}"))
            .json(&body);
        match request.send().await {
            Ok(answer) => {
                let status = answer.status();
                let value: Value = answer.json().await?;
                if !status.is_success() {
                    bail!("{method} {path}: {status} {value}");
                }
                return Ok(value);
            }
            Err(err) => last = Some(err),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Err(anyhow::anyhow!("{method} {path}: {last:?}"))
}

fn append(path: &Path) -> anyhow::Result<File> {
    Ok(std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?)
}

pub async fn run(plan: Plan) -> anyhow::Result<i32> {
    let started = std::time::Instant::now();
    let deadline = plan.deadline;
    if plan.dir.exists() {
        std::fs::remove_dir_all(&plan.dir)
            .with_context(|| format!("emptying {}", plan.dir.display()))?;
    }
    for sub in ["server", "till", "logs"] {
        std::fs::create_dir_all(plan.dir.join(sub))?;
    }
    let mut run = Run {
        exe: std::env::current_exe()?,
        http: reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()?,
        log: File::create(plan.dir.join("logs/driver.log"))?,
        rng: ChaCha8Rng::seed_from_u64(plan.seed ^ 0x50a4),
        port: 0,
        server: None,
        till: None,
        till_starts: 0,
        seen: Arc::new(Seen::default()),
        business_id: String::new(),
        keys: Vec::new(),
        key_ids: Vec::new(),
        clock_offset: 0,
        clock_moves: 0,
        faults: BTreeMap::new(),
        kills: 0,
        undo: Vec::new(),
        stuck_behind_poison: 0,
        findings: Vec::new(),
        plan,
    };
    let outcome = tokio::time::timeout(deadline, soak(&mut run)).await;
    let faults: u64 = run.faults.values().sum();
    let unchecked = |run: &Run| {
        format!(
            "writes={} faults={faults} kills={} lost=unchecked doubled=unchecked",
            run.seen.items.load(Ordering::Relaxed),
            run.kills
        )
    };
    let (code, last) = match outcome {
        Ok(Ok(done)) => done,
        Ok(Err(err)) => {
            run.say(format!("the soak failed: {err:#}"));
            open_items(&mut run).await;
            (2, unchecked(&run))
        }
        Err(_) => {
            run.say(format!(
                "the soak passed its deadline of {deadline:?}; stopped"
            ));
            open_items(&mut run).await;
            (3, unchecked(&run))
        }
    };
    // Every exit path: the children go (kill_on_drop also covers a panic).
    if let Some(mut till) = run.till.take() {
        let _ = till.child.kill().await;
    }
    let _ = run.kill_server().await;
    run.say(format!("took {:.1} s", started.elapsed().as_secs_f64()));
    // The last line, always.
    run.say(last);
    Ok(code)
}

/// The run; its exit code and its last line.
async fn soak(run: &mut Run) -> anyhow::Result<(i32, String)> {
    run.start_server().await?;
    run.say(format!(
        "soak {} on {} (seed {})",
        run.plan.name,
        run.root(),
        run.plan.seed
    ));
    let workload = setup(run).await?;
    let target = run.plan.target_writes;

    // When each fault and each kill comes, by the number of items the till has made.
    let mut schedule: Vec<(i64, Fault)> = Vec::new();
    for _ in 0..run.plan.repeats {
        for fault in FAULTS {
            let at = run.rng.random_range(target / 20..target * 17 / 20);
            schedule.push((at, fault));
        }
    }
    if run.plan.repeats == 1 {
        // The short run: the clock also goes back to the right time.
        schedule.push((target * 18 / 20, Fault::ClockMoved));
        schedule.push((target * 19 / 20, Fault::ClockMoved));
    }
    schedule.shuffle(&mut run.rng);
    schedule.sort_by_key(|(at, _)| *at);
    let mut kills: Vec<i64> = (0..run.plan.kills)
        .map(|_| run.rng.random_range(1..target))
        .collect();
    kills.sort();
    let (mut next_fault, mut next_kill) = (0, 0);

    run.start_till().await?;
    let mut last_items = 0;
    let mut last_change = Instant::now();
    while !run.seen.done.load(Ordering::Relaxed) {
        let items = run.seen.items.load(Ordering::Relaxed);
        if items != last_items {
            (last_items, last_change) = (items, Instant::now());
        } else if last_change.elapsed() > Duration::from_secs(60) {
            bail!("the till made no write for 60 s (at item {items})");
        }
        if let Some(till) = &mut run.till
            && let Some(status) = till.child.try_wait()?
        {
            let line = format!("the till stopped by itself ({status}); started again");
            run.findings.push(line.clone());
            run.say(line);
            run.till = None;
            run.start_till().await?;
        }
        run.undo_due(false).await?;
        while next_fault < schedule.len() && schedule[next_fault].0 <= items {
            let fault = schedule[next_fault].1;
            next_fault += 1;
            run.inject(fault, &workload).await?;
        }
        if next_kill < kills.len() && kills[next_kill] <= items {
            next_kill += 1;
            // A random moment inside whatever the till is doing.
            let wait = run.rng.random_range(0..300);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            run.kill_till().await?;
            run.start_till().await?;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Faults that never came due (the till was faster than the schedule): now.
    while next_fault < schedule.len() {
        let fault = schedule[next_fault].1;
        next_fault += 1;
        run.inject(fault, &workload).await?;
    }
    while next_kill < kills.len() {
        next_kill += 1;
        run.kill_till().await?;
        run.start_till().await?;
        tokio::time::sleep(Duration::from_millis(run.rng.random_range(200..800))).await;
    }
    let made = run.seen.items.load(Ordering::Relaxed);
    run.say(format!(
        "workload done: {made} items; the till is stopped for the final drain"
    ));
    run.kill_till().await?;
    // Once now, with the killed till's database and -wal as it left them (the final
    // drain below checkpoints them), and once at the end.
    let leaks_mid = crate::secrets_scan::scan(&run.plan.dir, &run.keys)?;
    for line in &leaks_mid.lines {
        run.say(format!("after the last kill: {line}"));
    }
    run.undo_due(true).await?;
    run.control(reqwest::Method::DELETE, "/_sandbox/faults", json!({}))
        .await?;
    if run.server.is_none() {
        run.start_server().await?;
    }

    // The final drain, in this process, with the till's clock right again.
    let counter = Counter::open(
        &dir_of(&run.plan, "till"),
        till::config(),
        Arc::new(OffsetClock::new(0)),
        Arc::new(UuidIds),
    )
    .await
    .context("opening the till for the final drain")?;
    connect(run, &counter).await?;
    let server = ServerRecords::new(run.http.clone(), run.root(), run.key().to_owned());
    let mut settled = reconcile::Settled::default();
    for round in 1..=4 {
        let drained = drain(run, &counter).await?;
        let open = counter.queue(true, u32::MAX)?;
        let decisions: Vec<&OutboxItem> = open
            .iter()
            .filter(|i| i.state == ItemState::NeedsDecision)
            .collect();
        run.say(format!(
            "final drain round {round}: drained={drained}, {} need a decision",
            decisions.len()
        ));
        if decisions.is_empty() {
            break;
        }
        let all = reconcile::with_whole_gift_cards(&workload, counter.queue(false, u32::MAX)?)?;
        for item in decisions {
            let line =
                reconcile::settle(&counter, &server, &workload, &all, item, &mut settled).await?;
            run.say(line);
        }
    }
    let items = reconcile::with_whole_gift_cards(&workload, counter.queue(false, u32::MAX)?)?;
    counter.close().await;
    let report = reconcile::check(&server, &workload, &items).await?;
    for line in &report.lines {
        run.say(line);
    }
    let _ = run.kill_server().await;

    let mut leaks = crate::secrets_scan::scan(&run.plan.dir, &run.keys)?;
    leaks.problems += leaks_mid.problems;
    for line in &leaks.lines {
        run.say(line);
    }
    for line in run.findings.clone() {
        run.say(format!("finding: {line}"));
    }
    let faults: u64 = run.faults.values().sum();
    let by_kind: Vec<String> = run
        .faults
        .iter()
        .map(|(k, n)| format!("{k:?}={n}"))
        .collect();
    run.say(format!("faults by kind: {}", by_kind.join(" ")));
    run.say(format!(
        "settled by a person: found_on_server={} sent_again={} recent_visit_discarded={}",
        settled.found, settled.retried, settled.recent_visit
    ));
    run.say(format!(
        "refusals: as predicted={} not predicted={} predicted but accepted={}; cards off the \
         rules={}; stuck={}; poison windows that held everything up={}; gift cards below \
         zero={}; key leaks={}",
        report.refusals_as_predicted,
        report.unpredicted_refusals,
        report.missed_refusals,
        report.state_mismatches,
        report.stuck,
        run.stuck_behind_poison,
        report.below_zero,
        leaks.problems
    ));
    let writes = items.len();
    let failed = report.lost > 0
        || report.doubled > 0
        || report.unpredicted_refusals > 0
        || report.missed_refusals > 0
        || report.state_mismatches > 0
        || report.stuck > 0
        || run.stuck_behind_poison > 0
        || report.below_zero > 0
        || report.misattributed > 0
        || leaks.problems > 0
        || (writes as i64) < target;
    let last = format!(
        "writes={writes} faults={faults} kills={} lost={} doubled={} misattributed={}",
        run.kills, report.lost, report.doubled, report.misattributed
    );
    Ok((if failed { 1 } else { 0 }, last))
}
