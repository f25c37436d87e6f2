//! The driver: sets up a business, starts the server and the till as children,
//! injects the faults and the kills while the till works, then drains, settles,
//! reconciles and scans for the API keys.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use counter_core::{Counter, ItemState, OutboxItem, UuidIds};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::time::Instant;

use crate::reconcile::{self, ServerRecords};
use crate::till::{self, OffsetClock};
use crate::workload::{self, Card, GIFT_CARD_EUROS, POINTS_GOAL, Step, Workload};

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

/// Every kind of fault the soak injects (the till's SIGKILLs are counted apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fault {
    Status500,
    Status503,
    Status429,
    RateLimit,
    DropAfterCommit,
    HeldPastTimeout,
    Poison,
    KeyRevoked,
    ClockMoved,
    ServerKilled,
}

const FAULTS: [Fault; 10] = [
    Fault::Status500,
    Fault::Status503,
    Fault::Status429,
    Fault::RateLimit,
    Fault::DropAfterCommit,
    Fault::HeldPastTimeout,
    Fault::Poison,
    Fault::KeyRevoked,
    Fault::ClockMoved,
    Fault::ServerKilled,
];

const WRITE_PATHS: [&str; 3] = ["/v1/scans", "/v1/gift_cards", "/v1/customers"];

fn high_limits() -> Value {
    json!({"rate_limits": {"requests_per_business": 1_000_000, "requests_per_key": 1_000_000,
                           "window_seconds": 60, "writes_per_key": 1_000_000}})
}

struct ServerChild {
    child: Child,
    /// Kept open: the server stops when it closes.
    _stdin: ChildStdin,
}

struct TillChild {
    child: Child,
    stdin: ChildStdin,
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

/// A change to undo later (the poison lifted, the limits raised again).
#[derive(Debug)]
enum Undo {
    Poison {
        armed_at_items: i64,
        queued: i64,
        answered: i64,
        left_queued: i64,
    },
    RateLimit,
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

    async fn start_server(&mut self) -> anyhow::Result<()> {
        let stderr = append(&dir_of(&self.plan, "logs/server.stderr"))?;
        let listen = format!("127.0.0.1:{}", self.port);
        let mut last_err = None;
        for _ in 0..20 {
            let mut child = Command::new(&self.exe)
                .arg("server")
                .arg("--db")
                .arg(dir_of(&self.plan, "server/server.db"))
                .arg("--listen")
                .arg(&listen)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::from(stderr.try_clone()?))
                .kill_on_drop(true)
                .spawn()
                .context("starting the server")?;
            let stdout = child.stdout.take().context("server stdout")?;
            let stdin = child.stdin.take().context("server stdin")?;
            let mut lines = BufReader::new(stdout).lines();
            match tokio::time::timeout(Duration::from_secs(20), lines.next_line()).await {
                Ok(Ok(Some(line))) => {
                    let addr = line
                        .strip_prefix("listening on http://")
                        .context("the server's first line")?;
                    let port: u16 = addr.rsplit(':').next().unwrap_or("0").parse()?;
                    self.port = port;
                    self.server = Some(ServerChild {
                        child,
                        _stdin: stdin,
                    });
                    return Ok(());
                }
                other => {
                    // The port may not be free again yet.
                    last_err = Some(format!("{other:?}"));
                    let _ = child.kill().await;
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
            }
        }
        bail!("the server did not start: {last_err:?}")
    }

    async fn kill_server(&mut self) -> anyhow::Result<()> {
        if let Some(mut server) = self.server.take() {
            server.child.kill().await?;
        }
        Ok(())
    }

