//! `make measure`: what a user feels, from the release build, beside a bare Tauri 2
//! window built from the same Cargo profile in the same run (`tests/bare-window`).
//!
//! - start-up: from spawning the process to its first screen painted (the app logs
//!   "first screen on display" on the frame after it drew the counter; the bare window
//!   says "first paint" at the same moment of its own page), median of five runs,
//!   the two interleaved; and the same over the starts WebKit did not stall for half a
//!   second (`unstalled`), with more runs (at most 25) until each side has eleven, for
//!   a median steadier than five starts give; and of those, the part before the page
//!   began to load and the page's own part (each subject's `page_millis`);
//! - idle memory: PSS summed over the process tree (the app and its WebKit processes),
//!   five seconds after that, median of the same five runs (the runs after them end
//!   each start at its ready line: whether the start before idled does not change the
//!   next one's time, as interleaved runs of both ways showed);
//! - sizes: the release binaries and the `.deb` packages;
//! - Enter → card on screen and F1 → visit on screen: p50 and p99 over 200 scans of
//!   different cards in the real window (WebDriver types them), timed inside the page
//!   from the key event to the DOM change that shows the answer (a capture listener and
//!   a MutationObserver this program installs), against the demo's local server.
//!   WebKit rounds `performance.now()` to whole milliseconds: so are these figures.
//! - the customer's screen after the counter: over 100 cards opened at the counter
//!   (`--customer-display`), how far apart the counter's window and the customer's
//!   show the customer's name (the DOM change in each, on the clock both processes
//!   share), p50 and p99 of the gap's size. `measure customer` measures this alone.
//!
//! - the camera: frame → card on screen. At the counter, `--camera FOLDER` (a folder of
//!   images played as a camera), the Camera button pressed for each of 100 cards whose
//!   frames (a phone held as `make bench`'s are, each symbology in turn) the program
//!   has put in the folder; from the frame's arrival in the app (the app logs it, on
//!   the wall clock, when it reads a code) to the DOM change that shows the card (on
//!   the same clock), p50 and p99. `measure camera` measures this alone; `make bench`
//!   runs it on the debug build of the shell (the camera's crates are optimised in
//!   every build).
//!
//! `measure start-up` measures start-up, memory and sizes only.
//!
//! Run by `make measure` (under Xvfb, after `make bundle`), which names the binaries:
//! `LOYALTY_COUNTER_APP` (the app) and `BARE_WINDOW_APP` (the bare window).

#[path = "../tests/e2e/support/mod.rs"]
mod support;

use std::io::{BufRead as _, BufReader};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use camera_frames::{Scene, Symbology, WALLET_SYMBOLOGIES};
use loyalty_counter_e2e::{App, end_process_group, with_app_environment, workspace_root};
use serde_json::{Value, json};
use support::{Server, shown};
use thirtyfour::prelude::*;

const RUNS: usize = 5;
/// Starts without WebKit's stall, of each side, for the line that compares like with like.
const UNSTALLED_RUNS: usize = 11;
/// Runs in all, at most, while either side has fewer than `UNSTALLED_RUNS` of those.
const MAX_RUNS: usize = 25;
const SCANS: usize = 200;
/// Cards opened for the customer's screen's figure.
const FOLLOWED: usize = 100;
/// Scans before the measured ones (the page's first calls compile its code paths).
const WARM_UP: usize = 5;
const IDLE: Duration = Duration::from_secs(5);

/// One program to start and the line that says it is ready.
struct Subject {
    name: &'static str,
    binary: PathBuf,
    args: &'static [&'static str],
    ready: &'static str,
}

/// What one start of a subject gave.
struct Start {
    ready: Duration,
    /// Of `ready`, the part since the page began to load (as the subject says).
    page: Duration,
    /// Measured after `IDLE` in the first `RUNS` runs only.
    pss_kib: Option<u64>,
}

