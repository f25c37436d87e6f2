use loyalty_sandbox::Config;
use serde_json::json;

use crate::helpers::{Server, idem, read};

#[tokio::test]
async fn control_routes_answer_404_unless_turned_on() {
    let s = Server::start_with(Config::default()).await;
    let a = s
        .control("POST", "/businesses", Some(json!({"name": "X"})))
        .await;
    a.assert_problem(404, "not_found");
    s.control("GET", "/effects?business_id=biz_x", None)
        .await
        .assert_problem(404, "not_found");
    s.stop().await;
}

#[tokio::test]
async fn businesses_are_created_and_changed_with_404_for_unknown_ids_and_400_for_bad_bodies() {
    let s = Server::start().await;
    let b = s
        .ok(
            "POST",
            "/businesses",
            json!({"name": "Bakery", "plan": "free", "time_zone": "Europe/Paris", "customer_limit": 50, "monthly_messages": 3,
                   "pass": {"name": "Bread card", "loyalty_type": "points", "goal": 200, "reward_title": "Free loaf", "locale": "fr"}}),
        )
        .await;
    assert!(b["id"].as_str().unwrap().starts_with("biz_"));
    assert!(b["pass_id"].is_string() && b["sandbox_pass_id"].is_string());
    assert_eq!(b["time_zone"], "Europe/Paris");
    let id = b["id"].as_str().unwrap();
    let changed = s
        .ok("PATCH", &format!("/businesses/{id}"), json!({"plan": "enterprise", "customer_limit": 10, "rate_limits": {"window_seconds": 30}}))
        .await;
    assert_eq!(changed["plan"], "enterprise");
    assert_eq!(changed["customer_limit"], 10);
    assert_eq!(changed["rate_limits"]["window_seconds"], 30);
    assert_eq!(changed["rate_limits"]["requests_per_key"], 6000);
    s.control(
        "PATCH",
        "/businesses/biz_nope",
        Some(json!({"plan": "pro"})),
    )
    .await
    .assert_problem(404, "not_found");
    s.control(
        "POST",
        "/businesses",
        Some(json!({"time_zone": "Mars/Base"})),
    )
    .await
    .assert_problem(400, "invalid_request");
    s.control("POST", "/businesses", Some(json!({"pass": {"goal": 0}})))
        .await
        .assert_problem(400, "invalid_request");
    s.control(
        "PATCH",
        &format!("/businesses/{id}"),
        Some(json!({"customer_limit": "lots"})),
    )
    .await
    .assert_problem(400, "invalid_request");
    // The sandbox pass follows the live pass's rules.
    let key = s.key(id, "test", None).await;
    let pass = s
        .api("sandbox", &key)
        .get(&format!(
            "/v1/passes/{}",
            b["sandbox_pass_id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(pass.assert_ok()["loyalty_type"], "points");
    assert_eq!(pass.body["goal"], 200);
    let scans = s.api("sandbox", &key).all("/v1/scans").await;
    assert_eq!(scans.len(), 200);
    assert!(scans.iter().all(|x| x["kind"] == "points"));
}

#[tokio::test]
async fn passes_and_keys_are_added_and_keys_revoked() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let pass = s
        .ok("POST", "/passes", json!({"business_id": shop.id, "place": "sandbox", "name": "Tea card", "loyalty_type": "points", "goal": 50, "reward_title": "Tea", "locale": "en"}))
        .await;
    assert_eq!(pass["object"], "pass");
    assert_eq!(shop.test.all("/v1/passes").await.len(), 2);
    s.control(
        "POST",
        "/passes",
        Some(json!({"business_id": "biz_nope", "place": "live"})),
    )
    .await
    .assert_problem(404, "not_found");
    s.control(
        "POST",
        "/passes",
        Some(json!({"business_id": shop.id, "place": "moon"})),
    )
    .await
    .assert_problem(400, "invalid_request");
    let key = s
        .ok(
            "POST",
            "/keys",
            json!({"business_id": shop.id, "mode": "test", "scopes": ["read"], "expires_at": null}),
        )
        .await;
    assert!(key["key"].as_str().unwrap().starts_with("lc_test_"));
    assert!(
        key["key"]
            .as_str()
            .unwrap()
            .starts_with(key["prefix"].as_str().unwrap())
    );
    s.control(
        "POST",
        "/keys",
        Some(json!({"business_id": shop.id, "mode": "test", "scopes": ["admin"]})),
    )
    .await
    .assert_problem(400, "invalid_request");
    s.control(
        "POST",
        "/keys",
        Some(json!({"business_id": "biz_nope", "mode": "live"})),
    )
    .await
    .assert_problem(404, "not_found");
    s.control("POST", "/keys/key_nope/revoke", Some(json!({})))
        .await
        .assert_problem(404, "not_found");
    s.control("POST", "/clock", Some(json!({"advance_seconds": "soon"})))
        .await
        .assert_problem(400, "invalid_request");
    let clock = s
        .ok("POST", "/clock", json!({"advance_seconds": 3600}))
        .await;
    let now: jiff::Timestamp = clock["now"].as_str().unwrap().parse().unwrap();
    assert!(now > jiff::Timestamp::now() + jiff::SignedDuration::from_mins(59));

    // Answers are dated by the server's clock, so a client sees how far off it is.
    let shop = s.shop(json!({})).await;
    let answer = shop.test.get("/v1/me").await;
    let date = answer.header("date").unwrap();
    let dated = jiff::fmt::rfc2822::parse(date)
        .unwrap_or_else(|e| panic!("{date}: {e}"))
        .timestamp();
    assert!(date.ends_with(" GMT"), "{date}");
    assert!(
        dated.duration_since(now).as_secs().abs() <= 5,
        "Date {date}, server clock {now}"
    );
}

#[tokio::test]
async fn undo_takes_back_the_last_scan_or_spend_within_five_seconds_and_records_scan_voided() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "undo@example.com")
        .await;
    shop.test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await
        .assert_ok();
    let undone = s.ok("POST", "/undo", json!({"card_id": card})).await;
    assert_eq!(undone["visits"], 0);
    assert!(undone["last_visit_at"].is_null());
    assert_eq!(
        shop.test
            .all(&format!("/v1/scans?customer_id={customer}"))
            .await
            .len(),
        0
    );
    let voided = s
        .events(&shop.id)
        .await
        .into_iter()
        .find(|e| e["type"] == "scan.voided")
        .unwrap();
    let data = &voided["data"];
    for f in [
        "receipt_id",
        "kind",
        "pass_id",
        "customer_id",
        "customer_pass_id",
        "gift_card_id",
        "new_value",
        "rewards_available",
        "balance",
        "scanned_at",
        "timestamp",
    ] {
        assert!(data.get(f).is_some(), "{f}");
    }
    assert_eq!(data["kind"], "visit");
    assert_eq!(data["customer_pass_id"], card);
    assert_eq!(data["new_value"], 0);
    // After five seconds: refused.
    shop.test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await
        .assert_ok();
    s.advance(6).await;
    s.control("POST", "/undo", Some(json!({"card_id": card})))
        .await
        .assert_problem(409, "undo_window_passed");
    // A gift-card spend, with the customer deleted meanwhile.
    let gc = shop
        .test
        .post("/v1/gift_cards", json!({"amount": 10, "currency": "EUR", "recipient": {"name": "U", "email": "undo@example.com"}}))
        .await;
    let gc_id = gc.assert_ok()["id"].as_str().unwrap().to_owned();
    assert_eq!(gc.body["customer_id"], customer);
    s.ok("POST", &format!("/gift_cards/{gc_id}/claim"), json!({}))
        .await;
    shop.test
        .post(
            &format!("/v1/gift_cards/{gc_id}/payments"),
            json!({"amount_minor": 1000, "currency": "EUR"}),
        )
        .await
        .assert_ok();
    s.ok("DELETE", &format!("/customers/{customer}"), json!(null))
        .await;
    let back = s.ok("POST", "/undo", json!({"gift_card_id": gc_id})).await;
    assert_eq!(back["status"], "active");
    assert_eq!(back["balance"], "10.00");
    assert!(back["recipient"].is_null());
    assert_eq!(back["customer_deleted"], true);
    let voided: Vec<_> = s
        .events(&shop.id)
        .await
        .into_iter()
        .filter(|e| e["type"] == "scan.voided")
        .collect();
    let last = &voided.last().unwrap()["data"];
    assert_eq!(last["kind"], "gift_card_spend");
    assert_eq!(last["balance"], 10.0);
    assert_eq!(last["customer_deleted"], true);
    assert!(last["customer_deleted_at"].is_string());
    s.control("POST", "/undo", Some(json!({"card_id": "card_nope"})))
        .await
        .assert_problem(404, "not_found");
    s.control("POST", "/undo", Some(json!({})))
        .await
        .assert_problem(400, "invalid_request");
}

