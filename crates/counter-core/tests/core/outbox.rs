//! The outbox against the real server: offline and back, faults, a crash, 23 hours.

use std::time::{Duration, Instant};

use counter_core::{
    Config, Connectivity, DecisionReason, Event, ItemState, Resolution, ScanOutcome,
};
use jiff::SignedDuration;
use loyalty_api::ScanAction;
use rust_decimal::Decimal;
use serde_json::json;

use crate::{Env, drain, test_config, wait_for_event, wait_for_state};

fn points(n: i64) -> Option<Decimal> {
    Some(Decimal::from(n))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_scan_is_recorded_at_once_and_once() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let outcome = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    let ScanOutcome::Done {
        item,
        answer: result,
    } = outcome
    else {
        panic!("{outcome:?}");
    };
    assert_eq!(result.visits_added, 1);
    assert_eq!(counter.item(item).unwrap().state, ItemState::Done);
    assert_eq!(counter.lookup_card(&card).unwrap().unwrap().card.visits, 1);
    assert_eq!(env.scans_of(&customer).await, [("visit".into(), 0)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_made_while_the_server_is_stopped_are_queued_then_sent_in_order() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    let mut events = counter.subscribe();
    env.stop().await;

    let mut items = Vec::new();
    for n in 1..=3 {
        let outcome = counter
            .record_scan(card.clone(), ScanAction::Points, points(n))
            .await
            .unwrap();
        let ScanOutcome::Queued { item, .. } = outcome else {
            panic!("{outcome:?}");
        };
        items.push(item);
    }
    wait_for_event(&mut events, |e| {
        *e == Event::Connectivity {
            state: Connectivity::Offline,
        }
    })
    .await;
    assert_eq!(counter.counts().unwrap().queued, 3);
    assert_eq!(counter.connectivity(), Connectivity::Offline);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        counter.counts().unwrap().queued,
        3,
        "nothing is lost while offline"
    );

    env.restart().await;
    wait_for_event(&mut events, |e| {
        *e == Event::Connectivity {
            state: Connectivity::Online,
        }
    })
    .await;
    drain(&counter).await;
    for item in items {
        assert_eq!(counter.item(item).unwrap().state, ItemState::Done);
    }
    assert_eq!(
        env.scans_of(&customer).await,
        [
            ("points".into(), 1),
            ("points".into(), 2),
            ("points".into(), 3)
        ],
        "each write once, in the order made"
    );
    let lookup = counter.lookup_card(&card).unwrap().unwrap();
    assert!(!lookup.provisional);
    assert_eq!(lookup.card.points, 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_done_but_unanswered_is_resent_with_its_key_and_the_replay_counts_as_success() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    env.fault(json!({"path": "/v1/scans", "count": 1, "drop_after_commit": true}))
        .await;
    let outcome = counter
        .record_scan(card.clone(), ScanAction::Points, points(5))
        .await
        .unwrap();
    let ScanOutcome::Queued { item, .. } = outcome else {
        panic!("{outcome:?}");
    };
    drain(&counter).await;
    let done = counter.item(item).unwrap();
    assert_eq!(done.state, ItemState::Done);
    assert!(done.replayed, "the second answer was the stored first one");
    assert_eq!(done.attempts, 2);
    assert!(done.may_have_arrived_at.is_some());
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 5)]);
}