#[tokio::main]
async fn main() -> Result<()> {
    if std::env::args().any(|a| a == "camera") {
        let lags = camera_to_card().await?;
        println!(
            "camera: frame → card on screen: {}  p99 ≤ 150 ms",
            spread(&lags)
        );
        return Ok(());
    }
    if std::env::args().any(|a| a == "sign-in") {
        let (pin, badge) = sign_ins().await?;
        println!("sign-in, PIN's OK → counter ready: {}", spread(&pin));
        println!("sign-in, badge's Enter → counter ready: {}", spread(&badge));
        return Ok(());
    }
    if std::env::args().any(|a| a == "customer") {
        let lags = customer_follows().await?;
        println!("customer's screen after the counter: {}", spread(&lags));
        return Ok(());
    }
    let out = workspace_root().join("target/measure");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out)?;
    // The harness starts `LOYALTY_COUNTER_APP` for the latencies: the same binary.
    let binary = |variable: &str| -> Result<PathBuf> {
        let path = std::env::var_os(variable)
            .map(PathBuf::from)
            .with_context(|| format!("{variable} is not set: run `make measure`"))?;
        path.canonicalize()
            .with_context(|| format!("{} is missing: run `make bundle`", path.display()))
    };
    let app = Subject {
        name: "app",
        binary: binary("LOYALTY_COUNTER_APP")?,
        args: &["--demo"],
        ready: "first screen on display screen=Counter",
    };
    let bare = Subject {
        name: "bare",
        binary: binary("BARE_WINDOW_APP")?,
        args: &[],
        ready: "bare window: first paint",
    };

    // A till's every morning: the demo's data exists (the first run made it).
    let first = start(&app, &out.join("home-app"), true)?;
    start(&bare, &out.join("home-bare"), true)?;
    eprintln!(
        "first start of the app (creates the demo): {} ms",
        first.ready.as_millis()
    );
    let (mut app_starts, mut bare_starts) = (Vec::new(), Vec::new());
    // Five runs, then more (at most MAX_RUNS) until each side has UNSTALLED_RUNS starts
    // that WebKit did not stall, for the line that compares like with like (see
    // `unstalled`).
    for run in 1..=MAX_RUNS {
        if run > RUNS
            && unstalled(&app_starts).len() >= UNSTALLED_RUNS
            && unstalled(&bare_starts).len() >= UNSTALLED_RUNS
        {
            break;
        }
        let idle = run <= RUNS;
        let b = start(&bare, &out.join("home-bare"), idle)?;
        let a = start(&app, &out.join("home-app"), idle)?;
        let mb = |s: &Start| {
            s.pss_kib.map_or(String::new(), |kib| {
                format!(" {:.0} MB", kib as f64 / 1024.0)
            })
        };
        eprintln!(
            "start-up run {run}: app {:.0} ms{}, bare {:.0} ms{}",
            ms(a.ready),
            mb(&a),
            ms(b.ready),
            mb(&b)
        );
        bare_starts.push(b);
        app_starts.push(a);
    }

    // `measure start-up` stops here (the latencies take a few minutes more).
    let (enter, f1, follows, camera, (pin, badge)) = if std::env::args().any(|a| a == "start-up") {
        Default::default()
    } else {
        let (enter, f1) = latencies().await?;
        (
            enter,
            f1,
            customer_follows().await?,
            camera_to_card().await?,
            sign_ins().await?,
        )
    };

    // The issue's figures: the first five runs.
    let median_ms = |starts: &[Start]| median_of(&starts[..RUNS], |s| ms(s.ready));
    let median_mb = |starts: &[Start]| {
        median(
            starts[..RUNS]
                .iter()
                .map(|s| s.pss_kib.expect("the first RUNS runs measure memory") as f64 / 1024.0)
                .collect(),
        )
    };
    let size_mb = |path: &Path| -> Result<f64> {
        Ok(std::fs::metadata(path)
            .with_context(|| format!("{} is missing: run `make bundle`", path.display()))?
            .len() as f64
            / 1_048_576.0)
    };
    let deb = |name: &str| -> Result<PathBuf> {
        let dir = workspace_root().join("target/release/bundle/deb");
        std::fs::read_dir(&dir)
            .with_context(|| format!("{}: run `make bundle`", dir.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .find(|path| {
                path.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(name) && n.ends_with(".deb"))
            })
            .with_context(|| format!("no {name} .deb in {}", dir.display()))
    };

    let mut report = String::new();
    let mut line = |text: String| {
        println!("{text}");
        report.push_str(&text);
        report.push('\n');
    };
    line(format!(
        "{:<38} {:>10} {:>10} {:>7}  goal",
        "figure", "app", "bare", "ratio"
    ));
    let mut compare = |figure: &str, unit: &str, ours: f64, theirs: f64, goal: &str| {
        line(format!(
            "{figure:<38} {:>10} {:>10} {:>6.2}×  {goal}",
            format!("{ours:.1} {unit}"),
            format!("{theirs:.1} {unit}"),
            ours / theirs
        ));
    };
    compare(
        "start-up to first screen (median of 5)",
        "ms",
        median_ms(&app_starts),
        median_ms(&bare_starts),
        "≤ 1.10×",
    );
    let (app_unstalled, bare_unstalled) = (unstalled(&app_starts), unstalled(&bare_starts));
    compare(
        &format!(
            "  without WebKit's stall ({}/{}, {}/{})",
            app_unstalled.len(),
            app_starts.len(),
            bare_unstalled.len(),
            bare_starts.len()
        ),
        "ms",
        median_of(app_unstalled.iter().copied(), |s| ms(s.ready)),
        median_of(bare_unstalled.iter().copied(), |s| ms(s.ready)),
        "",
    );
    // Where the time goes: before the page began to load (the process, the window,
    // WebKit's processes) and the page's own part, over the starts without the stall.
    let before_page = |s: &Start| ms(s.ready - s.page);
    compare(
        "    before the page",
        "ms",
        median_of(app_unstalled.iter().copied(), before_page),
        median_of(bare_unstalled.iter().copied(), before_page),
        "",
    );
    compare(
        "    the page",
        "ms",
        median_of(app_unstalled.iter().copied(), |s| ms(s.page)),
        median_of(bare_unstalled.iter().copied(), |s| ms(s.page)),
        "",
    );
    compare(
        "idle memory, PSS (median of 5)",
        "MB",
        median_mb(&app_starts),
        median_mb(&bare_starts),
        "≤ 1.15×",
    );
    compare(
        "release binary",
        "MB",
        size_mb(&app.binary)?,
        size_mb(&bare.binary)?,
        "≤ 2×",
    );
    compare(
        ".deb",
        "MB",
        size_mb(&deb("loyalty-counter_")?)?,
        size_mb(&deb("Bare Window")?)?,
        "≤ 2×",
    );
    let mut latency = |figure: &str, samples: Vec<f64>, goal: &str| {
        if !samples.is_empty() {
            line(format!("{figure:<38} {}  {goal}", spread(&samples)));
        }
    };
    latency("Enter → card on screen", enter, "p99 ≤ 10 ms");
    latency("F1 → visit on screen", f1, "p99 ≤ 25 ms, max ≤ 50 ms");
    latency(
        "customer's screen after the counter",
        follows,
        "|lag| p99 ≤ 17 ms (a frame)",
    );
    latency("camera: frame → card on screen", camera, "p99 ≤ 150 ms");
    latency("sign-in: PIN's OK → counter ready", pin, "p95 ≤ 1500 ms");
    latency(
        "sign-in: badge's Enter → counter ready",
        badge,
        "p95 ≤ 300 ms",
    );
    std::fs::write(out.join("report.txt"), report)?;
    Ok(())
}