#[tokio::test]
async fn claim_cancel_card_status_and_customer_deletion_answer_404_for_unknown_ids() {
    let s = Server::start().await;
    s.control("POST", "/gift_cards/gc_nope/claim", Some(json!({})))
        .await
        .assert_problem(404, "not_found");
    s.control("POST", "/gift_cards/gc_nope/cancel", Some(json!({})))
        .await
        .assert_problem(404, "not_found");
    s.control(
        "POST",
        "/cards/card_nope/status",
        Some(json!({"status": "deleted"})),
    )
    .await
    .assert_problem(404, "not_found");
    s.control("DELETE", "/customers/cus_nope", None)
        .await
        .assert_problem(404, "not_found");
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "st@example.com")
        .await;
    s.control(
        "POST",
        &format!("/cards/{card}/status"),
        Some(json!({"status": "lost"})),
    )
    .await
    .assert_problem(400, "invalid_request");
    s.control("POST", "/clock", Some(json!("not an object")))
        .await
        .assert_problem(400, "invalid_request");
}

#[tokio::test]
async fn webhook_endpoints_are_registered_with_a_secret() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let e = s
        .ok("POST", "/webhook_endpoints", json!({"business_id": shop.id, "url": "http://127.0.0.1:9/hook", "events": ["gift_card.spent"], "test_events": true}))
        .await;
    assert!(e["secret"].as_str().unwrap().starts_with("whsec_"));
    assert_eq!(e["test_events"], true);
    assert_eq!(e["format"], "v2");
    s.control(
        "POST",
        "/webhook_endpoints",
        Some(json!({"business_id": shop.id, "url": "ftp://x"})),
    )
    .await
    .assert_problem(400, "invalid_request");
    s.control(
        "POST",
        "/webhook_endpoints",
        Some(json!({"business_id": "biz_nope", "url": "http://x"})),
    )
    .await
    .assert_problem(404, "not_found");
}

