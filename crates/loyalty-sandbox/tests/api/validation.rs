use serde_json::json;

use crate::helpers::{Server, idem, read};

#[tokio::test]
async fn a_malformed_json_body_answers_validation_failed_not_a_500() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let resp = s
        .http
        .post(format!("{}/sandbox/v1/scans", s.root))
        .bearer_auth(&shop.test.key)
        .header("Idempotency-Key", idem())
        .header("Content-Type", "application/json")
        .body("{\"card_id\": ")
        .send()
        .await
        .unwrap();
    let a = read(resp).await;
    a.assert_problem(422, "validation_failed");
    assert_eq!(a.body["errors"][0]["param"], "body");
    assert_eq!(a.body["errors"][0]["code"], "invalid_json");
}

#[tokio::test]
async fn a_wrong_or_missing_content_type_answers_validation_failed() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for content_type in [Some("text/plain"), None] {
        let mut req = s
            .http
            .post(format!("{}/sandbox/v1/customers", s.root))
            .bearer_auth(&shop.test.key)
            .header("Idempotency-Key", idem())
            .body("{}");
        if let Some(ct) = content_type {
            req = req.header("Content-Type", ct);
        }
        let a = read(req.send().await.unwrap()).await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["errors"][0]["param"], "Content-Type");
    }
}

#[tokio::test]
async fn fields_of_the_wrong_type_answer_one_error_item_per_field() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let a = shop
        .test
        .post("/v1/customers", json!({"pass_id": 12, "email": "not-an-email", "send_welcome": "yes", "wallet": "nokia"}))
        .await;
    a.assert_problem(422, "validation_failed");
    let mut params: Vec<&str> = a.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["param"].as_str().unwrap())
        .collect();
    params.sort();
    assert_eq!(params, vec!["email", "pass_id", "send_welcome", "wallet"]);
    for e in a.body["errors"].as_array().unwrap() {
        assert!(e["code"].is_string() && e["message"].is_string());
    }
    let a = shop
        .test
        .post(
            "/v1/gift_cards",
            json!({"amount": "50", "recipient": {"email": 3}}),
        )
        .await;
    a.assert_problem(422, "validation_failed");
    let params: Vec<&str> = a.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["param"].as_str().unwrap())
        .collect();
    assert!(params.contains(&"amount") && params.contains(&"currency"));
    assert!(
        params.contains(&"recipient.name") && params.contains(&"recipient.email"),
        "{params:?}"
    );
    let not_object = shop.test.post("/v1/scans", json!([1, 2])).await;
    not_object.assert_problem(422, "validation_failed");
}