/// Starts `subject` with its home in `home`, waits for its ready line and, if `idle`, lets
/// it idle and sums the PSS of its process tree; then ends it.
fn start(subject: &Subject, home: &Path, idle: bool) -> Result<Start> {
    std::fs::create_dir_all(home)?;
    let mut command = Command::new(&subject.binary);
    // The end-to-end tests' environment (its own home; WebKit as suits Xvfb), for both.
    with_app_environment(&mut command, home)
        .args(subject.args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    let began = Instant::now();
    let mut child = command
        .spawn()
        .with_context(|| format!("{} did not start", subject.binary.display()))?;
    let outcome = wait_ready(subject, &mut child, began).and_then(|(ready, page)| {
        let pss_kib = if idle {
            std::thread::sleep(IDLE);
            Some(tree_pss_kib(child.id())?)
        } else {
            None
        };
        Ok(Start {
            ready,
            page,
            pss_kib,
        })
    });
    let group = child.id();
    end_process_group(&mut child);
    // The next start must not share the two cores with this one's WebKit processes
    // winding down: wait until every process of its group has gone (one started after
    // the ready line too), then a little more.
    let deadline = Instant::now() + Duration::from_secs(10);
    while group_alive(group) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_secs(1));
    outcome
}

/// How long the subject took to say it is ready, and the part of it since its page began
/// to load (its line's `page_millis`).
fn wait_ready(
    subject: &Subject,
    child: &mut Child,
    began: Instant,
) -> Result<(Duration, Duration)> {
    let stderr = child.stderr.take().context("stderr")?;
    let (tx, rx) = mpsc::channel();
    let ready = subject.ready;
    // The reader keeps draining standard error after the ready line, so the pipe never
    // fills while the subject idles.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains(ready) {
                let _ = tx.send((began.elapsed(), page_millis(&line)));
            }
        }
    });
    let (elapsed, page) = rx.recv_timeout(Duration::from_secs(60)).with_context(|| {
        format!(
            "{} did not say {:?} within 60 s",
            subject.name, subject.ready
        )
    })?;
    let page = page.with_context(|| {
        format!(
            "{} said {:?} without its page_millis: build it again",
            subject.name, subject.ready
        )
    })?;
    Ok((elapsed, page))
}