async fn retried_after_a_problem(status: u16, code: &str) {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    env.fault(json!({"path": "/v1/scans", "count": 2, "status": status, "code": code}))
        .await;
    let started = Instant::now();
    let outcome = counter
        .record_scan(card.clone(), ScanAction::Points, points(2))
        .await
        .unwrap();
    let ScanOutcome::Queued { item, .. } = outcome else {
        panic!("{outcome:?}");
    };
    drain(&counter).await;
    // Two answers said Retry-After: 1; our own backoff (100 ms) would be far shorter.
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let done = counter.item(item).unwrap();
    assert_eq!(done.state, ItemState::Done);
    assert_eq!(done.attempts, 3);
    assert!(!done.replayed);
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 2)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_retried_after_its_retry_after() {
    retried_after_a_problem(429, "rate_limited").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_503_is_retried_after_its_retry_after() {
    retried_after_a_problem(503, "service_unavailable").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_write_does_not_block_the_ones_behind_it() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    env.stop().await;
    // Deducting more points than the card holds is refused for good.
    let mut items = Vec::new();
    for amount in [-50, 4, 1] {
        let outcome = counter
            .record_scan(card.clone(), ScanAction::Points, points(amount))
            .await
            .unwrap();
        let ScanOutcome::Queued { item, .. } = outcome else {
            panic!("{outcome:?}");
        };
        items.push(item);
    }
    env.restart().await;
    drain(&counter).await;
    let refused = counter.item(items[0]).unwrap();
    assert_eq!(refused.state, ItemState::Refused);
    let refusal = refused.refusal.unwrap();
    assert_eq!(refusal.code, loyalty_api::ErrorCode::InsufficientBalance);
    assert!(refusal.request_id.is_some());
    assert_eq!(counter.item(items[1]).unwrap().state, ItemState::Done);
    assert_eq!(counter.item(items[2]).unwrap().state, ItemState::Done);
    assert_eq!(
        env.scans_of(&customer).await,
        [("points".into(), 4), ("points".into(), 1)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_counter_dropped_in_the_middle_of_a_drain_resends_with_the_same_keys_after_reopening() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_card().await;
    // A long backoff and no probing: the test arms the fault before the retry.
    let slow = Config {
        retry: loyalty_api::RetryPolicy {
            initial_delay: Duration::from_secs(3),
            max_delay: Duration::from_secs(3),
            ..test_config().retry
        },
        probe_offline: Duration::from_secs(600),
        ..test_config()
    };
    let counter = env.counter_with(slow).await;
    env.stop().await;
    let mut items = Vec::new();
    for n in 1..=4 {
        let outcome = counter
            .record_scan(card.clone(), ScanAction::Points, points(n))
            .await
            .unwrap();
        let ScanOutcome::Queued { item, .. } = outcome else {
            panic!("{outcome:?}");
        };
        items.push(item);
    }
    let keys: Vec<String> = items
        .iter()
        .map(|i| counter.item(*i).unwrap().idempotency_key)
        .collect();
    // The sender found nobody and waits out its backoff.
    while counter.item(items[0]).unwrap().attempts == 0
        || counter.item(items[0]).unwrap().state != ItemState::Queued
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    env.restart().await;
    env.fault(json!({"path": "/v1/scans", "count": 1, "delay_ms": 1500}))
        .await;
    counter.send_now();
    wait_for_state(&counter, items[0], ItemState::Sending).await;
    drop(counter); // as a crash: the request in flight is cut

    let counter = env.open_with(test_config()).await;
    let reopened: Vec<String> = items
        .iter()
        .map(|i| counter.item(*i).unwrap().idempotency_key)
        .collect();
    assert_eq!(reopened, keys, "keys never change");
    drain(&counter).await;
    assert!(
        counter
            .item(items[0])
            .unwrap()
            .may_have_arrived_at
            .is_some(),
        "the cut attempt is known to have maybe arrived"
    );
    for item in &items {
        assert_eq!(counter.item(*item).unwrap().state, ItemState::Done);
    }
    assert_eq!(
        env.scans_of(&customer).await,
        (1..=4)
            .map(|n| ("points".to_owned(), n))
            .collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_that_may_have_arrived_more_than_23_hours_ago_needs_a_decision() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let (other_card, other_customer) = env.new_card().await;
    let slow = Config {
        retry: loyalty_api::RetryPolicy {
            initial_delay: Duration::from_secs(30),
            max_delay: Duration::from_secs(30),
            ..test_config().retry
        },
        probe_offline: Duration::from_secs(600),
        probe_online: Duration::from_secs(600),
        ..test_config()
    };
    let counter = env.counter_with(slow).await;
    // Done by the server, but the answer is lost.
    env.fault(json!({"path": "/v1/scans", "count": 1, "drop_after_commit": true}))
        .await;
    let ScanOutcome::Queued { item: unsure, .. } = counter
        .record_scan(card.clone(), ScanAction::Points, points(7))
        .await
        .unwrap()
    else {
        panic!("expected queued");
    };
    // Never sent at all (the server is away): safe to send whenever.
    env.stop().await;
    let ScanOutcome::Queued { item: unsent, .. } = counter
        .record_scan(other_card.clone(), ScanAction::Points, points(3))
        .await
        .unwrap()
    else {
        panic!("expected queued");
    };
    env.restart().await;

    // A day passes on both clocks: the server forgets the first key.
    env.control(
        "POST",
        "/_sandbox/clock",
        json!({"advance_seconds": 24 * 3600}),
    )
    .await;
    env.clock.advance(SignedDuration::from_hours(24));
    counter.send_now();
    wait_for_state(&counter, unsure, ItemState::NeedsDecision).await;
    // What a person may decide is the core's answer: send it again, or withdraw it.
    let choices = counter.choices(&counter.item(unsure).unwrap());
    assert!(choices.send_again && choices.discard && !choices.confirm_repeat);
    let reason = counter.item(unsure).unwrap().reason.unwrap();
    assert!(
        matches!(reason, DecisionReason::KeyMayBeForgotten { hours: 23, .. }),
        "{reason:?}"
    );
    assert!(reason.to_string().contains("24 hours"), "{reason}");
    wait_for_state(&counter, unsent, ItemState::Done).await;
    assert_eq!(counter.counts().unwrap().needs_decision, 1);

    // Nothing doubled: the server has the first write once, and the second once.
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 7)]);
    assert_eq!(env.scans_of(&other_customer).await, [("points".into(), 3)]);

    // The cashier checked the card and discards it; the record stays.
    let discarded = counter.discard(unsure, "already on the card").unwrap();
    assert_eq!(discarded.state, ItemState::Refused);
    assert_eq!(
        discarded.resolution,
        Some(Resolution::Discarded {
            note: "already on the card".into()
        })
    );
    assert_eq!(counter.counts().unwrap().needs_decision, 0);
    assert_eq!(
        counter.choices(&discarded),
        counter_core::ItemChoices::default(),
        "a closed write offers nothing"
    );
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 7)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_used_up_rate_limit_holds_the_queue_until_its_window_resets() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    env.stop().await;
    for _ in 0..6 {
        counter
            .record_scan(card.clone(), ScanAction::Points, points(1))
            .await
            .unwrap();
    }
    env.restart().await;
    env.control(
        "PATCH",
        &format!("/_sandbox/businesses/{}", env.business_id),
        json!({"rate_limits": {"requests_per_key": 3, "window_seconds": 2}}),
    )
    .await;
    counter.send_now();
    drain(&counter).await;
    env.control(
        "PATCH",
        &format!("/_sandbox/businesses/{}", env.business_id),
        json!({"rate_limits": {"requests_per_key": 6000, "window_seconds": 60}}),
    )
    .await;
    assert_eq!(
        env.scans_of(&customer).await,
        (0..6).map(|_| ("points".to_owned(), 1)).collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_whose_key_was_revoked_waits_for_a_key_that_works_and_goes_once() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let minted = env
        .control(
            "POST",
            "/_sandbox/keys",
            json!({"business_id": env.business_id, "mode": "test"}),
        )
        .await;
    let counter = env.open_with(test_config()).await;
    counter
        .connect(&env.sandbox_url(), minted["key"].as_str().unwrap())
        .await
        .unwrap();
    let revoked = minted["id"].as_str().unwrap();
    env.control(
        "POST",
        &format!("/_sandbox/keys/{revoked}/revoke"),
        json!({}),
    )
    .await;

    // Refused for its key: kept, not closed; the till says the key is refused.
    let outcome = counter
        .record_scan(card.clone(), ScanAction::Points, points(5))
        .await
        .unwrap();
    let ScanOutcome::Queued { item, .. } = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(counter.connectivity(), Connectivity::KeyRefused);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let waiting = counter.item(item).unwrap();
    assert_eq!(waiting.state, ItemState::Queued, "{waiting:?}");
    assert!(waiting.refusal.is_none());
    assert_eq!(
        waiting.attempts, 1,
        "the queue is held, not retried with the key"
    );

    // Trying another key the service refuses changes nothing for the queue.
    assert!(
        counter
            .connect(&env.sandbox_url(), "lc_test_not_a_key_at_all_000000")
            .await
            .is_err()
    );
    assert_eq!(counter.item(item).unwrap().attempts, 1);
    assert!(env.scans_of(&customer).await.is_empty());

    // A key that works: the write goes, once, under its first Idempotency-Key.
    crate::manager_for_one_action(&counter);
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    drain(&counter).await;
    let sent = counter.item(item).unwrap();
    assert_eq!(sent.state, ItemState::Done);
    assert_eq!(sent.idempotency_key, waiting.idempotency_key);
    assert_eq!(env.scans_of(&customer).await, [("points".into(), 5)]);
}
