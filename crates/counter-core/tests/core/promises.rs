//! The outbox's promises, each proven by the failure it survives (issue "Never
//! doubled, never stuck"). Every test breaks one promise the way a shop would meet it,
//! against the real server, and judges by the server's own records.

use std::time::Duration;

use counter_core::{Config, DecisionReason, Error, ItemState, PaymentOutcome, ScanOutcome};
use jiff::SignedDuration;
use loyalty_api::ScanAction;
use rust_decimal::Decimal;
use serde_json::json;

use crate::{Env, drain, test_config, wait_for_state};

fn points(n: i64) -> Option<Decimal> {
    Some(Decimal::from(n))
}

/// Retries far apart and a quiet prober: what happens between attempts is the test's.
fn patient() -> Config {
    Config {
        retry: loyalty_api::RetryPolicy {
            initial_delay: Duration::from_secs(60),
            max_delay: Duration::from_secs(60),
            ..test_config().retry
        },
        probe_offline: Duration::from_secs(600),
        probe_online: Duration::from_secs(600),
        ..test_config()
    }
}

/// A visit recorded on `card`, then a second one the service asks about (less than 15
/// minutes later): the refused item a person may confirm.
async fn a_repeat_visit_question(
    counter: &counter_core::Counter,
    card: &loyalty_api::CardId,
) -> counter_core::ItemId {
    let first = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(first, ScanOutcome::Done { .. }), "{first:?}");
    let again = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    let ScanOutcome::Known { item, .. } = again else {
        panic!("expected the repeat-visit question: {again:?}");
    };
    item
}

