//! Webhook deliveries received on a real local HTTP listener, each signature
//! verified with the endpoint's secret; retries, health fields and pausing moved by
//! the server's clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::sync::mpsc;

use crate::helpers::{Server, Shop};

/// One request the listener received.
#[derive(Debug)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    raw: String,
    body: Value,
}

/// A local endpoint that answers with a status the test sets.
struct Receiver {
    url: String,
    status: Arc<AtomicU16>,
    rx: mpsc::UnboundedReceiver<Received>,
}

impl Receiver {
    async fn start() -> Receiver {
        let (tx, rx) = mpsc::unbounded_channel();
        let status = Arc::new(AtomicU16::new(200));
        let answer = status.clone();
        let app = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: Bytes| {
                let tx = tx.clone();
                let answer = answer.clone();
                async move {
                    let h = |n: &str| {
                        headers
                            .get(n)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("")
                            .to_owned()
                    };
                    let raw = String::from_utf8_lossy(&body).into_owned();
                    let _ = tx.send(Received {
                        id: h("webhook-id"),
                        timestamp: h("webhook-timestamp"),
                        signature: h("webhook-signature"),
                        body: serde_json::from_str(&raw).unwrap_or(Value::Null),
                        raw,
                    });
                    StatusCode::from_u16(answer.load(Ordering::SeqCst)).unwrap()
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!(
            "http://{}/hook?token=kept-private",
            listener.local_addr().unwrap()
        );
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Receiver { url, status, rx }
    }

    fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    async fn next(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(10), self.rx.recv())
            .await
            .expect("a delivery within 10 s")
            .expect("the listener runs")
    }

    /// Nothing more arrives within a while.
    async fn quiet(&mut self) {
        assert!(
            tokio::time::timeout(Duration::from_millis(700), self.rx.recv())
                .await
                .is_err(),
            "no delivery expected"
        );
    }
}

/// Checks the Standard Webhooks signature of a delivery with the endpoint's secret.
fn verify(secret: &str, r: &Received) {
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").expect("whsec_ secret"))
        .expect("base64 secret");
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{}.{}.{}", r.id, r.timestamp, r.raw).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    assert_eq!(r.signature, expected, "signature of {}", r.raw);
    assert!(r.timestamp.parse::<i64>().is_ok());
    assert_eq!(r.id, r.body["id"], "webhook-id is the event id");
    let keys: Vec<&String> = r.body.as_object().unwrap().keys().collect();
    let mut keys: Vec<&str> = keys.into_iter().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["created_at", "data", "id", "livemode", "type"]);
}

async fn endpoint(
    s: &Server,
    shop: &Shop,
    url: &str,
    events: &[&str],
    test_events: bool,
) -> (String, String) {
    let e = s
        .ok(
            "POST",
            "/webhook_endpoints",
            json!({"business_id": shop.id, "url": url, "events": events, "test_events": test_events}),
        )
        .await;
    (
        e["id"].as_str().unwrap().to_owned(),
        e["secret"].as_str().unwrap().to_owned(),
    )
}

async fn endpoint_state(s: &Server, shop: &Shop, id: &str) -> Value {
    // Wait for any attempt in progress to be recorded.
    s.advance(0).await;
    shop.live
        .all("/v1/webhook_endpoints")
        .await
        .into_iter()
        .find(|e| e["id"] == id)
        .expect("the endpoint is listed")
}

const ALL: [&str; 4] = [
    "customer.created",
    "scan.recorded",
    "gift_card.spent",
    "scan.voided",
];

