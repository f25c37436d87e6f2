//! Each person's PIN through the till: the owner's set once, five wrong tries lock it
//! (that person's alone), and the lock is still there when the till opens again.

use counter_core::ids::PersonId;
use counter_core::kinds::EmailReason;
use counter_core::payment::OfflinePaymentPolicy;
use counter_core::people::PersonChange;
use counter_core::pin::{MAX_TRIES, PinError};
use counter_core::views::IssuedGiftCardView;
use counter_core::{Credential, Error, ErrorCode, GiftCardIssue, Outcome, PaymentOutcome};
use serde_json::json;

use crate::{Env, drain};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pin_set_once_locks_after_five_wrong_tries_and_stays_locked_after_a_restart() {
    let env = Env::start().await;
    let counter = env.counter_before_anyone().await;
    assert!(!counter.pin_status(None).unwrap().set);
    assert!(matches!(
        counter.check_pin(None, "2468", counter_core::PinFor::Visit),
        Err(Error::Pin(PinError::NotSet))
    ));
    crate::owner_signs_in(&counter);
    counter
        .check_pin(None, "2468", counter_core::PinFor::Visit)
        .unwrap();
    for _ in 0..MAX_TRIES {
        let wrong = counter
            .check_pin(None, "0000", counter_core::PinFor::Visit)
            .unwrap_err();
        assert_eq!(wrong.code(), ErrorCode::PinRefused);
    }
    assert!(counter.pin_status(None).unwrap().locked_until.is_some());
    counter.close().await;

    let counter = env.open_bare(crate::test_config()).await;
    let status = counter.pin_status(None).unwrap();
    assert!(status.set && status.locked_until.is_some() && status.tries_left == 0);
    assert!(matches!(
        counter.check_pin(None, "2468", counter_core::PinFor::Visit),
        Err(Error::Pin(PinError::Locked { .. }))
    ));
    // The till's clock set an hour forward: still locked. Five minutes later, the
    // right PIN opens again.
    env.clock.advance(jiff::SignedDuration::from_hours(1));
    assert!(matches!(
        counter.check_pin(None, "2468", counter_core::PinFor::Visit),
        Err(Error::Pin(PinError::Locked { .. }))
    ));
    env.clock.pass(std::time::Duration::from_secs(5 * 60));
    counter
        .check_pin(None, "2468", counter_core::PinFor::Visit)
        .unwrap();
    counter.close().await;
}

/// A lock is its person's: a cashier's five wrong tries lock her PIN, not the owner's,
/// across a restart and a clock set back; a person the owner disabled signs in no more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_persons_pin_locks_alone_and_a_disabled_person_signs_in_no_more() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let anna = crate::cashier_signs_in(&counter);
    let as_anna = |pin: &str| Credential::Pin {
        person: anna,
        pin: pin.to_owned(),
    };
    for _ in 0..MAX_TRIES {
        assert_eq!(
            counter.sign_in(&as_anna("0000")).unwrap_err().code(),
            ErrorCode::PinRefused
        );
    }
    assert!(matches!(
        counter.sign_in(&as_anna(crate::CASHIER_PIN)),
        Err(Error::Pin(PinError::Locked { .. }))
    ));
    counter.close().await;
    let counter = env.open_with(crate::test_config()).await;
    env.clock.advance(jiff::SignedDuration::from_hours(-3));
    assert!(matches!(
        counter.sign_in(&as_anna(crate::CASHIER_PIN)),
        Err(Error::Pin(PinError::Locked { .. }))
    ));
    assert!(
        counter
            .pin_status(Some(anna))
            .unwrap()
            .locked_until
            .is_some()
    );
    assert!(
        counter
            .pin_status(Some(PersonId(1)))
            .unwrap()
            .locked_until
            .is_none()
    );
    // The owner resets her PIN; then disables her: her PIN opens nothing from then on.
    counter.reset_person_pin(anna, "9753").unwrap();
    counter.sign_in(&as_anna("9753")).unwrap();
    assert_eq!(counter.seat().unwrap().person.unwrap().name, "Anna");
    crate::owner_signs_in(&counter);
    counter
        .change_person(anna, &PersonChange::Disabled { disabled: true })
        .unwrap();
    assert!(matches!(
        counter.sign_in(&as_anna("9753")),
        Err(Error::Pin(PinError::Disabled))
    ));
    assert!(counter.people().unwrap().iter().all(|p| p.id != anna));
    counter.close().await;
}

