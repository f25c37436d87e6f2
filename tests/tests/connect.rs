//! Connect, end to end: each key the service refuses is explained in words and not
//! kept; an accepted key opens the business. The server is a `loyalty-sandbox` of the
//! test's own, in this process, on a loopback port.

mod support;

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use loyalty_counter_e2e::{App, shot, text_of};
use loyalty_sandbox::{Config, Running, Sandbox};
use serde_json::{Value, json};
use support::{shown, text_until};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

/// A sandbox with its control routes, and its control calls.
struct Server {
    running: Running,
    http: reqwest::Client,
}

impl Server {
    async fn start() -> Result<Self> {
        let sandbox = Sandbox::open(Config {
            db: None,
            control: true,
            demo: false,
        })?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        Ok(Self {
            running: sandbox.serve(listener).await?,
            http: reqwest::Client::new(),
        })
    }

    async fn control(&self, path: &str, body: Value) -> Result<Value> {
        Ok(self
            .http
            .post(format!("{}/_sandbox{path}", self.running.base_url()))
            .json(&body)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }

    async fn business(&self, name: &str, plan: &str) -> Result<String> {
        let made = self
            .control("/businesses", json!({"name": name, "plan": plan}))
            .await?;
        Ok(made["id"].as_str().context("business id")?.to_owned())
    }

    /// A key's secret text and id.
    async fn key(&self, business: &str, mode: &str, expires_at: Value) -> Result<(String, String)> {
        let made = self
            .control(
                "/keys",
                json!({"business_id": business, "mode": mode, "expires_at": expires_at,
                       "scopes": ["read", "scans:write", "customers:write", "gift_cards:spend"]}),
            )
            .await?;
        Ok((
            made["key"].as_str().context("key")?.to_owned(),
            made["id"].as_str().context("key id")?.to_owned(),
        ))
    }
}

/// Types a key and an address on the Connect screen and submits.
async fn connect_with(driver: &WebDriver, key: &str, base_url: &str) -> Result<()> {
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

/// Every file under `dir` whose bytes contain `secret`.
fn files_holding(dir: &Path, secret: &str) -> Result<Vec<String>> {
    let mut found = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if std::fs::read(&path)?
                .windows(secret.len())
                .any(|w| w == secret.as_bytes())
            {
                found.push(path.display().to_string());
            }
        }
    }
    Ok(found)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_refused_key_is_explained_and_not_kept_and_a_good_key_opens_the_business() -> Result<()>
{
    let server = Server::start().await?;
    let live_url = server.running.base_url();
    let sandbox_url = server.running.sandbox_url();
    let shop = server.business("Café Connect", "enterprise").await?;
    let small = server.business("Salon Pro", "pro").await?;

    let (revoked, revoked_id) = server.key(&shop, "test", Value::Null).await?;
    server
        .control(&format!("/keys/{revoked_id}/revoke"), json!({}))
        .await?;
    let (expired, _) = server
        .key(&shop, "test", json!("2020-01-01T00:00:00Z"))
        .await?;
    let (no_plan, _) = server.key(&small, "test", Value::Null).await?;
    let (live, _) = server.key(&shop, "live", Value::Null).await?;
    let (good, _) = server.key(&shop, "test", Value::Null).await?;
    let unknown = format!("{}x", &good[..good.len() - 1]);

    // Each refusal, where a person would type it, and the words they should read.
    let refusals = [
        (
            unknown.as_str(),
            sandbox_url.as_str(),
            "This API key is not known.",
        ),
        (
            revoked.as_str(),
            sandbox_url.as_str(),
            "This API key was revoked.",
        ),
        (
            expired.as_str(),
            sandbox_url.as_str(),
            "This API key has expired.",
        ),
        (
            no_plan.as_str(),
            sandbox_url.as_str(),
            "needs the Enterprise plan",
        ),
        (
            live.as_str(),
            sandbox_url.as_str(),
            "This key belongs to the other place",
        ),
        (
            good.as_str(),
            live_url.as_str(),
            "This key belongs to the other place",
        ),
    ];

    let app = App::launch("connect-refusals").await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("api-key"), Duration::from_secs(30)).await?;
        for (n, (key, url, expected)) in refusals.iter().enumerate() {
            connect_with(driver, key, url).await?;
            let said = text_until(driver, By::Id("connect-error"), WAIT, |t| {
                t.contains(expected)
            })
            .await
            .with_context(|| format!("refusal {n}: expected {expected:?}"))?;
            // Words, not a raw dump: the code is behind "Details".
            ensure!(!said.contains('{'), "refusal {n} shows JSON: {said:?}");
            let heading = text_of(driver, By::Css("h1"), WAIT).await?;
            ensure!(
                heading == "Connect",
                "refusal {n} left Connect: {heading:?}"
            );
            if n == 0 {
                shot(driver, "connect-refused").await?;
            }
        }

        // The accepted key opens the business, in test mode.
        connect_with(driver, &good, &sandbox_url).await?;
        let name = text_of(driver, By::Id("business-name"), WAIT).await?;
        ensure!(name == "Café Connect", "business shown: {name:?}");
        shown(driver, By::Id("test-banner"), WAIT).await?;

        // No refused key was kept anywhere; the accepted one only in the key file
        // (there is no keychain here), never in a database or a log.
        for (key, _, _) in &refusals[..5] {
            let holding = files_holding(app.home(), key)?;
            ensure!(holding.is_empty(), "a refused key was kept in {holding:?}");
        }
        let holding = files_holding(app.home(), &good)?;
        ensure!(
            holding.iter().all(|p| p.ends_with("/api-key")),
            "the key was written to {holding:?}"
        );
        Ok(())
    }
    .await;
    let finished = app.finish(outcome).await;
    server.running.shutdown().await?;
    finished
}
