//! The till role: one `Counter` making the workload's writes through its public API,
//! as a cashier would, until the outbox holds `target` items; then it lets the
//! sender drain until it is killed.
//!
//! Where it stands survives a SIGKILL: `soak-progress.json` holds the next step and
//! the newest item after the last step. A newer item found at start means the step
//! in progress was stored (its enqueue committed), so it is not made again; no newer
//! item means the cashier's write never became durable, and the step is made again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use anyhow::Context;
use counter_core::payment::OfflinePaymentPolicy;
use counter_core::secrets::SecretsConfig;
use counter_core::{
    Clock, Config, Counter, EnrolOutcome, Enrolment, Error, PaymentOutcome, ScanOutcome, UuidIds,
};
use jiff::{SignedDuration, Timestamp};
use loyalty_api::{CardId, GiftCardId, Jitter, PassId, RetryPolicy, ScanAction};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncBufReadExt;

use crate::workload::{STAFF, Staff, Step, Workload, enrol_email, payment_reference, staff_of};

#[derive(Debug, clap::Args)]
pub struct TillArgs {
    /// The till's data directory.
    #[arg(long)]
    dir: PathBuf,
    /// The workload file.
    #[arg(long)]
    workload: PathBuf,
    /// Stop making writes once the outbox holds this many items.
    #[arg(long)]
    target: i64,
    /// The till's clock, in seconds ahead of the real time (negative: behind).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    clock_offset: i64,
    /// The cashier's pace: on average this many milliseconds between two steps.
    #[arg(long, default_value_t = 0)]
    pace_ms: u64,
}

/// The real time moved by an offset the driver sets: a till whose clock is wrong.
#[derive(Debug, Default)]
pub struct OffsetClock(AtomicI64);

impl OffsetClock {
    pub fn new(offset_secs: i64) -> Self {
        Self(AtomicI64::new(offset_secs))
    }

    fn set(&self, offset_secs: i64) {
        self.0.store(offset_secs, Ordering::Relaxed);
    }
}

impl Clock for OffsetClock {
    fn now(&self) -> Timestamp {
        let now = Timestamp::now();
        now.checked_add(SignedDuration::from_secs(self.0.load(Ordering::Relaxed)))
            .unwrap_or(now)
    }
}

/// Short waits, so that faults cost seconds: a held answer (2.5 s) outlasts the
/// one-second request time-out.
pub fn config() -> Config {
    Config {
        retry: RetryPolicy {
            max_attempts: u32::MAX,
            initial_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
            jitter: Jitter::Equal,
        },
        request_timeout: Duration::from_secs(1),
        connect_timeout: Duration::from_millis(500),
        probe_offline: Duration::from_millis(250),
        probe_online: Duration::from_secs(2),
        interactive_wait: Duration::from_secs(2),
        secrets: SecretsConfig::FileOnly,
        ..Config::default()
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Progress {
    next_step: usize,
    last_item: i64,
}

fn load_progress(path: &Path) -> anyhow::Result<Progress> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Progress::default()),
        Err(e) => Err(e.into()),
    }
}

fn save_progress(path: &Path, progress: &Progress) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, serde_json::to_vec(progress)?)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

fn newest_item(counter: &Counter) -> anyhow::Result<i64> {
    Ok(counter.queue(false, 1)?.first().map_or(0, |i| i.id.0))
}

