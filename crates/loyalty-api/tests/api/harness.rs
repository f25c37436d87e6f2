//! One helper that starts a sandbox with control routes, creates a business and a
//! key through the control routes, and hands back a client.

use std::time::Duration;

use loyalty_api::{
    ApiKey, CardId, Client, Currency, Customer, GiftCardId, IdempotencyKey, NewCustomer,
    NewGiftCard, PassId, Recipient, Wallet,
};
use loyalty_sandbox::{Config, Running, Sandbox};
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{Value, json};

/// Every scope of the API.
pub const ALL_SCOPES: &[&str] = &[
    "read",
    "customers:write",
    "scans:write",
    "gift_cards:write",
    "gift_cards:spend",
    "broadcasts:send",
];

/// A running sandbox with one business and a client on its sandbox place.
pub struct Env {
    // Kept so the server lives as long as the test.
    _running: Running,
    /// `http://127.0.0.1:PORT`.
    pub root: String,
    control: reqwest::Client,
    /// The business's id.
    pub business_id: String,
    /// The demo pass of the business's sandbox.
    pub sandbox_pass_id: PassId,
    /// The business's live pass, when it has one.
    pub live_pass_id: Option<PassId>,
    /// A client with a test key holding every scope, on `{root}/sandbox`.
    pub client: Client,
}

impl Env {
    /// A sandbox with an Enterprise business that has the default pass.
    pub async fn start() -> Env {
        Env::start_with(json!({"name": "Test Café", "plan": "enterprise"})).await
    }

    /// A sandbox with a business made from `business` (the control route's body).
    pub async fn start_with(business: Value) -> Env {
        let sandbox = Sandbox::open(Config {
            control: true,
            ..Config::default()
        })
        .expect("the sandbox opens in memory");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let running = sandbox.serve(listener).await.expect("the sandbox serves");
        let root = running.base_url();
        let control = reqwest::Client::new();
        let created = control_call(
            &control,
            &root,
            Method::POST,
            "/_sandbox/businesses",
            Some(business),
        )
        .await;
        let business_id = created["id"].as_str().expect("business id").to_owned();
        let mut env = Env {
            _running: running,
            root: root.clone(),
            control,
            business_id,
            sandbox_pass_id: PassId::new(
                created["sandbox_pass_id"].as_str().expect("sandbox pass"),
            ),
            live_pass_id: created["pass_id"].as_str().map(PassId::new),
            client: Client::new("http://localhost", ApiKey::new("lc_test_x").unwrap()).unwrap(),
        };
        let key = env.key("test", ALL_SCOPES).await;
        env.client = env.sandbox_client(key);
        env
    }

    /// Calls a control route and returns its 200 answer (panics otherwise).
    pub async fn control(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        control_call(&self.control, &self.root, method, path, body).await
    }

    /// Creates a key of this business through the control routes.
    pub async fn key(&self, mode: &str, scopes: &[&str]) -> ApiKey {
        let created = self.key_record(mode, scopes, None).await;
        ApiKey::new(created["key"].as_str().expect("key text")).unwrap()
    }

    /// Creates a key and returns the control route's whole answer (`id`, `key`, `prefix`).
    pub async fn key_record(&self, mode: &str, scopes: &[&str], expires_at: Option<&str>) -> Value {
        self.control(
            Method::POST,
            "/_sandbox/keys",
            Some(json!({
                "business_id": self.business_id,
                "mode": mode,
                "scopes": scopes,
                "expires_at": expires_at,
            })),
        )
        .await
    }

    /// A client on the sandbox place with `key`.
    pub fn sandbox_client(&self, key: ApiKey) -> Client {
        Client::builder(format!("{}/sandbox", self.root), key)
            .timeout(Duration::from_secs(20))
            .build()
            .unwrap()
    }

    /// A client on the live place with `key`.
    pub fn live_client(&self, key: ApiKey) -> Client {
        Client::builder(self.root.clone(), key)
            .timeout(Duration::from_secs(20))
            .build()
            .unwrap()
    }

    /// Arms a fault: `spec` is `{"status", "code"}` or `{"drop_after_commit": true}`.
    pub async fn fault(&self, path: &str, count: u64, spec: Value) {
        let mut body = spec;
        body["path"] = json!(path);
        body["count"] = json!(count);
        self.control(Method::POST, "/_sandbox/faults", Some(body))
            .await;
    }

    /// Moves the server's clock forward.
    pub async fn advance_clock(&self, seconds: i64) {
        self.control(
            Method::POST,
            "/_sandbox/clock",
            Some(json!({"advance_seconds": seconds})),
        )
        .await;
    }

    /// Changes the business (plan, limits, quotas).
    pub async fn patch_business(&self, body: Value) -> Value {
        let path = format!("/_sandbox/businesses/{}", self.business_id);
        self.control(Method::PATCH, &path, Some(body)).await
    }

    /// Enrols a new customer on `pass` with a fresh email; returns it and its card.
    pub async fn enrol(&self, pass: &PassId) -> (Customer, CardId) {
        let email = format!("{}@example.com", uuid::Uuid::new_v4().simple());
        let customer = self
            .client
            .customers()
            .create(
                &IdempotencyKey::new_v4(),
                &NewCustomer {
                    pass_id: pass.clone(),
                    name: "Ana Test".into(),
                    email,
                    wallet: Wallet::Apple,
                    send_welcome: false,
                },
            )
            .await
            .expect("enrolment succeeds")
            .into_data();
        let card = customer.cards[0].id.clone();
        (customer, card)
    }

    /// Issues a sandbox gift card of `amount` EUR and, with `claim`, opens it.
    pub async fn gift_card(&self, amount: i64, claim: bool) -> GiftCardId {
        let issued = self
            .client
            .gift_cards()
            .issue(
                &IdempotencyKey::new_v4(),
                &NewGiftCard {
                    amount: Decimal::from(amount),
                    currency: Currency::new("EUR").unwrap(),
                    locale: "en".into(),
                    recipient: Recipient {
                        name: "Bea".into(),
                        email: "bea@example.com".into(),
                    },
                },
            )
            .await
            .expect("issue succeeds")
            .into_data();
        let id = issued.gift_card.id;
        if claim {
            self.control(
                Method::POST,
                &format!("/_sandbox/gift_cards/{id}/claim"),
                Some(json!({})),
            )
            .await;
        }
        id
    }
}

async fn control_call(
    http: &reqwest::Client,
    root: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> Value {
    let mut request = http.request(method.clone(), format!("{root}{path}"));
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().await.expect("the control route answers");
    let status = answer.status();
    let text = answer.text().await.unwrap_or_default();
    assert!(
        status.is_success(),
        "control {method} {path} answered {status}: {text}"
    );
    serde_json::from_str(&text).unwrap_or(Value::Null)
}
