//! Numbers in request bodies are read exactly from their JSON text, never through
//! `f64` (issue 11, hole 8). Bodies here are sent as text: `json!` would round them.

use serde_json::json;

use crate::helpers::{Api, Server, idem};

fn gift_card(amount: &str, currency: &str) -> String {
    format!(
        r#"{{"amount": {amount}, "currency": "{currency}", "recipient": {{"name": "Ada", "email": "ada@example.com"}}}}"#
    )
}

async fn issue_text(api: &Api, amount: &str, currency: &str) -> crate::helpers::Answer {
    api.post_text("/v1/gift_cards", &gift_card(amount, currency), &idem())
        .await
}

#[tokio::test]
async fn a_gift_card_amount_that_f64_rounds_was_issued_rounded_and_is_now_refused() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    // Each of these was read as an f64, which rounded it to an amount that fits the
    // currency: 10.000000000000000001 EUR was issued as "10.00".
    for (amount, currency, code) in [
        ("10.000000000000000001", "EUR", "invalid_value"),
        ("0.009999999999999999999", "EUR", "invalid_value"),
        ("500.0000000000000000001", "JPY", "invalid_value"),
        ("1000000.000000000000001", "EUR", "out_of_range"),
        // Too many decimals for any exact reading: refused, not rounded to 0.
        ("1e-400", "EUR", "invalid_value"),
        (
            "0.00000000000000000000000000000000001",
            "EUR",
            "invalid_value",
        ),
    ] {
        let a = issue_text(&shop.live, amount, currency).await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["param"], "amount", "{amount}: {}", a.body);
        assert_eq!(a.body["errors"][0]["code"], code, "{amount}: {}", a.body);
    }
    assert_eq!(shop.live.all("/v1/gift_cards").await.len(), 0);
}

#[tokio::test]
async fn gift_card_amounts_are_read_exactly_in_every_json_spelling() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    for (amount, currency, shown) in [
        ("0.1", "EUR", "0.10"),
        ("1e2", "EUR", "100.00"),
        ("1E2", "EUR", "100.00"),
        ("12.5e-1", "EUR", "1.25"),
        ("0.0125e2", "EUR", "1.25"),
        ("100.000000000000000000000000000000000000", "EUR", "100.00"),
        ("1e3", "JPY", "1000.00"),
        ("999999.99", "EUR", "999999.99"),
    ] {
        let a = issue_text(&shop.live, amount, currency).await;
        let card = a.assert_ok();
        assert_eq!(card["initial_amount"], shown, "{amount}");
        assert_eq!(card["balance"], shown, "{amount}");
    }
    // Refused with the rule's own code, never a 500.
    for (amount, code) in [
        ("10.005", "invalid_value"),
        ("99999999999999999999.99", "out_of_range"),
        ("79228162514264337593543950336", "out_of_range"),
        ("1e30", "out_of_range"),
        ("-0", "out_of_range"),
        ("-0.01", "out_of_range"),
    ] {
        let a = issue_text(&shop.live, amount, "EUR").await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["errors"][0]["code"], code, "{amount}: {}", a.body);
    }
    // A number beyond what JSON parsers hold as a double refuses the body as a whole.
    for amount in ["1e400", "1e999999999999999999999"] {
        let a = issue_text(&shop.live, amount, "EUR").await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["errors"][0]["code"], "invalid_json", "{amount}");
    }
    assert_eq!(shop.live.all("/v1/gift_cards").await.len(), 8);
}

