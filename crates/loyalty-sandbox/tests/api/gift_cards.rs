use std::collections::HashSet;

use serde_json::{Value, json};

use crate::helpers::{Api, Server, Shop};

async fn issue(api: &Api, amount: Value, currency: &str) -> Value {
    let a = api
        .post(
            "/v1/gift_cards",
            json!({"amount": amount, "currency": currency, "locale": "fr", "recipient": {"name": "Ada", "email": "ada@example.com"}}),
        )
        .await;
    a.assert_ok().clone()
}

async fn active_card(s: &Server, shop: &Shop, amount: Value) -> String {
    let card = issue(&shop.live, amount, "EUR").await;
    let id = card["id"].as_str().unwrap().to_owned();
    s.ok("POST", &format!("/gift_cards/{id}/claim"), json!({}))
        .await;
    id
}

#[tokio::test]
async fn issuing_answers_issued_and_tells_whether_the_email_went() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let live = issue(&shop.live, json!(50), "EUR").await;
    assert_eq!(live["object"], "gift_card");
    assert_eq!(live["status"], "issued");
    assert_eq!(live["initial_amount"], "50.00");
    assert_eq!(live["balance"], "50.00");
    assert_eq!(live["currency"], "EUR");
    assert_eq!(live["test"], false);
    assert_eq!(live["pass_id"], json!(shop.pass_id));
    assert_eq!(
        live["recipient"],
        json!({"name": "Ada", "email": "ada@example.com"})
    );
    assert_eq!(live["email"], json!({"sent": true, "reason": null}));
    assert!(live["claimed_at"].is_null() && live["depleted_at"].is_null());
    for secret in ["code", "token", "serial"] {
        assert!(live.get(secret).is_none());
    }
    let sandbox = issue(&shop.test, json!(12.5), "EUR").await;
    assert_eq!(sandbox["test"], true);
    assert_eq!(sandbox["balance"], "12.50");
    assert_eq!(
        sandbox["email"],
        json!({"sent": false, "reason": "sandbox"})
    );
    let emails: Vec<Value> = s
        .effects(&shop.id)
        .await
        .into_iter()
        .filter(|e| e["kind"] == "email")
        .collect();
    assert_eq!(emails.len(), 2);
    assert_eq!(emails[0]["template"], "gift_card_issued");
    assert_eq!(emails[0]["locale"], "fr");
    assert_eq!(emails[0]["to"], "ada@example.com");
    assert_eq!(emails[1]["sent"], false);
    let listed = shop.test.all("/v1/gift_cards").await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["test"], true);
}

#[tokio::test]
async fn a_business_without_a_pass_answers_pass_required() {
    let s = Server::start().await;
    let shop = s.shop(json!({"pass": null})).await;
    assert!(shop.pass_id.is_none());
    let a = shop
        .live
        .post("/v1/gift_cards", json!({"amount": 10, "currency": "EUR", "recipient": {"name": "A", "email": "a@example.com"}}))
        .await;
    a.assert_problem(409, "pass_required");
    assert_eq!(shop.live.all("/v1/gift_cards").await.len(), 0);
}

#[tokio::test]
async fn amounts_follow_the_currency_minor_unit_not_a_fixed_hundred() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let yen = issue(&shop.live, json!(1500), "JPY").await;
    assert_eq!(yen["balance"], "1500.00");
    let id = yen["id"].as_str().unwrap();
    s.ok("POST", &format!("/gift_cards/{id}/claim"), json!({}))
        .await;
    let paid = shop
        .live
        .post(
            &format!("/v1/gift_cards/{id}/payments"),
            json!({"amount_minor": 500, "currency": "JPY"}),
        )
        .await;
    let paid = paid.assert_ok();
    assert_eq!(paid["amount"], "500.00");
    assert_eq!(
        paid["amount_minor"], 500,
        "yen have no minor unit: 500 is 500 yen"
    );
    assert_eq!(paid["balance_after"], "1000.00");
    for (amount, currency) in [
        (json!(10.005), "EUR"),
        (json!(1.5), "JPY"),
        (json!(10), "XYZ"),
        (json!(0), "EUR"),
        (json!(-5), "EUR"),
    ] {
        let a = shop
            .live
            .post("/v1/gift_cards", json!({"amount": amount, "currency": currency, "recipient": {"name": "A", "email": "a@example.com"}}))
            .await;
        a.assert_problem(422, "validation_failed");
    }
}