pub async fn run(args: TillArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::new(
            "info,counter_core=debug,loyalty_api=debug",
        ))
        .init();
    let workload: Workload =
        serde_json::from_slice(&std::fs::read(&args.workload).context("reading the workload")?)?;
    let clock = Arc::new(OffsetClock::new(args.clock_offset));
    let counter = Arc::new(
        Counter::open(&args.dir, config(), clock.clone(), Arc::new(UuidIds))
            .await
            .context("opening the till")?,
    );
    let mut settings = counter.settings()?;
    settings.offline_payments = OfflinePaymentPolicy {
        allowed: true,
        ..OfflinePaymentPolicy::default()
    };
    counter.save_settings(&settings)?;
    // The till's owner signs in first and puts the team on the roster (once).
    crate::reconcile::as_manager(&counter)?;
    let roster = counter.roster()?;
    for staff in &STAFF[1..] {
        if !roster.iter().any(|p| p.name == staff.name) {
            counter.add_person(staff.name, staff.role, staff.pin)?;
        }
    }

    // One person at the till at a time: a step (its person signs in, makes the write)
    // and the owner's visit to connect a new key never interleave, so each write names
    // the person whose turn it was.
    let hands = Arc::new(tokio::sync::Mutex::new(()));
    tokio::spawn(commands(counter.clone(), clock, hands.clone()));
    tokio::spawn(report_status(counter.clone()));

    let progress_path = args.dir.join("soak-progress.json");
    let mut progress = load_progress(&progress_path)?;
    let newest = newest_item(&counter)?;
    if newest > progress.last_item {
        // Killed after the step's write was stored, before its progress was.
        println!(
            "resume: step {} was stored as item {newest}",
            progress.next_step
        );
        progress = Progress {
            next_step: progress.next_step + 1,
            last_item: newest,
        };
        save_progress(&progress_path, &progress)?;
    }
    while progress.next_step < workload.steps.len() && progress.last_item < args.target {
        let index = progress.next_step;
        if args.pace_ms > 0 {
            let wait = rand::random_range(0..=2 * args.pace_ms);
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
        let outcome = {
            let _at_the_till = hands.lock().await;
            make_step(&counter, &workload, index).await
        };
        let newest = newest_item(&counter)?;
        progress = Progress {
            next_step: index + 1,
            last_item: newest,
        };
        save_progress(&progress_path, &progress)?;
        println!("step {index} item {newest} {outcome}");
    }
    println!("workload done items={}", progress.last_item);
    loop {
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
}

/// Makes one step; a call the till could not make at all (not connected, the card
/// not readable) is tried again a few times, as a cashier would.
async fn make_step(counter: &Counter, workload: &Workload, index: usize) -> String {
    let mut tries = 0;
    loop {
        tries += 1;
        match try_step(counter, workload, index).await {
            Ok(outcome) => return outcome,
            Err(err @ (Error::Amount(_) | Error::OfflinePolicy(_))) => {
                return format!("refused-by-till: {err}");
            }
            Err(err) if tries >= 4 => return format!("not-made: {err}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(300)).await,
        }
    }
}

async fn try_step(counter: &Counter, workload: &Workload, index: usize) -> Result<String, Error> {
    // The step's person at the till, switched in by name and PIN when it is another's
    // turn; each step is a touch, which keeps the till from locking itself.
    take_turn(counter, staff_of(index))?;
    counter.still_here()?;
    let card = |c: usize, list: &[crate::workload::Card]| CardId::new(list[c].card_id.clone());
    Ok(match &workload.steps[index] {
        Step::Visit { card: c } => scan_outcome(
            counter
                .record_scan(card(*c, &workload.visit_cards), ScanAction::Visit, None)
                .await?,
        ),
        Step::Points { card: c, amount } => scan_outcome(
            counter
                .record_scan(
                    card(*c, &workload.points_cards),
                    ScanAction::Points,
                    Some(Decimal::from(*amount)),
                )
                .await?,
        ),
        Step::Redeem { card: c } => scan_outcome(
            counter
                .record_scan(card(*c, &workload.points_cards), ScanAction::Redeem, None)
                .await?,
        ),
        Step::Pay { gift_card, cents } => {
            let amount = format!("{}.{:02}", cents / 100, cents % 100);
            let outcome = counter
                .take_payment(
                    GiftCardId::new(workload.gift_cards[*gift_card].clone()),
                    &amount,
                    Some(payment_reference(&workload.run, index)),
                )
                .await?;
            match outcome {
                PaymentOutcome::Done { .. } => "paid".into(),
                PaymentOutcome::Queued { .. } => "queued".into(),
                PaymentOutcome::Known { .. } => "refused:insufficient_balance".into(),
                PaymentOutcome::Refused { refusal, .. } => format!("refused:{}", refusal.code),
                PaymentOutcome::NeedsDecision { .. } => "needs_decision".into(),
            }
        }
        Step::Enrol { n } => {
            let outcome = counter
                .enrol(Enrolment {
                    pass_id: Some(PassId::new(workload.pass_id.clone())),
                    name: format!("Soak {n}"),
                    email: enrol_email(&workload.run, *n),
                    wallet: "apple".into(),
                    send_welcome: false,
                })
                .await?;
            match outcome {
                EnrolOutcome::Done { .. } => "done".into(),
                EnrolOutcome::Queued { .. } => "queued".into(),
                EnrolOutcome::Known { .. } => "refused:customer_exists".into(),
                EnrolOutcome::Refused { refusal, .. } => format!("refused:{}", refusal.code),
                EnrolOutcome::NeedsDecision { .. } => "needs_decision".into(),
            }
        }
    })
}

/// Signs `staff` in, unless they are the one signed in.
fn take_turn(counter: &Counter, staff: Staff) -> Result<(), Error> {
    if counter.seat()?.person.is_some_and(|p| p.name == staff.name) {
        return Ok(());
    }
    let person = counter
        .people()?
        .into_iter()
        .find(|p| p.name == staff.name)
        .expect("the staff is on the roster");
    counter.sign_in(&counter_core::Credential::Pin {
        person: person.id,
        pin: staff.pin.to_owned(),
    })?;
    Ok(())
}

fn scan_outcome(outcome: ScanOutcome) -> String {
    match outcome {
        ScanOutcome::Done { .. } => "recorded".into(),
        ScanOutcome::Queued { .. } => "queued".into(),
        // The cashier says it was not a new visit: nothing more is done.
        ScanOutcome::Known { .. } => "refused:recent_visit".into(),
        ScanOutcome::Refused { refusal, .. } => format!("refused:{}", refusal.code),
        ScanOutcome::NeedsDecision { .. } => "needs_decision".into(),
    }
}

/// Standard input: `connect URL KEY` (connects, trying again until the service
/// accepts or another key comes), `clock SECONDS`. Its end stops the till.
async fn commands(
    counter: Arc<Counter>,
    clock: Arc<OffsetClock>,
    hands: Arc<tokio::sync::Mutex<()>>,
) {
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    let mut connecting: Option<tokio::task::JoinHandle<()>> = None;
    while let Ok(Some(line)) = lines.next_line().await {
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("connect"), Some(url), Some(key)) => {
                if let Some(task) = connecting.take() {
                    task.abort();
                }
                let (counter, url, key) = (counter.clone(), url.to_owned(), key.to_owned());
                let hands = hands.clone();
                connecting = Some(tokio::spawn(async move {
                    let mut failures = 0;
                    loop {
                        let connected = {
                            let _at_the_till = hands.lock().await;
                            // Replacing a kept key is the manager's: their PIN first.
                            if let Err(err) = crate::reconcile::as_manager(&counter) {
                                println!("the manager's PIN failed: {err}");
                            }
                            counter.connect(&url, &key).await
                        };
                        match connected {
                            Ok(_) => {
                                println!("connected after {failures} failures");
                                return;
                            }
                            Err(err) => {
                                failures += 1;
                                if failures % 10 == 1 {
                                    println!("connect failed: {err}");
                                }
                                tokio::time::sleep(Duration::from_millis(250)).await;
                            }
                        }
                    }
                }));
            }
            (Some("clock"), Some(secs), None) => match secs.parse() {
                Ok(secs) => {
                    clock.set(secs);
                    println!("clock offset {secs}s");
                }
                Err(_) => println!("bad clock command"),
            },
            _ => println!("unknown command"),
        }
    }
    std::process::exit(0);
}

async fn report_status(counter: Arc<Counter>) {
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if let Ok(counts) = counter.counts() {
            println!(
                "status queued={} needs_decision={} connectivity={:?}",
                counts.queued,
                counts.needs_decision,
                counter.connectivity()
            );
        }
    }
}