#[tokio::test]
async fn whole_numbers_are_read_exactly_and_a_near_whole_one_is_not_rounded() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let card = issue_text(&shop.live, "20", "EUR")
        .await
        .assert_ok()
        .clone();
    let id = card["id"].as_str().unwrap();
    s.ok("POST", &format!("/gift_cards/{id}/claim"), json!({}))
        .await;
    let path = format!("/v1/gift_cards/{id}/payments");
    let pay = |minor: &str| format!(r#"{{"amount_minor": {minor}, "currency": "EUR"}}"#);
    // f64 read 100.0000000000000000001 as 100: it must not take 1.00 EUR.
    for (minor, code) in [
        ("100.0000000000000000001", "invalid_type"),
        ("99.9999999999999999999", "invalid_type"),
        ("1.5", "invalid_type"),
        ("9223372036854775808", "out_of_range"),
        ("1e30", "out_of_range"),
    ] {
        let a = shop.live.post_text(&path, &pay(minor), &idem()).await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["errors"][0]["code"], code, "{minor}: {}", a.body);
    }
    // A JSON number's value is what counts: 1e2 and 100.0 are the whole number 100
    // (as JSON Schema's `integer` has it).
    let paid = shop.live.post_text(&path, &pay("1e2"), &idem()).await;
    assert_eq!(paid.assert_ok()["amount_minor"], 100);
    let paid = shop.live.post_text(&path, &pay("100.0"), &idem()).await;
    assert_eq!(paid.assert_ok()["balance_after"], "18.00");
}

#[tokio::test]
async fn a_points_amount_is_a_whole_number_read_exactly() {
    let s = Server::start().await;
    let shop = s.shop(json!({"pass": {"name": "Points", "loyalty_type": "points", "goal": 1000, "reward_title": "Cake", "locale": "en"}})).await;
    let pass = shop.pass_id.clone().unwrap();
    let (_, card) = shop.live.enrol(&pass, "points@example.com").await;
    let scan =
        |amount: &str| format!(r#"{{"card_id": "{card}", "kind": "points", "amount": {amount}}}"#);
    let a = shop
        .live
        .post_text("/v1/scans", &scan("5.0000000000000000001"), &idem())
        .await;
    a.assert_problem(422, "validation_failed");
    assert_eq!(a.body["param"], "amount");
    let a = shop
        .live
        .post_text("/v1/scans", &scan("5e1"), &idem())
        .await;
    assert_eq!(a.assert_ok()["points_added"], 50);
}

#[tokio::test]
async fn the_same_key_with_an_amount_f64_rounds_to_the_first_was_replayed_and_is_now_a_reuse() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let key = idem();
    let first = shop
        .live
        .post_text("/v1/gift_cards", &gift_card("10.5", "EUR"), &key)
        .await;
    first.assert_ok();
    // Not the same request: as f64 both bodies were one fingerprint, and this one
    // was answered with the first card.
    let other = shop
        .live
        .post_text(
            "/v1/gift_cards",
            &gift_card("10.500000000000000001", "EUR"),
            &key,
        )
        .await;
    assert_eq!(other.header("idempotent-replayed"), None);
    other.assert_problem(422, "idempotency_key_reused");
    // The same amount written another way is the same request.
    for same in ["1.05e1", "10.50"] {
        let again = shop
            .live
            .post_text("/v1/gift_cards", &gift_card(same, "EUR"), &key)
            .await;
        assert_eq!(again.header("idempotent-replayed"), Some("true"), "{same}");
        assert_eq!(again.body["id"], first.body["id"]);
    }
    assert_eq!(shop.live.all("/v1/gift_cards").await.len(), 1);
}

#[tokio::test]
async fn a_stored_key_reused_with_the_same_bytes_as_text_plain_was_replayed_and_is_now_refused() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .live
        .enrol(shop.pass_id.as_deref().unwrap(), "plain@example.com")
        .await;
    // Canonical JSON already: the raw bytes hashed for a refused body were the same
    // as the canonical text hashed for the JSON one.
    let body = format!(r#"{{"card_id":"{card}","kind":"visit"}}"#);
    let key = idem();
    shop.live
        .post_text("/v1/scans", &body, &key)
        .await
        .assert_ok();
    let resp = s
        .http
        .post(format!("{}/v1/scans", s.root))
        .bearer_auth(&shop.live.key)
        .header("Idempotency-Key", &key)
        .header("Content-Type", "text/plain")
        .body(body)
        .send()
        .await
        .unwrap();
    let a = crate::helpers::read(resp).await;
    assert_eq!(a.header("idempotent-replayed"), None);
    a.assert_problem(422, "idempotency_key_reused");
}
