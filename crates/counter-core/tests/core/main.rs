//! Integration tests of counter-core against the real `loyalty-sandbox`, in process,
//! over HTTP on 127.0.0.1. After each test the server's own records are compared
//! with the writes intended: nothing lost, nothing doubled.

mod at_rest;
mod boundaries;
mod browse;
mod cache;
mod earlier_tills;
mod history;
mod identify;
mod inputs;
mod keychain;
mod kiosk;
mod lock;
mod manager;
mod messages;
mod offers;
mod opening;
mod outbox;
mod payments;
mod people;
mod printing;
mod promises;
mod scans;
mod shift_runs;
mod shifts;
mod updates;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use counter_core::ids::PersonId;
use counter_core::roles::{Action, Role};
use counter_core::secrets::{KeyStore, SecretsConfig};
use counter_core::{
    Config, Counter, Credential, Error, Event, ItemId, ItemState, ManualClock, UuidIds,
};
use jiff::Timestamp;
use loyalty_api::{CardId, CustomerId, GiftCardId, Jitter, RetryPolicy};
use loyalty_sandbox::{Running, Sandbox};
use serde_json::{Value, json};
use tempfile::TempDir;

/// A sandbox server with a fresh business and test key, and a till directory.
#[derive(Debug)]
pub struct Env {
    pub dir: TempDir,
    running: Option<Running>,
    addr: SocketAddr,
    pub business_id: String,
    pub key: String,
    /// The sandbox's points pass (goal 1000) and an added visits pass (goal 10).
    pub points_pass: String,
    pub visits_pass: String,
    pub clock: ManualClock,
    http: reqwest::Client,
}

impl Env {
    pub async fn start() -> Env {
        Self::start_with(false).await
    }

    /// A business whose cards and gift cards have ids without a type prefix.
    pub async fn start_with_plain_ids() -> Env {
        Self::start_with(true).await
    }

    async fn start_with(plain_ids: bool) -> Env {
        let dir = tempfile::tempdir().unwrap();
        let running = serve(dir.path().join("server.db"), "127.0.0.1:0").await;
        let addr = running.local_addr();
        let http = reqwest::Client::new();
        let mut env = Env {
            dir,
            running: Some(running),
            addr,
            business_id: String::new(),
            key: String::new(),
            points_pass: String::new(),
            visits_pass: String::new(),
            clock: ManualClock::new(Timestamp::now()),
            http,
        };
        let business = env
            .control(
                "POST",
                "/_sandbox/businesses",
                json!({"name": "Café Test", "pass": {"name": "Points", "loyalty_type": "points",
                       "goal": 1000, "reward_title": "A cake", "locale": "en"},
                       "plain_ids": plain_ids}),
            )
            .await;
        env.business_id = business["id"].as_str().unwrap().to_owned();
        env.points_pass = business["sandbox_pass_id"].as_str().unwrap().to_owned();
        let visits = env
            .control(
                "POST",
                "/_sandbox/passes",
                json!({"business_id": env.business_id, "place": "sandbox", "name": "Visits",
                       "loyalty_type": "visits", "goal": 10, "reward_title": "A coffee",
                       "locale": "en"}),
            )
            .await;
        env.visits_pass = visits["id"].as_str().unwrap().to_owned();
        let key = env
            .control(
                "POST",
                "/_sandbox/keys",
                json!({"business_id": env.business_id, "mode": "test"}),
            )
            .await;
        env.key = key["key"].as_str().unwrap().to_owned();
        env
    }

