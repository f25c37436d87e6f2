//! Messages: preview, confirm, cancel, and every refusal of the confirmation token.

use loyalty_api::{
    Audience, BroadcastMessage, BroadcastStatus, ConfirmationToken, ErrorCode, IdempotencyKey,
};
use serde_json::json;

use crate::harness::{ALL_SCOPES, Env};

fn key() -> IdempotencyKey {
    IdempotencyKey::new_v4()
}

fn message(env: &Env) -> BroadcastMessage {
    BroadcastMessage {
        pass_id: env.sandbox_pass_id.clone(),
        title: "Autumn".into(),
        body: "A free pastry with every coffee this week.".into(),
        audience: Audience::Active,
        scheduled_at: None,
        targeting: None,
    }
}

fn scheduled(env: &Env) -> BroadcastMessage {
    BroadcastMessage {
        scheduled_at: Some(jiff::Timestamp::now() + jiff::SignedDuration::from_hours(48)),
        ..message(env)
    }
}

#[tokio::test]
async fn a_preview_sends_nothing_and_its_confirm_sends_the_message() {
    let env = Env::start().await;
    let message = message(&env);
    let preview = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap();
    assert_eq!(preview.message.title, message.title);
    assert_eq!(preview.recipients.audience, Audience::Active);
    assert!(preview.recipients.cards >= 25, "the demo cards are active");
    assert_eq!(preview.quota.total, 100);
    assert!(preview.expires_at > jiff::Timestamp::now());
    assert!(preview.scheduled_at.is_none());

    let sent = env
        .client
        .broadcasts()
        .confirm(&key(), &message, &preview.confirmation_token)
        .await
        .unwrap();
    assert_eq!(sent.status, BroadcastStatus::Sending);
    assert_eq!(sent.recipient_count, Some(preview.recipients.cards));
    assert!(sent.scheduled_at.is_none());

    let err = env
        .client
        .broadcasts()
        .cancel(&sent.id, &key())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::BroadcastAlreadySent));
}

#[tokio::test]
async fn a_scheduled_message_is_cancelled_and_cancelling_again_gives_the_same_answer() {
    let env = Env::start().await;
    let message = scheduled(&env);
    let preview = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap();
    assert!(preview.scheduled_at.is_some());
    let confirmed = env
        .client
        .broadcasts()
        .confirm(&key(), &message, &preview.confirmation_token)
        .await
        .unwrap();
    assert_eq!(confirmed.status, BroadcastStatus::Scheduled);

    let cancelled = env
        .client
        .broadcasts()
        .cancel(&confirmed.id, &key())
        .await
        .unwrap();
    assert_eq!(cancelled.status, BroadcastStatus::Cancelled);
    assert!(cancelled.cancelled_at.is_some());
    let again = env
        .client
        .broadcasts()
        .cancel(&confirmed.id, &key())
        .await
        .unwrap();
    assert_eq!(again.status, BroadcastStatus::Cancelled);
    assert_eq!(again.cancelled_at, cancelled.cancelled_at);
}

#[tokio::test]
async fn cancelling_an_unknown_message_is_not_found() {
    let env = Env::start().await;
    // A real preview first, so that a missing route cannot pass for a not_found.
    env.client
        .broadcasts()
        .preview(&key(), &message(&env))
        .await
        .unwrap();
    let err = env
        .client
        .broadcasts()
        .cancel(&loyalty_api::BroadcastId::new("bc_nope"), &key())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}

#[tokio::test]
async fn a_token_is_used_once_and_only_for_its_own_message() {
    let env = Env::start().await;
    let message = scheduled(&env);
    let preview = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap();
    let token = &preview.confirmation_token;

    let changed = BroadcastMessage {
        title: "Something else".into(),
        ..message.clone()
    };
    let err = env
        .client
        .broadcasts()
        .confirm(&key(), &changed, token)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ConfirmationPayloadChanged));
    assert_eq!(err.problem().unwrap().status, 422);

    env.client
        .broadcasts()
        .confirm(&key(), &message, token)
        .await
        .unwrap();
    let err = env
        .client
        .broadcasts()
        .confirm(&key(), &message, token)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ConfirmationTokenUsed));

    let err = env
        .client
        .broadcasts()
        .confirm(&key(), &message, &ConfirmationToken::new("made-up"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ConfirmationTokenInvalid));
    assert_eq!(err.problem().unwrap().status, 400);
}

#[tokio::test]
async fn a_token_expires_after_10_minutes() {
    let env = Env::start().await;
    let message = message(&env);
    let preview = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap();
    env.advance_clock(10 * 60 + 1).await;
    let err = env
        .client
        .broadcasts()
        .confirm(&key(), &message, &preview.confirmation_token)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ConfirmationTokenExpired));
    assert_eq!(err.problem().unwrap().status, 410);
}

#[tokio::test]
async fn a_token_belongs_to_its_key_and_its_business() {
    let env = Env::start().await;
    let message = message(&env);
    let preview = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap();

    let other_key = env.sandbox_client(env.key("test", ALL_SCOPES).await);
    let err = other_key
        .broadcasts()
        .confirm(&key(), &message, &preview.confirmation_token)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ConfirmationPrincipalMismatch));

    let other = Env::start().await;
    let theirs = BroadcastMessage {
        pass_id: other.sandbox_pass_id.clone(),
        ..message.clone()
    };
    let their_preview = other
        .client
        .broadcasts()
        .preview(&key(), &theirs)
        .await
        .unwrap();
    // The other business's token, used in this business by this key.
    let err = env
        .client
        .broadcasts()
        .confirm(&key(), &message, &their_preview.confirmation_token)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.code(),
            Some(ErrorCode::ConfirmationBusinessMismatch | ErrorCode::ConfirmationTokenInvalid)
        ),
        "{err}"
    );
}

#[tokio::test]
async fn a_larger_audience_than_previewed_needs_a_new_preview() {
    let env = Env::start().await;
    let message = message(&env);
    let preview = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap();
    env.enrol(&env.sandbox_pass_id).await;
    let err = env
        .client
        .broadcasts()
        .confirm(&key(), &message, &preview.confirmation_token)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ConfirmationAudienceChanged));
}

#[tokio::test]
async fn the_plan_and_the_months_quota_limit_messages() {
    let env = Env::start().await;
    env.patch_business(json!({"monthly_messages": 0})).await;
    let message = message(&env);
    let err = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::BroadcastNotInPlan));

    env.patch_business(json!({"monthly_messages": 1})).await;
    let preview = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap();
    assert_eq!(preview.quota.remaining, 1);
    env.client
        .broadcasts()
        .confirm(&key(), &message, &preview.confirmation_token)
        .await
        .unwrap();
    let err = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::BroadcastQuotaReached));
}

#[tokio::test]
async fn previewing_for_an_unknown_pass_is_not_found() {
    let env = Env::start().await;
    // A real preview first, so that a missing route cannot pass for a not_found.
    env.client
        .broadcasts()
        .preview(&key(), &message(&env))
        .await
        .unwrap();
    let message = BroadcastMessage {
        pass_id: loyalty_api::PassId::new("pass_nope"),
        ..message(&env)
    };
    let err = env
        .client
        .broadcasts()
        .preview(&key(), &message)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}
