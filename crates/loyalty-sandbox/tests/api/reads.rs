use serde_json::json;

use crate::helpers::Server;

#[tokio::test]
async fn every_sandbox_holds_the_demo_pass_25_customers_and_200_scans_over_60_days() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let passes = shop.test.all("/v1/passes").await;
    assert_eq!(passes.len(), 1);
    assert_eq!(passes[0]["id"], shop.sandbox_pass_id);
    let customers = shop.test.all("/v1/customers").await;
    assert_eq!(customers.len(), 25);
    for c in &customers {
        assert!(c["name"].as_str().unwrap().contains(' '));
        assert_eq!(c["cards"][0]["status"], "active");
        assert_eq!(c["cards"][0]["test"], true);
    }
    let scans = shop.test.all("/v1/scans").await;
    assert_eq!(scans.len(), 200);
    let sixty_days_ago =
        (jiff::Timestamp::now() - jiff::SignedDuration::from_hours(24 * 60)).as_millisecond();
    for scan in &scans {
        let at: jiff::Timestamp = scan["created_at"].as_str().unwrap().parse().unwrap();
        assert!(at.as_millisecond() >= sixty_days_ago);
        assert_eq!(scan["kind"], "visit");
        assert_eq!(scan["customer_deleted"], false);
    }
    let total_visits: i64 = customers
        .iter()
        .map(|c| {
            c["cards"][0]["visits"].as_i64().unwrap()
                + 10 * c["cards"][0]["rewards_available"].as_i64().unwrap()
        })
        .sum();
    assert_eq!(
        total_visits, 200,
        "cards are in the state their scans lead to"
    );
    // Places are separate: live has none of it.
    assert_eq!(shop.live.all("/v1/customers").await.len(), 0);
    assert_eq!(shop.live.all("/v1/scans").await.len(), 0);
}

#[tokio::test]
async fn timestamps_are_utc_with_milliseconds_and_z() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let pass = shop
        .test
        .get(&format!("/v1/passes/{}", shop.sandbox_pass_id))
        .await;
    let created = pass.assert_ok()["created_at"].as_str().unwrap().to_owned();
    assert_eq!(created.len(), 24, "{created}");
    assert!(
        created.ends_with('Z') && created.as_bytes()[19] == b'.',
        "{created}"
    );
}

#[tokio::test]
async fn another_business_ids_answer_not_found_exactly_like_unknown_ones() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let other = s.shop(json!({})).await;
    let their_customer = other.test.get("/v1/customers?limit=1").await.assert_ok()["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let their_gc = other
        .test
        .post("/v1/gift_cards", json!({"amount": 10, "currency": "EUR", "recipient": {"name": "A", "email": "a@example.com"}}))
        .await
        .assert_ok()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for path in [
        format!("/v1/passes/{}", other.sandbox_pass_id),
        format!("/v1/customers/{their_customer}"),
        format!("/v1/gift_cards/{their_gc}"),
    ] {
        let theirs = shop.test.get(&path).await;
        theirs.assert_problem(404, "not_found");
        let unknown = shop.test.get(&format!("{path}9")).await;
        unknown.assert_problem(404, "not_found");
        assert_eq!(theirs.body["title"], unknown.body["title"]);
    }
    // The other place of the same business is another place too.
    shop.live
        .get(&format!("/v1/passes/{}", shop.sandbox_pass_id))
        .await
        .assert_problem(404, "not_found");
}

#[tokio::test]
async fn a_deleted_customer_is_not_listed_nor_retrievable_and_its_scans_stay_by_id() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "gone@example.com")
        .await;
    shop.test
        .post("/v1/scans", json!({"card_id": card, "kind": "visit"}))
        .await
        .assert_ok();
    s.ok("DELETE", &format!("/customers/{customer}"), json!(null))
        .await;
    shop.test
        .get(&format!("/v1/customers/{customer}"))
        .await
        .assert_problem(404, "not_found");
    assert!(
        shop.test
            .all("/v1/customers")
            .await
            .iter()
            .all(|c| c["id"] != customer.as_str())
    );
    let scans = shop
        .test
        .all(&format!("/v1/scans?customer_id={customer}"))
        .await;
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0]["customer_deleted"], true);
    assert_eq!(scans[0]["customer_id"], customer);
    s.control("DELETE", &format!("/customers/{customer}"), None)
        .await
        .assert_problem(404, "not_found");
}

#[tokio::test]
async fn locations_referrals_and_webhook_endpoints_are_listed_with_the_spec_fields() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let locations = shop.test.all("/v1/locations").await;
    assert_eq!(locations.len(), 2);
    assert!(
        locations.iter().any(|l| l["active"] == false),
        "inactive ones included"
    );
    for l in &locations {
        for f in [
            "id",
            "name",
            "address",
            "city",
            "country",
            "latitude",
            "longitude",
            "pass_id",
            "created_at",
        ] {
            assert!(!l[f].is_null(), "{f}");
        }
        assert_eq!(l["object"], "location");
    }
    let referrals = shop.test.all("/v1/referrals").await;
    assert_eq!(referrals.len(), 3);
    assert_eq!(referrals[0]["status"], "completed");
    assert_eq!(referrals[0]["referrer_deleted"], false);
    let referred = referrals[0]["referred_customer_id"]
        .as_str()
        .unwrap()
        .to_owned();
    s.ok("DELETE", &format!("/customers/{referred}"), json!(null))
        .await;
    let after = shop.test.all("/v1/referrals").await;
    let same = after
        .iter()
        .find(|r| r["id"] == referrals[0]["id"])
        .unwrap();
    assert_eq!(same["referred_deleted"], true);
    assert_eq!(same["referred_customer_id"], referred);
    s.ok(
        "POST",
        "/webhook_endpoints",
        json!({"business_id": shop.id, "url": "https://hooks.example/in?token=secret", "events": ["scan.recorded"]}),
    )
    .await;
    let endpoints = shop.live.all("/v1/webhook_endpoints").await;
    assert_eq!(endpoints.len(), 1);
    assert_eq!(endpoints[0]["url"], "https://hooks.example/in");
    assert!(endpoints[0].get("secret").is_none());
    assert_eq!(endpoints[0]["format"], "v2");
    assert_eq!(endpoints[0]["status"], "active");
    assert_eq!(endpoints[0]["consecutive_failures"], 0);
    assert_eq!(shop.test.all("/v1/webhook_endpoints").await.len(), 1);
}

#[tokio::test]
async fn passes_are_listed_active_and_archived() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let archived = s
        .ok("POST", "/passes", json!({"business_id": shop.id, "place": "live", "name": "Old card", "status": "archived"}))
        .await;
    assert_eq!(archived["status"], "archived");
    let all = shop.live.all("/v1/passes").await;
    assert_eq!(all.len(), 2);
    let only = shop.live.all("/v1/passes?status=archived").await;
    assert_eq!(only.len(), 1);
    let one = shop
        .live
        .get(&format!("/v1/passes/{}", archived["id"].as_str().unwrap()))
        .await;
    let p = one.assert_ok();
    for f in [
        "name",
        "status",
        "loyalty_type",
        "goal",
        "reward_title",
        "locale",
        "colors",
        "tier_rewards",
        "wallets",
        "updated_at",
    ] {
        assert!(p.get(f).is_some(), "{f}");
    }
    assert!(p["logo_url"].is_null());
}