    pub fn root(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn sandbox_url(&self) -> String {
        format!("{}/sandbox", self.root())
    }

    pub fn till_dir(&self) -> PathBuf {
        self.dir.path().join("till")
    }

    /// The till's database, opened with the key the till keeps for it.
    pub fn till_db(&self) -> rusqlite::Connection {
        let keys = KeyStore::new(SecretsConfig::FileOnly, &self.till_dir());
        counter_core::db::open_till(&keys, &self.till_dir().join("till.db")).unwrap()
    }

    /// Whether `needle` is anywhere in the till's database: in any text or blob of any
    /// row, read with its key (what the till's user sees), or in the bytes of its file
    /// and WAL (what a copy of the disk gives).
    pub fn till_holds(&self, needle: &str) -> bool {
        let on_disk = ["till.db", "till.db-wal"].iter().any(|name| {
            std::fs::read(self.till_dir().join(name))
                .unwrap_or_default()
                .windows(needle.len())
                .any(|w| w == needle.as_bytes())
        });
        let db = self.till_db();
        let tables: Vec<String> = db
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let in_rows = tables.iter().any(|table| {
            let mut rows = db.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
            let columns = rows.column_count();
            let mut rows = rows.query([]).unwrap();
            let mut found = false;
            while let Some(row) = rows.next().unwrap() {
                for column in 0..columns {
                    use rusqlite::types::ValueRef;
                    let bytes = match row.get_ref(column).unwrap() {
                        ValueRef::Text(bytes) | ValueRef::Blob(bytes) => bytes,
                        _ => continue,
                    };
                    found |= bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
                }
            }
            found
        });
        on_disk || in_rows
    }

    /// Shuts the server down (the till sees connection refused).
    pub async fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.shutdown().await.unwrap();
        }
    }

    /// Starts it again on the same port and database file.
    pub async fn restart(&mut self) {
        assert!(self.running.is_none());
        let db = self.dir.path().join("server.db");
        self.running = Some(serve(db, &self.addr.to_string()).await);
    }

    pub async fn control(&self, method: &str, path: &str, body: Value) -> Value {
        let url = format!("{}{path}", self.root());
        let request = match method {
            "POST" => self.http.post(url).json(&body),
            "PATCH" => self.http.patch(url).json(&body),
            "DELETE" => self.http.delete(url),
            _ => self.http.get(url),
        };
        let answer = request.send().await.unwrap();
        let status = answer.status();
        let value: Value = answer.json().await.unwrap();
        assert!(status.is_success(), "{method} {path}: {status} {value}");
        value
    }

    /// Another key of the test's business: (id, secret).
    pub async fn mint_key(&self) -> (String, String) {
        let minted = self
            .control(
                "POST",
                "/_sandbox/keys",
                json!({"business_id": self.business_id, "mode": "test"}),
            )
            .await;
        (
            minted["id"].as_str().unwrap().to_owned(),
            minted["key"].as_str().unwrap().to_owned(),
        )
    }

    /// A GET of the API with the test key.
    pub async fn api_get(&self, path: &str) -> Value {
        let answer = self
            .http
            .get(format!("{}{path}", self.sandbox_url()))
            .bearer_auth(&self.key)
            .send()
            .await
            .unwrap();
        let status = answer.status();
        let value: Value = answer.json().await.unwrap();
        assert!(status.is_success(), "GET {path}: {status} {value}");
        value
    }

    /// A POST of the API with the test key and a fresh Idempotency-Key.
    pub async fn api_post(&self, path: &str, body: Value) -> Value {
        let answer = self
            .http
            .post(format!("{}{path}", self.sandbox_url()))
            .bearer_auth(&self.key)
            .header("idempotency-key", uuid_like())
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = answer.status();
        let value: Value = answer.json().await.unwrap();
        assert!(status.is_success(), "POST {path}: {status} {value}");
        value
    }

    /// A new customer with a fresh points card, made directly on the server.
    pub async fn new_card(&self) -> (CardId, CustomerId) {
        self.new_card_on(&self.points_pass).await
    }

    /// A new customer with a fresh visits card.
    pub async fn new_visit_card(&self) -> (CardId, CustomerId) {
        self.new_card_on(&self.visits_pass).await
    }

    async fn new_card_on(&self, pass_id: &str) -> (CardId, CustomerId) {
        let n = uuid_like();
        let customer = self
            .api_post(
                "/v1/customers",
                json!({"pass_id": pass_id, "name": format!("Test {n}"),
                       "email": format!("{n}@example.com"), "wallet": "apple",
                       "send_welcome": false}),
            )
            .await;
        (
            CardId::new(customer["cards"][0]["id"].as_str().unwrap()),
            CustomerId::new(customer["id"].as_str().unwrap()),
        )
    }

    /// The server's scans of a customer, oldest first, as (kind, points).
    pub async fn scans_of(&self, customer: &CustomerId) -> Vec<(String, i64)> {
        let page = self
            .api_get(&format!("/v1/scans?customer_id={customer}&limit=100"))
            .await;
        let mut scans: Vec<(String, i64)> = page["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["kind"].as_str().unwrap().to_owned(),
                    s["points"].as_i64().unwrap(),
                )
            })
            .collect();
        scans.reverse();
        scans
    }

    /// A claimed (active) gift card of `amount` EUR.
    pub async fn gift_card(&self, amount: u32) -> GiftCardId {
        let card = self
            .api_post(
                "/v1/gift_cards",
                json!({"amount": amount, "currency": "EUR", "locale": "en",
                       "recipient": {"name": "Ana", "email": "ana@example.com"}}),
            )
            .await;
        let id = card["id"].as_str().unwrap().to_owned();
        self.control(
            "POST",
            &format!("/_sandbox/gift_cards/{id}/claim"),
            json!({}),
        )
        .await;
        GiftCardId::new(id)
    }

    /// The server's spend entries of a gift card, oldest first, as amounts.
    pub async fn spends_of(&self, id: &GiftCardId) -> Vec<String> {
        let card = self.api_get(&format!("/v1/gift_cards/{id}")).await;
        let mut spends: Vec<String> = card["transactions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["type"] == "spend")
            .map(|t| t["amount"].as_str().unwrap().to_owned())
            .collect();
        spends.reverse();
        spends
    }

    pub async fn fault(&self, body: Value) {
        self.control("POST", "/_sandbox/faults", body).await;
    }

    /// Opens a counter on the till directory and connects it to the sandbox.
    pub async fn counter(&self) -> Counter {
        self.counter_with(test_config()).await
    }

    /// Opens a counter on a till nobody was ever signed in at (no PIN yet), connected.
    pub async fn counter_before_anyone(&self) -> Counter {
        let counter = self.open_bare(test_config()).await;
        counter
            .connect(&self.sandbox_url(), &self.key)
            .await
            .expect("the sandbox accepts the test key");
        counter
    }

    pub async fn counter_with(&self, config: Config) -> Counter {
        let counter = self.open_with(config).await;
        counter
            .connect(&self.sandbox_url(), &self.key)
            .await
            .expect("the sandbox accepts the test key");
        counter
    }

    /// Replaces the settings row of the closed till with `value` (a damaged row, or
    /// one an earlier version left).
    pub fn replace_settings(&self, value: &str) {
        let db = self.till_db();
        db.execute(
            "UPDATE settings SET value = ?1 WHERE name = 'settings'",
            [value],
        )
        .unwrap();
    }

    /// Opens the till directory again, as after a restart (the key is kept), and its
    /// owner signs in.
    pub async fn open_with(&self, config: Config) -> Counter {
        let counter = self.open_bare(config).await;
        // A kiosk is no person, and a copy that only reads the till signs no one in.
        let reading_only = counter
            .troubles()
            .unwrap()
            .iter()
            .any(|t| matches!(t, counter_core::Trouble::HeldElsewhere { .. }));
        if !counter.kiosk().unwrap() && !reading_only {
            owner_signs_in(&counter);
        }
        counter
    }

    /// Opens the till directory, nobody signed in.
    pub async fn open_bare(&self, config: Config) -> Counter {
        Counter::open(
            &self.till_dir(),
            config,
            Arc::new(self.clock.clone()),
            Arc::new(UuidIds),
        )
        .await
        .expect("the till opens")
    }
}