#[tokio::test]
async fn every_event_is_posted_signed_to_a_subscribing_live_endpoint() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let mut hook = Receiver::start().await;
    let (id, secret) = endpoint(&s, &shop, &hook.url, &ALL, false).await;
    let pass = shop.pass_id.clone().unwrap();

    let (customer, card) = shop.live.enrol(&pass, "ada@example.com").await;
    let created = hook.next().await;
    verify(&secret, &created);
    assert_eq!(created.body["type"], "customer.created");
    assert_eq!(created.body["livemode"], true);
    assert_eq!(created.body["data"]["object"]["id"], customer);

    shop.live
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await
        .assert_ok();
    let scanned = hook.next().await;
    verify(&secret, &scanned);
    assert_eq!(scanned.body["type"], "scan.recorded");
    assert_eq!(scanned.body["data"]["object"]["card_id"], card);

    s.ok("POST", "/undo", json!({"card_id": card})).await;
    let voided = hook.next().await;
    verify(&secret, &voided);
    assert_eq!(voided.body["type"], "scan.voided");
    assert_eq!(voided.body["data"]["customer_pass_id"], card);
    assert_eq!(voided.body["data"]["kind"], "visit");
    assert!(voided.body["data"].get("customer_deleted").is_none());

    let gc = shop
        .live
        .post(
            "/v1/gift_cards",
            json!({"amount": 20, "currency": "EUR", "recipient": {"name": "Ada", "email": "ada@example.com"}}),
        )
        .await
        .assert_ok()
        .clone();
    let gc_id = gc["id"].as_str().unwrap();
    s.ok("POST", &format!("/gift_cards/{gc_id}/claim"), json!({}))
        .await;
    shop.live
        .post(
            &format!("/v1/gift_cards/{gc_id}/payments"),
            json!({"amount_minor": 500, "currency": "EUR"}),
        )
        .await
        .assert_ok();
    let spent = hook.next().await;
    verify(&secret, &spent);
    assert_eq!(spent.body["type"], "gift_card.spent");
    assert_eq!(spent.body["data"]["object"]["amount_minor"], 500);

    // Health after successes, and one webhook_delivery effect per attempt.
    let e = endpoint_state(&s, &shop, &id).await;
    assert_eq!(
        e["url"],
        hook.url.split('?').next().unwrap(),
        "the query string is not shown"
    );
    assert_eq!(e["consecutive_failures"], 0);
    assert_eq!(e["failing_since"], Value::Null);
    assert!(e["last_success_at"].is_string());
    assert_eq!(e["last_delivery"]["status"], "succeeded");
    assert_eq!(e["last_delivery"]["http_status"], 200);
    let effects = s.effects(&shop.id).await;
    let attempts: Vec<_> = effects
        .iter()
        .filter(|x| x["kind"] == "webhook_delivery")
        .collect();
    assert_eq!(attempts.len(), 4);
    assert!(attempts.iter().all(|a| a["endpoint_id"] == id.as_str()
        && a["livemode"] == true
        && a["http_status"] == 200
        && a["event"].is_string()));
    hook.quiet().await;
    s.stop().await;
}

#[tokio::test]
async fn test_events_go_only_to_endpoints_that_opted_in_with_livemode_false() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let mut live_only = Receiver::start().await;
    let mut opted_in = Receiver::start().await;
    let mut other_events = Receiver::start().await;
    endpoint(&s, &shop, &live_only.url, &ALL, false).await;
    let (_, secret) = endpoint(&s, &shop, &opted_in.url, &ALL, true).await;
    endpoint(&s, &shop, &other_events.url, &["gift_card.spent"], true).await;

    shop.test
        .enrol(&shop.sandbox_pass_id, "sam@example.com")
        .await;
    let got = opted_in.next().await;
    verify(&secret, &got);
    assert_eq!(got.body["type"], "customer.created");
    assert_eq!(got.body["livemode"], false);
    live_only.quiet().await;
    other_events.quiet().await;
    let effects = s.effects(&shop.id).await;
    let attempt = effects
        .iter()
        .find(|x| x["kind"] == "webhook_delivery")
        .unwrap();
    assert_eq!(attempt["livemode"], false);
    assert_eq!(attempt["place"], "sandbox");
    s.stop().await;
}

#[tokio::test]
async fn a_failed_delivery_is_retried_later_by_the_server_clock_and_health_follows() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let mut hook = Receiver::start().await;
    hook.answer(500);
    let (id, secret) = endpoint(&s, &shop, &hook.url, &["customer.created"], false).await;
    shop.live
        .enrol(shop.pass_id.as_deref().unwrap(), "bo@example.com")
        .await;
    let first = hook.next().await;
    verify(&secret, &first);
    let e = endpoint_state(&s, &shop, &id).await;
    assert_eq!(e["status"], "active");
    assert_eq!(e["consecutive_failures"], 1);
    let failing_since = e["failing_since"].clone();
    assert!(failing_since.is_string());
    assert_eq!(e["last_success_at"], Value::Null);
    assert_eq!(e["last_delivery"]["status"], "failed");
    assert_eq!(e["last_delivery"]["http_status"], 500);

    // The first retry waits 5 s, the second 30 s more.
    s.advance(3).await;
    hook.quiet().await;
    s.advance(3).await;
    let second = hook.next().await;
    verify(&secret, &second);
    assert_eq!(second.id, first.id, "the same event id on every attempt");
    assert_eq!(second.raw, first.raw, "the same body on every attempt");
    let e = endpoint_state(&s, &shop, &id).await;
    assert_eq!(e["consecutive_failures"], 2);
    assert_eq!(e["failing_since"], failing_since);

    hook.answer(204);
    s.advance(20).await;
    hook.quiet().await;
    s.advance(11).await;
    verify(&secret, &hook.next().await);
    let e = endpoint_state(&s, &shop, &id).await;
    assert_eq!(e["consecutive_failures"], 0);
    assert_eq!(e["failing_since"], Value::Null);
    assert!(e["last_success_at"].is_string());
    assert_eq!(e["last_delivery"]["status"], "succeeded");
    assert_eq!(e["last_delivery"]["http_status"], 204);
    let statuses: Vec<Value> = s
        .effects(&shop.id)
        .await
        .into_iter()
        .filter(|x| x["kind"] == "webhook_delivery")
        .map(|x| x["http_status"].clone())
        .collect();
    assert_eq!(statuses, [json!(500), json!(500), json!(204)]);
    // Delivered: no more attempts.
    s.advance(86_400).await;
    hook.quiet().await;
    s.stop().await;
}

