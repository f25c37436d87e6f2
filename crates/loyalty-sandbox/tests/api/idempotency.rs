use std::time::Duration;

use serde_json::json;

use crate::helpers::{Server, idem, read};

#[tokio::test]
async fn a_write_without_an_idempotency_key_answers_idempotency_key_required() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let resp = s
        .http
        .post(format!("{}/sandbox/v1/scans", s.root))
        .bearer_auth(&shop.test.key)
        .json(&json!({"card_id": "card_x", "kind": "visit"}))
        .send()
        .await
        .unwrap();
    read(resp)
        .await
        .assert_problem(400, "idempotency_key_required");
}

#[tokio::test]
async fn a_malformed_idempotency_key_answers_validation_failed_naming_the_header() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for bad in ["has space", &"x".repeat(256)] {
        let a = shop
            .test
            .post_with("/v1/scans", json!({"card_id": "c", "kind": "visit"}), bad)
            .await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["param"], "Idempotency-Key");
    }
    let longest = "k".repeat(255);
    shop.test
        .post_with(
            "/v1/scans",
            json!({"card_id": "c", "kind": "visit"}),
            &longest,
        )
        .await
        .assert_problem(404, "not_found");
}

#[tokio::test]
async fn the_same_key_and_request_does_the_write_once_and_replays_the_first_answer() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "once@example.com")
        .await;
    let key = idem();
    let first = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    first.assert_ok();
    assert!(first.header("idempotent-replayed").is_none());
    // Same request, keys in another order.
    let again = shop
        .test
        .post_with("/v1/scans", json!({"kind": "visit", "card_id": card}), &key)
        .await;
    assert_eq!(again.status, 200);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.body, first.body);
    let scans = shop
        .test
        .all(&format!("/v1/scans?customer_id={customer}"))
        .await;
    assert_eq!(scans.len(), 1, "the visit is recorded once");
    let c = shop.test.get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(c.assert_ok()["cards"][0]["visits"], 1);
}

#[tokio::test]
async fn the_same_key_with_another_body_or_route_answers_idempotency_key_reused() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "reuse@example.com")
        .await;
    let key = idem();
    shop.test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await
        .assert_ok();
    let other_body = shop
        .test
        .post_with(
            "/v1/scans",
            json!({"card_id": card, "kind": "redeem"}),
            &key,
        )
        .await;
    other_body.assert_problem(422, "idempotency_key_reused");
    let other_route = shop
        .test
        .post_with(
            "/v1/customers",
            json!({"pass_id": shop.sandbox_pass_id, "email": "z@example.com"}),
            &key,
        )
        .await;
    other_route.assert_problem(422, "idempotency_key_reused");
    assert_eq!(
        shop.test
            .all("/v1/customers?email=z@example.com")
            .await
            .len(),
        0,
        "nothing created"
    );
}

#[tokio::test]
async fn a_replayed_problem_keeps_its_first_request_id() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "nores@example.com")
        .await;
    let key = idem();
    let first = shop
        .test
        .post_with(
            "/v1/scans",
            json!({"card_id": card, "kind": "redeem"}),
            &key,
        )
        .await;
    first.assert_problem(409, "no_reward_available");
    let replay = shop
        .test
        .post_with(
            "/v1/scans",
            json!({"card_id": card, "kind": "redeem"}),
            &key,
        )
        .await;
    replay.assert_problem(409, "no_reward_available");
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.body["request_id"], first.body["request_id"]);
    assert_ne!(replay.header("request-id"), first.header("request-id"));
}

#[tokio::test]
async fn refusals_that_are_not_stored_can_be_retried_with_the_same_key() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "retry@example.com")
        .await;
    let key = idem();
    // validation_failed is not stored...
    shop.test
        .post_with("/v1/scans", json!({"card_id": card}), &key)
        .await
        .assert_problem(422, "validation_failed");
    // ...nor an injected fault...
    s.ok(
        "POST",
        "/faults",
        json!({"path": "/v1/scans", "count": 1, "status": 503, "code": "service_unavailable"}),
    )
    .await;
    let injected = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    injected.assert_problem(503, "service_unavailable");
    assert!(injected.header("retry-after").is_some());
    // ...so the corrected request goes through under the same key.
    let ok = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    ok.assert_ok();
    assert!(ok.header("idempotent-replayed").is_none());
}

#[tokio::test]
async fn a_request_with_a_key_still_in_progress_answers_idempotency_in_progress() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "slow@example.com")
        .await;
    s.ok(
        "POST",
        "/faults",
        json!({"path": "/v1/scans", "count": 1, "delay_ms": 1500}),
    )
    .await;
    let key = idem();
    let api = shop.test.clone();
    let (k1, c1) = (key.clone(), card.clone());
    let slow = tokio::spawn(async move {
        api.post_with("/v1/scans", json!({"card_id": c1, "kind": "visit"}), &k1)
            .await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let busy = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    busy.assert_problem(409, "idempotency_in_progress");
    assert_eq!(busy.header("retry-after"), Some("1"));
    slow.await.unwrap().assert_ok();
    let after = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    assert_eq!(after.header("idempotent-replayed"), Some("true"));
    assert_eq!(
        shop.test
            .all(&format!("/v1/scans?customer_id={customer}"))
            .await
            .len(),
        1
    );
}

#[tokio::test]
async fn idempotency_keys_are_forgotten_after_24_hours_by_the_server_clock() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "day@example.com")
        .await;
    let key = idem();
    shop.test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await
        .assert_ok();
    s.advance(23 * 3600).await;
    let within = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    assert_eq!(within.header("idempotent-replayed"), Some("true"));
    s.advance(3600 + 1).await;
    let later = shop
        .test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    later.assert_ok();
    assert!(later.header("idempotent-replayed").is_none());
    assert_eq!(later.body["card"]["visits"], 2);
}

#[tokio::test]
async fn idempotency_keys_are_scoped_to_the_api_key() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let other = s.api("sandbox", &s.key(&shop.id, "test", None).await);
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "scoped@example.com")
        .await;
    let key = idem();
    shop.test
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await
        .assert_ok();
    let b = other
        .post_with(
            "/v1/scans",
            json!({"card_id": card, "kind": "visit", "confirm_repeat": true}),
            &key,
        )
        .await;
    b.assert_ok();
    assert!(b.header("idempotent-replayed").is_none());
    assert_eq!(
        shop.test
            .all(&format!("/v1/scans?customer_id={customer}"))
            .await
            .len(),
        2
    );
}