fn kinds(scans: &[(String, i64)]) -> Vec<&str> {
    scans.iter().map(|(kind, _)| kind.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_key_never_redoes_a_payment_that_may_have_arrived() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let (first_id, first_key) = env.mint_key().await;
    let counter = env.open_with(patient()).await;
    counter
        .connect(&env.sandbox_url(), &first_key)
        .await
        .unwrap();

    // The service takes the payment, but its answer is lost.
    env.fault(
        json!({"path": format!("/v1/gift_cards/{gift}/payments"), "count": 1,
                     "drop_after_commit": true}),
    )
    .await;
    let outcome = counter
        .take_payment(gift.clone(), "20", None)
        .await
        .unwrap();
    let PaymentOutcome::Queued { item, .. } = outcome else {
        panic!("{outcome:?}");
    };
    let first_attempt = counter.item(item).unwrap().may_have_arrived_at.unwrap();

    // The key is revoked, and another connected.
    env.control(
        "POST",
        &format!("/_sandbox/keys/{first_id}/revoke"),
        json!({}),
    )
    .await;
    crate::manager_for_one_action(&counter);
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    counter.send_now();

    // Not sent under the new key: a person decides, told why.
    wait_for_state(&counter, item, ItemState::NeedsDecision).await;
    let waiting = counter.item(item).unwrap();
    assert_eq!(
        waiting.reason,
        Some(DecisionReason::SentUnderAnotherKey {
            first_attempt_at: first_attempt
        })
    );
    assert_eq!(waiting.attempts, 1);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(env.spends_of(&gift).await, ["20.00"], "charged once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_held_for_its_key_goes_on_once_that_key_is_back() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let (_, first_key) = env.mint_key().await;
    let counter = env.open_with(patient()).await;
    counter
        .connect(&env.sandbox_url(), &first_key)
        .await
        .unwrap();
    env.fault(json!({"path": "/v1/scans", "count": 1, "drop_after_commit": true}))
        .await;
    let ScanOutcome::Queued { item, .. } = counter
        .record_scan(card, ScanAction::Points, points(6))
        .await
        .unwrap()
    else {
        panic!("expected queued");
    };

    // Another key for a while: the write waits.
    crate::manager_for_one_action(&counter);
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    counter.send_now();
    wait_for_state(&counter, item, ItemState::NeedsDecision).await;

    // The first key is back: the write goes under it, and the service replays it.
    crate::manager_for_one_action(&counter);
    counter
        .connect(&env.sandbox_url(), &first_key)
        .await
        .unwrap();
    counter.send_now();
    wait_for_state(&counter, item, ItemState::Done).await;
    assert!(counter.item(item).unwrap().replayed);
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 6)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeat_visit_is_confirmed_once_however_often_it_is_clicked() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let item = a_repeat_visit_question(&counter, &card).await;

    // A double click: two confirmations at once.
    let (a, b) = tokio::join!(
        counter.confirm_repeat_visit(item),
        counter.confirm_repeat_visit(item)
    );
    let replacement = |outcome: &ScanOutcome| match outcome {
        ScanOutcome::Done { item, .. } | ScanOutcome::Queued { item, .. } => *item,
        other => panic!("{other:?}"),
    };
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(replacement(&a), replacement(&b), "one replacement");
    drain(&counter).await;
    // And a third, later, from another screen.
    let c = counter.confirm_repeat_visit(item).await.unwrap();
    assert_eq!(replacement(&c), replacement(&a));
    assert!(matches!(c, ScanOutcome::Done { .. }), "{c:?}");
    drain(&counter).await;
    assert_eq!(kinds(&env.scans_of(&customer).await), ["visit", "visit"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeat_visit_confirmed_before_a_crash_is_not_confirmed_again() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let item = a_repeat_visit_question(&counter, &card).await;
    env.stop().await;
    let queued = counter.confirm_repeat_visit(item).await.unwrap();
    let ScanOutcome::Queued {
        item: replacement, ..
    } = queued
    else {
        panic!("{queued:?}");
    };
    drop(counter);
    env.restart().await;

    // After the restart the same confirmation comes again (the screen still showed it).
    let counter = env.open_with(test_config()).await;
    let again = counter.confirm_repeat_visit(item).await.unwrap();
    assert!(
        matches!(again, ScanOutcome::Queued { item, .. } | ScanOutcome::Done { item, .. } if item == replacement),
        "{again:?}"
    );
    drain(&counter).await;
    assert_eq!(kinds(&env.scans_of(&customer).await), ["visit", "visit"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_poison_write_never_holds_the_counter() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    counter.refresh_gift_card(&gift).await.unwrap();

    // That gift card's payments fail with 500, again and again.
    env.fault(
        json!({"path": format!("/v1/gift_cards/{gift}/payments"), "count": 100000,
                     "status": 500, "code": "internal_error"}),
    )
    .await;
    let paid = counter.take_payment(gift.clone(), "5", None).await.unwrap();
    let PaymentOutcome::Queued { item: poison, .. } = paid else {
        panic!("{paid:?}");
    };

    // Every other card goes on at once, while the poison is retried on its own.
    let mut customers = Vec::new();
    for n in 1..=3 {
        let (card, customer) = env.new_card().await;
        let now = counter
            .record_scan(card, ScanAction::Points, points(n))
            .await
            .unwrap();
        assert!(
            matches!(now, ScanOutcome::Done { .. }),
            "scan {n} held behind the poison: {now:?}"
        );
        customers.push((customer, n));
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while counter.item(poison).unwrap().attempts < 3 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the poison is not retried: {:?}",
            counter.item(poison).unwrap()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for (customer, n) in customers {
        assert_eq!(env.scans_of(&customer).await, [("points".into(), n)]);
    }
    let stuck = counter.item(poison).unwrap();
    assert!(stuck.state.is_open(), "{stuck:?}");
    assert!(env.spends_of(&gift).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_23_hour_rule_follows_the_service_clock_when_the_till_clock_is_set_back() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter_with(patient()).await;
    env.fault(json!({"path": "/v1/scans", "count": 1, "drop_after_commit": true}))
        .await;
    let ScanOutcome::Queued { item, .. } = counter
        .record_scan(card, ScanAction::Points, points(7))
        .await
        .unwrap()
    else {
        panic!("expected queued");
    };
    let first = counter.item(item).unwrap().may_have_arrived_at.unwrap();

    // The till's clock is set back two days; a day passes on the service, which
    // forgets the write's key.
    env.clock.advance(SignedDuration::from_hours(-48));
    env.control(
        "POST",
        "/_sandbox/clock",
        json!({"advance_seconds": 24 * 3600 + 60}),
    )
    .await;
    counter.send_now();
    wait_for_state(&counter, item, ItemState::NeedsDecision).await;
    assert!(
        matches!(
            counter.item(item).unwrap().reason,
            Some(DecisionReason::KeyMayBeForgotten { .. })
        ),
        "{:?}",
        counter.item(item).unwrap()
    );
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 7)]);

    // "Send again" (while the service is away) keeps the moment of that first attempt.
    env.stop().await;
    counter.retry_item(item).unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while counter.item(item).unwrap().attempts < 2 {
        assert!(tokio::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(counter.item(item).unwrap().may_have_arrived_at, Some(first));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_till_clock_that_jumps_ahead_does_not_stop_a_safe_resend() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter_with(patient()).await;
    env.fault(json!({"path": "/v1/scans", "count": 1, "drop_after_commit": true}))
        .await;
    let ScanOutcome::Queued { item, .. } = counter
        .record_scan(card, ScanAction::Points, points(7))
        .await
        .unwrap()
    else {
        panic!("expected queued");
    };
    // The till's clock jumps two days ahead; on the service a minute passes.
    env.clock.advance(SignedDuration::from_hours(48));
    counter.send_now();
    wait_for_state(&counter, item, ItemState::Done).await;
    assert!(counter.item(item).unwrap().replayed);
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 7)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_service_never_holds_the_cashier() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    // The service takes longer than the cashier's wait (2 s), less than the time-out.
    env.fault(json!({"path": "/v1/scans", "count": 1, "delay_ms": 3500}))
        .await;
    let outcome = counter
        .record_scan(card, ScanAction::Points, points(4))
        .await
        .unwrap();
    let ScanOutcome::Queued { item, .. } = outcome else {
        panic!("the cashier waited for the service: {outcome:?}");
    };
    // Its answer arrives later, once.
    wait_for_state(&counter, item, ItemState::Done).await;
    assert_eq!(counter.item(item).unwrap().attempts, 1);
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 4)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payments_that_may_have_arrived_count_against_the_balance() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter_with(patient()).await;
    env.fault(
        json!({"path": format!("/v1/gift_cards/{gift}/payments"), "count": 1,
                     "drop_after_commit": true}),
    )
    .await;
    let paid = counter
        .take_payment(gift.clone(), "30", None)
        .await
        .unwrap();
    let PaymentOutcome::Queued { item, .. } = paid else {
        panic!("{paid:?}");
    };
    // A day passes on both clocks: the payment needs a person.
    env.control(
        "POST",
        "/_sandbox/clock",
        json!({"advance_seconds": 24 * 3600 + 60}),
    )
    .await;
    env.clock.advance(SignedDuration::from_hours(24));
    counter.send_now();
    wait_for_state(&counter, item, ItemState::NeedsDecision).await;

    // It may have been taken: while nobody has decided, the till counts it as taken
    // (the service's balance may or may not include it), so 30 more is refused.
    let more = counter.take_payment(gift.clone(), "30", None).await;
    assert!(
        matches!(
            more,
            Err(Error::Amount(
                counter_core::payment::AmountError::OverBalance { .. }
            ))
        ),
        "{more:?}"
    );
    // The manager checks the card (the ledger shows it), and closes the write: money is
    // withdrawn behind the PIN.
    crate::owner_signs_in(&counter);
    counter.discard(item, "on the ledger").unwrap();
    let fits = counter
        .take_payment(gift.clone(), "20", None)
        .await
        .unwrap();
    assert!(matches!(fits, PaymentOutcome::Done { .. }), "{fits:?}");
    assert_eq!(env.spends_of(&gift).await, ["30.00", "20.00"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reference_the_service_would_refuse_is_refused_before_it_is_stored() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    for bad in ["T-\n42".to_owned(), "x".repeat(201)] {
        let refused = counter.take_payment(gift.clone(), "5", Some(bad)).await;
        assert!(matches!(refused, Err(Error::Reference(_))), "{refused:?}");
    }
    assert!(
        counter.queue(false, 10).unwrap().is_empty(),
        "nothing stored"
    );
    assert!(env.spends_of(&gift).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idempotency_key_reused_answer_needs_a_decision_not_a_silent_refusal() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    env.fault(json!({"path": "/v1/scans", "count": 1, "status": 422,
                     "code": "idempotency_key_reused"}))
        .await;
    let outcome = counter
        .record_scan(card, ScanAction::Points, points(3))
        .await
        .unwrap();
    let ScanOutcome::NeedsDecision { item, reason } = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(reason, DecisionReason::IdempotencyKeyReused);
    assert!(!reason.can_send_again());
    assert!(env.scans_of(&customer).await.is_empty());
    counter.discard(item, "checked the card").unwrap();
    assert_eq!(counter.counts().unwrap().needs_decision, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cashiers_and_the_sender_never_wait_for_each_other() {
    let mut env = Env::start().await;
    let mut cards = Vec::new();
    for _ in 0..4 {
        cards.push(env.new_card().await);
    }
    let counter = std::sync::Arc::new(env.counter().await);
    // A backlog made while the service was away...
    env.stop().await;
    for n in 0..60 {
        counter
            .record_scan(cards[n % 4].0.clone(), ScanAction::Points, points(1))
            .await
            .unwrap();
    }
    env.restart().await;
    counter.send_now();
    // ...drains while cashiers keep writing at four tills' pace at once.
    let mut cashiers = tokio::task::JoinSet::new();
    for (card, _) in &cards {
        let counter = counter.clone();
        let card = card.clone();
        cashiers.spawn(async move {
            for _ in 0..15 {
                counter
                    .record_scan(card.clone(), ScanAction::Points, points(1))
                    .await
                    .unwrap();
            }
        });
    }
    let all = tokio::time::timeout(Duration::from_secs(60), cashiers.join_all()).await;
    assert!(all.is_ok(), "the cashiers' writes waited forever");
    drain(&counter).await;
    for (_, customer) in &cards {
        assert_eq!(env.scans_of(customer).await.len(), 30, "each write once");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeat_visit_asked_again_after_its_replacement_was_withdrawn_is_refused_not_a_crash() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let item = a_repeat_visit_question(&counter, &card).await;
    env.stop().await;
    let ScanOutcome::Queued {
        item: replacement, ..
    } = counter.confirm_repeat_visit(item).await.unwrap()
    else {
        panic!("expected queued");
    };
    counter.discard(replacement, "customer left").unwrap();
    // A stale screen asks again.
    let again = counter.confirm_repeat_visit(item).await;
    assert!(matches!(again, Err(Error::NotAllowed(_))), "{again:?}");
    env.restart().await;
    assert_eq!(kinds(&env.scans_of(&customer).await), ["visit"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_balance_read_never_holds_the_cashier() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    counter.refresh_gift_card(&gift).await.unwrap();
    env.fault(json!({"path": format!("/v1/gift_cards/{gift}"), "count": 1, "delay_ms": 4000}))
        .await;
    // Not read within the cashier's wait: the till goes on as if offline, where the
    // manager's policy (off by default) refuses, at once.
    let paid = counter.take_payment(gift.clone(), "5", None).await;
    assert!(matches!(paid, Err(Error::OfflinePolicy(_))), "{paid:?}");
    assert!(counter.queue(false, 10).unwrap().is_empty());
    assert!(env.spends_of(&gift).await.is_empty());
}
