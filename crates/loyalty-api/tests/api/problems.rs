//! Every problem code the client decodes: the ones the sandbox's rules produce for
//! real, and every code of the spec through injected faults.

use std::time::Duration;

use loyalty_api::{
    ApiKey, Cursor, ErrorCode, IdempotencyKey, ListParams, NewCustomer, NewScan, ProblemClass,
    RetryAfter, Wallet, is_retryable,
};
use reqwest::Method;
use serde_json::json;

use crate::harness::Env;

#[tokio::test]
async fn every_code_of_the_spec_is_decoded_with_its_status() {
    let env = Env::start().await;
    for code in ErrorCode::ALL {
        let status = code.status().unwrap();
        env.fault(
            "/v1/me",
            1,
            json!({"status": status, "code": code.as_str()}),
        )
        .await;
        let err = env.client.me().await.unwrap_err();
        let problem = err.problem().unwrap_or_else(|| panic!("{code}: {err}"));
        assert_eq!(&problem.code, code);
        assert_eq!(problem.status, status);
        assert!(problem.request_id.is_some(), "{code} has a request id");
        assert!(problem.title.is_some() && problem.detail.is_some());
        if matches!(status, 429 | 503) {
            assert!(problem.retry_after.is_some(), "{code} carries Retry-After");
        }
    }
}

#[tokio::test]
async fn an_unknown_code_is_kept_and_handled_by_its_status() {
    let env = Env::start().await;
    env.fault(
        "/v1/customers",
        1,
        json!({"status": 503, "code": "maintenance_window"}),
    )
    .await;
    let err = env
        .client
        .customers()
        .list(&ListParams::new())
        .await
        .unwrap_err();
    let problem = err.problem().unwrap();
    assert_eq!(
        problem.code,
        ErrorCode::Unknown("maintenance_window".into())
    );
    assert_eq!(problem.class(), ProblemClass::Server);
    assert!(is_retryable(&err));

    env.fault(
        "/v1/customers",
        1,
        json!({"status": 409, "code": "loyalty_frozen"}),
    )
    .await;
    let err = env
        .client
        .customers()
        .list(&ListParams::new())
        .await
        .unwrap_err();
    assert_eq!(err.problem().unwrap().class(), ProblemClass::Conflict);
    assert!(!is_retryable(&err));
}

#[tokio::test]
async fn an_unknown_key_is_invalid_and_an_oauth_token_is_not_supported_yet() {
    let env = Env::start().await;
    let stranger =
        env.sandbox_client(ApiKey::new("lc_test_0000000000000000000000000000000X").unwrap());
    let err = stranger.me().await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::InvalidApiKey));
    assert_eq!(err.problem().unwrap().class(), ProblemClass::Authentication);

    let oauth = env.sandbox_client(ApiKey::new("lco_sometoken").unwrap());
    let err = oauth.me().await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotSupportedYet));
}

#[tokio::test]
async fn a_revoked_key_is_refused_on_its_next_request() {
    let env = Env::start().await;
    let record = env.key_record("test", &["read"], None).await;
    let client = env.sandbox_client(ApiKey::new(record["key"].as_str().unwrap()).unwrap());
    client.me().await.unwrap();
    env.control(
        Method::POST,
        &format!("/_sandbox/keys/{}/revoke", record["id"].as_str().unwrap()),
        Some(json!({})),
    )
    .await;
    let err = client.me().await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ApiKeyRevoked));
}

#[tokio::test]
async fn a_key_past_its_expiry_is_refused() {
    let env = Env::start().await;
    let expires = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1)).to_string();
    let record = env.key_record("test", &["read"], Some(&expires)).await;
    let client = env.sandbox_client(ApiKey::new(record["key"].as_str().unwrap()).unwrap());
    client.me().await.unwrap();
    env.advance_clock(2 * 3600).await;
    let err = client.me().await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ApiKeyExpired));
}

#[tokio::test]
async fn a_key_in_the_wrong_place_is_a_mode_mismatch() {
    let env = Env::start().await;
    let test_on_live = env.live_client(env.key("test", &["read"]).await);
    let err = test_on_live.me().await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::KeyModeMismatch));
    let live_on_sandbox = env.sandbox_client(env.key("live", &["read"]).await);
    let err = live_on_sandbox.me().await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::KeyModeMismatch));
    assert_eq!(err.problem().unwrap().status, 403);
}