/// `page_millis=N` in a ready line: the digits after it.
fn page_millis(line: &str) -> Option<Duration> {
    let after = &line[line.find("page_millis=")? + "page_millis=".len()..];
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    Some(Duration::from_millis(digits.parse().ok()?))
}

/// Whether any process is still in process group `group`.
fn group_alive(group: u32) -> bool {
    processes().iter().any(|p| p.group == group)
}

/// The PSS of `root` and every process under it, from `/proc`.
fn tree_pss_kib(root: u32) -> Result<u64> {
    let mut total = 0;
    for pid in process_tree(root) {
        let Ok(rollup) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) else {
            continue;
        };
        total += rollup
            .lines()
            .find_map(|l| l.strip_prefix("Pss:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0);
    }
    ensure!(total > 0, "no memory figures for process {root}");
    Ok(total)
}

/// A process as `/proc/<pid>/stat` gives it: its id, its parent's and its group's.
struct Process {
    pid: u32,
    parent: u32,
    group: u32,
}

/// Every process, from `/proc`.
fn processes() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // The command name is in parentheses and may hold spaces: the fields follow
            // the last ')', state first, then the parent, then the group.
            let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(1);
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some(Process { pid, parent, group })
        })
        .collect()
}

/// `root` and every process under it.
fn process_tree(root: u32) -> Vec<u32> {
    let all = processes();
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(all.iter().filter(|p| p.parent == parent).map(|p| p.pid));
        i += 1;
    }
    tree
}

/// Installed once: the time of the armed key's event (capture phase, before the app's
/// own handlers), and of the first DOM change after it that passes the armed check.
const WATCH: &str = r#"
const m = (window.__measure = { armed: null });
window.addEventListener('keydown', (e) => {
  const a = m.armed;
  if (a && a.t0 === null && e.key === a.key) a.t0 = performance.now();
}, true);
new MutationObserver(() => {
  const a = m.armed;
  if (a && a.t0 !== null && a.took === null && a.check()) a.took = performance.now() - a.t0;
}).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
"#;