#[tokio::test]
async fn three_decimal_currencies_were_shown_with_three_decimals_and_are_now_refused_at_issue() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for currency in ["BHD", "KWD", "OMR", "bhd"] {
        let a = shop
            .live
            .post("/v1/gift_cards", json!({"amount": 1.25, "currency": currency, "recipient": {"name": "A", "email": "a@example.com"}}))
            .await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["param"], "currency");
        let items = a.body["errors"].as_array().unwrap();
        assert_eq!(items.len(), 1, "{}", a.body);
        assert_eq!(items[0]["param"], "currency");
        assert_eq!(items[0]["code"], "invalid_value");
        assert!(
            items[0]["message"].as_str().unwrap().contains("decimals"),
            "the message says why: {}",
            a.body
        );
    }
    assert_eq!(shop.live.all("/v1/gift_cards").await.len(), 0);
    // Two-decimal and zero-decimal currencies still print exactly two decimals.
    assert_eq!(
        issue(&shop.live, json!(500), "JPY").await["balance"],
        "500.00"
    );
    assert_eq!(
        issue(&shop.live, json!(1.25), "EUR").await["balance"],
        "1.25"
    );
}

#[tokio::test]
async fn a_payment_follows_every_row_of_the_gift_card_state_table() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    // issued: not claimed.
    let card = issue(&shop.live, json!(20), "EUR").await;
    let id = card["id"].as_str().unwrap().to_owned();
    let pay = |amount: i64| {
        let api = shop.live.clone();
        let path = format!("/v1/gift_cards/{id}/payments");
        async move {
            api.post(
                &path,
                json!({"amount_minor": amount, "currency": "EUR", "reference": "T-1"}),
            )
            .await
        }
    };
    pay(100).await.assert_problem(409, "gift_card_not_claimed");
    // issued -> active when the recipient opens it.
    let claimed = s
        .ok("POST", &format!("/gift_cards/{id}/claim"), json!({}))
        .await;
    assert_eq!(claimed["status"], "active");
    assert!(claimed["claimed_at"].is_string());
    // active, less than the balance.
    let p = pay(750).await;
    let p = p.assert_ok().clone();
    assert_eq!(p["object"], "gift_card_payment");
    assert_eq!(p["amount"], "7.50");
    assert_eq!(p["amount_minor"], 750);
    assert_eq!(p["balance_after"], "12.50");
    assert_eq!(p["reference"], "T-1");
    assert_eq!(p["gift_card"]["status"], "active");
    assert!(p["gift_card"].get("transactions").is_none());
    // A reference longer than 200 characters or with a control character: refused,
    // nothing taken (the limits the till checks before it stores a payment).
    for reference in ["x".repeat(201), "T-\n2".to_owned(), "T\u{7}2".to_owned()] {
        shop.live
            .post(
                &format!("/v1/gift_cards/{id}/payments"),
                json!({"amount_minor": 100, "currency": "EUR", "reference": reference}),
            )
            .await
            .assert_problem(422, "validation_failed");
    }
    // more than the balance: nothing taken, balance member.
    let over = pay(1251).await;
    over.assert_problem(409, "insufficient_balance");
    assert_eq!(over.body["param"], "amount_minor");
    assert_eq!(
        over.body["balance"],
        json!({"amount": "12.50", "amount_minor": 1250, "currency": "EUR"})
    );
    // currency differs.
    let other = shop
        .live
        .post(
            &format!("/v1/gift_cards/{id}/payments"),
            json!({"amount_minor": 1, "currency": "USD"}),
        )
        .await;
    other.assert_problem(422, "currency_mismatch");
    assert!(other.body["detail"].as_str().unwrap().contains("EUR"));
    // equal to the balance: depleted.
    let last = pay(1250).await;
    let last = last.assert_ok();
    assert_eq!(last["balance_after"], "0.00");
    assert_eq!(last["gift_card"]["status"], "depleted");
    assert!(last["gift_card"]["depleted_at"].is_string());
    pay(1).await.assert_problem(409, "gift_card_depleted");
    // The ledger: newest first, spends and the issue.
    let got = shop.live.get(&format!("/v1/gift_cards/{id}")).await;
    let got = got.assert_ok();
    let txs = got["transactions"].as_array().unwrap();
    let types: Vec<&str> = txs.iter().map(|t| t["type"].as_str().unwrap()).collect();
    assert_eq!(types, vec!["spend", "spend", "issue"]);
    assert_eq!(txs[0]["balance_after"], "0.00");
    assert_eq!(txs[1]["amount"], "7.50");
    assert_eq!(got["transactions_has_more"], false);
    // Effects and events of the two payments.
    let events = s.events(&shop.id).await;
    assert_eq!(
        events
            .iter()
            .filter(|e| e["type"] == "gift_card.spent")
            .count(),
        2
    );
    let effects = s.effects(&shop.id).await;
    assert_eq!(
        effects
            .iter()
            .filter(|e| e["template"] == "gift_card_receipt")
            .count(),
        2
    );
    assert_eq!(
        effects
            .iter()
            .filter(|e| e["kind"] == "wallet_update")
            .count(),
        2
    );
    // cancelled.
    let c2 = active_card(&s, &shop, json!(5)).await;
    let cancelled = s
        .ok("POST", &format!("/gift_cards/{c2}/cancel"), json!({}))
        .await;
    assert_eq!(cancelled["status"], "cancelled");
    shop.live
        .post(
            &format!("/v1/gift_cards/{c2}/payments"),
            json!({"amount_minor": 1, "currency": "EUR"}),
        )
        .await
        .assert_problem(409, "gift_card_cancelled");
    // unknown, or another place's.
    shop.live
        .post(
            "/v1/gift_cards/gc_nope/payments",
            json!({"amount_minor": 1, "currency": "EUR"}),
        )
        .await
        .assert_problem(404, "not_found");
    shop.test
        .post(
            &format!("/v1/gift_cards/{c2}/payments"),
            json!({"amount_minor": 1, "currency": "EUR"}),
        )
        .await
        .assert_problem(404, "not_found");
}