#[tokio::test]
async fn an_endpoint_is_paused_after_10_consecutive_failures_and_then_receives_nothing() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let mut hook = Receiver::start().await;
    hook.answer(503);
    let (id, _) = endpoint(&s, &shop, &hook.url, &["customer.created"], false).await;
    let pass = shop.pass_id.clone().unwrap();
    shop.live.enrol(&pass, "one@example.com").await;
    shop.live.enrol(&pass, "two@example.com").await;
    hook.next().await;
    hook.next().await;
    // Each event is tried 7 times (at 0 s, then after 5 s, 30 s, 2 min, 10 min, 1 h, 6 h).
    let mut received = 2;
    for _ in 0..8 {
        s.advance(6 * 3600).await;
        while let Ok(Some(_)) =
            tokio::time::timeout(Duration::from_millis(300), hook.rx.recv()).await
        {
            received += 1;
        }
    }
    let e = endpoint_state(&s, &shop, &id).await;
    assert_eq!(e["status"], "paused");
    assert_eq!(e["paused_reason"], "consecutive_failures");
    assert!(e["paused_at"].is_string());
    // Attempts already on their way when the 10th failure paused it still count.
    let failures = e["consecutive_failures"].as_i64().unwrap();
    assert!((10..=11).contains(&failures), "{failures}");
    assert_eq!(received, failures, "nothing after the pause");
    shop.live.enrol(&pass, "three@example.com").await;
    hook.quiet().await;
    s.stop().await;
}

#[tokio::test]
async fn an_endpoint_that_does_not_answer_is_a_failure_without_http_status() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    // A port that was free a moment ago: nothing listens there.
    let closed = {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        l.local_addr().unwrap()
    };
    let (id, _) = endpoint(
        &s,
        &shop,
        &format!("http://{closed}/hook"),
        &["customer.created"],
        false,
    )
    .await;
    shop.live
        .enrol(shop.pass_id.as_deref().unwrap(), "x@example.com")
        .await;
    let mut e = endpoint_state(&s, &shop, &id).await;
    for _ in 0..50 {
        if e["last_delivery"].is_object() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        e = endpoint_state(&s, &shop, &id).await;
    }
    assert_eq!(e["last_delivery"]["status"], "failed");
    assert_eq!(e["last_delivery"]["http_status"], Value::Null);
    assert_eq!(e["consecutive_failures"], 1);
    s.stop().await;
}

#[tokio::test]
async fn scan_voided_carries_the_2026_11_fields_and_marks_a_deleted_customer() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let mut hook = Receiver::start().await;
    let (_, secret) = endpoint(&s, &shop, &hook.url, &["scan.voided"], false).await;
    let pass = shop.pass_id.clone().unwrap();
    let (customer, card) = shop.live.enrol(&pass, "gone@example.com").await;
    let scan = shop
        .live
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await
        .assert_ok()
        .clone();
    s.ok("DELETE", &format!("/customers/{customer}"), json!(null))
        .await;
    s.ok("POST", "/undo", json!({"card_id": card})).await;
    let voided = hook.next().await;
    verify(&secret, &voided);
    let d = &voided.body["data"];
    assert_eq!(d["receipt_id"], scan["id"]);
    assert!(!d["receipt_id"].as_str().unwrap().is_empty());
    assert_eq!(d["kind"], "visit");
    assert_eq!(d["pass_id"], pass);
    assert_eq!(d["customer_id"], customer);
    assert_eq!(d["customer_pass_id"], card);
    assert_eq!(d["gift_card_id"], Value::Null);
    assert_eq!(d["new_value"], 0);
    assert_eq!(d["rewards_available"], 0);
    assert_eq!(d["balance"], Value::Null);
    for field in ["scanned_at", "timestamp", "customer_deleted_at"] {
        let text = d[field].as_str().unwrap_or_else(|| panic!("{field}"));
        assert!(text.parse::<jiff::Timestamp>().is_ok(), "{field}: {text}");
    }
    assert_eq!(d["customer_deleted"], true);
    for field in ["name", "email", "phone"] {
        assert!(
            d[field].is_null(),
            "no contact detail of a deleted customer: {field}"
        );
    }
    s.stop().await;
}