#[tokio::test]
async fn a_business_off_the_enterprise_plan_needs_it() {
    let env = Env::start().await;
    env.patch_business(json!({"plan": "pro"})).await;
    let err = env.client.me().await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::PlanRequired));
    env.patch_business(json!({"plan": "enterprise"})).await;
    env.client
        .me()
        .await
        .expect("the key works again after an upgrade");
}

#[tokio::test]
async fn a_read_only_key_cannot_write() {
    let env = Env::start().await;
    let reader = env.sandbox_client(env.key("test", &["read"]).await);
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    let err = reader
        .scans()
        .create(&IdempotencyKey::new_v4(), &NewScan::visit(card))
        .await
        .unwrap_err();
    let problem = err.problem().unwrap();
    assert_eq!(problem.code, ErrorCode::InsufficientScope);
    assert!(problem.detail.as_deref().unwrap().contains("scans:write"));
}

#[tokio::test]
async fn a_page_size_out_of_range_is_an_invalid_parameter() {
    let env = Env::start().await;
    for limit in [0, 101] {
        let err = env
            .client
            .customers()
            .list(&ListParams::new().limit(limit))
            .await
            .unwrap_err();
        let problem = err.problem().unwrap();
        assert_eq!(problem.code, ErrorCode::InvalidParameter);
        assert_eq!(problem.param.as_deref(), Some("limit"));
    }
}

#[tokio::test]
async fn an_altered_or_foreign_cursor_is_invalid() {
    let env = Env::start().await;
    let page = env
        .client
        .customers()
        .list(&ListParams::new().limit(5))
        .await
        .unwrap();
    let cursor = page.data.next_cursor.clone().unwrap();
    let altered = Cursor::new(format!("{}x", cursor.as_str()));
    let err = env
        .client
        .customers()
        .list(&ListParams::new().limit(5).cursor(altered))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::InvalidCursor));
    // A cursor belongs to its list.
    let err = env
        .client
        .scans()
        .list(&ListParams::new().limit(5).cursor(cursor))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::InvalidCursor));
}

#[tokio::test]
async fn a_refused_body_lists_each_field() {
    let env = Env::start().await;
    let err = env
        .client
        .customers()
        .create(
            &IdempotencyKey::new_v4(),
            &NewCustomer {
                pass_id: env.sandbox_pass_id.clone(),
                name: "Gil".into(),
                email: "not an email".into(),
                wallet: Wallet::Other,
                send_welcome: false,
            },
        )
        .await
        .unwrap_err();
    let problem = err.problem().unwrap();
    assert_eq!(problem.code, ErrorCode::ValidationFailed);
    assert_eq!(problem.status, 422);
    let params: Vec<_> = problem
        .errors
        .iter()
        .filter_map(|e| e.param.as_deref())
        .collect();
    assert!(
        params.contains(&"email") && params.contains(&"wallet"),
        "{params:?}"
    );
}

#[tokio::test]
async fn a_key_reused_for_another_request_is_refused() {
    let env = Env::start().await;
    let (_, card_a) = env.enrol(&env.sandbox_pass_id).await;
    let (_, card_b) = env.enrol(&env.sandbox_pass_id).await;
    let key = IdempotencyKey::new_v4();
    env.client
        .scans()
        .create(&key, &NewScan::visit(card_a))
        .await
        .unwrap();
    let err = env
        .client
        .scans()
        .create(&key, &NewScan::visit(card_b))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::IdempotencyKeyReused));
    assert!(!is_retryable(&err));
}

#[tokio::test]
async fn a_problem_never_shows_the_key() {
    let env = Env::start().await;
    let secret = env.key("test", &["read"]).await;
    let text = secret.expose_secret().to_owned();
    let reader = env.sandbox_client(secret);
    let err = reader
        .customers()
        .create(
            &IdempotencyKey::new_v4(),
            &NewCustomer {
                pass_id: env.sandbox_pass_id.clone(),
                name: "Hal".into(),
                email: "hal@example.com".into(),
                wallet: Wallet::Apple,
                send_welcome: false,
            },
        )
        .await
        .unwrap_err();
    let shown = format!("{err} {err:?} {reader:?}");
    assert!(!shown.contains(&text), "{shown}");
}

#[tokio::test]
async fn an_injected_rate_limit_carries_its_retry_after() {
    let env = Env::start().await;
    env.fault(
        "/v1/scans",
        1,
        json!({"status": 429, "code": "rate_limited"}),
    )
    .await;
    let err = env
        .client
        .scans()
        .list(&ListParams::new())
        .await
        .unwrap_err();
    assert_eq!(
        err.retry_after(),
        Some(RetryAfter::Delay(Duration::from_secs(1)))
    );
}
