use std::collections::HashSet;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::json;

use crate::helpers::Server;

#[tokio::test]
async fn lists_are_newest_first_and_cursors_walk_every_item_once() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let first = shop.test.get("/v1/customers").await;
    let body = first.assert_ok();
    assert_eq!(body["object"], "list");
    assert_eq!(
        body["data"].as_array().unwrap().len(),
        20,
        "default page size is 20"
    );
    assert_eq!(body["has_more"], true);
    let mut seen = HashSet::new();
    let mut created = Vec::new();
    let mut url = "/v1/customers?limit=10".to_owned();
    let mut pages = 0;
    loop {
        let page = shop.test.get(&url).await;
        let page = page.assert_ok().clone();
        pages += 1;
        for c in page["data"].as_array().unwrap() {
            assert!(
                seen.insert(c["id"].as_str().unwrap().to_owned()),
                "no item twice"
            );
            created.push(c["created_at"].as_str().unwrap().to_owned());
        }
        assert_eq!(
            page["has_more"],
            page["next_cursor"].is_string(),
            "next_cursor is null exactly when has_more is false"
        );
        match page["next_cursor"].as_str() {
            Some(c) => url = format!("/v1/customers?limit=10&cursor={c}"),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(seen.len(), 25);
    let mut sorted = created.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(created, sorted, "newest first");
}

#[tokio::test]
async fn a_limit_out_of_range_or_a_bad_filter_answers_invalid_parameter_naming_it() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for q in [
        "limit=0",
        "limit=101",
        "limit=abc",
        "limit=",
        "limit=5&limit=6",
    ] {
        let a = shop.test.get(&format!("/v1/scans?{q}")).await;
        a.assert_problem(400, "invalid_parameter");
        assert_eq!(a.body["param"], "limit", "{q}");
    }
    shop.test.get("/v1/scans?limit=100").await.assert_ok();
    shop.test.get("/v1/scans?limit=1").await.assert_ok();
    let a = shop.test.get("/v1/scans?kind=redeem").await;
    a.assert_problem(400, "invalid_parameter");
    assert_eq!(a.body["param"], "kind");
    let a = shop.test.get("/v1/gift_cards?status=lost").await;
    assert_eq!(a.body["param"], "status");
}

#[tokio::test]
async fn a_limit_with_a_plus_sign_was_read_as_a_number_and_now_answers_invalid_parameter() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for q in ["limit=%2B5", "limit=5.0", "limit=-1", "limit=%205"] {
        let a = shop.test.get(&format!("/v1/scans?{q}")).await;
        a.assert_problem(400, "invalid_parameter");
        assert_eq!(a.body["param"], "limit", "{q}");
    }
}

#[tokio::test]
async fn an_altered_cursor_answers_invalid_cursor() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let page = shop.test.get("/v1/scans?limit=5").await;
    let cursor = page.assert_ok()["next_cursor"].as_str().unwrap().to_owned();
    shop.test
        .get(&format!("/v1/scans?limit=5&cursor={cursor}"))
        .await
        .assert_ok();
    let mut raw = URL_SAFE_NO_PAD.decode(&cursor).unwrap();
    raw[7] ^= 0x01; // move the position by a millisecond
    let altered = URL_SAFE_NO_PAD.encode(&raw);
    let a = shop
        .test
        .get(&format!("/v1/scans?limit=5&cursor={altered}"))
        .await;
    a.assert_problem(400, "invalid_cursor");
    assert_eq!(a.body["param"], "cursor");
    shop.test
        .get("/v1/scans?cursor=garbage")
        .await
        .assert_problem(400, "invalid_cursor");
}

#[tokio::test]
async fn a_cursor_on_another_list_filter_set_business_or_place_answers_invalid_cursor() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let other = s.shop(json!({})).await;
    let cursor = shop.test.get("/v1/customers?limit=2").await.assert_ok()["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    shop.test
        .get(&format!("/v1/scans?cursor={cursor}"))
        .await
        .assert_problem(400, "invalid_cursor");
    shop.test
        .get(&format!(
            "/v1/customers?cursor={cursor}&pass_id={}",
            shop.sandbox_pass_id
        ))
        .await
        .assert_problem(400, "invalid_cursor");
    other
        .test
        .get(&format!("/v1/customers?cursor={cursor}"))
        .await
        .assert_problem(400, "invalid_cursor");
    // A changed limit is the same list: the cursor still works.
    shop.test
        .get(&format!("/v1/customers?cursor={cursor}&limit=7"))
        .await
        .assert_ok();
    // Same business, other place.
    let live_cursor = {
        for i in 0..3 {
            shop.live
                .enrol(
                    shop.pass_id.as_deref().unwrap(),
                    &format!("p{i}@example.com"),
                )
                .await;
        }
        shop.live.get("/v1/customers?limit=1").await.assert_ok()["next_cursor"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    shop.test
        .get(&format!("/v1/customers?cursor={live_cursor}"))
        .await
        .assert_problem(400, "invalid_cursor");
    // Filtered cursors keep working with their filters.
    let filtered = shop.test.get("/v1/scans?limit=2&kind=visit").await;
    let c = filtered.assert_ok()["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    shop.test
        .get(&format!("/v1/scans?limit=2&kind=visit&cursor={c}"))
        .await
        .assert_ok();
    shop.test
        .get(&format!("/v1/scans?limit=2&cursor={c}"))
        .await
        .assert_problem(400, "invalid_cursor");
}
