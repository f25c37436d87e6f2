//! The kiosk, end to end, under a window manager (full screen only takes effect under
//! one): a customer's check-in records one visit and refuses the repeat in words; idle,
//! it goes home; Escape, Alt+F4 and the window manager's close leave it in place;
//! leaving takes the PIN; a restart comes back as a kiosk, in the till's language.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, ensure};
use loyalty_counter_e2e::{App, shot};
use serde_json::json;
use thirtyfour::prelude::*;

use crate::support::{
    self, Server, audit, gone, invoke, pin_stage, shown, stamps, tap, text_until, type_pin,
};

const WAIT: Duration = Duration::from_secs(15);

/// Openbox on the test's display, for as long as the test holds it.
struct WindowManager(Child);

impl WindowManager {
    fn start() -> anyhow::Result<Self> {
        let child = Command::new("openbox")
            .arg("--sm-disable")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("openbox is missing (`make test` installs it)")?;
        std::thread::sleep(Duration::from_millis(700));
        Ok(Self(child))
    }
}

impl Drop for WindowManager {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs a command of the display (xdotool, wmctrl) and waits for it.
fn display(program: &str, args: &[&str]) -> anyhow::Result<()> {
    let status = Command::new(program)
        .args(args)
        .status()
        .with_context(|| format!("{program} is missing (`make test` installs it)"))?;
    ensure!(status.success(), "{program} {args:?}: {status}");
    Ok(())
}

/// A demo customer whose card is on its way to the reward (no reward ready, and not
/// there after one more visit) and not visited in the last 15 minutes: their name, card
/// and visits.
async fn on_the_way(server: &Server) -> anyhow::Result<(String, String, i64)> {
    let list = server.get("/v1/customers?limit=100").await?;
    let recent = jiff::Timestamp::now() - jiff::SignedDuration::from_mins(15);
    list["data"]
        .as_array()
        .context("data")?
        .iter()
        .find_map(|customer| {
            let card = &customer["cards"][0];
            let visits = card["visits"].as_i64()?;
            let last = card["last_visit_at"].as_str();
            let idle =
                last.is_none_or(|at| at.parse::<jiff::Timestamp>().is_ok_and(|at| at < recent));
            (card["rewards_available"] == 0 && (1..9).contains(&visits) && idle).then(|| {
                Some((
                    customer["name"].as_str()?.to_owned(),
                    card["id"].as_str()?.to_owned(),
                    visits,
                ))
            })?
        })
        .context("no demo customer on the way to the reward")
}

/// Types `code` on the kiosk's own keys with a finger (touch, not a mouse: a kiosk has
/// only its touch screen), Shift for the capitals, and taps OK.
async fn type_on_kiosk_keys(driver: &WebDriver, code: &str) -> anyhow::Result<()> {
    let mut capitals = false;
    for c in code.chars() {
        if c.is_ascii_uppercase() != capitals {
            tap(driver, &driver.find(By::Id("kiosk-shift")).await?).await?;
            capitals = !capitals;
        }
        let key = format!("kiosk-key-{}", c.to_ascii_lowercase());
        tap(driver, &driver.find(By::Id(key)).await?).await?;
    }
    tap(driver, &driver.find(By::Id("kiosk-ok")).await?).await?;
    Ok(())
}

/// Another app's window on the test's display (the bare Tauri window `make measure`
/// compares with), for as long as the test holds it.
struct OtherApp(Child);

impl OtherApp {
    fn start() -> anyhow::Result<Self> {
        let binary = loyalty_counter_e2e::workspace_root().join("target/debug/bare-window");
        let child = Command::new(&binary)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("{} is missing (`make build` builds it)", binary.display()))?;
        let other = Self(child);
        for _ in 0..100 {
            let found = Command::new("xdotool")
                .args(["search", "--name", "Bare Window"])
                .output()?;
            if found.status.success() && !found.stdout.is_empty() {
                // Mapped: let it take the focus it asks for.
                std::thread::sleep(Duration::from_millis(500));
                return Ok(other);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        anyhow::bail!("the other app's window did not appear")
    }
}

impl Drop for OtherApp {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn a_customer_checks_in_once_the_kiosk_holds_its_window_and_only_the_pin_leaves()
-> anyhow::Result<()> {
    let _wm = WindowManager::start()?;
    let app = App::launch_bare("kiosk-check-in", &["--demo", "--kiosk", "--kiosk-idle=3"]).await?;
    let outcome = async {
        let driver = &app.driver;
        // No manager PIN yet: whoever started the kiosk chooses one before it opens (the
        // PIN is what lets staff leave it; a customer must never be the one to choose).
        ensure!(
            pin_stage(driver, Duration::from_secs(30)).await? == "new",
            "a kiosk without a manager PIN did not ask for one first"
        );
        ensure!(
            driver.find_all(By::Id("kiosk-scan")).await?.is_empty(),
            "the kiosk opened before a manager PIN was chosen"
        );
        shot(driver, "kiosk-first-pin").await?;
        support::as_manager(driver).await?;
        shown(driver, By::Id("kiosk-scan"), WAIT).await?;
        let server = Server::of(&app).await?;
        // Full screen on the 1280×800 display.
        let rect = driver.get_window_rect().await?;
        ensure!(
            rect.width >= 1280 && rect.height >= 800,
            "the kiosk's window is {}x{}",
            rect.width,
            rect.height
        );

        let (customer, card) = server.customer(4).await?;
        let id = customer["id"].as_str().context("id")?.to_owned();
        let before = stamps(&server.card(&id, &card).await?)?;
        let field = driver.find(By::Id("kiosk-scan")).await?;
        field
            .send_keys(format!("{card}{}", char::from(Key::Enter)))
            .await?;
        let said = text_until(driver, By::Id("kiosk-result"), WAIT, |t| {
            t.contains("your visit counts")
        })
        .await?;
        shot(driver, "kiosk-counted").await?;
        // Touch-sized and readable, like every screen of the counter.
        let mut problems = audit(driver, "kiosk, counted").await?;
        let after = server.card(&id, &card).await?;
        ensure!(
            stamps(&after)? == before + 1,
            "the check-in did not count once"
        );
        // The customer reads their name and how far they are from the reward, though
        // this till had never seen their card.
        let name = customer["name"].as_str().context("name")?;
        let progress = if after["rewards_available"].as_i64() > Some(0) {
            said.contains("Your reward is ready")
        } else {
            said.contains(&format!("{} visit", after["visits"])) && said.contains(" of 10")
        };
        ensure!(
            said.contains(name) && progress,
            "after checking in, the customer reads {said:?}"
        );

        // The same card again, scanned after a tap on a button (the scanner still types
        // into the field): refused in words, never confirmed from here.
        tap(driver, &driver.find(By::Id("kiosk-en")).await?).await?;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let focused = driver.active_element().await?;
        ensure!(
            focused.id().await?.as_deref() == Some("kiosk-scan"),
            "after a tap the scanner would type into {:?}",
            focused.id().await?
        );
        focused
            .send_keys(format!("{card}{}", char::from(Key::Enter)))
            .await?;
        text_until(driver, By::Id("kiosk-result"), WAIT, |t| {
            t.starts_with("You already checked in at")
        })
        .await?;
        shot(driver, "kiosk-already").await?;
        problems.extend(audit(driver, "kiosk, already").await?);
        ensure!(
            stamps(&server.card(&id, &card).await?)? == before + 1,
            "a repeat check-in was counted"
        );

        // A customer without a scanner types their card's id on the kiosk's keys, and
        // reads how far they are from the reward.
        let (name, card, visits) = on_the_way(&server).await?;
        type_on_kiosk_keys(driver, &card).await?;
        let said = text_until(driver, By::Id("kiosk-result"), WAIT, |t| {
            t.contains("your visit counts")
        })
        .await?;
        shot(driver, "kiosk-progress").await?;
        problems.extend(audit(driver, "kiosk, progress").await?);
        let now = visits + 1;
        ensure!(
            said.contains(&name)
                && said.contains(&format!("{now} visits of 10"))
                && said.contains(&format!("{} more to", 10 - now)),
            "on the way to the reward, the customer reads {said:?}"
        );

        // A customer switches to French and leaves the PIN pad open. Untouched, the
        // kiosk goes home: it forgets what it showed, closes the pad and speaks its
        // own language again.
        tap(driver, &driver.find(By::Id("kiosk-fr")).await?).await?;
        text_until(driver, By::Css("#kiosk h1"), WAIT, |t| {
            t.starts_with("Bienvenue")
        })
        .await?;
        tap(driver, &driver.find(By::Id("kiosk-leave")).await?).await?;
        pin_stage(driver, WAIT).await?;
        tokio::time::sleep(Duration::from_secs(4)).await;
        let left = driver.find(By::Id("kiosk-result")).await?.text().await?;
        ensure!(
            left.trim().is_empty(),
            "still shown after the idle time: {left:?}"
        );
        ensure!(
            driver.find_all(By::Id("pin-pad")).await?.is_empty(),
            "the PIN pad is still open after the idle time"
        );
        let welcome = driver.find(By::Css("#kiosk h1")).await?.text().await?;
        ensure!(
            welcome.starts_with("Welcome"),
            "after the idle time the kiosk says {welcome:?}"
        );

        // No way out: Escape, Alt+F4, the window manager's close.
        driver
            .active_element()
            .await?
            .send_keys(Key::Escape)
            .await?;
        display("xdotool", &["key", "alt+F4"])?;
        display("wmctrl", &["-c", "Loyalty Counter"])?;
        tokio::time::sleep(Duration::from_secs(1)).await;
        shown(driver, By::Id("kiosk"), WAIT).await?;
        // Nor by switching to another app: the kiosk takes the keyboard back.
        let other = OtherApp::start()?;
        display("xdotool", &["key", "alt+Tab"])?;
        display("wmctrl", &["-a", "Bare Window"])?;
        tokio::time::sleep(Duration::from_secs(1)).await;
        let active = Command::new("xdotool")
            .args(["getactivewindow", "getwindowname"])
            .output()?;
        let active = String::from_utf8_lossy(&active.stdout);
        ensure!(
            active.trim() == "Loyalty Counter",
            "another window keeps the keyboard: {active:?}"
        );
        drop(other);

        // Leaving takes the manager's PIN; a wrong one does not leave.
        invoke(driver, "manager_leaves", json!({})).await?;
        tap(driver, &driver.find(By::Id("kiosk-leave")).await?).await?;
        ensure!(
            pin_stage(driver, WAIT).await? == "enter",
            "leaving asked no PIN"
        );
        type_pin(driver, "0000").await?;
        text_until(driver, By::Id("pin-error"), WAIT, |t| {
            t.starts_with("Wrong PIN")
        })
        .await?;
        problems.extend(audit(driver, "kiosk, PIN pad").await?);
        ensure!(problems.is_empty(), "{}", problems.join("\n"));
        driver.find(By::Id("pin-cancel")).await?.click().await?;
        shown(driver, By::Id("kiosk"), WAIT).await?;
        tap(driver, &driver.find(By::Id("kiosk-leave")).await?).await?;
        support::as_manager(driver).await?;
        gone(driver, By::Id("kiosk"), WAIT).await?;
        // The kiosk was no person: the till waits for someone to sign in.
        support::sign_in_at_lock(driver, 1, support::PIN).await?;
        shown(driver, By::Id("scan"), WAIT).await?;
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

#[tokio::test]
async fn started_as_a_kiosk_without_a_pin_a_cancelled_pin_pad_leaves_a_counter_and_asks_once()
-> anyhow::Result<()> {
    let _wm = WindowManager::start()?;
    let app = App::launch_bare("kiosk-pin-cancelled", &["--demo", "--kiosk"]).await?;
    let outcome = async {
        let driver = &app.driver;
        ensure!(
            pin_stage(driver, Duration::from_secs(30)).await? == "new",
            "no PIN asked for"
        );
        // Cancelled: the till is no kiosk; with no one on its roster it stays at the
        // lock screen, whose button asks for the owner's PIN again.
        driver.find(By::Id("pin-cancel")).await?.click().await?;
        gone(driver, By::Id("pin-pad"), WAIT).await?;
        shown(driver, By::Id("lock-first-pin"), WAIT).await?;
        driver.refresh().await?;
        shown(driver, By::Id("lock-screen"), Duration::from_secs(30)).await?;
        ensure!(
            driver.find_all(By::Id("kiosk")).await?.is_empty(),
            "the till became a kiosk"
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

#[tokio::test]
async fn turned_on_in_settings_behind_the_pin_a_kiosk_comes_back_after_a_restart_in_the_tills_language_not_a_customers()
-> anyhow::Result<()> {
    let _wm = WindowManager::start()?;
    let name = "kiosk-restart";
    let app = App::launch_with(name, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        // Settings are the manager's: the PIN first.
        support::open_settings(driver).await?;
        shot(driver, "kiosk-settings").await?;
        // The till speaks French.
        driver.find(By::Id("lang-fr")).await?.click().await?;
        // Once French's words are in (loaded when first chosen): until then the page's
        // text, and the button with it, may still move under the click.
        text_until(driver, By::Id("kiosk-on"), WAIT, |t| t.starts_with("Faire")).await?;
        driver.find(By::Id("kiosk-on")).await?.click().await?;
        support::as_manager_if_asked(driver).await?;
        shown(driver, By::Id("kiosk-scan"), WAIT).await?;
        let rect = driver.get_window_rect().await?;
        ensure!(
            rect.width >= 1280 && rect.height >= 800,
            "turned on, the kiosk's window is {}x{}",
            rect.width,
            rect.height
        );
        Ok(())
    }
    .await;
    support::finish_closed(app, outcome).await?;
    // Started again without `--kiosk`: a kiosk still, in full screen.
    let app = App::relaunch(name, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("kiosk-scan"), Duration::from_secs(30)).await?;
        let rect = driver.get_window_rect().await?;
        ensure!(
            rect.width >= 1280 && rect.height >= 800,
            "after a restart the kiosk's window is {}x{}",
            rect.width,
            rect.height
        );
        // In the till's language, French, from the first screen.
        let welcome = driver.find(By::Css("#kiosk h1")).await?.text().await?;
        ensure!(
            welcome.starts_with("Bienvenue"),
            "after a restart the French till's kiosk says {welcome:?}"
        );
        shot(driver, "kiosk-home-fr").await?;
        let problems = audit(driver, "kiosk, French").await?;
        ensure!(problems.is_empty(), "{}", problems.join("\n"));
        // A customer reads it in English, for their visit only.
        driver.find(By::Id("kiosk-en")).await?.click().await?;
        text_until(driver, By::Css("#kiosk h1"), WAIT, |t| {
            t.starts_with("Welcome")
        })
        .await?;
        Ok(())
    }
    .await;
    support::finish_closed(app, outcome).await?;
    // Started again: the till's French, not the last customer's English, from the first
    // screen (its words are fetched before it).
    let app = App::relaunch(name, &["--demo"]).await?;
    let outcome = async {
        let welcome = shown(&app.driver, By::Css("#kiosk h1"), Duration::from_secs(30))
            .await?
            .text()
            .await?;
        ensure!(
            welcome.starts_with("Bienvenue"),
            "after a restart in French the kiosk says {welcome:?}"
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

/// Any script in the kiosk's page can call any command: the core answers only what a
/// kiosk does. Every other command, with well-formed arguments, is refused with the
/// typed error, and the server's records do not change.
#[tokio::test]
async fn from_the_kiosks_page_every_command_but_a_kiosks_is_refused_by_the_core()
-> anyhow::Result<()> {
    let app = App::launch_bare("kiosk-commands", &["--demo", "--kiosk"]).await?;
    let outcome = async {
        let driver = &app.driver;
        ensure!(pin_stage(driver, Duration::from_secs(30)).await? == "new");
        support::as_manager(driver).await?;
        shown(driver, By::Id("kiosk-scan"), WAIT).await?;
        let server = Server::of(&app).await?;
        let (customer, card) = server.customer(4).await?;
        let id = customer["id"].as_str().context("id")?.to_owned();
        let records = || async {
            let scans = server.get("/v1/scans?limit=100").await?["data"].clone();
            let gifts = server.get("/v1/gift_cards?limit=100").await?["data"].clone();
            let customers = server.get("/v1/customers?limit=100").await?["data"].clone();
            anyhow::Ok((scans, gifts, customers))
        };
        let before = records().await?;
        let gift = before.1[0]["id"].as_str().unwrap_or("gc_0000000000").to_owned();
        let calls = [
            ("record_scan", json!({"cardId": card, "action": "visit", "points": null})),
            ("confirm_repeat_visit", json!({"item": 1})),
            ("read_scan", json!({"input": card})),
            ("read_card", json!({"cardId": card})),
            ("gift_card", json!({"id": gift})),
            ("take_payment", json!({"id": gift, "amount": "1", "reference": null})),
            ("enrol", json!({"enrolment": {"pass_id": "pass_0000000000", "name": "Ana", "email": "ana@example.com", "wallet": "apple", "send_welcome": false}})),
            ("search_customers", json!({"typed": "a"})),
            ("sync_customers", json!({})),
            ("queue", json!({"openOnly": false})),
            ("send_now", json!({})),
            ("discard_item", json!({"item": 1, "note": ""})),
            ("retry_item", json!({"item": 1})),
            ("probably_issued", json!({"item": 1})),
            ("offline_payments", json!({})),
            ("saved_base_url", json!({})),
            ("passes", json!({})),
            ("connect", json!({"baseUrl": "http://127.0.0.1:9/sandbox", "apiKey": "lc_test_0000000000000000"})),
            ("connect_gate", json!({})),
            ("disconnect", json!({})),
            ("try_demo", json!({})),
            ("reset_demo", json!({})),
            ("reset_damaged_settings", json!({})),
            ("change_pin", json!({"old": support::PIN, "new": "1357"})),
            ("issue_choices", json!({})),
            ("issue_gift_card", json!({"issue": {"amount": "20", "currency": "EUR", "locale": "en", "recipient_name": "Ana", "recipient_email": "ana@example.com"}})),
            ("history", json!({"from": "2026-11-23", "to": "2026-11-23", "state": null})),
            ("figures", json!({"period": {"kind": "last30_days"}})),
            ("demo_samples", json!({})),
            ("till_places", json!({})),
            ("scheduled_messages", json!({})),
        ];
        let mut accepted = Vec::new();
        for (command, args) in calls {
            let answer = support::call(driver, command, args).await?;
            let kiosk = answer["error"]["code"] == "not_allowed"
                && answer["error"]["data"]["reason"]["kind"] == "kiosk";
            if !kiosk {
                accepted.push(format!("{command}: {answer}"));
            }
        }
        ensure!(accepted.is_empty(), "not refused as a kiosk: {accepted:#?}");
        // Still a kiosk, and nothing changed on the server.
        shown(driver, By::Id("kiosk-scan"), WAIT).await?;
        ensure!(records().await? == before, "the server's records changed");
        // What a kiosk does still works: the customer checks in, once.
        let stamped = stamps(&server.card(&id, &card).await?)?;
        invoke(driver, "check_in", json!({"input": card})).await?;
        ensure!(stamps(&server.card(&id, &card).await?)? == stamped + 1);
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

/// From a keyboard, Tab reaches every control of the kiosk (the languages, the keys,
/// Staff), and what is typed while a button has the focus (a scanner) still lands in
/// the scan field: the check-in counts once.
#[tokio::test]
async fn tab_reaches_every_kiosk_control_and_a_scan_still_lands_in_its_field() -> anyhow::Result<()>
{
    let app = App::launch_bare("kiosk-tab", &["--demo", "--kiosk"]).await?;
    let outcome = async {
        let driver = &app.driver;
        ensure!(pin_stage(driver, Duration::from_secs(30)).await? == "new");
        support::as_manager(driver).await?;
        shown(driver, By::Id("kiosk-scan"), WAIT).await?;
        let mut reached = std::collections::BTreeSet::new();
        for _ in 0..60 {
            driver
                .active_element()
                .await?
                .send_keys(char::from(Key::Tab).to_string())
                .await?;
            tokio::time::sleep(Duration::from_millis(50)).await;
            if let Some(id) = driver.active_element().await?.id().await? {
                reached.insert(id);
            }
        }
        for control in [
            "kiosk-en",
            "kiosk-fr",
            "kiosk-key-a",
            "kiosk-shift",
            "kiosk-back",
            "kiosk-ok",
            "kiosk-leave",
            "kiosk-scan",
        ] {
            ensure!(
                reached.contains(control),
                "Tab never reached #{control}: {reached:?}"
            );
        }

        // The focus on a language button, a card scanned: it goes to the field.
        let server = Server::of(&app).await?;
        let (customer, card) = server.customer(5).await?;
        let id = customer["id"].as_str().context("id")?.to_owned();
        let before = stamps(&server.card(&id, &card).await?)?;
        let button = driver.find(By::Id("kiosk-fr")).await?;
        driver
            .execute("document.getElementById('kiosk-fr').focus();", Vec::new())
            .await?;
        button
            .send_keys(format!("{card}{}", char::from(Key::Enter)))
            .await?;
        text_until(driver, By::Id("kiosk-result"), WAIT, |t| !t.is_empty()).await?;
        ensure!(
            stamps(&server.card(&id, &card).await?)? == before + 1,
            "the scan typed while a button had the focus did not check in once"
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}
