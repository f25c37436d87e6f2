//! One owner per till, the key kept outside the database, and the clock check.

use counter_core::{Error, Event};
use jiff::SignedDuration;

use crate::{Env, test_config, wait_for_event};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_counter_on_the_same_data_only_reads_it_and_is_refused_what_owners_do() {
    let env = Env::start().await;
    let first = env.counter().await;
    let second = env.open_with(test_config()).await;
    assert_eq!(
        second.troubles().unwrap(),
        [counter_core::Trouble::HeldElsewhere {
            path: env.till_dir()
        }]
    );
    let err = second
        .connect(&env.sandbox_url(), &env.key)
        .await
        .expect_err("the data is owned");
    assert!(matches!(err, Error::Lock(_)), "{err:?}");
    assert_eq!(err.code(), counter_core::ErrorCode::AlreadyOpen);
    assert!(err.to_string().contains("already open"));
    drop(second);
    first.close().await;
    let again = env.open_with(test_config()).await;
    assert!(again.troubles().unwrap().is_empty());
    assert!(
        again.connection().is_some(),
        "reopened with the kept key, the owner now"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_key_is_never_in_the_database() {
    let env = Env::start().await;
    let counter = env.counter().await;
    counter.close().await;
    assert!(!env.till_holds(&env.key));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_till_clock_off_by_more_than_two_minutes_is_reported() {
    let env = Env::start().await;
    env.clock.advance(SignedDuration::from_mins(5));
    let counter = env.open_with(test_config()).await;
    let mut events = counter.subscribe();
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    let event = wait_for_event(&mut events, |e| matches!(e, Event::ClockSkew { .. })).await;
    let Event::ClockSkew {
        skew_seconds,
        warning,
    } = event
    else {
        unreachable!()
    };
    assert!(warning);
    assert!((295..=305).contains(&skew_seconds), "{skew_seconds}");
    assert!(counter.clock_warning());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_the_service_refuses_is_not_kept() {
    let env = Env::start().await;
    let counter = env.open_with(test_config()).await;
    let err = counter
        .connect(
            &env.sandbox_url(),
            "lc_test_00000000000000000000000000000000",
        )
        .await
        .unwrap_err();
    assert_eq!(err.code(), counter_core::ErrorCode::ServiceRefused);
    assert!(!env.till_dir().join("api-key").exists());
}