/// What can cost money waits for the manager: issuing a gift card, the offline policy,
/// forgetting the key and withdrawing a payment are refused until the PIN was entered,
/// and the refusal changes nothing, on the till or on the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_can_cost_money_waits_for_the_manager() {
    let env = Env::start().await;
    let counter = env.counter().await;
    crate::cashier_signs_in(&counter);
    let manager_only = |result: Result<(), Error>| {
        assert!(
            matches!(result, Err(Error::Pin(PinError::ManagerOnly))),
            "{result:?}"
        );
    };
    let issued_on_server = || async {
        env.api_get("/v1/gift_cards?limit=100").await["data"]
            .as_array()
            .unwrap()
            .len()
    };
    let before = issued_on_server().await;
    let issue = || GiftCardIssue {
        amount: "25".into(),
        currency: "EUR".into(),
        locale: "fr".into(),
        recipient_name: "Grace".into(),
        recipient_email: "grace@example.com".into(),
    };

    manager_only(counter.issue_gift_card(issue()).await.map(drop));
    let policy = OfflinePaymentPolicy {
        allowed: true,
        ..OfflinePaymentPolicy::default()
    };
    manager_only(counter.set_offline_payments(policy.clone()));
    manager_only(counter.disconnect());
    assert!(counter.queue(false, 100).unwrap().is_empty());
    assert!(!counter.settings().unwrap().offline_payments.allowed);
    assert!(counter.connection().is_some());
    assert_eq!(issued_on_server().await, before);

    // The manager enters the PIN: the gift card goes, and the answer says why no email
    // went.
    counter
        .check_pin(None, "2468", counter_core::PinFor::Visit)
        .unwrap();
    assert!(counter.pin_status(None).unwrap().manager_here);
    let issued = counter.issue_gift_card(issue()).await.unwrap();
    let Outcome::Done {
        answer:
            IssuedGiftCardView {
                email_sent,
                email_reason,
                gift_card,
            },
        ..
    } = issued
    else {
        panic!("not issued: {issued:?}");
    };
    assert!(!email_sent);
    assert_eq!(email_reason, Some(EmailReason::Sandbox));
    assert_eq!(issued_on_server().await, before + 1);
    let on_server = env
        .api_get(&format!("/v1/gift_cards/{}", gift_card.id))
        .await;
    assert_eq!(on_server["initial_amount"], "25.00");

    // A payment the service turns away before doing it waits in the queue: a cashier
    // cannot withdraw it, a manager can.
    let gift = env.gift_card(50).await;
    env.fault(
        json!({"path": format!("/v1/gift_cards/{gift}/payments"), "count": 10000,
                     "status": 429, "code": "rate_limited"}),
    )
    .await;
    let queued = counter
        .take_payment(gift.clone(), "15", None)
        .await
        .unwrap();
    let PaymentOutcome::Queued { item, .. } = queued else {
        panic!("not queued: {queued:?}");
    };
    let listed = counter.item(item).unwrap();
    assert!(counter.choices(&listed).discard_needs_manager);
    counter.manager_leaves();
    manager_only(counter.discard(item, "").map(drop));
    assert_eq!(counter.item(item).unwrap().resolution, None);
    counter
        .check_pin(None, "2468", counter_core::PinFor::Visit)
        .unwrap();
    counter.discard(item, "customer paid cash").unwrap();
    env.control("DELETE", "/_sandbox/faults", json!({})).await;
    drain(&counter).await;
    assert!(
        env.spends_of(&gift).await.is_empty(),
        "the card was charged"
    );

    // Leaving locks it again.
    counter.manager_leaves();
    manager_only(counter.set_offline_payments(policy));
    counter.close().await;
}