#[tokio::test]
async fn effects_are_listed_oldest_first_as_a_list_object() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    shop.test
        .post("/v1/customers", json!({"pass_id": shop.sandbox_pass_id, "email": "e1@example.com", "send_welcome": true}))
        .await
        .assert_ok();
    let a = s
        .control("GET", &format!("/effects?business_id={}", shop.id), None)
        .await;
    let body = a.assert_ok();
    assert_eq!(body["object"], "list");
    assert_eq!(body["has_more"], false);
    assert!(body["next_cursor"].is_null());
    let kinds: Vec<&str> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["team_notice", "email"]);
    assert!(body["data"][0]["at"].as_str().unwrap().ends_with('Z'));
    s.control("GET", "/effects", None)
        .await
        .assert_problem(400, "invalid_request");
    s.control("GET", "/effects?business_id=biz_nope", None)
        .await
        .assert_problem(404, "not_found");
}

#[tokio::test]
async fn seed_adds_generated_customers_and_scans_deterministically() {
    let s = Server::start().await;
    let a = s.shop(json!({})).await;
    let b = s.shop(json!({})).await;
    let added = s
        .ok(
            "POST",
            "/seed",
            json!({"business_id": a.id, "place": "live", "customers": 40, "scans": 300, "seed": 7}),
        )
        .await;
    assert_eq!(added["customers"], 40);
    assert!(added["scans"].as_i64().unwrap() > 250);
    s.ok(
        "POST",
        "/seed",
        json!({"business_id": b.id, "place": "live", "customers": 40, "scans": 300, "seed": 7}),
    )
    .await;
    let names = |list: Vec<serde_json::Value>| {
        let mut n: Vec<String> = list
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(
        names(a.live.all("/v1/customers").await),
        names(b.live.all("/v1/customers").await)
    );
    assert_eq!(
        a.live.all("/v1/scans").await.len() as i64,
        added["scans"].as_i64().unwrap()
    );
    s.control(
        "POST",
        "/seed",
        Some(json!({"business_id": a.id, "place": "sandbox", "customers": 476})),
    )
    .await
    .assert_problem(400, "invalid_request");
    s.control(
        "POST",
        "/seed",
        Some(json!({"business_id": "biz_nope", "place": "live"})),
    )
    .await
    .assert_problem(404, "not_found");
}

#[tokio::test]
async fn an_injected_fault_answers_its_problem_for_its_count_without_doing_anything() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let armed = s
        .ok(
            "POST",
            "/faults",
            json!({"path": "/v1/customers", "count": 2, "status": 500, "code": "internal_error"}),
        )
        .await;
    assert_eq!(armed, json!({"armed": 2}));
    for _ in 0..2 {
        let a = shop
            .test
            .post(
                "/v1/customers",
                json!({"pass_id": shop.sandbox_pass_id, "email": "f@example.com"}),
            )
            .await;
        a.assert_problem(500, "internal_error");
    }
    assert_eq!(
        shop.test
            .all("/v1/customers?email=f@example.com")
            .await
            .len(),
        0,
        "nothing done"
    );
    shop.test
        .post(
            "/v1/customers",
            json!({"pass_id": shop.sandbox_pass_id, "email": "f@example.com"}),
        )
        .await
        .assert_ok();
    s.control(
        "POST",
        "/faults",
        Some(json!({"path": "/v1/x", "status": 500})),
    )
    .await
    .assert_problem(400, "invalid_request");
}

