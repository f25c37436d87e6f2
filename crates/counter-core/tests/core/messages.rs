//! A message confirm goes through the outbox: a lost answer is resent with the same
//! key and the message goes out once.

use counter_core::views::BroadcastView;
use counter_core::{BroadcastDraft, ItemState, Outcome};
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
    let Outcome::Queued { item } = outcome else {
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

/// The manager's flow: a draft checked whole, previewed (the token stays in the core),
/// sent once exactly as previewed; a preview past its time is refused as expired; a
/// message scheduled here is listed and cancelled, and the service's records agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_is_previewed_sent_once_and_a_scheduled_one_cancelled() {
    use counter_core::{Error, MessageAudience, MessageDraft, NotAllowed, ScheduledState};

    let env = Env::start().await;
    let counter = env.counter().await;
    let draft = MessageDraft {
        pass_id: env.points_pass.clone(),
        title: "Double points".into(),
        body: "All day Saturday.\nSee you soon!".into(),
        audience: MessageAudience::Active,
        visited_within_days: None,
        has_reward: None,
        scheduled_at: None,
    };
    // A manager's: refused to a cashier; a bad draft is refused before anything.
    crate::cashier_signs_in(&counter);
    assert!(matches!(
        counter.preview_message(&draft).await,
        Err(Error::Pin(_))
    ));
    crate::owner_signs_in(&counter);
    let empty = MessageDraft {
        title: "  ".into(),
        ..draft.clone()
    };
    assert!(matches!(
        counter.preview_message(&empty).await,
        Err(Error::Input(_))
    ));

    let preview = counter.preview_message(&draft).await.unwrap();
    assert!(preview.cards > 0 && preview.people > 0, "{preview:?}");
    assert!(
        (590..=600).contains(&preview.expires_in_seconds),
        "{preview:?}"
    );
    let sent = counter.send_message(preview.preview).await.unwrap();
    let Outcome::Done {
        answer: BroadcastView { status, .. },
        ..
    } = &sent
    else {
        panic!("{sent:?}");
    };
    assert_eq!(status, "sending");
    // Sent once: the same preview cannot go again.
    assert!(matches!(
        counter.send_message(preview.preview).await,
        Err(Error::NotAllowed(NotAllowed::PreviewGone))
    ));
    let used = counter.preview_message(&draft).await.unwrap();
    assert_eq!(used.quota_used, preview.quota_used + 1, "{used:?}");

    // Past its ten minutes by the service's clock: refused as expired, nothing sent.
    env.control("POST", "/_sandbox/clock", json!({"advance_seconds": 660}))
        .await;
    let late = counter.send_message(used.preview).await.unwrap();
    let Outcome::Refused { refusal, .. } = &late else {
        panic!("{late:?}");
    };
    assert_eq!(
        refusal.code,
        loyalty_api::ErrorCode::ConfirmationTokenExpired
    );

    // Scheduled for tomorrow: listed here, then cancelled.
    let tomorrow = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(26);
    let later = MessageDraft {
        scheduled_at: Some(tomorrow.to_string()),
        ..draft.clone()
    };
    let preview = counter.preview_message(&later).await.unwrap();
    let scheduled = counter.send_message(preview.preview).await.unwrap();
    let Outcome::Done {
        answer: BroadcastView { id, status, .. },
        ..
    } = &scheduled
    else {
        panic!("{scheduled:?}");
    };
    assert_eq!(status, "scheduled");
    let listed = counter.scheduled_messages().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].state, ScheduledState::Scheduled);
    assert!(matches!(
        counter.cancel_message("bc_not_from_here").await,
        Err(Error::NotAllowed(NotAllowed::NotScheduledHere))
    ));
    let cancelled = counter.cancel_message(id.as_str()).await.unwrap();
    assert!(
        matches!(&cancelled, Outcome::Done { answer: BroadcastView { status, .. }, .. } if status == "cancelled"),
        "{cancelled:?}"
    );
    assert!(matches!(
        counter.scheduled_messages().unwrap()[0].state,
        ScheduledState::Cancelled { at: Some(_) }
    ));
    // The month's count gave the cancelled message back.
    let after = counter.preview_message(&draft).await.unwrap();
    assert_eq!(after.quota_used, used.quota_used, "{after:?}");
    counter.close().await;
}