/// Arms the watch for Enter (the card `arguments[1]` on screen with its figures) or F1
/// (its visits shown as `arguments[1]` with the answer "recorded").
const ARM: &str = r#"
const [key, expected] = arguments;
const text = (id) => document.getElementById(id)?.textContent.trim();
const check = key === 'Enter'
  ? () => text('card-id') === expected && document.getElementById('visits') !== null
  : () => text('visits') === expected && document.querySelector('#result.ok') !== null;
window.__measure.armed = { key, t0: null, took: null, check };
"#;

const TOOK: &str = "return window.__measure.armed.took;";

/// Enter → card and F1 → visit, in milliseconds, over the measured scans.
async fn latencies() -> Result<(Vec<f64>, Vec<f64>)> {
    let app = App::launch_with("measure-latency", &["--demo"]).await?;
    let mut figures = None;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        let cards = enrol(&server, WARM_UP + SCANS).await?;
        driver.execute(WATCH, vec![]).await?;
        let (mut enter, mut f1) = (Vec::new(), Vec::new());
        for (n, (_, card)) in cards.iter().enumerate() {
            let scan = format!("{card}{}", char::from(Key::Enter));
            let to_card = timed(driver, "Enter", card, &scan).await?;
            let to_visit = timed(driver, "F1", "1", &char::from(Key::F1).to_string()).await?;
            if n >= WARM_UP {
                enter.push(to_card);
                f1.push(to_visit);
            }
        }
        // The server's own records: every card got exactly one visit.
        for (customer, card) in &cards {
            let visits = server.card(customer, card).await?["visits"].as_i64();
            ensure!(
                visits == Some(1),
                "card {card} has {visits:?} visits on the server"
            );
        }
        figures = Some((enter, f1));
        Ok(())
    }
    .await;
    app.finish(outcome).await?;
    figures.context("no latency figures")
}

