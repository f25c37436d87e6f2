//! The demo server as the tests see it: its address from `<data>/demo/server.json`, and
//! a key of the tests' own (minted through the control routes) to check its records.

#![allow(dead_code)]

pub mod own;

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use loyalty_counter_e2e::App;
use serde_json::{Value, json};
use thirtyfour::prelude::*;

/// The embedded demo server, reached directly.
pub struct Server {
    http: reqwest::Client,
    /// `{root}` of the control routes.
    pub root: String,
    /// The sandbox's API base URL.
    pub api: String,
    /// The demo business.
    pub business_id: String,
    /// The test's home folder (a till of the test's own can live under it).
    pub home: std::path::PathBuf,
    key: String,
}

/// Runs `steps` on the app started in the demo, once the counter is ready, with the
/// demo server at hand; saves the artifacts if they fail.
pub async fn in_demo<F, Fut>(name: &str, steps: F) -> Result<()>
where
    F: FnOnce(WebDriver, Server) -> Fut,
    Fut: std::future::Future<Output = Result<()>>,
{
    let app = App::launch_with(name, &["--demo"]).await?;
    let outcome = async {
        shown(&app.driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        steps(app.driver.clone(), server).await
    }
    .await;
    app.finish(outcome).await
}

impl Server {
    /// Finds the app's demo server and mints a test key with every scope.
    pub async fn of(app: &App) -> Result<Self> {
        let path = app.data_dir().join("demo/server.json");
        let deadline = Instant::now() + Duration::from_secs(20);
        let address: Value = loop {
            match std::fs::read(&path) {
                Ok(bytes) => break serde_json::from_slice(&bytes)?,
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await
                }
                Err(e) => return Err(e).context("demo/server.json"),
            }
        };
        let root = address["root_url"].as_str().context("root_url")?.to_owned();
        let business_id = address["business_id"]
            .as_str()
            .context("business_id")?
            .to_owned();
        let http = reqwest::Client::new();
        let key: Value = http
            .post(format!("{root}/_sandbox/keys"))
            .json(&json!({
                "business_id": business_id, "mode": "test", "expires_at": null,
                "scopes": ["read", "customers:write", "scans:write", "gift_cards:write", "gift_cards:spend"],
            }))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        Ok(Self {
            http,
            api: address["sandbox_url"]
                .as_str()
                .context("sandbox_url")?
                .to_owned(),
            root,
            business_id,
            home: app.home().to_path_buf(),
            key: key["key"].as_str().context("key")?.to_owned(),
        })
    }

    /// GET on the API with the tests' key.
    pub async fn get(&self, path: &str) -> Result<Value> {
        Ok(self
            .http
            .get(format!("{}{path}", self.api))
            .bearer_auth(&self.key)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }

    /// POST on the API with the tests' key and a fresh Idempotency-Key.
    pub async fn post(&self, path: &str, body: Value) -> Result<Value> {
        let answer = self
            .http
            .post(format!("{}{path}", self.api))
            .bearer_auth(&self.key)
            .header(
                "Idempotency-Key",
                format!(
                    "e2e-{}",
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)?
                        .as_nanos()
                ),
            )
            .json(&body)
            .send()
            .await?;
        let status = answer.status();
        let body: Value = answer.json().await?;
        if !status.is_success() {
            bail!("POST {path} answered {status}: {body}");
        }
        Ok(body)
    }

    /// POST on a control route.
    pub async fn control(&self, path: &str, body: Value) -> Result<Value> {
        Ok(self
            .http
            .post(format!("{}{path}", self.root))
            .json(&body)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }

    /// GET on a control route.
    pub async fn get_control(&self, path: &str) -> Result<Value> {
        Ok(self
            .http
            .get(format!("{}{path}", self.root))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }

    /// DELETE on a control route.
    pub async fn delete(&self, path: &str) -> Result<()> {
        self.http
            .delete(format!("{}{path}", self.root))
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    }

    /// The `n`th demo customer (oldest first) and their first card's id.
    pub async fn customer(&self, n: usize) -> Result<(Value, String)> {
        let list = self.get("/v1/customers?limit=100").await?;
        let customers = list["data"].as_array().context("data")?;
        let customer = customers
            .get(n)
            .context("not enough demo customers")?
            .clone();
        let card = customer["cards"][0]["id"]
            .as_str()
            .context("card id")?
            .to_owned();
        Ok((customer, card))
    }

    /// Issues a gift card the way the app's core does (its outbox, its own key), from a
    /// till of the test's own in `dir` (not the app's); answers the card's id.
    pub async fn issue_gift_card(
        &self,
        dir: &std::path::Path,
        amount: &str,
        recipient_name: &str,
    ) -> Result<String> {
        let counter = counter_core::Counter::open(
            dir,
            counter_core::Config::default(),
            std::sync::Arc::new(counter_core::SystemClock),
            std::sync::Arc::new(counter_core::UuidIds),
        )
        .await?;
        counter.connect(&self.api, &self.key).await?;
        // Issuing is a manager's: this till's manager chooses a PIN first.
        counter.set_pin(PIN, counter_core::PinFor::OneAction)?;
        let issued = counter
            .issue_gift_card(counter_core::GiftCardIssue {
                amount: amount.into(),
                currency: "EUR".into(),
                locale: "en".into(),
                recipient_name: recipient_name.into(),
                recipient_email: "gift@example.com".into(),
            })
            .await?;
        counter.close().await;
        match issued {
            counter_core::Outcome::Done { answer: issued, .. } => {
                Ok(issued.gift_card.id.as_str().to_owned())
            }
            other => bail!("the core did not issue the gift card: {other:?}"),
        }
    }

    /// A claimed gift card of `amount` EUR for `recipient_name`, opened on the gift-card
    /// screen, ready to pay with; answers its id.
    pub async fn open_claimed_gift_card(
        &self,
        driver: &WebDriver,
        amount: &str,
        recipient_name: &str,
    ) -> Result<String> {
        let id = self
            .issue_gift_card(&self.home.join("manager-till"), amount, recipient_name)
            .await?;
        self.control(&format!("/_sandbox/gift_cards/{id}/claim"), json!({}))
            .await?;
        go(driver, "gift").await?;
        shown(driver, By::Id("gift-id"), Duration::from_secs(15))
            .await?
            .send_keys(format!("{id}{}", char::from(Key::Enter)))
            .await?;
        text_until(
            driver,
            By::Id("gift-status"),
            Duration::from_secs(15),
            |t| t == "Active",
        )
        .await?;
        Ok(id)
    }

    /// A card as the server holds it.
    pub async fn card(&self, customer_id: &str, card_id: &str) -> Result<Value> {
        let customer = self.get(&format!("/v1/customers/{customer_id}")).await?;
        customer["cards"]
            .as_array()
            .context("cards")?
            .iter()
            .find(|c| c["id"] == card_id)
            .cloned()
            .context("card not on the customer")
    }
}

/// Every visit a card was given: those towards the goal (10 on the demo pass) and those
/// that became rewards. A visit that completes the goal resets `visits` to 0.
pub fn stamps(card: &Value) -> Result<i64> {
    let n = |field: &str| card[field].as_i64().with_context(|| field.to_owned());
    Ok(n("visits")? + 10 * (n("rewards_available")? + n("rewards_redeemed")?))
}

/// The accessibility audit's violations on what the window shows now, each prefixed
/// with `screen`: the project's own checks (44 px touch targets, AA contrast) and
/// axe-core's WCAG 2.2 A and AA rules and best practices ([`axe`]).
pub async fn audit(driver: &WebDriver, screen: &str) -> Result<Vec<String>> {
    audit_at(driver, screen, Contrast::Minimum).await
}

/// The contrast every text must reach: WCAG's minimum (AA: 4.5:1, 3:1 for large text)
/// or its enhanced contrast (AAA: 7:1 and 4.5:1), which high contrast is held to.
#[derive(Debug, Clone, Copy)]
pub enum Contrast {
    Minimum,
    Enhanced,
}

/// [`audit`], with every text held to `contrast`.
pub async fn audit_at(driver: &WebDriver, screen: &str, contrast: Contrast) -> Result<Vec<String>> {
    let (normal, large) = match contrast {
        Contrast::Minimum => (4.5, 3.0),
        Contrast::Enhanced => (7.0, 4.5),
    };
    let found: Vec<String> = driver
        .execute(
            include_str!("audit.js"),
            vec![serde_json::json!({ "normal": normal, "large": large })],
        )
        .await?
        .convert()?;
    let mut problems: Vec<String> = found
        .into_iter()
        .map(|p| format!("{screen}: {p}"))
        .collect();
    problems.extend(axe(driver, screen).await?);
    Ok(problems)
}

/// The axe-core rule sets every screen is held to.
const AXE_TAGS: [&str; 6] = [
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "wcag22aa",
    "best-practice",
];

/// axe-core (the pinned npm package in `ui/node_modules`, injected into the real
/// window) on what the window shows now: its violations, each prefixed with `screen`.
/// What it cannot decide ("needs review") is printed with its selectors for a person.
pub async fn axe(driver: &WebDriver, screen: &str) -> Result<Vec<String>> {
    static SOURCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let source = SOURCE.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../ui/node_modules/axe-core/axe.min.js"
        );
        std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("{path}: {e} (`make test` installs the UI's npm packages)"))
    });
    let script = format!(
        r#"const done = arguments[arguments.length - 1];
           if (!window.axe) {{ {source}
           }}
           const nodes = (found) => found.map((r) => ({{
             id: r.id, impact: r.impact || '', help: r.help,
             targets: r.nodes.map((n) => n.target.join(' ')),
           }}));
           window.axe
             .run(document, {{ runOnly: {{ type: 'tag', values: {tags} }},
                              resultTypes: ['violations', 'incomplete'] }})
             .then((r) => done({{ violations: nodes(r.violations), review: nodes(r.incomplete) }}),
                   (e) => done({{ error: String(e) }}));"#,
        tags = serde_json::to_string(&AXE_TAGS)?,
    );
    let answer = driver
        .execute_async(&script, Vec::new())
        .await?
        .json()
        .clone();
    if let Some(error) = answer.get("error") {
        bail!("axe-core did not run on {screen}: {error}");
    }
    let list = |name: &str| -> Vec<String> {
        answer[name]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                format!(
                    "{screen}: axe {} ({}): {}: {}",
                    r["id"].as_str().unwrap_or(""),
                    r["impact"].as_str().unwrap_or(""),
                    r["help"].as_str().unwrap_or(""),
                    r["targets"]
                )
            })
            .collect()
    };
    // Captured output is shown only for failing tests: the screens audited and the
    // items a person must look at go to files that `make e2e` sums up at its end.
    append_line(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../target/axe-screens.txt"),
        screen,
    )?;
    let review = list("review");
    for item in review {
        append_line(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../target/axe-review.txt"),
            &item,
        )?;
    }
    Ok(list("violations"))
}

