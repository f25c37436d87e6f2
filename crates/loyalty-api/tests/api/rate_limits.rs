//! The rate-limit headers of real answers, and a real 429.

use std::time::Duration;

use loyalty_api::{Decision, ErrorCode, ListParams, RetryAfter, RetryPolicy, is_retryable};
use serde_json::json;

use crate::harness::Env;

#[tokio::test]
async fn every_answer_reports_the_limits_that_me_names() {
    let env = Env::start().await;
    let me = env.client.me().await.unwrap();
    let limit = me
        .rate_limit
        .clone()
        .expect("the answer carries rate-limit headers");
    let key_policy = limit.policy("key").expect("a key policy");
    assert_eq!(key_policy.quota, me.rate_limits.requests_per_key);
    assert_eq!(
        key_policy.window,
        Some(Duration::from_secs(me.rate_limits.window_seconds))
    );
    let writes = limit.policy("writes").expect("a writes policy");
    assert_eq!(writes.quota, me.rate_limits.writes_per_key);
    let state = limit.state("key").expect("the key's state");
    assert!(state.remaining < me.rate_limits.requests_per_key);
    assert!(state.reset <= Duration::from_secs(me.rate_limits.window_seconds));

    let next = env
        .client
        .customers()
        .list(&ListParams::new())
        .await
        .unwrap();
    let after = next.rate_limit.unwrap().state("key").unwrap().remaining;
    assert!(after < state.remaining, "{after} < {}", state.remaining);
}

#[tokio::test]
async fn a_real_429_carries_retry_after_and_is_retryable() {
    let env = Env::start().await;
    env.patch_business(
        json!({"rate_limits": {"requests_per_key": 2, "requests_per_business": 1000,
        "window_seconds": 60, "writes_per_key": 2}}),
    )
    .await;
    env.client.me().await.unwrap();
    env.client.me().await.unwrap();
    let err = env.client.me().await.unwrap_err();
    let problem = err.problem().unwrap();
    assert_eq!(problem.code, ErrorCode::RateLimited);
    assert_eq!(problem.status, 429);
    let Some(RetryAfter::Delay(wait)) = problem.retry_after else {
        panic!("Retry-After in seconds, got {:?}", problem.retry_after);
    };
    assert!(
        wait > Duration::ZERO && wait <= Duration::from_secs(60),
        "{wait:?}"
    );
    assert!(is_retryable(&err));
    assert_eq!(
        RetryPolicy::default().decide(&err, 1, jiff::Timestamp::now()),
        Decision::RetryAfter(wait)
    );

    // After the window the key works again.
    env.advance_clock(61).await;
    env.client.me().await.unwrap();
}