#[tokio::test]
async fn drop_after_commit_closes_the_connection_without_an_answer_and_keeps_the_write() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "drop@example.com")
        .await;
    s.ok(
        "POST",
        "/faults",
        json!({"path": "/v1/scans", "count": 1, "drop_after_commit": true}),
    )
    .await;
    let key = idem();
    let sent = s
        .http
        .post(format!("{}/sandbox/v1/scans", s.root))
        .bearer_auth(&shop.test.key)
        .header("Idempotency-Key", &key)
        .json(&json!({"card_id": card, "kind": "visit"}))
        .send()
        .await;
    assert!(
        sent.is_err(),
        "the client sees a transport error, not an answer"
    );
    let scans = shop
        .test
        .all(&format!("/v1/scans?customer_id={customer}"))
        .await;
    assert_eq!(scans.len(), 1, "the write was committed");
    // The retry with the same key replays the committed answer.
    let retry = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    assert_eq!(retry.header("idempotent-replayed"), Some("true"));
    assert_eq!(retry.body["card"]["visits"], 1);
    // The server still serves.
    shop.test.get("/v1/me").await.assert_ok();
}

#[tokio::test]
async fn a_control_body_over_the_size_limit_answered_axum_plain_text_413_and_now_answers_a_400_problem()
 {
    let s = Server::start().await;
    let big = format!("{{\"name\": \"{}\"}}", "a".repeat(3 * 1024 * 1024));
    let resp = s
        .http
        .post(format!("{}/_sandbox/businesses", s.root))
        .header("Content-Type", "application/json")
        .body(big.clone())
        .send()
        .await
        .unwrap();
    let a = read(resp).await;
    a.assert_problem(400, "invalid_request");
    assert_eq!(a.body["param"], "body");
    // The API's own writes answer a problem too (422, the body is refused).
    let shop = s.shop(json!({})).await;
    let resp = s
        .http
        .post(format!("{}/sandbox/v1/scans", s.root))
        .bearer_auth(&shop.test.key)
        .header("Idempotency-Key", idem())
        .header("Content-Type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    let a = read(resp).await;
    a.assert_problem(422, "validation_failed");
    assert_eq!(a.body["errors"][0]["code"], "too_long");
}

#[tokio::test]
async fn a_plan_that_is_not_free_pro_or_enterprise_was_accepted_and_now_answers_400() {
    let s = Server::start().await;
    for body in [json!({"plan": "moon"}), json!({"plan": 3})] {
        s.control("POST", "/businesses", Some(body))
            .await
            .assert_problem(400, "invalid_request");
    }
    let b = s.ok("POST", "/businesses", json!({"plan": "pro"})).await;
    assert_eq!(b["plan_name"], "Pro");
    let id = b["id"].as_str().unwrap();
    let a = s
        .control(
            "PATCH",
            &format!("/businesses/{id}"),
            Some(json!({"plan": "gold"})),
        )
        .await;
    a.assert_problem(400, "invalid_request");
    assert_eq!(a.body["errors"][0]["param"], "plan");
}

#[tokio::test]
async fn a_huge_rate_limit_window_crashed_the_next_request_and_is_now_refused_with_400() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for limits in [
        json!({"window_seconds": i64::MAX}),
        json!({"window_seconds": 86_401}),
        json!({"requests_per_key": 0}),
        json!({"writes_per_key": 1_000_000_001_i64}),
    ] {
        let a = s
            .control(
                "PATCH",
                &format!("/businesses/{}", shop.id),
                Some(json!({ "rate_limits": limits })),
            )
            .await;
        a.assert_problem(400, "invalid_request");
        assert!(
            a.body["errors"][0]["param"]
                .as_str()
                .unwrap()
                .starts_with("rate_limits."),
            "{}",
            a.body
        );
    }
    let me = shop.test.get("/v1/me").await;
    assert_eq!(me.assert_ok()["rate_limits"]["window_seconds"], 60);
    s.ok(
        "PATCH",
        &format!("/businesses/{}", shop.id),
        json!({"rate_limits": {"window_seconds": 86_400}}),
    )
    .await;
    let me = shop.test.get("/v1/me").await;
    assert_eq!(me.assert_ok()["rate_limits"]["window_seconds"], 86_400);
    assert!(
        me.header("ratelimit-policy")
            .unwrap()
            .ends_with("\"writes\";q=1200;w=86400")
    );
}

