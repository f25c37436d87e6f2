//! The repeat-visit question, online and when a queued visit is replayed.

use counter_core::{DecisionReason, ItemState, RepeatVisit, Resolution, ScanOutcome};
use loyalty_api::ScanAction;

use crate::{Env, drain};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_visit_within_15_minutes_asks_and_a_confirmation_records_it_with_a_new_key() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let first = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(first, ScanOutcome::Done { .. }), "{first:?}");

    let second = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    let ScanOutcome::Known {
        item: asked,
        known: RepeatVisit { last_visit_at },
    } = second
    else {
        panic!("{second:?}");
    };
    assert!(last_visit_at.is_some());
    let refused = counter.item(asked).unwrap();
    assert_eq!(refused.state, ItemState::Refused);
    assert_eq!(
        refused.refusal.as_ref().unwrap().code,
        loyalty_api::ErrorCode::RecentVisit
    );
    assert_eq!(
        env.scans_of(&customer).await.len(),
        1,
        "nothing recorded yet"
    );

    let confirmed = counter.confirm_repeat_visit(asked).await.unwrap();
    let ScanOutcome::Done {
        item,
        answer: result,
    } = confirmed
    else {
        panic!("{confirmed:?}");
    };
    assert_eq!(result.card.visits, 2);
    let repeat = counter.item(item).unwrap();
    assert_ne!(repeat.idempotency_key, refused.idempotency_key);
    assert_eq!(repeat.replaces, Some(asked));
    assert!(repeat.body.contains("\"confirm_repeat\":true"));
    let closed = counter.item(asked).unwrap();
    assert_eq!(closed.state, ItemState::Refused);
    assert_eq!(
        closed.resolution,
        Some(Resolution::RepeatConfirmed { replacement: item })
    );
    // Confirmed once: asked again, it answers with the same replacement.
    let again = counter.confirm_repeat_visit(asked).await.unwrap();
    assert!(
        matches!(again, ScanOutcome::Done { item: same, .. } if same == item),
        "{again:?}"
    );

    assert_eq!(
        env.scans_of(&customer).await,
        [("visit".into(), 0), ("visit".into(), 0)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_visit_answered_recent_visit_needs_a_decision() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let first = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(first, ScanOutcome::Done { .. }));
    env.stop().await;
    let queued = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    let ScanOutcome::Queued { item } = queued else {
        panic!("{queued:?}");
    };
    assert!(counter.lookup_card(&card).unwrap().unwrap().provisional);
    env.restart().await;
    drain(&counter).await;

    let waiting = counter.item(item).unwrap();
    assert_eq!(waiting.state, ItemState::NeedsDecision);
    assert!(
        matches!(
            waiting.reason,
            Some(DecisionReason::RecentVisit {
                last_visit_at: Some(_)
            })
        ),
        "{:?}",
        waiting.reason
    );
    assert_eq!(counter.counts().unwrap().needs_decision, 1);
    assert_eq!(env.scans_of(&customer).await.len(), 1);

    // Sending it again would only replay "too recent": refused, and nothing changes.
    assert!(counter.retry_item(item).is_err());
    assert_eq!(counter.item(item).unwrap().state, ItemState::NeedsDecision);

    // The cashier says it is a new visit.
    let confirmed = counter.confirm_repeat_visit(item).await.unwrap();
    assert!(
        matches!(confirmed, ScanOutcome::Done { .. }),
        "{confirmed:?}"
    );
    assert_eq!(counter.counts().unwrap().needs_decision, 0);
    assert_eq!(counter.item(item).unwrap().state, ItemState::Refused);
    assert_eq!(
        env.scans_of(&customer).await,
        [("visit".into(), 0), ("visit".into(), 0)]
    );
}
