//! Every read endpoint, decoded into the models.

use loyalty_api::{
    CustomerId, ErrorCode, EventName, KeyMode, ListParams, LoyaltyType, PassId, PassStatus, Plan,
    Scope, WebhookFormat,
};
use reqwest::Method;
use serde_json::json;

use crate::harness::Env;

#[tokio::test]
async fn me_names_the_business_mode_scopes_plan_and_rate_limits() {
    let env = Env::start().await;
    let me = env.client.me().await.unwrap();
    assert_eq!(me.business.id.as_str(), env.business_id);
    assert_eq!(me.business.name, "Test Café");
    assert_eq!(me.mode, KeyMode::Test);
    assert_eq!(me.plan, Plan::Enterprise);
    assert!(!me.plan_name.is_empty());
    assert!(me.key.prefix.starts_with("lc_test_"));
    for scope in [
        Scope::Read,
        Scope::ScansWrite,
        Scope::GiftCardsSpend,
        Scope::BroadcastsSend,
    ] {
        assert!(me.has_scope(&scope), "{scope}");
    }
    assert!(me.rate_limits.requests_per_key > 0 && me.rate_limits.window_seconds > 0);
    assert!(me.request_id.is_some());
    let server_clock = me.date.expect("the answer carries a Date");
    let skew = jiff::Timestamp::now().duration_since(server_clock).abs();
    assert!(skew < jiff::SignedDuration::from_secs(5), "{skew:?}");
    assert!(!me.replayed);
}

#[tokio::test]
async fn passes_are_listed_and_one_is_read_by_id() {
    let env = Env::start().await;
    let page = env.client.passes().list(&ListParams::new()).await.unwrap();
    let listed = page
        .data
        .data
        .iter()
        .find(|p| p.id == env.sandbox_pass_id)
        .expect("the demo pass is listed");
    let pass = env.client.passes().get(&env.sandbox_pass_id).await.unwrap();
    assert_eq!(&pass.data, listed);
    assert_eq!(pass.status, PassStatus::Active);
    assert_eq!(pass.loyalty_type, LoyaltyType::Visits);
    assert!(pass.goal > 0);
    assert!(pass.created_at <= pass.updated_at);
}

#[tokio::test]
async fn an_archived_pass_is_listed_too() {
    let env = Env::start().await;
    env.control(
        Method::POST,
        "/_sandbox/passes",
        Some(
            json!({"business_id": env.business_id, "place": "sandbox", "name": "Old card",
            "loyalty_type": "points", "goal": 100, "reward_title": "Cake", "locale": "en",
            "status": "archived"}),
        ),
    )
    .await;
    let page = env.client.passes().list(&ListParams::new()).await.unwrap();
    let old = page
        .data
        .data
        .iter()
        .find(|p| p.name == "Old card")
        .unwrap();
    assert_eq!(old.status, PassStatus::Archived);
    assert_eq!(old.loyalty_type, LoyaltyType::Points);
}

#[tokio::test]
async fn an_unknown_or_foreign_id_is_not_found() {
    let env = Env::start().await;
    let err = env
        .client
        .passes()
        .get(&PassId::new("pass_doesnotexist"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
    assert_eq!(err.problem().unwrap().status, 404);
    // The live pass of the same business is not in the sandbox place.
    let live = env.live_pass_id.clone().expect("a live pass");
    let err = env.client.passes().get(&live).await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}

#[tokio::test]
async fn customers_are_listed_with_their_cards_and_read_by_id() {
    let env = Env::start().await;
    let page = env
        .client
        .customers()
        .list(&ListParams::new().limit(5))
        .await
        .unwrap();
    assert_eq!(page.data.data.len(), 5);
    let first = &page.data.data[0];
    assert!(!first.cards.is_empty());
    assert!(
        first.cards.iter().all(|c| c.test),
        "sandbox cards are test cards"
    );
    let read = env.client.customers().get(&first.id).await.unwrap();
    assert_eq!(&read.data, first);
    let err = env
        .client
        .customers()
        .get(&CustomerId::new("cus_nobody"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}

#[tokio::test]
async fn a_deleted_customer_is_neither_listed_nor_read() {
    let env = Env::start().await;
    let (customer, _) = env.enrol(&env.sandbox_pass_id).await;
    env.control(
        Method::DELETE,
        &format!("/_sandbox/customers/{}", customer.id),
        None,
    )
    .await;
    let err = env.client.customers().get(&customer.id).await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}

#[tokio::test]
async fn scans_are_listed_with_exact_amounts() {
    let env = Env::start().await;
    let page = env
        .client
        .scans()
        .list(&ListParams::new().limit(100))
        .await
        .unwrap();
    assert_eq!(
        page.data.data.len(),
        100,
        "the demo sandbox holds 200 scans"
    );
    assert!(page.data.has_more);
    for scan in &page.data.data {
        assert_eq!(scan.pass_id, env.sandbox_pass_id);
    }
    // Newest first.
    let times: Vec<_> = page.data.data.iter().map(|s| s.created_at).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]));
}

#[tokio::test]
async fn locations_referrals_and_webhook_endpoints_are_listed() {
    let env = Env::start().await;
    env.control(
        Method::POST,
        "/_sandbox/webhook_endpoints",
        Some(
            json!({"business_id": env.business_id, "url": "http://127.0.0.1:9/hook?token=secret",
            "events": ["scan.recorded"], "test_events": true}),
        ),
    )
    .await;
    let locations = env
        .client
        .locations()
        .list(&ListParams::new())
        .await
        .unwrap();
    for location in &locations.data.data {
        assert!(!location.name.is_empty());
    }
    let referrals = env
        .client
        .referrals()
        .list(&ListParams::new())
        .await
        .unwrap();
    for referral in &referrals.data.data {
        assert_eq!(referral.pass_id, env.sandbox_pass_id);
    }
    let endpoints = env
        .client
        .webhook_endpoints()
        .list(&ListParams::new())
        .await
        .unwrap();
    let endpoint = endpoints
        .data
        .data
        .iter()
        .find(|e| e.url.starts_with("http://127.0.0.1:9/hook"))
        .expect("the registered endpoint is listed");
    assert!(
        !endpoint.url.contains("secret"),
        "the query string is left out"
    );
    assert_eq!(endpoint.events, [EventName::ScanRecorded]);
    assert_eq!(endpoint.format, WebhookFormat::V2);
}

#[tokio::test]
async fn gift_cards_are_listed_and_read_with_their_ledger() {
    let env = Env::start().await;
    let id = env.gift_card(30, true).await;
    let page = env
        .client
        .gift_cards()
        .list(&ListParams::new())
        .await
        .unwrap();
    let listed = page.data.data.iter().find(|g| g.id == id).unwrap();
    assert!(listed.test);
    let read = env.client.gift_cards().get(&id).await.unwrap();
    assert_eq!(read.gift_card.id, id);
    assert_eq!(read.gift_card.balance.to_string(), "30.00");
    assert!(read.gift_card.claimed_at.is_some());
    assert!(!read.transactions_has_more);
}