async fn serve(db: PathBuf, addr: &str) -> Running {
    let sandbox = Sandbox::open(loyalty_sandbox::Config {
        db: Some(db),
        control: true,
        demo: false,
    })
    .unwrap();
    let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
    sandbox.serve(listener).await.unwrap()
}

pub fn uuid_like() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Short waits, so tests of retries take seconds.
pub fn test_config() -> Config {
    Config {
        retry: RetryPolicy {
            max_attempts: u32::MAX,
            initial_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(500),
            jitter: Jitter::None,
        },
        probe_offline: Duration::from_millis(200),
        probe_online: Duration::from_secs(2),
        request_timeout: Duration::from_secs(5),
        connect_timeout: Duration::from_secs(1),
        interactive_wait: Duration::from_secs(2),
        secrets: SecretsConfig::FileOnly,
        ..Config::default()
    }
}

/// The owner's PIN on every test till.
pub const PIN: &str = "2468";

/// The PIN of the cashier some tests add.
pub const CASHIER_PIN: &str = "1357";

/// The till's owner signs in with their PIN (choosing it first on a till without one):
/// every test till is worked by its owner unless the test says otherwise.
pub fn owner_signs_in(counter: &Counter) {
    if counter.pin_status(None).unwrap().set {
        counter
            .sign_in(&Credential::Pin {
                person: PersonId(1),
                pin: PIN.to_owned(),
            })
            .expect("the owner signs in");
    } else {
        counter
            .set_pin(PIN, counter_core::PinFor::OneAction)
            .unwrap();
    }
}

