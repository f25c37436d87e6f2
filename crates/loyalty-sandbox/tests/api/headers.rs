use serde_json::json;

use crate::helpers::{Answer, Server, read};

fn assert_common_headers(a: &Answer) {
    assert!(
        a.header("request-id").unwrap().starts_with("req_"),
        "{:?}",
        a.headers
    );
    let policy = a.header("ratelimit-policy").unwrap();
    let limit = a.header("ratelimit").unwrap();
    // "key";q=600;w=60, "writes";q=120;w=60
    let items: Vec<&str> = policy.split(", ").collect();
    assert_eq!(items.len(), 2, "{policy}");
    assert!(
        items[0].starts_with("\"key\";q=") && items[0].contains(";w="),
        "{policy}"
    );
    assert!(items[1].starts_with("\"writes\";q="), "{policy}");
    // "key";r=599;t=60
    let parts: Vec<&str> = limit.split(';').collect();
    assert_eq!(parts[0], "\"key\"", "{limit}");
    assert!(
        parts[1].strip_prefix("r=").unwrap().parse::<u64>().is_ok(),
        "{limit}"
    );
    assert!(
        parts[2].strip_prefix("t=").unwrap().parse::<u64>().is_ok(),
        "{limit}"
    );
    for (name, _) in a.headers.iter() {
        assert!(
            !name.as_str().starts_with("access-control-"),
            "no CORS header: {name}"
        );
    }
}

#[tokio::test]
async fn every_answer_carries_request_id_and_rate_limit_headers() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let answers = vec![
        shop.test.get("/v1/me").await,
        s.api("live", "nonsense").get("/v1/me").await,
        shop.test.get("/v1/no_such_route").await,
        read(
            s.http
                .get(format!("{}/elsewhere", s.root))
                .send()
                .await
                .unwrap(),
        )
        .await,
        read(
            s.http
                .delete(format!("{}/v1/me", s.root))
                .send()
                .await
                .unwrap(),
        )
        .await,
        shop.test.post("/v1/scans", json!({"kind": 5})).await,
        s.control("POST", "/clock", Some(json!({"advance_seconds": 0})))
            .await,
    ];
    for a in &answers {
        assert_common_headers(a);
    }
    let me = &answers[0];
    assert_eq!(
        me.header("ratelimit-policy"),
        Some("\"key\";q=6000;w=60, \"writes\";q=1200;w=60")
    );
    assert!(
        me.header("ratelimit")
            .unwrap()
            .starts_with("\"key\";r=5999;t=")
    );
    answers[2].assert_problem(404, "not_found");
    answers[3].assert_problem(404, "not_found");
    answers[4].assert_problem(405, "method_not_allowed");
    answers[5].assert_problem(422, "validation_failed");
}

#[tokio::test]
async fn no_answer_carries_cors_headers_even_to_a_preflight_or_an_origin() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let with_origin = s
        .http
        .get(format!("{}/sandbox/v1/me", s.root))
        .bearer_auth(&shop.test.key)
        .header("Origin", "https://shop.example")
        .send()
        .await
        .unwrap();
    let a = read(with_origin).await;
    a.assert_ok();
    assert_common_headers(&a);
    let preflight = s
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/v1/customers", s.root))
        .header("Origin", "https://shop.example")
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .unwrap();
    let p = read(preflight).await;
    p.assert_problem(405, "method_not_allowed");
    assert_common_headers(&p);
}

#[tokio::test]
async fn a_key_over_its_window_answers_rate_limited_with_retry_after() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    s.ok(
        "PATCH",
        &format!("/businesses/{}", shop.id),
        json!({"rate_limits": {"requests_per_key": 3, "window_seconds": 60}}),
    )
    .await;
    let me = shop.test.get("/v1/me").await;
    assert_eq!(me.assert_ok()["rate_limits"]["requests_per_key"], 3);
    assert_eq!(
        me.header("ratelimit-policy"),
        Some("\"key\";q=3;w=60, \"writes\";q=1200;w=60")
    );
    assert!(me.header("ratelimit").unwrap().starts_with("\"key\";r=2;"));
    shop.test.get("/v1/me").await.assert_ok();
    shop.test.get("/v1/me").await.assert_ok();
    let limited = shop.test.get("/v1/me").await;
    limited.assert_problem(429, "rate_limited");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    assert!(
        limited
            .header("ratelimit")
            .unwrap()
            .starts_with("\"key\";r=0;")
    );
    // The other key of the business has its own window.
    shop.live.get("/v1/me").await.assert_ok();
    // The next window serves again.
    s.advance(61).await;
    shop.test.get("/v1/me").await.assert_ok();
}

#[tokio::test]
async fn writes_and_the_business_have_their_own_limits() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    s.ok(
        "PATCH",
        &format!("/businesses/{}", shop.id),
        json!({"rate_limits": {"writes_per_key": 1, "requests_per_business": 3}}),
    )
    .await;
    shop.test
        .post("/v1/scans", json!({"card_id": "card_x", "kind": "visit"}))
        .await
        .assert_problem(404, "not_found");
    let second = shop
        .test
        .post("/v1/scans", json!({"card_id": "card_x", "kind": "visit"}))
        .await;
    second.assert_problem(429, "rate_limited");
    assert!(second.header("retry-after").is_some());
    shop.test.get("/v1/me").await.assert_ok();
    shop.live.get("/v1/me").await.assert_ok();
    shop.live
        .get("/v1/me")
        .await
        .assert_problem(429, "rate_limited");
}
