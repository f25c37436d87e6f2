//! `GET /v1/stats`.

use jiff::civil::date;
use loyalty_api::{ErrorCode, StatsParams};

use crate::harness::Env;

#[tokio::test]
async fn stats_without_days_cover_today_and_the_29_days_before() {
    let env = Env::start().await;
    let stats = env.client.stats(StatsParams::default()).await.unwrap();
    assert_eq!(stats.from.until(stats.to).unwrap().get_days(), 29);
    assert_eq!(stats.time_zone, "UTC");
    assert!(stats.scans >= 0 && stats.visits >= 0);
}

#[tokio::test]
async fn stats_for_given_days_report_those_days() {
    let env = Env::start().await;
    let params = StatsParams {
        from: Some(date(2026, 1, 1)),
        to: Some(date(2026, 1, 31)),
    };
    let stats = env.client.stats(params).await.unwrap();
    assert_eq!(stats.from, date(2026, 1, 1));
    assert_eq!(stats.to, date(2026, 1, 31));
}

#[tokio::test]
async fn stats_from_after_to_is_an_invalid_parameter() {
    let env = Env::start().await;
    let params = StatsParams {
        from: Some(date(2026, 2, 1)),
        to: Some(date(2026, 1, 1)),
    };
    let err = env.client.stats(params).await.unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::InvalidParameter));
}
