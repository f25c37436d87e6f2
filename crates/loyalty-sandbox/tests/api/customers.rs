use serde_json::json;

use crate::helpers::Server;

#[tokio::test]
async fn enrolling_creates_a_customer_with_an_active_card_a_team_notice_and_customer_created() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let pass = shop.pass_id.clone().unwrap();
    let a = shop.live.post("/v1/customers", json!({"pass_id": pass, "name": "Grace Hopper", "email": "grace@example.com", "wallet": "google"})).await;
    let c = a.assert_ok();
    assert_eq!(c["object"], "customer");
    assert_eq!(c["name"], "Grace Hopper");
    assert_eq!(c["cards"][0]["status"], "active");
    assert_eq!(c["cards"][0]["wallet"], "google");
    assert_eq!(c["cards"][0]["test"], false);
    assert_eq!(c["cards"][0]["visits"], 0);
    let stored = shop
        .live
        .get(&format!("/v1/customers/{}", c["id"].as_str().unwrap()))
        .await;
    assert_eq!(stored.assert_ok(), c);
    let effects = s.effects(&shop.id).await;
    let kinds: Vec<&str> = effects
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["team_notice"], "no email without send_welcome");
    let events = s.events(&shop.id).await;
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["type"], "customer.created");
    assert_eq!(events[0]["livemode"], true);
    assert_eq!(events[0]["data"]["object"]["id"], c["id"]);
}

#[tokio::test]
async fn send_welcome_records_a_welcome_email_that_the_sandbox_does_not_send() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    shop.test
        .post("/v1/customers", json!({"pass_id": shop.sandbox_pass_id, "email": "new@example.com", "send_welcome": true}))
        .await
        .assert_ok();
    let effects = s.effects(&shop.id).await;
    let email = effects
        .iter()
        .find(|e| e["kind"] == "email")
        .expect("an email effect");
    assert_eq!(email["to"], "new@example.com");
    assert_eq!(email["template"], "welcome");
    assert_eq!(email["sent"], false);
    assert_eq!(email["reason"], "sandbox");
    assert_eq!(s.events(&shop.id).await[0]["livemode"], false);
}

#[tokio::test]
async fn an_email_already_on_the_pass_answers_customer_exists_with_its_id_and_creates_nothing() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (first, _) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "twice@example.com")
        .await;
    let effects_before = s.effects(&shop.id).await.len();
    let a = shop
        .test
        .post("/v1/customers", json!({"pass_id": shop.sandbox_pass_id, "email": "TWICE@example.com", "send_welcome": true}))
        .await;
    a.assert_problem(409, "customer_exists");
    assert!(a.body["detail"].as_str().unwrap().contains(&first));
    assert_eq!(
        shop.test
            .all("/v1/customers?email=twice@example.com")
            .await
            .len(),
        1
    );
    assert_eq!(
        s.effects(&shop.id).await.len(),
        effects_before,
        "nothing sent"
    );
}

#[tokio::test]
async fn a_used_allowance_answers_customer_limit_reached_and_creates_nothing() {
    let s = Server::start().await;
    let shop = s.shop(json!({"customer_limit": 1})).await;
    let pass = shop.pass_id.clone().unwrap();
    shop.live.enrol(&pass, "one@example.com").await;
    let a = shop
        .live
        .post(
            "/v1/customers",
            json!({"pass_id": pass, "email": "two@example.com"}),
        )
        .await;
    a.assert_problem(403, "customer_limit_reached");
    assert_eq!(shop.live.all("/v1/customers").await.len(), 1);
    // The sandbox holds at most 500: 25 demo + 475 seeded.
    s.ok("POST", "/seed", json!({"business_id": shop.id, "place": "sandbox", "customers": 475, "scans": 0, "seed": 1})).await;
    shop.test
        .post(
            "/v1/customers",
            json!({"pass_id": shop.sandbox_pass_id, "email": "full@example.com"}),
        )
        .await
        .assert_problem(403, "customer_limit_reached");
}

#[tokio::test]
async fn an_unknown_pass_answers_not_found() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let a = shop
        .test
        .post(
            "/v1/customers",
            json!({"pass_id": "pass_nope", "email": "x@example.com"}),
        )
        .await;
    a.assert_problem(404, "not_found");
    assert_eq!(a.body["param"], "pass_id");
    // The live pass is not the sandbox's.
    shop.test
        .post(
            "/v1/customers",
            json!({"pass_id": shop.pass_id.unwrap(), "email": "x@example.com"}),
        )
        .await
        .assert_problem(404, "not_found");
}
