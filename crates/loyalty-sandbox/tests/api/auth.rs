use serde_json::json;

use crate::helpers::Server;

#[tokio::test]
async fn a_request_without_authorization_answers_authentication_required() {
    let s = Server::start().await;
    let a = crate::helpers::read(
        s.http
            .get(format!("{}/v1/me", s.root))
            .send()
            .await
            .unwrap(),
    )
    .await;
    a.assert_problem(401, "authentication_required");
    let basic = s
        .http
        .get(format!("{}/v1/me", s.root))
        .header("Authorization", "Basic dXNlcjpwdw==");
    crate::helpers::read(basic.send().await.unwrap())
        .await
        .assert_problem(401, "authentication_required");
}

#[tokio::test]
async fn a_bearer_that_is_not_a_known_key_answers_invalid_api_key() {
    let s = Server::start().await;
    for token in [
        "nonsense",
        "lc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "lc_test_short",
    ] {
        s.api("live", token)
            .get("/v1/me")
            .await
            .assert_problem(401, "invalid_api_key");
    }
}

#[tokio::test]
async fn an_oauth_access_token_answers_not_supported_yet() {
    let s = Server::start().await;
    s.api("live", "lco_abcdef")
        .get("/v1/me")
        .await
        .assert_problem(401, "not_supported_yet");
    s.api("live", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln")
        .get("/v1/me")
        .await
        .assert_problem(401, "not_supported_yet");
}

#[tokio::test]
async fn a_revoked_key_answers_api_key_revoked_on_the_next_request() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let key = s
        .ok(
            "POST",
            "/keys",
            json!({"business_id": shop.id, "mode": "live"}),
        )
        .await;
    let api = s.api("live", key["key"].as_str().unwrap());
    api.get("/v1/me").await.assert_ok();
    let revoked = s
        .ok(
            "POST",
            &format!("/keys/{}/revoke", key["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(revoked, json!({"revoked": true}));
    api.get("/v1/me")
        .await
        .assert_problem(401, "api_key_revoked");
    // Revoked is checked before the place: the same answer on the sandbox.
    s.api("sandbox", &api.key)
        .get("/v1/me")
        .await
        .assert_problem(401, "api_key_revoked");
}

#[tokio::test]
async fn a_key_past_its_expiry_by_the_server_clock_answers_api_key_expired() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let expires = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1);
    let key = s
        .ok(
            "POST",
            "/keys",
            json!({"business_id": shop.id, "mode": "test", "expires_at": expires.to_string()}),
        )
        .await;
    let api = s.api("sandbox", key["key"].as_str().unwrap());
    api.get("/v1/me").await.assert_ok();
    s.advance(2 * 3600).await;
    api.get("/v1/me")
        .await
        .assert_problem(401, "api_key_expired");
}

#[tokio::test]
async fn a_key_in_the_wrong_place_answers_key_mode_mismatch() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    s.api("live", &shop.test.key)
        .get("/v1/me")
        .await
        .assert_problem(403, "key_mode_mismatch");
    s.api("sandbox", &shop.live.key)
        .get("/v1/me")
        .await
        .assert_problem(403, "key_mode_mismatch");
    assert_eq!(shop.test.get("/v1/me").await.assert_ok()["mode"], "test");
    assert_eq!(shop.live.get("/v1/me").await.assert_ok()["mode"], "live");
}

#[tokio::test]
async fn a_business_off_enterprise_answers_plan_required_and_the_key_works_again_after_an_upgrade()
{
    let s = Server::start().await;
    let shop = s.shop(json!({"plan": "pro"})).await;
    shop.live
        .get("/v1/me")
        .await
        .assert_problem(403, "plan_required");
    shop.test
        .get("/v1/customers")
        .await
        .assert_problem(403, "plan_required");
    s.ok(
        "PATCH",
        &format!("/businesses/{}", shop.id),
        json!({"plan": "enterprise"}),
    )
    .await;
    let me = shop.live.get("/v1/me").await;
    assert_eq!(me.assert_ok()["plan"], "enterprise");
    assert_eq!(me.body["plan_name"], "Enterprise");
}

