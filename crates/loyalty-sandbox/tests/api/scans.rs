use serde_json::json;

use crate::helpers::Server;

#[tokio::test]
async fn a_visit_adds_one_and_reaching_the_goal_earns_a_reward() {
    let s = Server::start().await;
    let shop = s
        .shop(json!({"pass": {"loyalty_type": "visits", "goal": 3}}))
        .await;
    let pass = shop.pass_id.clone().unwrap();
    let (customer, card) = shop.live.enrol(&pass, "v@example.com").await;
    let mut last = json!(null);
    for i in 1..=3 {
        let a = shop
            .live
            .post(
                "/v1/scans",
                json!({"card_id": card, "kind": "visit", "confirm_repeat": true}),
            )
            .await;
        last = a.assert_ok().clone();
        assert_eq!(last["object"], "scan_result");
        assert_eq!(last["visits_added"], 1);
        assert_eq!(last["reward_earned"], i == 3);
    }
    assert_eq!(last["card"]["visits"], 0);
    assert_eq!(last["card"]["rewards_available"], 1);
    assert_eq!(last["customer_id"], customer);
    let scans = shop.live.all("/v1/scans").await;
    assert_eq!(scans.len(), 3);
    assert_eq!(scans[0]["kind"], "visit");
    assert_eq!(scans[0]["points"], 0);
    // Redeeming takes the reward; redemptions are not listed as scans.
    let r = shop
        .live
        .post("/v1/scans", json!({"card_id": card, "kind": "redeem"}))
        .await;
    assert_eq!(r.assert_ok()["card"]["rewards_available"], 0);
    assert_eq!(r.body["card"]["rewards_redeemed"], 1);
    assert_eq!(shop.live.all("/v1/scans").await.len(), 3);
    shop.live
        .post("/v1/scans", json!({"card_id": card, "kind": "redeem"}))
        .await
        .assert_problem(409, "no_reward_available");
}

#[tokio::test]
async fn a_visit_within_15_minutes_answers_recent_visit_and_records_nothing() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "r@example.com")
        .await;
    let first = shop
        .test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await;
    let last_visit_at = first.assert_ok()["card"]["last_visit_at"].clone();
    s.advance(14 * 60).await;
    let again = shop
        .test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await;
    again.assert_problem(409, "recent_visit");
    assert_eq!(again.body["last_visit_at"], last_visit_at);
    assert_eq!(
        shop.test
            .all(&format!("/v1/scans?customer_id={customer}"))
            .await
            .len(),
        1,
        "nothing recorded"
    );
    let confirmed = shop
        .test
        .post(
            "/v1/scans",
            json!({"card_id": card, "kind": "visit", "confirm_repeat": true}),
        )
        .await;
    assert_eq!(confirmed.assert_ok()["card"]["visits"], 2);
    s.advance(15 * 60).await;
    shop.test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await
        .assert_ok();
}

