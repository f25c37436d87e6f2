//! A message confirm goes through the outbox: a lost answer is resent with the same
//! key and the message goes out once.

use counter_core::{BroadcastDraft, ItemState, WriteOutcome};
use loyalty_api::PassId;
use serde_json::json;

use crate::{Env, drain};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_message_whose_answer_was_lost_goes_out_once() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let draft = BroadcastDraft {
        pass_id: PassId::new(env.points_pass.clone()),
        title: "Hello".into(),
        body: "Double points today".into(),
        audience: "active".into(),
        scheduled_at: None,
        targeting: None,
    };
    let preview = counter.preview_broadcast(&draft).await.unwrap();
    let remaining = preview.quota_remaining;
    env.fault(json!({"path": "/v1/broadcasts/confirm", "count": 1, "drop_after_commit": true}))
        .await;
    let outcome = counter
        .confirm_broadcast(draft.clone(), &preview.confirmation_token)
        .await
        .unwrap();
    let WriteOutcome::Queued { item } = outcome else {
        panic!("{outcome:?}");
    };
    drain(&counter).await;
    let done = counter.item(item).unwrap();
    assert_eq!(done.state, ItemState::Done);
    assert!(done.replayed);
    assert!(!format!("{done:?}").contains(&preview.confirmation_token));

    // The service's own count: one message used, not two.
    let again = counter.preview_broadcast(&draft).await.unwrap();
    assert_eq!(again.quota_remaining, remaining - 1);
}
