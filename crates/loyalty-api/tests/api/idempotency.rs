//! Replays: the same Idempotency-Key gets the first answer, and a write whose answer
//! was lost is recovered by retrying with its key.

use std::time::Duration;

use loyalty_api::{
    ErrorCode, IdempotencyKey, Jitter, NewScan, RetryPolicy, TransportKind, is_retryable,
};
use serde_json::json;

use crate::harness::Env;

fn quick_policy() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 4,
        initial_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(100),
        jitter: Jitter::None,
    }
}

#[tokio::test]
async fn the_same_key_twice_returns_the_first_answer_marked_replayed() {
    let env = Env::start().await;
    let (customer, card) = env.enrol(&env.sandbox_pass_id).await;
    let key = IdempotencyKey::new_v4();
    let first = env
        .client
        .scans()
        .create(&key, &NewScan::visit(card.clone()))
        .await
        .unwrap();
    assert!(!first.replayed);
    let again = env
        .client
        .scans()
        .create(&key, &NewScan::visit(card))
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!(again.data, first.data);
    assert_eq!(again.http_status, first.http_status);
    let now = env.client.customers().get(&customer.id).await.unwrap();
    assert_eq!(now.cards[0].visits, 1, "the visit was recorded once");
}

#[tokio::test]
async fn a_replayed_refusal_keeps_its_first_request_id() {
    let env = Env::start().await;
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    env.client
        .scans()
        .create(&IdempotencyKey::new_v4(), &NewScan::visit(card.clone()))
        .await
        .unwrap();
    let key = IdempotencyKey::new_v4();
    let first = env
        .client
        .scans()
        .create(&key, &NewScan::visit(card.clone()))
        .await
        .unwrap_err();
    let again = env
        .client
        .scans()
        .create(&key, &NewScan::visit(card))
        .await
        .unwrap_err();
    let (first, again) = (first.problem().unwrap(), again.problem().unwrap());
    assert_eq!(first.code, ErrorCode::RecentVisit);
    assert!(!first.replayed);
    assert!(again.replayed);
    assert_eq!(again.code, ErrorCode::RecentVisit);
    assert_eq!(again.request_id, first.request_id);
}

#[tokio::test]
async fn a_write_whose_answer_was_lost_is_recovered_by_retrying_with_its_key() {
    let env = Env::start().await;
    let (customer, card) = env.enrol(&env.sandbox_pass_id).await;
    env.fault("/v1/scans", 1, json!({"drop_after_commit": true}))
        .await;

    let key = IdempotencyKey::new_v4();
    let scan = NewScan::visit(card);
    let err = env.client.scans().create(&key, &scan).await.unwrap_err();
    assert_eq!(
        err.transport_kind(),
        Some(TransportKind::ConnectionClosed),
        "{err}"
    );
    assert!(err.transport_kind().unwrap().request_may_have_arrived());
    assert!(is_retryable(&err));

    let retried = env.client.scans().create(&key, &scan).await.unwrap();
    assert!(retried.replayed, "the committed first answer is replayed");
    assert_eq!(retried.card.visits, 1);
    let now = env.client.customers().get(&customer.id).await.unwrap();
    assert_eq!(now.cards[0].visits, 1, "the visit was not doubled");
}

#[tokio::test]
async fn the_retry_policy_recovers_a_lost_payment_without_taking_it_twice() {
    let env = Env::start().await;
    let gift_card = env.gift_card(20, true).await;
    env.fault("/v1/gift_cards", 1, json!({"drop_after_commit": true}))
        .await;
    let key = IdempotencyKey::new_v4();
    let payment = loyalty_api::NewPayment {
        amount_minor: loyalty_api::MinorUnits(500),
        currency: loyalty_api::Currency::new("EUR").unwrap(),
        reference: None,
    };
    let cards = env.client.gift_cards();
    let mut attempts = 0;
    let paid = quick_policy()
        .retry_write(&key, |k| {
            attempts += 1;
            cards.pay(&gift_card, k, &payment)
        })
        .await
        .unwrap();
    assert_eq!(attempts, 2);
    assert!(paid.replayed);
    assert_eq!(paid.balance_after.to_string(), "15.00");
    let read = cards.get(&gift_card).await.unwrap();
    assert_eq!(read.gift_card.balance.to_string(), "15.00");
}

#[tokio::test]
async fn a_write_in_progress_is_retried_until_it_goes_through() {
    let env = Env::start().await;
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    env.fault(
        "/v1/scans",
        2,
        json!({"status": 409, "code": "idempotency_in_progress"}),
    )
    .await;
    let key = IdempotencyKey::new_v4();
    let scan = NewScan::visit(card);
    let mut attempts = 0;
    let result = quick_policy()
        .retry_write(&key, |k| {
            attempts += 1;
            env.client.scans().create(k, &scan)
        })
        .await
        .unwrap();
    assert_eq!(attempts, 3);
    assert!(
        !result.replayed,
        "injected answers are not stored, so the third attempt did the write"
    );
    assert_eq!(result.card.visits, 1);
}

#[tokio::test]
async fn a_final_refusal_is_not_retried() {
    let env = Env::start().await;
    env.fault(
        "/v1/scans",
        3,
        json!({"status": 409, "code": "card_not_active"}),
    )
    .await;
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    let scan = NewScan::visit(card);
    let mut attempts = 0;
    let err = quick_policy()
        .retry_write(&IdempotencyKey::new_v4(), |k| {
            attempts += 1;
            env.client.scans().create(k, &scan)
        })
        .await
        .unwrap_err();
    assert_eq!(attempts, 1);
    assert_eq!(err.code(), Some(&ErrorCode::CardNotActive));
}