    async fn start_till(&mut self) -> anyhow::Result<()> {
        self.till_starts += 1;
        let n = self.till_starts;
        let stderr = File::create(dir_of(&self.plan, &format!("logs/till-{n}.stderr")))?;
        let mut child = Command::new(&self.exe)
            .arg("till")
            .arg("--dir")
            .arg(dir_of(&self.plan, "till"))
            .arg("--workload")
            .arg(dir_of(&self.plan, "workload.json"))
            .arg("--target")
            .arg(self.plan.target_writes.to_string())
            .arg(format!("--clock-offset={}", self.clock_offset))
            .arg(format!("--pace-ms={}", self.plan.pace_ms))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr))
            .kill_on_drop(true)
            .spawn()
            .context("starting the till")?;
        let stdout = child.stdout.take().context("till stdout")?;
        let mut stdin = child.stdin.take().context("till stdin")?;
        // The key goes through the pipe, never an argument, a file or a log.
        stdin
            .write_all(format!("connect {} {}\n", self.root(), self.key()).as_bytes())
            .await?;
        let mut out = File::create(dir_of(&self.plan, &format!("logs/till-{n}.stdout")))?;
        let seen = self.seen.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let _ = writeln!(out, "{line}");
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("step") => {
                        if let (Some(step), Some("item"), Some(item), Some(outcome)) =
                            (words.next(), words.next(), words.next(), words.next())
                            && let (Ok(step), Ok(item)) = (step.parse(), item.parse())
                        {
                            seen.items.store(item, Ordering::Relaxed);
                            seen.step.store(step, Ordering::Relaxed);
                            match outcome {
                                "queued" => &seen.left_queued,
                                "recorded" | "paid" | "done" => &seen.answered,
                                _ => continue,
                            }
                            .fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Some("status") => {
                        if let Some(q) = words
                            .next()
                            .and_then(|w| w.strip_prefix("queued="))
                            .and_then(|q| q.parse().ok())
                        {
                            seen.queued.store(q, Ordering::Relaxed);
                        }
                    }
                    Some("workload") => seen.done.store(true, Ordering::Relaxed),
                    _ => {}
                }
            }
        });
        self.till = Some(TillChild { child, stdin });
        Ok(())
    }

    async fn kill_till(&mut self) -> anyhow::Result<()> {
        if let Some(mut till) = self.till.take() {
            till.child.kill().await?;
            self.kills += 1;
        }
        Ok(())
    }

    async fn tell_till(&mut self, line: String) {
        if let Some(till) = &mut self.till {
            // A till being restarted gets the current key and clock when it starts.
            let _ = till.stdin.write_all(format!("{line}\n").as_bytes()).await;
        }
    }

    async fn arm(&self, body: Value) -> anyhow::Result<()> {
        self.control(reqwest::Method::POST, "/_sandbox/faults", body)
            .await
            .map(|_| ())
    }

    /// One accepted payment whose answer is lost (drop_after_commit), its retries then
    /// held back by `held` answers 503 with Retry-After 1: returns once the server has
    /// recorded it (or after 15 s), so what follows meets a write that may have arrived.
    async fn drop_one_payment(
        &self,
        workload: &Workload,
        held: u64,
    ) -> anyhow::Result<(String, bool)> {
        let (_, path) = self.next_paid_gift_card(workload).await?;
        let before = self.drops_seen()?;
        self.arm(json!({"path": path, "count": 1, "drop_after_commit": true}))
            .await?;
        self.arm(json!({"path": path, "count": held, "status": 503,
                        "code": "service_unavailable"}))
            .await?;
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(15) {
            if self.drops_seen()? > before {
                return Ok((path, true));
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        Ok((path, false))
    }

    /// How many answers the server has dropped after committing, by its own log.
    fn drops_seen(&self) -> anyhow::Result<usize> {
        let log = std::fs::read_to_string(dir_of(&self.plan, "logs/server.stderr"))?;
        Ok(log.matches("dropping the connection after commit").count())
    }

    /// The gift card of a payment the till is about to make (not on the poison card,
    /// and with enough left that it is accepted), and its payments path.
    async fn next_paid_gift_card(&self, workload: &Workload) -> anyhow::Result<(String, String)> {
        let from = usize::try_from(self.seen.step.load(Ordering::Relaxed)).unwrap_or(0) + 3;
        let upcoming = workload
            .steps
            .iter()
            .skip(from)
            .filter_map(|step| match step {
                Step::Pay { gift_card, cents } if *gift_card != workload.poison => {
                    Some((*gift_card, *cents))
                }
                _ => None,
            });
        let mut fallback = None;
        for (index, cents) in upcoming.take(20) {
            let id = &workload.gift_cards[index];
            let answer = self
                .control(
                    reqwest::Method::GET,
                    &format!("/_sandbox/gift_cards/{id}/transactions"),
                    json!({}),
                )
                .await?;
            let balance: f64 = answer["gift_card"]["balance"]
                .as_str()
                .and_then(|b| b.parse().ok())
                .unwrap_or(0.0);
            fallback.get_or_insert_with(|| id.clone());
            // Room for this payment and a few queued before it.
            if (balance * 100.0) as i64 >= cents + 3_000 {
                fallback = Some(id.clone());
                break;
            }
        }
        let id = fallback.unwrap_or_else(|| workload.gift_cards[1].clone());
        let path = format!("/v1/gift_cards/{id}/payments");
        Ok((id, path))
    }

    async fn inject(&mut self, fault: Fault, workload: &Workload) -> anyhow::Result<()> {
        // One fault at a time: lifting the poison disarms every fault, and the real
        // rate limit would hold up the next fault's writes.
        self.undo_due(true).await?;
        let path = WRITE_PATHS[self.rng.random_range(0..WRITE_PATHS.len())];
        let items = self.seen.items.load(Ordering::Relaxed);
        let detail = match fault {
            Fault::Status500 => {
                self.arm(
                    json!({"path": path, "count": 3, "status": 500, "code": "internal_error"}),
                )
                .await?;
                format!("500 internal_error x3 on {path}")
            }
            Fault::Status503 => {
                self.arm(
                    json!({"path": path, "count": 3, "status": 503, "code": "service_unavailable"}),
                )
                .await?;
                format!("503 service_unavailable x3 on {path}")
            }
            Fault::Status429 => {
                self.arm(json!({"path": path, "count": 3, "status": 429, "code": "rate_limited"}))
                    .await?;
                format!("429 rate_limited (Retry-After) x3 on {path}")
            }
            Fault::RateLimit => {
                let limits = json!({"rate_limits": {"writes_per_key": 3, "window_seconds": 2}});
                self.control(
                    reqwest::Method::PATCH,
                    &format!("/_sandbox/businesses/{}", self.business_id),
                    limits,
                )
                .await?;
                self.later(Duration::from_secs(3), Undo::RateLimit);
                "the real rate limit at 3 writes per 2 s for 3 s".into()
            }
            Fault::DropAfterCommit => {
                self.arm(json!({"path": path, "count": 3, "drop_after_commit": true}))
                    .await?;
                format!("drop_after_commit x3 on {path}")
            }
            Fault::HeldPastTimeout => {
                self.arm(json!({"path": path, "count": 2, "delay_ms": 2500}))
                    .await?;
                format!("answers held 2.5 s (time-out 1 s) x2 on {path}")
            }
            Fault::Poison => {
                let gift_card = &workload.gift_cards[workload.poison];
                self.arm(
                    json!({"path": format!("/v1/gift_cards/{gift_card}/payments"),
                                "count": 1_000_000, "status": 500, "code": "internal_error"}),
                )
                .await?;
                self.later(
                    self.plan.poison_hold,
                    Undo::Poison {
                        armed_at_items: items,
                        queued: self.seen.queued.load(Ordering::Relaxed),
                        answered: self.seen.answered.load(Ordering::Relaxed),
                        left_queued: self.seen.left_queued.load(Ordering::Relaxed),
                    },
                );
                format!(
                    "poison: every payment on gift card {gift_card} answers 500 for {:?}",
                    self.plan.poison_hold
                )
            }
            Fault::KeyRevoked => {
                // Writes that reached the server under the old key and whose answer
                // was lost; their retries held back (503, Retry-After 1) until the
                // old key is revoked, so they can only be sent again under the new.
                let (payments, dropped) = self.drop_one_payment(workload, 4).await?;
                let key = self
                    .control(
                        reqwest::Method::POST,
                        "/_sandbox/keys",
                        json!({"business_id": self.business_id, "mode": "live"}),
                    )
                    .await?;
                let old = self.key_ids.last().cloned().unwrap_or_default();
                self.control(
                    reqwest::Method::POST,
                    &format!("/_sandbox/keys/{old}/revoke"),
                    json!({}),
                )
                .await?;
                self.keys
                    .push(key["key"].as_str().context("a key")?.to_owned());
                self.key_ids
                    .push(key["id"].as_str().context("a key id")?.to_owned());
                tokio::time::sleep(Duration::from_millis(800)).await;
                let line = format!("connect {} {}", self.root(), self.key());
                self.tell_till(line).await;
                format!(
                    "drop_after_commit x1 (met: {dropped}) and 503 x4 on {payments}, then key \
                     {old} revoked and key {} connected",
                    self.key_ids.last().map_or("", String::as_str)
                )
            }
            Fault::ClockMoved => {
                // Past the 23-hour rule, back behind the real time, then right again.
                self.clock_offset = match self.clock_moves % 3 {
                    0 => 25 * 3600,
                    1 => -2 * 3600,
                    _ => 0,
                };
                self.clock_moves += 1;
                let offset = self.clock_offset;
                let mut detail = String::new();
                if offset > 0 {
                    // Payments that may have arrived, still being retried when the
                    // clock jumps: the 23-hour rule meets them.
                    let (payments, dropped) = self.drop_one_payment(workload, 3).await?;
                    detail = format!(
                        "drop_after_commit x1 (met: {dropped}) and 503 x3 on {payments}, then "
                    );
                }
                self.tell_till(format!("clock {offset}")).await;
                format!("{detail}the till's clock moved to real time {offset:+} s")
            }
            Fault::ServerKilled => {
                self.kill_server().await?;
                tokio::time::sleep(Duration::from_millis(1500)).await;
                self.start_server().await?;
                "server SIGKILLed, restarted on its database after 1.5 s".into()
            }
        };
        *self.faults.entry(fault).or_default() += 1;
        self.say(format!("fault at item {items}: {detail}"));
        Ok(())
    }

    /// Undoes `undo` after `after`, in its own task.
    fn later(&mut self, after: Duration, undo: Undo) {
        let (http, root, business, seen) = (
            self.http.clone(),
            self.root(),
            self.business_id.clone(),
            self.seen.clone(),
        );
        self.undo.push(tokio::spawn(async move {
            tokio::time::sleep(after).await;
            undo.apply(http, root, business, seen).await
        }));
    }

    /// Says what the finished undos did; with `all`, waits for every one.
    async fn undo_due(&mut self, all: bool) -> anyhow::Result<()> {
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.undo)
            .into_iter()
            .partition(|task| all || task.is_finished());
        self.undo = later;
        for task in due {
            let line = task.await??;
            if line.starts_with("STUCK") {
                self.stuck_behind_poison += 1;
            }
            if line.contains("poison") {
                self.findings.push(line.clone());
            }
            self.say(line);
        }
        Ok(())
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

impl Undo {
    /// Undoes the change (in its own task, so that nothing the driver waits for
    /// delays it) and says what happened.
    async fn apply(
        self,
        http: reqwest::Client,
        root: String,
        business_id: String,
        seen: Arc<Seen>,
    ) -> anyhow::Result<String> {
        Ok(match self {
            Undo::RateLimit => {
                control_at(
                    &http,
                    &root,
                    reqwest::Method::PATCH,
                    &format!("/_sandbox/businesses/{business_id}"),
                    high_limits(),
                )
                .await?;
                "rate limit raised again".into()
            }
            Undo::Poison {
                armed_at_items,
                queued,
                answered,
                left_queued,
            } => {
                // DELETE disarms every fault; the others are spent or nearly.
                control_at(
                    &http,
                    &root,
                    reqwest::Method::DELETE,
                    "/_sandbox/faults",
                    json!({}),
                )
                .await?;
                let items = seen.items.load(Ordering::Relaxed);
                let queued_now = seen.queued.load(Ordering::Relaxed);
                let answered = seen.answered.load(Ordering::Relaxed) - answered;
                let left_queued = seen.left_queued.load(Ordering::Relaxed) - left_queued;
                // (Nearly) every write of the cashier queued while one gift card's
                // payments fail: the poison held the whole queue up.
                let verdict = if left_queued >= 5 && answered * 10 < left_queued {
                    "STUCK BEHIND THE POISON: "
                } else {
                    ""
                };
                format!(
                    "{verdict}poison lifted: while it held, the till made items {armed_at_items}..{items} \
                     ({answered} answered at once, {left_queued} left queued) and its queue \
                     went from {queued} to {queued_now} open items"
                )
            }
        })
    }
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
    let code = match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => {
            run.say(format!("the soak failed: {err:#}"));
            open_items(&mut run).await;
            2
        }
        Err(_) => {
            run.say(format!(
                "the soak passed its deadline of {deadline:?}; stopped"
            ));
            open_items(&mut run).await;
            3
        }
    };
    // Every exit path: the children go (kill_on_drop also covers a panic).
    if let Some(mut till) = run.till.take() {
        let _ = till.child.kill().await;
    }
    let _ = run.kill_server().await;
    run.say(format!("took {:.1} s", started.elapsed().as_secs_f64()));
    Ok(code)
}

async fn setup(run: &mut Run) -> anyhow::Result<Workload> {
    let business = run
        .control(
            reqwest::Method::POST,
            "/_sandbox/businesses",
            json!({"name": "Soak Café", "plan": "enterprise", "customer_limit": 100_000,
                   "pass": {"name": "Points", "loyalty_type": "points", "goal": POINTS_GOAL,
                            "reward_title": "A cake", "locale": "en"}}),
        )
        .await?;
    run.business_id = business["id"].as_str().context("business id")?.to_owned();
    let pass_id = business["pass_id"].as_str().context("pass id")?.to_owned();
    run.control(
        reqwest::Method::PATCH,
        &format!("/_sandbox/businesses/{}", run.business_id),
        high_limits(),
    )
    .await?;
    let visits = run
        .control(
            reqwest::Method::POST,
            "/_sandbox/passes",
            json!({"business_id": run.business_id, "place": "live", "name": "Visits",
                   "loyalty_type": "visits", "goal": 10, "reward_title": "A coffee",
                   "locale": "en"}),
        )
        .await?;
    let visits_pass = visits["id"].as_str().context("visits pass id")?.to_owned();
    let key = run
        .control(
            reqwest::Method::POST,
            "/_sandbox/keys",
            json!({"business_id": run.business_id, "mode": "live"}),
        )
        .await?;
    run.keys
        .push(key["key"].as_str().context("key")?.to_owned());
    run.key_ids
        .push(key["id"].as_str().context("key id")?.to_owned());

    // Enough steps that the target is reached even when the till refuses some itself.
    let steps = (run.plan.target_writes as usize) * 2;
    let shape = workload::generate(
        run.plan.seed,
        steps,
        run.plan.points_cards,
        run.plan.gift_cards,
    );
    let run_tag = format!("{}{}", run.plan.name, jiff::Timestamp::now().as_second());
    let mut n = 0;
    let mut card_on = async |run: &Run, pass: &str, kind: &str| -> anyhow::Result<Card> {
        n += 1;
        let customer = run
            .api_post(
                "/v1/customers",
                json!({"pass_id": pass, "name": format!("{kind} {n}"),
                       "email": format!("setup-{run_tag}-{kind}-{n}@example.com"),
                       "wallet": "apple", "send_welcome": false}),
                n,
            )
            .await?;
        Ok(Card {
            card_id: customer["cards"][0]["id"]
                .as_str()
                .context("card")?
                .to_owned(),
            customer_id: customer["id"].as_str().context("customer")?.to_owned(),
        })
    };
    let mut points_cards = Vec::new();
    for _ in 0..shape.points_cards {
        points_cards.push(card_on(run, &pass_id, "points").await?);
    }
    let mut visit_cards = Vec::new();
    for _ in 0..shape.visit_cards {
        visit_cards.push(card_on(run, &visits_pass, "visits").await?);
    }
    let mut gift_cards = Vec::new();
    for i in 0..shape.gift_cards {
        let card = run
            .api_post(
                "/v1/gift_cards",
                json!({"amount": workload::gift_card_euros(0, i), "currency": "EUR", "locale": "en",
                       "recipient": {"name": format!("Gift {i}"),
                                     "email": format!("gift-{run_tag}-{i}@example.com")}}),
                100_000 + i,
            )
            .await?;
        let id = card["id"].as_str().context("gift card id")?.to_owned();
        run.control(
            reqwest::Method::POST,
            &format!("/_sandbox/gift_cards/{id}/claim"),
            json!({}),
        )
        .await?;
        gift_cards.push(id);
    }
    let workload = Workload {
        run: run_tag,
        pass_id,
        points_cards,
        visit_cards,
        gift_cards,
        poison: 0,
        steps: shape.steps,
    };
    std::fs::write(
        run.plan.dir.join("workload.json"),
        serde_json::to_vec(&workload)?,
    )?;
    let line = format!(
        "setup: {} points cards, {} visits cards, {} gift cards of {GIFT_CARD_EUROS} EUR, {} steps \
         for {} writes",
        workload.points_cards.len(),
        workload.visit_cards.len(),
        workload.gift_cards.len(),
        workload.steps.len(),
        run.plan.target_writes
    );
    run.say(line);
    Ok(workload)
}

async fn soak(run: &mut Run) -> anyhow::Result<i32> {
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
        let all = counter.queue(false, u32::MAX)?;
        for item in decisions {
            let line =
                reconcile::settle(&counter, &server, &workload, &all, item, &mut settled).await?;
            run.say(line);
        }
    }
    let items = counter.queue(false, u32::MAX)?;
    counter.close().await;
    let report = reconcile::check(&server, &workload, &items).await?;
    for line in &report.lines {
        run.say(line);
    }
    let _ = run.kill_server().await;

    let leaks = crate::secrets_scan::scan(&run.plan.dir, &run.keys)?;
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
        || leaks.problems > 0
        || (writes as i64) < target;
    run.say(format!(
        "writes={writes} faults={faults} kills={} lost={} doubled={}",
        run.kills, report.lost, report.doubled
    ));
    Ok(if failed { 1 } else { 0 })
}