/// Adds `line` to the file at `path`.
fn append_line(path: &str, line: &str) -> Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(file, "{line}")?;
    Ok(())
}

/// Types a key and an address on the Connect screen and submits.
pub async fn connect_with(driver: &WebDriver, key: &str, base_url: &str) -> Result<()> {
    for (id, text) in [("api-key", key), ("base-url", base_url)] {
        let field = driver.find(By::Id(id)).await?;
        field.clear().await?;
        field.send_keys(text).await?;
    }
    driver
        .find(By::Css("form button[type=submit]"))
        .await?
        .click()
        .await?;
    Ok(())
}

/// Ends `app` with the test's `outcome`, then waits until it has closed: the next launch
/// in its home is a restart.
pub async fn finish_closed(app: loyalty_counter_e2e::App, outcome: Result<()>) -> Result<()> {
    let home = app.home().to_path_buf();
    app.finish(outcome).await?;
    wait_until_closed(&home).await
}

/// Waits until the app that used the home folder `home` has ended (the locks of its
/// till and of the demo's till are free), so that the next launch is a restart, not a
/// second copy.
pub async fn wait_until_closed(home: &std::path::Path) -> Result<()> {
    let data = loyalty_counter_e2e::data_dir_in(home);
    let deadline = Instant::now() + Duration::from_secs(20);
    for lock in [
        data.join("till/till.lock"),
        data.join("demo/till/till.lock"),
    ] {
        loop {
            let free = match std::fs::OpenOptions::new().write(true).open(&lock) {
                Ok(file) => file.try_lock().is_ok(),
                Err(_) => true,
            };
            if free {
                break;
            }
            if Instant::now() > deadline {
                bail!("the app still holds {} after 20 s", lock.display());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    Ok(())
}

/// Opens a screen from the navigation: counter, gift, customers or queue.
pub async fn go(driver: &WebDriver, screen: &str) -> Result<()> {
    let tab = driver.find(By::Id(format!("nav-{screen}"))).await?;
    // Scrolled to, as a person would on a short page (the header scrolls with it).
    driver
        .execute(
            "arguments[0].scrollIntoView({ block: 'center' });",
            vec![tab.to_json()?],
        )
        .await?;
    tab.click().await?;
    Ok(())
}

/// Types `text` into the scan field as a scanner does: one fast burst ending in Enter.
pub async fn scan(driver: &WebDriver, text: &str) -> Result<()> {
    let field = driver.find(By::Id("scan")).await?;
    field
        .send_keys(format!("{text}{}", char::from(Key::Enter)))
        .await?;
    Ok(())
}

/// Waits until `by` exists and is displayed.
pub async fn shown(driver: &WebDriver, by: By, timeout: Duration) -> Result<WebElement> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(found) = driver.find(by.clone()).await
            && found.is_displayed().await.unwrap_or(false)
        {
            return Ok(found);
        }
        if Instant::now() > deadline {
            bail!("{by:?} not shown after {timeout:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until `by` is gone.
pub async fn gone(driver: &WebDriver, by: By, timeout: Duration) -> Result<()> {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if driver.find_all(by.clone()).await?.is_empty() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{by:?} still there after {timeout:?}")
}

/// The element `id` is wholly in the window's view, without scrolling, and nothing
/// (the footer, a header grown to two rows) covers it: where the cashier is looking.
pub async fn in_view(driver: &WebDriver, id: &str) -> Result<()> {
    let seen: Vec<Value> = driver
        .execute(
            "const el = document.getElementById(arguments[0]);
             const r = el.getBoundingClientRect();
             const at = (x, y) => {
               const top = document.elementFromPoint(x, y);
               return top === el || el.contains(top) ? null : (top ? top.tagName + '#' + top.id : 'nothing');
             };
             return [r.top, r.bottom, window.innerHeight, window.innerWidth,
                     at((r.left + r.right) / 2, r.top + 2), at((r.left + r.right) / 2, r.bottom - 2)];",
            vec![json!(id)],
        )
        .await?
        .convert()?;
    let [top, bottom, height, width] = [0, 1, 2, 3].map(|i| seen[i].as_f64().unwrap_or(f64::NAN));
    ensure!(
        top >= 0.0 && bottom <= height,
        "#{id} is out of view in a {width}x{height} window: from {top} to {bottom}"
    );
    ensure!(
        seen[4].is_null() && seen[5].is_null(),
        "#{id} is covered in a {width}x{height} window: by {} at its top, {} at its bottom",
        seen[4],
        seen[5]
    );
    Ok(())
}

/// Waits until the text of `by` satisfies `check`; returns it.
pub async fn text_until(
    driver: &WebDriver,
    by: By,
    timeout: Duration,
    check: impl Fn(&str) -> bool,
) -> Result<String> {
    let deadline = Instant::now() + timeout;
    let mut last = String::new();
    while Instant::now() < deadline {
        if let Ok(found) = driver.find(by.clone()).await
            && let Ok(text) = found.text().await
        {
            if check(&text) {
                return Ok(text);
            }
            last = text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{by:?} never matched after {timeout:?}; last text {last:?}")
}

/// The manager's PIN the tests choose on first use.
pub const PIN: &str = "2468";

/// Types `pin` on the on-screen PIN pad, as a finger would, and presses OK.
pub async fn type_pin(driver: &WebDriver, pin: &str) -> Result<()> {
    for digit in pin.chars() {
        driver
            .find(By::Id(format!("pin-key-{digit}")))
            .await?
            .click()
            .await?;
    }
    driver.find(By::Id("pin-ok")).await?.click().await?;
    Ok(())
}

/// The PIN pad's stage once it knows where the PIN stands: `enter`, `new`, `again`
/// or `old`.
pub async fn pin_stage(driver: &WebDriver, timeout: Duration) -> Result<String> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(pad) = driver.find(By::Id("pin-pad")).await
            && let Ok(Some(stage)) = pad.attr("data-stage").await
        {
            return Ok(stage);
        }
        if Instant::now() > deadline {
            bail!("no PIN pad after {timeout:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Answers the PIN pad as the manager: chooses [`PIN`] on first use, else enters it.
pub async fn as_manager(driver: &WebDriver) -> Result<()> {
    match pin_stage(driver, Duration::from_secs(10)).await?.as_str() {
        "new" => {
            type_pin(driver, PIN).await?;
            let deadline = Instant::now() + Duration::from_secs(5);
            while pin_stage(driver, Duration::from_secs(5)).await? != "again" {
                ensure!(
                    Instant::now() < deadline,
                    "the pad did not ask the PIN again"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            type_pin(driver, PIN).await?;
        }
        "enter" => type_pin(driver, PIN).await?,
        other => bail!("the PIN pad asks {other:?}"),
    }
    gone(driver, By::Id("pin-pad"), Duration::from_secs(10)).await
}

/// At the lock screen, the person `id` taps their name and types `pin`; waits for the
/// lock screen to go.
pub async fn sign_in_at_lock(driver: &WebDriver, id: i64, pin: &str) -> Result<()> {
    shown(
        driver,
        By::Id(format!("lock-person-{id}")),
        Duration::from_secs(15),
    )
    .await?
    .click()
    .await?;
    shown(driver, By::Id("pin-pad"), Duration::from_secs(15)).await?;
    type_pin(driver, pin).await?;
    gone(driver, By::Id("lock-screen"), Duration::from_secs(15)).await
}

/// When the lock screen comes (within five seconds), the cashier signs in, as at the
/// start of a day ([`loyalty_counter_e2e::CASHIER`]).
pub async fn sign_in_if_locked(driver: &WebDriver) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if driver.find(By::Id("lock-screen")).await.is_ok() {
            return sign_in_at_lock(
                driver,
                loyalty_counter_e2e::CASHIER_ID,
                loyalty_counter_e2e::CASHIER_PIN,
            )
            .await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Opens the settings as the manager (the PIN first) and waits for them.
pub async fn open_settings(driver: &WebDriver) -> Result<()> {
    driver
        .find(By::Id("settings-button"))
        .await?
        .click()
        .await?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if driver.find(By::Id("pin-pad")).await.is_ok() {
            // A manager already here is not asked: the pad closes by itself.
            as_manager_if_asked(driver).await?;
        }
        if driver.find(By::Id("settings")).await.is_ok() {
            return Ok(());
        }
        ensure!(Instant::now() < deadline, "the settings did not open");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Answers the PIN pad if it comes within two seconds (a manager already here is not
/// asked again).
pub async fn as_manager_if_asked(driver: &WebDriver) -> Result<()> {
    if pin_stage(driver, Duration::from_secs(2)).await.is_ok() {
        as_manager(driver).await?;
    }
    Ok(())
}

/// Calls a command through the window's real IPC, as the page does: `{ok, answer}` or
/// `{ok: false, error}`, as any script in the page would get it.
pub async fn call(driver: &WebDriver, command: &str, args: Value) -> Result<Value> {
    Ok(driver
        .execute_async(
            r#"const [command, args, done] = arguments;
               window.__TAURI_INTERNALS__.invoke(command, args).then(
                 (answer) => done({ ok: true, answer }),
                 (error) => done({ ok: false, error }));"#,
            vec![json!(command), args],
        )
        .await?
        .json()
        .clone())
}

/// Calls a command through the window's real IPC, as the page does; its answer, or
/// an error with the command's refusal.
pub async fn invoke(driver: &WebDriver, command: &str, args: Value) -> Result<Value> {
    let answer = call(driver, command, args).await?;
    ensure!(
        answer["ok"] == true,
        "{command} refused: {}",
        answer["error"]
    );
    Ok(answer["answer"].clone())
}

/// Pays `amount` (with the ticket number `reference`) from the gift card open on the
/// gift-card screen, and waits for the answer.
pub async fn pay_open_gift_card(
    driver: &WebDriver,
    amount: &str,
    reference: Option<&str>,
) -> Result<String> {
    driver
        .find(By::Id("pay-amount"))
        .await?
        .send_keys(amount)
        .await?;
    if let Some(reference) = reference {
        driver
            .find(By::Id("pay-reference"))
            .await?
            .send_keys(reference)
            .await?;
    }
    driver.find(By::Id("pay-submit")).await?.click().await?;
    text_until(driver, By::Id("pay-result"), Duration::from_secs(15), |t| {
        t.contains("taken")
    })
    .await
}

/// Issues a gift card through Gift cards → Issue a gift card, as the manager, and waits
/// for the answer.
pub async fn issue_in_ui(driver: &WebDriver, amount: &str, name: &str, email: &str) -> Result<()> {
    let wait = Duration::from_secs(15);
    go(driver, "gift").await?;
    shown(driver, By::Id("issue-open"), wait)
        .await?
        .click()
        .await?;
    as_manager_if_asked(driver).await?;
    shown(driver, By::Id("issue-form"), wait).await?;
    driver
        .find(By::Id("issue-amount"))
        .await?
        .send_keys(amount)
        .await?;
    driver
        .find(By::Id("issue-name"))
        .await?
        .send_keys(name)
        .await?;
    driver
        .find(By::Id("issue-email"))
        .await?
        .send_keys(email)
        .await?;
    let submit = driver.find(By::Id("issue-submit")).await?;
    let deadline = Instant::now() + wait;
    // Enabled once the page has checked the amount.
    while !submit.is_enabled().await? {
        ensure!(Instant::now() < deadline, "the amount was not taken");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    submit.click().await?;
    as_manager_if_asked(driver).await?;
    shown(driver, By::Id("issue-said"), wait).await?;
    Ok(())
}

/// Taps `element` with a finger: WebDriver's touch pointer put down on its centre and
/// lifted (the touch and pointer events a touch screen sends), not a mouse's click; and
/// checks that the page saw a finger (`pointerType` "touch").
pub async fn tap(driver: &WebDriver, element: &WebElement) -> Result<()> {
    use thirtyfour::common::command::{Actions, Command};
    const WATCH: &str = r#"
if (!window.__pointers) {
  window.__pointers = [];
  window.addEventListener('pointerdown', (e) => window.__pointers.push(e.pointerType), true);
}
window.__pointers.length = 0;
"#;
    driver.execute(WATCH, vec![]).await?;
    let finger = json!([{
        "type": "pointer",
        "id": "finger",
        "parameters": { "pointerType": "touch" },
        "actions": [
            { "type": "pointerMove", "duration": 0, "origin": element.to_json()?, "x": 0, "y": 0 },
            { "type": "pointerDown", "button": 0 },
            { "type": "pause", "duration": 40 },
            { "type": "pointerUp", "button": 0 },
        ],
    }]);
    driver
        .cmd(Command::PerformActions(Actions::from(finger)))
        .await?;
    driver.cmd(Command::ReleaseActions).await?;
    Ok(())
}

/// Every button of the header on one row: each starts above the end of the shortest.
pub async fn header_in_one_row(driver: &WebDriver, language: &str) -> Result<()> {
    let found = driver
        .execute(
            r#"const items = [...document.querySelectorAll(
                 'header.top nav button, #settings-button, #lock-button')];
               const rects = items.map((e) => e.getBoundingClientRect());
               const bottom = Math.min(...rects.map((r) => r.bottom));
               return { items: items.length, width: window.innerWidth,
                        low: items.filter((e, i) => rects[i].top >= bottom).map((e) => e.id) };"#,
            vec![],
        )
        .await?
        .json()
        .clone();
    ensure!(
        found["items"].as_u64() >= Some(7) && found["low"] == json!([]),
        "the header takes two rows in {language} at {} px: {found}",
        found["width"]
    );
    Ok(())
}

/// Switches the window's language in the settings (a manager's), and closes them.
pub async fn speak(driver: &WebDriver, language: &str) -> Result<()> {
    open_settings(driver).await?;
    driver
        .find(By::Id(format!("lang-{language}")))
        .await?
        .click()
        .await?;
    driver
        .find(By::Id("settings-button"))
        .await?
        .click()
        .await?;
    gone(driver, By::Id("settings"), Duration::from_secs(15)).await?;
    Ok(())
}