#[tokio::test]
async fn a_fault_on_a_sandbox_path_also_hit_the_live_place_and_now_stays_in_the_sandbox() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    s.ok(
        "POST",
        "/faults",
        json!({"path": "/sandbox/v1/me", "count": 1, "status": 503, "code": "service_unavailable"}),
    )
    .await;
    shop.live.get("/v1/me").await.assert_ok();
    shop.test
        .get("/v1/me")
        .await
        .assert_problem(503, "service_unavailable");
    shop.test.get("/v1/me").await.assert_ok();
    // An API path meets both places; a prefix is matched by whole segments.
    s.ok(
        "POST",
        "/faults",
        json!({"path": "/v1/m", "count": 1, "status": 500, "code": "internal_error"}),
    )
    .await;
    shop.test.get("/v1/me").await.assert_ok();
    s.control("DELETE", "/faults", None).await.assert_ok();
    s.ok(
        "POST",
        "/faults",
        json!({"path": "/v1/me", "count": 1, "status": 500, "code": "internal_error"}),
    )
    .await;
    shop.test
        .get("/v1/me")
        .await
        .assert_problem(500, "internal_error");
}

#[tokio::test]
async fn a_clock_advance_of_i64_max_seconds_broke_every_later_request_and_now_answers_400() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let a = s
        .control("POST", "/clock", Some(json!({"advance_seconds": i64::MAX})))
        .await;
    a.assert_problem(400, "invalid_request");
    assert_eq!(a.body["param"], "advance_seconds");
    s.control(
        "POST",
        "/clock",
        Some(json!({"advance_seconds": 10_000_i64 * 366 * 86_400})),
    )
    .await
    .assert_problem(400, "invalid_request");
    shop.test.get("/v1/me").await.assert_ok();
    let now = s.ok("POST", "/clock", json!({"advance_seconds": 0})).await;
    assert!(now["now"].as_str().unwrap().ends_with('Z'));
}

/// DNS rebinding: a page whose own name resolves to 127.0.0.1 talks to the server as
/// its own origin, JSON and all, but names its own host. The control routes refuse it
/// (403) and change nothing; the same request to the loopback address is obeyed.
#[tokio::test]
async fn a_control_request_addressed_to_another_host_is_refused_changing_nothing() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let key = s
        .ok(
            "POST",
            "/keys",
            json!({"business_id": shop.id, "mode": "test"}),
        )
        .await;
    let (key_id, key_text) = (key["id"].as_str().unwrap(), key["key"].as_str().unwrap());
    let port = s.root.rsplit(':').next().unwrap().to_owned();
    for host in [format!("evil.example:{port}"), "rebind.test".to_owned()] {
        let answer = s
            .http
            .post(format!("{}/_sandbox/keys/{key_id}/revoke", s.root))
            .header("Host", host.as_str())
            .header("Content-Type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 403, "{host}");
        let body: serde_json::Value = answer.json().await.unwrap();
        assert_eq!(body["code"], "forbidden", "{body}");
    }
    s.api("sandbox", key_text).get("/v1/me").await.assert_ok();
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let answer = s
            .http
            .post(format!("{}/_sandbox/clock", s.root))
            .header("Host", host.as_str())
            .json(&json!({"advance_seconds": 0}))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "{host}");
    }
    s.ok("POST", &format!("/keys/{key_id}/revoke"), json!({}))
        .await;
}

