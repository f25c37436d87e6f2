//! `GET /v1/stats` over real HTTP: the period rules, and every figure recomputed
//! independently from what the API lists or from the test's own actions.

use std::collections::HashSet;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};
use serde_json::{Value, json};

use crate::helpers::{Api, Server};

async fn today(s: &Server, zone: &str) -> Date {
    let now: Timestamp = s.ok("POST", "/clock", json!({"advance_seconds": 0})).await["now"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    now.to_zoned(TimeZone::get(zone).unwrap()).date()
}

async fn stats(api: &Api, query: &str) -> Value {
    api.get(&format!("/v1/stats{query}"))
        .await
        .assert_ok()
        .clone()
}

fn day_of(ts: &Value, zone: &str) -> Date {
    ts.as_str()
        .unwrap()
        .parse::<Timestamp>()
        .unwrap()
        .to_zoned(TimeZone::get(zone).unwrap())
        .date()
}

#[tokio::test]
async fn without_days_stats_cover_today_and_the_29_days_before_in_the_business_zone() {
    let s = Server::start().await;
    for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"] {
        let shop = s.shop(json!({"time_zone": zone})).await;
        let st = stats(&shop.live, "").await;
        let today = today(&s, zone).await;
        assert_eq!(st["object"], "stats");
        assert_eq!(st["time_zone"], zone);
        assert_eq!(st["to"], today.to_string(), "{zone}");
        assert_eq!(
            st["from"],
            today.checked_sub(29.days()).unwrap().to_string()
        );
        // Only `to`: that day and the 29 before; only `from`: up to today.
        let st = stats(&shop.live, "?to=2026-03-31").await;
        assert_eq!(
            (st["from"].as_str(), st["to"].as_str()),
            (Some("2026-03-02"), Some("2026-03-31"))
        );
        let from = today.checked_sub(3.days()).unwrap();
        let st = stats(&shop.live, &format!("?from={from}")).await;
        assert_eq!(st["to"], today.to_string());
    }
    s.stop().await;
}

#[tokio::test]
async fn periods_are_at_most_366_days_in_order_and_well_formed() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let st = stats(&shop.live, "?from=2024-01-01&to=2024-12-31").await;
    assert_eq!(
        (st["from"].as_str(), st["to"].as_str()),
        (Some("2024-01-01"), Some("2024-12-31"))
    );
    stats(&shop.live, "?from=2026-05-05&to=2026-05-05").await;
    let cases = [
        ("?from=2025-01-01&to=2026-01-02", "from"),
        ("?from=2026-02-01&to=2026-01-01", "from"),
        ("?from=2026-02-30", "from"),
        ("?from=20260201", "from"),
        ("?to=2026-1-1", "to"),
        ("?to=yesterday", "to"),
        ("?to=", "to"),
        ("?from=2026-01-01&from=2026-01-02", "from"),
    ];
    for (query, param) in cases {
        let a = shop.live.get(&format!("/v1/stats{query}")).await;
        a.assert_problem(400, "invalid_parameter");
        assert_eq!(a.body["param"], param, "{query}");
    }
    // Unknown parameters are ignored; the scope is read.
    stats(&shop.live, "?limit=5").await;
    s.stop().await;
}