#[tokio::test]
async fn a_missing_scope_answers_insufficient_scope_naming_the_scope() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let read_only = s.api(
        "sandbox",
        &s.key(&shop.id, "test", Some(json!(["read"]))).await,
    );
    read_only.get("/v1/customers").await.assert_ok();
    let cases = [
        ("/v1/customers", "customers:write"),
        ("/v1/scans", "scans:write"),
        ("/v1/gift_cards", "gift_cards:write"),
        ("/v1/gift_cards/gc_x/payments", "gift_cards:spend"),
    ];
    for (path, scope) in cases {
        let a = read_only.post(path, json!({})).await;
        a.assert_problem(403, "insufficient_scope");
        assert!(
            a.body["detail"].as_str().unwrap().contains(scope),
            "{path}: {}",
            a.body
        );
    }
    let writer = s.api(
        "sandbox",
        &s.key(&shop.id, "test", Some(json!(["scans:write"]))).await,
    );
    let a = writer.get("/v1/me").await;
    a.assert_problem(403, "insufficient_scope");
    assert!(a.body["detail"].as_str().unwrap().contains("read"));
}

#[tokio::test]
async fn a_refusal_of_a_known_key_carries_its_business_rate_limit_numbers() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    s.ok(
        "PATCH",
        &format!("/businesses/{}", shop.id),
        json!({"rate_limits": {"requests_per_key": 7, "writes_per_key": 2, "window_seconds": 30}}),
    )
    .await;
    let read_only = s.api(
        "sandbox",
        &s.key(&shop.id, "test", Some(json!(["read"]))).await,
    );
    let me = read_only.get("/v1/me").await;
    me.assert_ok();
    let refused = read_only.post("/v1/scans", json!({})).await;
    refused.assert_problem(403, "insufficient_scope");
    let mismatch = s.api("live", &shop.test.key).get("/v1/me").await;
    mismatch.assert_problem(403, "key_mode_mismatch");
    for answer in [&refused, &mismatch] {
        assert_eq!(
            answer.header("ratelimit-policy"),
            Some("\"key\";q=7;w=30, \"writes\";q=2;w=30"),
            "{}",
            answer.body
        );
    }
    // The refusal counted nothing: the key has what GET /v1/me left it.
    assert!(
        refused
            .header("ratelimit")
            .unwrap()
            .starts_with("\"key\";r=6;")
    );
}

#[tokio::test]
async fn me_names_the_business_key_mode_plan_scopes_and_rate_limits() {
    let s = Server::start().await;
    let shop = s.shop(json!({"name": "Corner Café"})).await;
    let me = shop.test.get("/v1/me").await;
    let body = me.assert_ok();
    assert_eq!(body["object"], "key");
    assert_eq!(
        body["business"],
        json!({"id": shop.id, "name": "Corner Café"})
    );
    assert!(
        shop.test
            .key
            .starts_with(body["key"]["prefix"].as_str().unwrap())
    );
    assert!(body["key"]["id"].as_str().unwrap().starts_with("key_"));
    assert_eq!(body["mode"], "test");
    assert_eq!(body["plan"], "enterprise");
    assert_eq!(body["scopes"].as_array().unwrap().len(), 6);
    assert_eq!(
        body["rate_limits"],
        json!({"requests_per_business": 12000, "requests_per_key": 6000, "window_seconds": 60, "writes_per_key": 1200})
    );
}

#[tokio::test]
async fn repeated_failed_authentications_from_one_address_are_rate_limited() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let bad = s.api("live", "lc_live_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
    for _ in 0..100 {
        bad.get("/v1/me")
            .await
            .assert_problem(401, "invalid_api_key");
    }
    let limited = bad.get("/v1/me").await;
    limited.assert_problem(429, "rate_limited");
    assert!(limited.header("retry-after").is_some());
    // Even a good key from that address waits for the next minute.
    shop.live
        .get("/v1/me")
        .await
        .assert_problem(429, "rate_limited");
    s.advance(60).await;
    shop.live.get("/v1/me").await.assert_ok();
}