/// Bodies a web page can send cross-origin without a preflight: a form (text/plain,
/// urlencoded, multipart) or a `fetch` in no-cors mode with any of those types, or
/// none. Each carries JSON text, which the control routes used to obey.
const SIMPLE_REQUESTS: [Option<&str>; 4] = [
    Some("text/plain"),
    Some("application/x-www-form-urlencoded"),
    Some("multipart/form-data; boundary=x"),
    None,
];

#[track_caller]
fn assert_not_json_refusal(a: &crate::helpers::Answer) {
    a.assert_problem(400, "invalid_request");
    assert_eq!(a.body["param"], "Content-Type", "{}", a.body);
    assert_eq!(a.body["errors"][0]["code"], "unsupported_content_type");
}

#[tokio::test]
async fn a_control_request_that_is_not_json_was_obeyed_and_now_answers_400_changing_nothing() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let now = |v: &serde_json::Value| {
        v["now"]
            .as_str()
            .unwrap()
            .parse::<jiff::Timestamp>()
            .unwrap()
    };
    let before = now(&s.ok("POST", "/clock", json!({"advance_seconds": 0})).await);
    for content_type in SIMPLE_REQUESTS {
        let a = s
            .control_raw(
                "POST",
                "/clock",
                content_type,
                r#"{"advance_seconds": 86400}"#,
            )
            .await;
        assert_not_json_refusal(&a);
    }
    let after = now(&s.ok("POST", "/clock", json!({"advance_seconds": 0})).await);
    assert!(
        after.duration_since(before).as_secs() < 3600,
        "the clock did not move: {before} then {after}"
    );

    // A key is not revoked by a form, nor by an empty POST without a type.
    let key = s
        .ok(
            "POST",
            "/keys",
            json!({"business_id": shop.id, "mode": "test"}),
        )
        .await;
    let (key_id, key_text) = (key["id"].as_str().unwrap(), key["key"].as_str().unwrap());
    for content_type in SIMPLE_REQUESTS {
        for body in ["{}", ""] {
            let a = s
                .control_raw(
                    "POST",
                    &format!("/keys/{key_id}/revoke"),
                    content_type,
                    body,
                )
                .await;
            assert_not_json_refusal(&a);
        }
    }
    s.api("sandbox", key_text).get("/v1/me").await.assert_ok();

    // A gift card is not claimed, a business not changed, a customer not deleted.
    let card = shop
        .live
        .post("/v1/gift_cards", json!({"amount": 5, "currency": "EUR", "recipient": {"name": "A", "email": "a@example.com"}}))
        .await;
    let gift = card.assert_ok()["id"].as_str().unwrap().to_owned();
    let (customer, _) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "kept@example.com")
        .await;
    for content_type in SIMPLE_REQUESTS {
        let a = s
            .control_raw(
                "POST",
                &format!("/gift_cards/{gift}/claim"),
                content_type,
                "{}",
            )
            .await;
        assert_not_json_refusal(&a);
        let a = s
            .control_raw(
                "PATCH",
                &format!("/businesses/{}", shop.id),
                content_type,
                r#"{"plan": "free"}"#,
            )
            .await;
        assert_not_json_refusal(&a);
    }
    let a = s
        .control_raw(
            "DELETE",
            &format!("/customers/{customer}"),
            Some("text/plain"),
            "",
        )
        .await;
    assert_not_json_refusal(&a);
    assert_eq!(
        shop.live
            .get(&format!("/v1/gift_cards/{gift}"))
            .await
            .assert_ok()["status"],
        "issued"
    );
    assert_eq!(
        shop.live.get("/v1/me").await.assert_ok()["plan"],
        "enterprise"
    );
    shop.test
        .get(&format!("/v1/customers/{customer}"))
        .await
        .assert_ok();

    // JSON is obeyed, `application/json; charset=utf-8` and a bodiless DELETE included.
    let a = s
        .control_raw(
            "POST",
            &format!("/keys/{key_id}/revoke"),
            Some("application/json; charset=utf-8"),
            "{}",
        )
        .await;
    assert_eq!(a.assert_ok()["revoked"], true);
    s.control("DELETE", &format!("/customers/{customer}"), None)
        .await
        .assert_ok();
    // Reads stay reads: GET needs no type.
    s.control("GET", &format!("/effects?business_id={}", shop.id), None)
        .await
        .assert_ok();
}
