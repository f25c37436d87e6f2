//! A `loyalty-sandbox` of the test's own, in the test's process, on a loopback port:
//! for what the demo cannot show (other businesses, plans, passes and keys).

use anyhow::{Context, Result};
use loyalty_counter_e2e::App;
use loyalty_sandbox::{Config, Running, Sandbox};
use serde_json::{Value, json};

/// A sandbox of the test's own, with its control routes.
pub struct OwnServer {
    /// The running server: its addresses.
    pub running: Running,
    http: reqwest::Client,
}

impl OwnServer {
    /// Runs `steps` on the app, started on Connect, with this server at hand; saves the
    /// artifacts if they fail. The server stops with the test's runtime.
    pub async fn run_app(
        &self,
        name: &str,
        steps: impl AsyncFnOnce(&App, &OwnServer) -> Result<()>,
    ) -> Result<()> {
        let app = App::launch(name).await?;
        let outcome = steps(&app, self).await;
        app.finish(outcome).await
    }

    /// Starts one on a loopback port, its data in memory.
    pub async fn start() -> Result<Self> {
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

    /// A control route, `/_sandbox{path}`.
    pub async fn control(&self, path: &str, body: Value) -> Result<Value> {
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

    /// A business on `plan` with the default visits pass; answers its id.
    pub async fn business(&self, name: &str, plan: &str) -> Result<String> {
        let made = self
            .control("/businesses", json!({"name": name, "plan": plan}))
            .await?;
        Ok(made["id"].as_str().context("business id")?.to_owned())
    }

    /// An Enterprise business whose pass counts points towards `goal`; answers its id.
    pub async fn points_business(&self, name: &str, goal: u32) -> Result<String> {
        let made = self
            .control(
                "/businesses",
                json!({"name": name, "plan": "enterprise", "pass": {"name": "Points",
                       "loyalty_type": "points", "goal": goal, "reward_title": "A cake",
                       "locale": "en"}}),
            )
            .await?;
        Ok(made["id"].as_str().context("business id")?.to_owned())
    }

    /// A key's secret text and id.
    pub async fn key(
        &self,
        business: &str,
        mode: &str,
        expires_at: Value,
    ) -> Result<(String, String)> {
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

    /// A call of the API's sandbox place with `key` (writes get a fresh Idempotency-Key).
    pub async fn api(&self, key: &str, method: &str, path: &str, body: Value) -> Result<Value> {
        let url = format!("{}{path}", self.running.sandbox_url());
        let request = match method {
            "POST" => self
                .http
                .post(url)
                .header("idempotency-key", format!("e2e-{}", rand_suffix()))
                .json(&body),
            _ => self.http.get(url),
        };
        Ok(request
            .bearer_auth(key)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }

    /// Enrols a customer on the business's first pass; answers their id and card's id.
    pub async fn enrol(&self, key: &str, name: &str, email: &str) -> Result<(String, String)> {
        let passes = self.api(key, "GET", "/v1/passes", Value::Null).await?;
        let pass = passes["data"][0]["id"].as_str().context("pass")?;
        let customer = self
            .api(
                key,
                "POST",
                "/v1/customers",
                json!({"pass_id": pass, "name": name, "email": email, "wallet": "apple",
                       "send_welcome": false}),
            )
            .await?;
        let id = customer["id"].as_str().context("customer")?;
        let card = customer["cards"][0]["id"].as_str().context("card")?;
        Ok((id.to_owned(), card.to_owned()))
    }
}

/// A suffix that differs on every call in this process.
fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}