#[tokio::test]
async fn points_are_added_up_to_the_goal_and_deducted_up_to_the_balance() {
    let s = Server::start().await;
    let shop = s
        .shop(
            json!({"pass": {"loyalty_type": "points", "goal": 100, "reward_title": "Free lunch"}}),
        )
        .await;
    let pass = shop.pass_id.clone().unwrap();
    let (_, card) = shop.live.enrol(&pass, "p@example.com").await;
    let a = shop
        .live
        .post(
            "/v1/scans",
            json!({"card_id": card, "kind": "points", "amount": 60}),
        )
        .await;
    assert_eq!(a.assert_ok()["points_added"], 60);
    assert_eq!(a.body["card"]["points"], 60);
    let d = shop
        .live
        .post(
            "/v1/scans",
            json!({"card_id": card, "kind": "points", "amount": -20}),
        )
        .await;
    assert_eq!(d.assert_ok()["points_deducted"], 20);
    assert_eq!(d.body["card"]["points"], 40);
    let too_much = shop
        .live
        .post(
            "/v1/scans",
            json!({"card_id": card, "kind": "points", "amount": -41}),
        )
        .await;
    too_much.assert_problem(409, "insufficient_balance");
    let capped = shop
        .live
        .post(
            "/v1/scans",
            json!({"card_id": card, "kind": "points", "amount": 500}),
        )
        .await;
    let capped = capped.assert_ok();
    assert_eq!(capped["points_added"], 60, "added up to the goal");
    assert_eq!(capped["reward_earned"], true);
    assert_eq!(capped["card"]["points"], 0);
    assert_eq!(capped["card"]["rewards_available"], 1);
    let scans = shop.live.all("/v1/scans").await;
    assert_eq!(scans.len(), 3);
    assert!(scans.iter().all(|x| x["kind"] == "points"));
    let mut recorded: Vec<(i64, String)> = scans
        .iter()
        .map(|x| {
            (
                x["points"].as_i64().unwrap(),
                x["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    recorded.sort();
    assert_eq!(
        recorded,
        vec![
            (-20, "-20.00".to_owned()),
            (60, "500.00".to_owned()),
            (60, "60.00".to_owned())
        ]
    );
    let visit = shop
        .live
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await;
    visit.assert_problem(409, "scan_refused");
}

#[tokio::test]
async fn a_points_action_on_a_visits_card_answers_scan_refused_saying_why() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "sr@example.com")
        .await;
    let a = shop
        .test
        .post(
            "/v1/scans",
            json!({"card_id": card, "kind": "points", "amount": 5}),
        )
        .await;
    a.assert_problem(409, "scan_refused");
    assert!(a.body["detail"].as_str().unwrap().contains("visits"));
}

#[tokio::test]
async fn a_card_that_is_not_active_answers_card_not_active_with_its_status() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "na@example.com")
        .await;
    let changed = s
        .ok(
            "POST",
            &format!("/cards/{card}/status"),
            json!({"status": "replaced"}),
        )
        .await;
    assert_eq!(changed["status"], "replaced");
    let a = shop
        .test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await;
    a.assert_problem(409, "card_not_active");
    assert!(a.body["detail"].as_str().unwrap().contains("replaced"));
    shop.test
        .post(
            "/v1/scans",
            json!({"card_id": "card_nope", "kind": "visit"}),
        )
        .await
        .assert_problem(404, "not_found");
}

#[tokio::test]
async fn an_accepted_scan_updates_the_wallet_card_and_records_scan_recorded() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "w@example.com")
        .await;
    let a = shop
        .test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await;
    a.assert_ok();
    let effects = s.effects(&shop.id).await;
    let wallet = effects
        .iter()
        .find(|e| e["kind"] == "wallet_update")
        .expect("wallet update");
    assert_eq!(wallet["card_id"], card);
    assert_eq!(wallet["sent"], false, "nothing leaves the sandbox");
    let events = s.events(&shop.id).await;
    let recorded = events
        .iter()
        .find(|e| e["type"] == "scan.recorded")
        .expect("scan.recorded");
    assert_eq!(recorded["data"]["object"]["card_id"], card);
    assert_eq!(recorded["livemode"], false);
    // A refused scan records nothing.
    let before = (
        s.effects(&shop.id).await.len(),
        s.events(&shop.id).await.len(),
    );
    shop.test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await
        .assert_problem(409, "recent_visit");
    assert_eq!(
        (
            s.effects(&shop.id).await.len(),
            s.events(&shop.id).await.len()
        ),
        before
    );
}

#[tokio::test]
async fn a_points_amount_of_i64_min_overflowed_into_a_500_and_now_answers_validation_failed() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for amount in [json!(i64::MIN), json!(i64::MAX), json!(-1_000_001)] {
        let a = shop
            .test
            .post(
                "/v1/scans",
                json!({"card_id": "card_x", "kind": "points", "amount": amount}),
            )
            .await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["errors"][0]["param"], "amount");
        assert_eq!(a.body["errors"][0]["code"], "out_of_range");
    }
}