/// What a test did before replacing a kept key: a manager is at the till.
pub fn manager_for_one_action(counter: &Counter) {
    owner_signs_in(counter);
}

/// The owner adds a cashier, Anna (once), and she signs in: what she may not do, the
/// core refuses.
pub fn cashier_signs_in(counter: &Counter) -> PersonId {
    owner_signs_in(counter);
    let anna = match counter
        .people()
        .unwrap()
        .into_iter()
        .find(|p| p.name == "Anna")
    {
        Some(anna) => anna.id,
        None => {
            counter
                .add_person("Anna", Role::Cashier, CASHIER_PIN)
                .unwrap()
                .id
        }
    };
    counter
        .sign_in(&Credential::Pin {
            person: anna,
            pin: CASHIER_PIN.to_owned(),
        })
        .expect("Anna signs in");
    anna
}

/// The page's call as the shell's door admits it, before its command runs.
pub fn door(counter: &Counter, action: Action, arguments: Value) -> Result<(), Error> {
    counter.admit(action, &arguments)
}

/// A cashier's call the core refuses for want of a manager, then the owner's PIN typed
/// on her screen for it, and the same call admitted: what the page does.
pub fn approved(counter: &Counter, action: Action, arguments: Value) {
    assert!(
        matches!(
            door(counter, action, arguments.clone()),
            Err(Error::Pin(counter_core::pin::PinError::ManagerOnly))
        ),
        "{action:?} waits for a manager"
    );
    counter
        .check_pin(None, PIN, counter_core::PinFor::OneAction)
        .expect("the owner approves");
    door(counter, action, arguments).expect("the approved call goes on");
}

/// Waits until the queue is empty (nothing queued or sending).
pub async fn drain(counter: &Counter) {
    assert!(
        counter.drained(Duration::from_secs(20)).await.unwrap(),
        "the queue did not drain: {:#?}",
        counter.queue(true, 50).unwrap()
    );
}

/// Waits for an item to reach `state`.
pub async fn wait_for_state(counter: &Counter, item: ItemId, state: ItemState) {
    let mut events = counter.subscribe();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        if counter.item(item).unwrap().state == state {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "item {item} never reached {state:?}: {:#?}",
            counter.item(item).unwrap()
        );
        let _ = tokio::time::timeout(Duration::from_millis(100), events.recv()).await;
    }
}

/// Waits for an event matching `pred`.
pub async fn wait_for_event(
    events: &mut tokio::sync::broadcast::Receiver<Event>,
    pred: impl Fn(&Event) -> bool,
) -> Event {
    let deadline = Duration::from_secs(20);
    tokio::time::timeout(deadline, async {
        loop {
            match events.recv().await {
                Ok(event) if pred(&event) => return event,
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(err) => panic!("{err}"),
            }
        }
    })
    .await
    .expect("the event came")
}