/// Arms the watch, types `keys` into the focused field, and waits for the page's figure.
async fn timed(driver: &WebDriver, key: &str, expected: &str, keys: &str) -> Result<f64> {
    driver
        .execute(ARM, vec![json!(key), json!(expected)])
        .await?;
    driver.active_element().await?.send_keys(keys).await?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(took) = driver.execute(TOOK, vec![]).await?.json().as_f64() {
            return Ok(took);
        }
        if Instant::now() > deadline {
            bail!("{key} for {expected}: nothing on screen after 10 s");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Switches measured each way.
const SWITCHES: usize = 40;

/// Installed in the page: from the trigger (a click on the PIN pad's OK, or the Enter
/// key that ends a badge's scan) to the first DOM change after which the lock screen
/// has gone, the counter's scan field is there and the header names the person.
const SIGN_IN_WATCH: &str = r#"
const [trigger, expected] = arguments;
const m = window.__signIn ?? (window.__signIn = { installed: false });
Object.assign(m, { trigger, expected, t0: null, took: null });
if (!m.installed) {
  m.installed = true;
  document.addEventListener('click', (e) => {
    if (m.trigger === 'ok' && m.t0 === null && e.target.closest?.('#pin-ok')) m.t0 = performance.now();
  }, true);
  window.addEventListener('keydown', (e) => {
    if (m.trigger === 'enter' && m.t0 === null && e.key === 'Enter') m.t0 = performance.now();
  }, true);
  new MutationObserver(() => {
    if (m.t0 === null || m.took !== null) return;
    const name = (document.getElementById('signed-in-name')?.textContent ?? '').trim();
    if (!document.getElementById('lock-screen') && document.getElementById('scan') && name === m.expected)
      m.took = performance.now() - m.t0;
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}
"#;

/// The figure of the sign-in armed last, once the counter is ready.
async fn signed_in_after(driver: &WebDriver, who: &str) -> Result<f64> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let took = driver
            .execute("return window.__signIn.took;", vec![])
            .await?;
        if let Some(took) = took.json().as_f64() {
            return Ok(took);
        }
        if Instant::now() > deadline {
            bail!("{who} was not signed in after 10 s");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Switching person at the lock screen, in the real window: by name and PIN (from the
/// pad's OK, Argon2id included) and by badge (from the scan's Enter), to the counter
/// ready for the new person; the owner and the cashier in turn.
async fn sign_ins() -> Result<(Vec<f64>, Vec<f64>)> {
    use loyalty_counter_e2e::{CASHIER, CASHIER_ID, CASHIER_PIN, OWNER_PIN};
    let app = App::launch_with("measure-sign-in", &["--demo"]).await?;
    let mut figures = None;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let people = [(1, "Owner", OWNER_PIN), (CASHIER_ID, CASHIER, CASHIER_PIN)];
        let lock = async || -> Result<()> {
            driver.find(By::Id("lock-button")).await?.click().await?;
            shown(driver, By::Id("lock-screen"), Duration::from_secs(10)).await?;
            Ok(())
        };
        let mut pins = Vec::new();
        for n in 0..WARM_UP + SWITCHES {
            let (id, name, pin) = people[n % 2];
            lock().await?;
            shown(
                driver,
                By::Id(format!("lock-person-{id}")),
                Duration::from_secs(10),
            )
            .await?
            .click()
            .await?;
            shown(driver, By::Id("pin-pad"), Duration::from_secs(10)).await?;
            for digit in pin.chars() {
                driver
                    .find(By::Id(format!("pin-key-{digit}")))
                    .await?
                    .click()
                    .await?;
            }
            driver
                .execute(SIGN_IN_WATCH, vec![json!("ok"), json!(name)])
                .await?;
            driver.find(By::Id("pin-ok")).await?.click().await?;
            let took = signed_in_after(driver, name).await?;
            if n >= WARM_UP {
                pins.push(took);
            }
        }
        // The owner (signed in last) makes each person a badge.
        let mut badges = Vec::new();
        for (id, _, _) in people {
            let code = support::invoke(driver, "make_badge", json!({ "person": id })).await?;
            badges.push(code["code"].as_str().context("a badge's code")?.to_owned());
        }
        let mut scans = Vec::new();
        for n in 0..WARM_UP + SWITCHES {
            let (_, name, _) = people[n % 2];
            lock().await?;
            driver
                .execute(SIGN_IN_WATCH, vec![json!("enter"), json!(name)])
                .await?;
            driver
                .find(By::Tag("body"))
                .await?
                .send_keys(format!("{}{}", badges[n % 2], char::from(Key::Enter)))
                .await?;
            let took = signed_in_after(driver, name).await?;
            if n >= WARM_UP {
                scans.push(took);
            }
        }
        figures = Some((pins, scans));
        Ok(())
    }
    .await;
    app.finish(outcome).await?;
    figures.context("no sign-in figures")
}

/// Installed in each window: the moment (epoch milliseconds, the clock both windows'
/// processes share) the first DOM change shows the armed card: its id on the counter,
/// its customer's name on the customer's screen.
const FOLLOW: &str = r#"
const f = (window.__follow = { check: null, at: null });
new MutationObserver(() => {
  if (f.check && f.at === null && f.check()) f.at = performance.timeOrigin + performance.now();
}).observe(document.body, { subtree: true, childList: true, characterData: true });
"#;

const FOLLOW_ARM: &str = r#"
const [id, expected] = arguments;
window.__follow.at = null;
window.__follow.check = () => (document.getElementById(id)?.textContent ?? '').trim() === expected;
"#;

const FOLLOW_AT: &str = "return window.__follow.at;";

async fn follow_at(driver: &WebDriver, what: &str) -> Result<f64> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(at) = driver.execute(FOLLOW_AT, vec![]).await?.json().as_f64() {
            return Ok(at);
        }
        if Instant::now() > deadline {
            bail!("{what}: nothing on screen after 10 s");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// How long after the counter shows a card the customer's screen shows it, in
/// milliseconds (negative: before), over the measured scans, each of another card.
async fn customer_follows() -> Result<Vec<f64>> {
    let app = App::launch_with("measure-customer", &["--demo", "--customer-display"]).await?;
    let mut lags = Vec::new();
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        let counter = driver.window().await?;
        let customer = loop {
            if let Some(w) = driver.windows().await?.into_iter().find(|w| *w != counter) {
                break w;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let cards = enrol(&server, WARM_UP + FOLLOWED).await?;
        driver.switch_to_window(customer.clone()).await?;
        shown(driver, By::Id("customer-welcome"), Duration::from_secs(15)).await?;
        driver.execute(FOLLOW, vec![]).await?;
        driver.switch_to_window(counter.clone()).await?;
        driver.execute(FOLLOW, vec![]).await?;
        for (n, (_, card)) in cards.iter().enumerate() {
            let name = format!("Measure {n}");
            driver.switch_to_window(customer.clone()).await?;
            driver
                .execute(
                    FOLLOW_ARM,
                    vec![json!("customer-hello"), json!(format!("Hello {name}!"))],
                )
                .await?;
            driver.switch_to_window(counter.clone()).await?;
            driver
                .execute(FOLLOW_ARM, vec![json!("customer-name"), json!(name)])
                .await?;
            let scan = driver.find(By::Id("scan")).await?;
            scan.send_keys(format!("{card}{}", char::from(Key::Enter)))
                .await?;
            let shown_at = follow_at(driver, "the counter").await?;
            driver.switch_to_window(customer.clone()).await?;
            let followed_at = follow_at(driver, "the customer's screen").await?;
            if n >= WARM_UP {
                lags.push(followed_at - shown_at);
            }
        }
        driver.switch_to_window(counter).await?;
        Ok(())
    }
    .await;
    app.finish(outcome).await?;
    ensure!(!lags.is_empty(), "no figures of the customer's screen");
    // The goal is on the size of the lag, either way.
    Ok(lags.into_iter().map(f64::abs).collect())
}

/// Cards the camera reads for its figure.
const CAMERA_READS: usize = 100;

/// Puts the frames of `card` in `folder` in place of the last card's: three phones held
/// as the benchmark's are, showing it as `symbology`. Each is written aside and renamed,
/// so the camera never reads half a file.
fn show_card(folder: &Path, symbology: Symbology, card: &str, n: usize) -> Result<()> {
    for entry in std::fs::read_dir(folder)? {
        std::fs::remove_file(entry?.path())?;
    }
    for k in 0..3 {
        let seed = (n * 3 + k) as u64;
        let part = folder.join(format!(".{k}.part"));
        Scene::held(Some((symbology, card)), seed)
            .draw()
            .save_with_format(&part, image::ImageFormat::Png)?;
        std::fs::rename(&part, folder.join(format!("{k}.png")))?;
    }
    Ok(())
}

/// The frame arrivals the app has logged (its "the camera read a code" lines), in
/// milliseconds since 1970, oldest first.
fn camera_arrivals(home: &Path) -> Result<Vec<f64>> {
    let mut logs = Vec::new();
    let mut folders = vec![home.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "log") {
                logs.push(path);
            }
        }
    }
    let mut arrivals = Vec::new();
    for log in logs {
        for line in std::fs::read_to_string(log)?.lines() {
            if !line.contains("the camera read a code") {
                continue;
            }
            let value = line
                .split_whitespace()
                .find_map(|field| field.strip_prefix("arrived_unix_ms="))
                .and_then(|v| v.parse::<f64>().ok())
                .with_context(|| format!("no arrival in {line:?}"))?;
            arrivals.push(value);
        }
    }
    arrivals.sort_by(f64::total_cmp);
    Ok(arrivals)
}

/// From a frame's arrival to its card on the counter's screen, in milliseconds, over
/// `CAMERA_READS` cards read by the camera.
async fn camera_to_card() -> Result<Vec<f64>> {
    let frames = tempfile::tempdir()?;
    // A camera is a folder with an image in it: a phone without a code, to start with.
    Scene::held(None, 0)
        .draw()
        .save(frames.path().join("0.png"))?;
    let folder = frames.path().to_str().context("a path")?.to_owned();
    let app = App::launch_with("measure-camera", &["--demo", "--camera", &folder]).await?;
    let mut lags = Vec::new();
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        let cards = enrol(&server, WARM_UP + CAMERA_READS).await?;
        driver.execute(FOLLOW, vec![]).await?;
        for (n, (_, card)) in cards.iter().enumerate() {
            let symbology = WALLET_SYMBOLOGIES[n % WALLET_SYMBOLOGIES.len()];
            show_card(frames.path(), symbology, card, n)?;
            driver
                .execute(FOLLOW_ARM, vec![json!("card-id"), json!(card)])
                .await?;
            let read_before = camera_arrivals(app.home())?.len();
            driver.find(By::Id("camera-toggle")).await?.click().await?;
            let shown_at = follow_at(driver, &format!("{card} from the camera")).await?;
            // The log is written by a thread of its own: wait for the line.
            let deadline = Instant::now() + Duration::from_secs(5);
            let arrived = loop {
                let arrivals = camera_arrivals(app.home())?;
                if arrivals.len() > read_before {
                    break arrivals[arrivals.len() - 1];
                }
                ensure!(Instant::now() < deadline, "no read logged for {card}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            if n >= WARM_UP {
                lags.push(shown_at - arrived);
            }
        }
        Ok(())
    }
    .await;
    app.finish(outcome).await?;
    ensure!(!lags.is_empty(), "no figures of the camera");
    Ok(lags)
}

/// `n` new customers on the demo's visits pass: their ids and cards' ids.
async fn enrol(server: &Server, n: usize) -> Result<Vec<(String, String)>> {
    let passes = server.get("/v1/passes").await?;
    let pass = passes["data"]
        .as_array()
        .context("passes")?
        .iter()
        .find(|p| p["loyalty_type"] == "visits")
        .and_then(|p| p["id"].as_str())
        .context("the demo has no visits pass")?
        .to_owned();
    let mut cards = Vec::with_capacity(n);
    for i in 0..n {
        let customer: Value = server
            .post(
                "/v1/customers",
                json!({"pass_id": pass, "name": format!("Measure {i}"),
                       "email": format!("measure{i}@example.com"), "wallet": "apple",
                       "send_welcome": false}),
            )
            .await?;
        cards.push((
            customer["id"].as_str().context("customer id")?.to_owned(),
            customer["cards"][0]["id"]
                .as_str()
                .context("card id")?
                .to_owned(),
        ));
    }
    Ok(cards)
}

/// The starts WebKit did not stall. WebKitGTK at times waits out a
/// half-second time-out when a window is mapped while its web process starts: the app
/// shows its window once its page has built its first screen and does not meet it; the
/// bare window, mapped at once, does at random. The plain median can then set a stalled
/// bare window against the app: the line of these sets like against like (the starts
/// within 300 ms of each side's fastest, the time-out being 500 ms).
fn unstalled(starts: &[Start]) -> Vec<&Start> {
    let fastest = starts
        .iter()
        .map(|s| ms(s.ready))
        .fold(f64::INFINITY, f64::min);
    starts
        .iter()
        .filter(|s| ms(s.ready) < fastest + 300.0)
        .collect()
}

/// The median of `part` over `starts`.
fn median_of<'a>(starts: impl IntoIterator<Item = &'a Start>, part: impl Fn(&Start) -> f64) -> f64 {
    median(starts.into_iter().map(part).collect())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    }
}

/// The nearest-rank percentile `p` (0-100) of `values`.
/// A latency's figures: p50, p95, p99 and the maximum, in milliseconds, and how many.
fn spread(samples: &[f64]) -> String {
    format!(
        "p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms (n={})",
        percentile(samples, 50.0),
        percentile(samples, 95.0),
        percentile(samples, 99.0),
        percentile(samples, 100.0),
        samples.len()
    )
}

fn percentile(values: &[f64], p: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
