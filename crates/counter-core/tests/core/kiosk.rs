//! The kiosk's self check-in: one visit through the outbox, never a repeat one, and the
//! customer reads their name and progress even on a till that has never seen their card.

use counter_core::kinds::LoyaltyType;
use counter_core::{CheckIn, KioskStart, Progress};

use serde_json::json;

use crate::{Env, drain};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_kiosk_counts_a_visit_once_and_shows_the_customer_their_name_and_progress() {
    let env = Env::start().await;
    let counter = env.counter().await;
    // Enrolled after the till connected: neither the card nor its pass is known here.
    let (card, customer) = env.new_visit_card().await;
    let name = env.api_get(&format!("/v1/customers/{customer}")).await["name"]
        .as_str()
        .unwrap()
        .to_owned();

    let counted = counter.check_in(card.as_str()).await.unwrap();
    assert_eq!(
        counted,
        CheckIn::Counted {
            name: Some(name),
            progress: Some(Progress {
                count: 1,
                goal: 10,
                counts: LoyaltyType::Visits,
                reward_title: "A coffee".into(),
                rewards_available: 0,
            }),
        }
    );
    assert_eq!(env.scans_of(&customer).await, [("visit".into(), 0)]);

    // The same card a moment later: refused in words, nothing recorded.
    let again = counter.check_in(card.as_str()).await.unwrap();
    assert!(
        matches!(again, CheckIn::AlreadyCheckedIn { at: Some(_) }),
        "{again:?}"
    );
    assert_eq!(env.scans_of(&customer).await, [("visit".into(), 0)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_a_check_in_is_saved_and_counts_once_when_the_service_is_back() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    env.stop().await;

    let saved = counter.check_in(card.as_str()).await.unwrap();
    assert!(matches!(saved, CheckIn::Saved { .. }), "{saved:?}");

    env.restart().await;
    drain(&counter).await;
    assert_eq!(env.scans_of(&customer).await, [("visit".into(), 0)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_not_a_loyalty_card_records_nothing() {
    let env = Env::start().await;
    let (_, customer) = env.new_visit_card().await;
    let gift = env.gift_card(20).await;
    let counter = env.counter().await;

    for input in ["no such card", gift.as_str()] {
        let read = counter.check_in(input).await.unwrap();
        assert_eq!(read, CheckIn::NotACard, "{input}");
    }
    assert!(env.scans_of(&customer).await.is_empty());
    assert!(counter.queue(true, 10).unwrap().is_empty());
}

/// A new visits card checked in on a till that does not know it, while the service
/// answers 404 to what is under `path`: what the customer reads, and the card's scans
/// on the server afterwards.
async fn check_in_while_failing(path: &str) -> (CheckIn, Vec<(String, i64)>) {
    let env = Env::start().await;
    let counter = env.counter().await;
    let (card, customer) = env.new_visit_card().await;
    env.fault(json!({"path": path, "count": 10, "status": 404, "code": "not_found"}))
        .await;
    let read = counter.check_in(card.as_str()).await.unwrap();
    (read, env.scans_of(&customer).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_no_longer_active_is_said_so_and_records_nothing() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    env.control(
        "POST",
        &format!("/_sandbox/cards/{card}/status"),
        json!({"status": "replaced"}),
    )
    .await;
    assert_eq!(
        counter.check_in(card.as_str()).await.unwrap(),
        CheckIn::NoLongerActive
    );
    assert!(env.scans_of(&customer).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pass_that_cannot_be_read_leaves_the_visit_counted_once_without_progress() {
    let (counted, scans) = check_in_while_failing("/v1/passes").await;
    assert!(
        matches!(
            &counted,
            CheckIn::Counted {
                name: Some(_),
                progress: None
            }
        ),
        "{counted:?}"
    );
    assert_eq!(scans, [("visit".into(), 0)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_till_becomes_a_kiosk_only_with_a_manager_pin_to_leave_it_by() {
    let env = Env::start().await;
    let counter = env.counter_before_anyone().await;

    // `--kiosk` before any PIN: not yet, so no customer can choose the PIN and leave.
    assert_eq!(counter.start_as_kiosk().unwrap(), KioskStart::NeedsPin);
    assert!(!counter.kiosk().unwrap());
    assert!(!counter.settings().unwrap().kiosk);

    crate::owner_signs_in(&counter);
    assert_eq!(counter.start_as_kiosk().unwrap(), KioskStart::Started);
    assert!(counter.kiosk().unwrap());

    // A second copy on the same till only reads it: never a kiosk, and `--kiosk` there
    // changes nothing.
    let second = env.open_with(crate::test_config()).await;
    assert_eq!(second.start_as_kiosk().unwrap(), KioskStart::HeldElsewhere);
    assert!(!second.kiosk().unwrap());
    assert!(counter.kiosk().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kiosk_kept_without_a_pin_opens_as_a_counter() {
    let env = Env::start().await;
    let counter = env.counter_before_anyone().await;
    let mut settings = counter.settings().unwrap();
    counter.close().await;
    // As an earlier version left it: the kiosk on, no PIN.
    settings.kiosk = true;
    env.replace_settings(&serde_json::to_string(&settings).unwrap());

    let counter = env.open_bare(crate::test_config()).await;
    assert!(!counter.kiosk().unwrap(), "a kiosk nobody could leave");
    // Nor does the first PIN, set for anything else, turn it into one.
    crate::owner_signs_in(&counter);
    assert!(!counter.kiosk().unwrap());
    assert!(!counter.settings().unwrap().kiosk);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_who_cannot_be_read_still_checks_in_once_and_reads_their_progress() {
    let (counted, scans) = check_in_while_failing("/v1/customers").await;
    assert!(
        matches!(
            &counted,
            CheckIn::Counted {
                name: None,
                progress: Some(Progress {
                    count: 1,
                    goal: 10,
                    ..
                })
            }
        ),
        "{counted:?}"
    );
    assert_eq!(scans, [("visit".into(), 0)]);
}