#[tokio::test]
async fn the_demo_figures_match_what_the_lists_show() {
    let s = Server::start().await;
    let zone = "Europe/Paris";
    let shop = s.shop(json!({"time_zone": zone})).await;
    let scans = shop.test.all("/v1/scans").await;
    let customers = shop.test.all("/v1/customers").await;
    assert_eq!(scans.len(), 200);
    let today = today(&s, zone).await;
    for days_back in [0, 6, 29, 89, 365] {
        let from = today.checked_sub(days_back.days()).unwrap();
        let st = stats(&shop.test, &format!("?from={from}&to={today}")).await;
        let inside: Vec<&Value> = scans
            .iter()
            .filter(|x| day_of(&x["created_at"], zone) >= from)
            .collect();
        let active: HashSet<&str> = inside
            .iter()
            .map(|x| x["customer_id"].as_str().unwrap())
            .collect();
        let earlier: HashSet<&str> = scans
            .iter()
            .filter(|x| day_of(&x["created_at"], zone) < from)
            .map(|x| x["customer_id"].as_str().unwrap())
            .collect();
        let new = customers
            .iter()
            .filter(|c| day_of(&c["created_at"], zone) >= from)
            .count();
        assert_eq!(st["scans"], inside.len(), "{days_back}");
        assert_eq!(
            st["visits"],
            inside.iter().filter(|x| x["kind"] == "visit").count()
        );
        assert_eq!(st["active_customers"], active.len());
        assert_eq!(
            st["returning_customers"],
            active.intersection(&earlier).count()
        );
        assert_eq!(st["new_customers"], new);
        assert_eq!(st["gift_cards_issued"], 0);
    }
    s.stop().await;
}

#[tokio::test]
async fn each_figure_counts_the_days_own_actions() {
    let s = Server::start().await;
    let zone = "America/New_York";
    let shop = s.shop(json!({"time_zone": zone})).await;
    let pass = shop.pass_id.clone().unwrap();
    let api = &shop.live;
    let (_, ada) = api.enrol(&pass, "ada@example.com").await;
    for _ in 0..10 {
        api.post(
            "/v1/scans",
            json!({"card_id": ada, "kind": "visit", "confirm_repeat": true}),
        )
        .await
        .assert_ok();
    }
    api.post("/v1/scans", json!({"card_id": ada, "kind": "redeem"}))
        .await
        .assert_ok();
    for _ in 0..2 {
        api.post(
            "/v1/gift_cards",
            json!({"amount": 10, "currency": "USD", "recipient": {"name": "Ada", "email": "ada@example.com"}}),
        )
        .await
        .assert_ok();
    }
    let day1 = today(&s, zone).await;
    let st = stats(api, &format!("?from={day1}&to={day1}")).await;
    let expected = json!({"scans": 10, "visits": 10, "active_customers": 1, "returning_customers": 0,
        "new_customers": 1, "rewards_earned": 1, "rewards_redeemed": 1, "gift_cards_issued": 2});
    for (k, v) in expected.as_object().unwrap() {
        assert_eq!(&st[k], v, "{k}");
    }

    // A later day: Ada comes back, Bo joins and visits, and one visit is undone.
    s.advance(2 * 86_400).await;
    let (_, bo) = api.enrol(&pass, "bo@example.com").await;
    api.post("/v1/scans", json!({"card_id": ada, "kind": "visit"}))
        .await
        .assert_ok();
    api.post("/v1/scans", json!({"card_id": bo, "kind": "visit"}))
        .await
        .assert_ok();
    api.post(
        "/v1/scans",
        json!({"card_id": bo, "kind": "visit", "confirm_repeat": true}),
    )
    .await
    .assert_ok();
    s.ok("POST", "/undo", json!({"card_id": bo})).await;
    let day2 = today(&s, zone).await;
    assert!(day2 > day1);
    let st = stats(api, &format!("?from={day2}&to={day2}")).await;
    let expected = json!({"scans": 2, "visits": 2, "active_customers": 2, "returning_customers": 1,
        "new_customers": 1, "rewards_earned": 0, "rewards_redeemed": 0, "gift_cards_issued": 0});
    for (k, v) in expected.as_object().unwrap() {
        assert_eq!(&st[k], v, "{k}");
    }
    let st = stats(api, &format!("?from={day1}&to={day2}")).await;
    assert_eq!(st["scans"], 12);
    assert_eq!(st["active_customers"], 2);
    assert_eq!(
        st["returning_customers"], 0,
        "nobody scanned before the period"
    );
    assert_eq!(st["new_customers"], 2);
    // The sandbox's figures are its own.
    let sandbox = stats(&shop.test, &format!("?from={day1}&to={day2}")).await;
    assert_eq!(sandbox["gift_cards_issued"], 0);
    s.stop().await;
}