/// After a failure or the deadline: which items of the till are still open, and why.
async fn open_items(run: &mut Run) {
    if let Some(mut till) = run.till.take() {
        let _ = till.child.kill().await;
    }
    let opened = Counter::open(
        &dir_of(&run.plan, "till"),
        till::config(),
        Arc::new(OffsetClock::new(0)),
        Arc::new(UuidIds),
    )
    .await;
    match opened.map(|counter| (counter.queue(true, u32::MAX), counter)) {
        Ok((Ok(mut open), counter)) => {
            // Oldest first: the oldest is what holds the others up.
            open.sort_by_key(|i| i.id);
            run.say(format!(
                "{} items are still open, oldest first:",
                open.len()
            ));
            for item in open.iter().take(40) {
                run.say(format!("  {}", reconcile::describe(item)));
            }
            counter.close().await;
        }
        Ok((Err(err), counter)) => {
            run.say(format!("the till's queue could not be read: {err}"));
            counter.close().await;
        }
        Err(err) => run.say(format!("the till could not be opened: {err}")),
    }
}

async fn connect(run: &mut Run, counter: &Counter) -> anyhow::Result<()> {
    for _ in 0..40 {
        match counter.connect(&run.root(), run.key()).await {
            Ok(_) => return Ok(()),
            Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
    bail!("the final till could not connect")
}

/// Waits for the queue to empty; when it stops moving, says which items are stuck
/// and why.
async fn drain(run: &mut Run, counter: &Counter) -> anyhow::Result<bool> {
    let started = Instant::now();
    let mut last = u32::MAX;
    let mut moved = Instant::now();
    let mut told = false;
    loop {
        let counts = counter.counts()?;
        if counts.queued == 0 {
            return Ok(true);
        }
        if counts.queued < last {
            (last, moved) = (counts.queued, Instant::now());
        }
        if !told && moved.elapsed() > run.plan.stall {
            told = true;
            let mut stuck = counter.queue(true, u32::MAX)?;
            stuck.sort_by_key(|i| i.id);
            run.say(format!(
                "STUCK: {} open items have not moved for {:?} (connectivity {:?}, clock skew {:?}):",
                counts.queued,
                run.plan.stall,
                counter.connectivity(),
                counter.clock_skew()
            ));
            for item in stuck.iter().filter(|i| i.state.is_open()).take(40) {
                run.say(format!("  {}", reconcile::describe(item)));
            }
        }
        if started.elapsed() > run.plan.drain_deadline {
            return Ok(false);
        }
        counter.send_now();
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