#[tokio::test]
async fn a_retrieved_gift_card_shows_its_newest_20_transactions_and_whether_more_exist() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let id = active_card(&s, &shop, json!(100)).await;
    for _ in 0..21 {
        shop.live
            .post(
                &format!("/v1/gift_cards/{id}/payments"),
                json!({"amount_minor": 100, "currency": "EUR"}),
            )
            .await
            .assert_ok();
    }
    let got = shop.live.get(&format!("/v1/gift_cards/{id}")).await;
    let got = got.assert_ok();
    assert_eq!(got["transactions"].as_array().unwrap().len(), 20);
    assert_eq!(got["transactions_has_more"], true);
    assert_eq!(got["transactions"][0]["balance_after"], "79.00");
}

#[tokio::test]
async fn fifty_simultaneous_payments_never_take_more_than_the_card_holds() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    // 10.00 EUR; 50 payments of 0.30 EUR: exactly 33 fit (9.90), one 0.10 is left.
    let id = active_card(&s, &shop, json!(10)).await;
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..50 {
        let api = shop.live.clone();
        let path = format!("/v1/gift_cards/{id}/payments");
        tasks.spawn(async move {
            api.post(
                &path,
                json!({"amount_minor": 30, "currency": "EUR", "reference": format!("R{i}")}),
            )
            .await
        });
    }
    let mut accepted = HashSet::new();
    let mut refused = 0;
    while let Some(done) = tasks.join_next().await {
        let a = done.unwrap();
        match a.status {
            200 => {
                accepted.insert(a.body["id"].as_str().unwrap().to_owned());
            }
            409 => {
                assert_eq!(a.code(), "insufficient_balance");
                refused += 1;
            }
            other => panic!("unexpected {other}: {}", a.body),
        }
    }
    assert_eq!(accepted.len(), 33);
    assert_eq!(refused, 17);
    let got = shop.live.get(&format!("/v1/gift_cards/{id}")).await;
    assert_eq!(got.assert_ok()["balance"], "0.10");
    assert_eq!(got.body["status"], "active");
    let ledger = s
        .control("GET", &format!("/gift_cards/{id}/transactions"), None)
        .await;
    let spends: Vec<&Value> = ledger.assert_ok()["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["type"] == "spend")
        .collect();
    assert_eq!(spends.len(), 33);
    let ids: HashSet<String> = spends
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        ids, accepted,
        "every accepted payment is in the ledger, once"
    );
    let total: i64 = spends
        .iter()
        .map(|t| t["amount_minor"].as_i64().unwrap())
        .sum();
    assert_eq!(total, 990);
    // Ledger balances step down by 30 with no gap or overlap.
    let mut after: Vec<i64> = spends
        .iter()
        .map(|t| {
            (t["balance_after"].as_str().unwrap().parse::<f64>().unwrap() * 100.0).round() as i64
        })
        .collect();
    after.sort_unstable_by(|a, b| b.cmp(a));
    let expected: Vec<i64> = (1..=33).map(|n| 1000 - 30 * n).collect();
    assert_eq!(after, expected);
}
