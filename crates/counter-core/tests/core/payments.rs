//! Gift-card payments at, under and over the balance, and offline.

use counter_core::payment::{CurrencyCaps, OfflinePaymentPolicy};
use counter_core::settings::Settings;
use counter_core::{Error, InsufficientBalance, ItemState, PaymentOutcome, Write};
use rust_decimal::Decimal;
use serde_json::json;

use crate::{Env, drain};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payments_under_over_and_exactly_at_the_balance() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;

    let under = counter
        .take_payment(gift.clone(), "20", None)
        .await
        .unwrap();
    let PaymentOutcome::Done {
        answer: payment, ..
    } = under
    else {
        panic!("{under:?}");
    };
    assert_eq!(payment.amount_minor.get(), 2000);
    assert_eq!(payment.balance_after, Decimal::new(3000, 2));

    // Over the balance: refused before anything is stored.
    let before = counter.queue(false, 100).unwrap().len();
    let over = counter.take_payment(gift.clone(), "30.01", None).await;
    assert!(matches!(over, Err(Error::Amount(_))), "{over:?}");
    assert_eq!(
        over.unwrap_err().code(),
        counter_core::ErrorCode::InvalidAmount
    );
    for bad in ["0", "-1", "10.001", "abc", "1000000"] {
        assert!(
            counter.take_payment(gift.clone(), bad, None).await.is_err(),
            "{bad}"
        );
    }
    assert_eq!(counter.queue(false, 100).unwrap().len(), before);

    let exact = counter
        .take_payment(gift.clone(), "30,00", Some("T-2".into()))
        .await
        .unwrap();
    let PaymentOutcome::Done {
        answer: payment, ..
    } = exact
    else {
        panic!("{exact:?}");
    };
    assert_eq!(
        payment.gift_card.status,
        counter_core::kinds::GiftCardStatus::Depleted
    );
    assert_eq!(payment.balance_after, Decimal::ZERO);

    assert_eq!(env.spends_of(&gift).await, ["20.00", "30.00"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offline_payment_follows_the_policy_and_a_stale_balance_is_refused_by_the_service() {
    let mut env = Env::start().await;
    let gift = env.gift_card(50).await;
    // No probing and a long backoff: the queued payment waits for `send_now`.
    let quiet = counter_core::Config {
        retry: loyalty_api::RetryPolicy {
            initial_delay: std::time::Duration::from_secs(60),
            max_delay: std::time::Duration::from_secs(60),
            ..crate::test_config().retry
        },
        probe_offline: std::time::Duration::from_secs(600),
        probe_online: std::time::Duration::from_secs(600),
        ..crate::test_config()
    };
    let counter = env.counter_with(quiet).await;
    counter.refresh_gift_card(&gift).await.unwrap();
    env.stop().await;

    // Off by default: refused with the reason, nothing queued.
    let off = counter.take_payment(gift.clone(), "10", None).await;
    assert!(matches!(off, Err(Error::OfflinePolicy(_))), "{off:?}");
    assert_eq!(counter.counts().unwrap().queued, 0);

    counter
        .save_settings(&Settings {
            offline_payments: OfflinePaymentPolicy {
                allowed: true,
                caps: vec![CurrencyCaps {
                    currency: loyalty_api::Currency::new("EUR").unwrap(),
                    per_payment: Some(Decimal::from(40)),
                    total: Some(Decimal::from(45)),
                }],
                balance_max_age_minutes: Some(60),
            },
            ..counter.settings().unwrap()
        })
        .unwrap();
    let capped = counter.take_payment(gift.clone(), "41", None).await;
    assert!(matches!(capped, Err(Error::OfflinePolicy(_))), "{capped:?}");
    let queued = counter
        .take_payment(gift.clone(), "40", None)
        .await
        .unwrap();
    let PaymentOutcome::Queued { item } = queued else {
        panic!("{queued:?}");
    };
    let Write::Payment { amount_minor, .. } = counter.item(item).unwrap().write else {
        panic!("not a payment");
    };
    assert_eq!(amount_minor.get(), 4000);
    let total = counter.take_payment(gift.clone(), "6", None).await;
    assert!(
        matches!(total, Err(Error::OfflinePolicy(_))),
        "over the total cap"
    );

    // The sender tried once, found nobody, and now waits out its (long) backoff.
    while counter.item(item).unwrap().attempts == 0
        || counter.item(item).unwrap().state != ItemState::Queued
    {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // Meanwhile another till takes 20 from the card.
    env.restart().await;
    env.api_post(
        &format!("/v1/gift_cards/{gift}/payments"),
        json!({"amount_minor": 2000, "currency": "EUR"}),
    )
    .await;
    counter.send_now();
    drain(&counter).await;
    let refused = counter.item(item).unwrap();
    assert_eq!(refused.state, ItemState::Refused);
    assert_eq!(
        refused.refusal.unwrap().code,
        loyalty_api::ErrorCode::InsufficientBalance
    );
    assert_eq!(env.spends_of(&gift).await, ["20.00"]);

    // Online, the service's refusal offers the exact balance, which can then be taken.
    env.api_post(
        &format!("/v1/gift_cards/{gift}/payments"),
        json!({"amount_minor": 500, "currency": "EUR"}),
    )
    .await;
    let left = counter
        .take_payment(gift.clone(), "25", None)
        .await
        .unwrap();
    let PaymentOutcome::Done {
        answer: payment, ..
    } = left
    else {
        panic!("{left:?}");
    };
    assert_eq!(
        payment.gift_card.status,
        counter_core::kinds::GiftCardStatus::Depleted
    );
    assert_eq!(env.spends_of(&gift).await, ["20.00", "5.00", "25.00"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insufficient_balance_gives_the_balance_to_take_exactly_what_is_left() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    // Our payment is held by the server while another till takes 40.
    env.fault(
        json!({"path": format!("/v1/gift_cards/{gift}/payments"), "count": 1, "delay_ms": 1000}),
    )
    .await;
    let ours = counter.take_payment(gift.clone(), "20", None);
    let theirs = async {
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        env.api_post(
            &format!("/v1/gift_cards/{gift}/payments"),
            json!({"amount_minor": 4000, "currency": "EUR"}),
        )
        .await
    };
    let (ours, _) = tokio::join!(ours, theirs);
    let PaymentOutcome::Known {
        item,
        known: InsufficientBalance { balance },
    } = ours.unwrap()
    else {
        panic!("expected insufficient balance");
    };
    let balance = balance.expect("the service says what is left");
    assert_eq!(balance.amount_minor.get(), 1000);
    assert_eq!(counter.item(item).unwrap().state, ItemState::Refused);

    let rest = counter
        .take_payment(gift.clone(), &balance.amount.to_string(), None)
        .await
        .unwrap();
    assert!(matches!(rest, PaymentOutcome::Done { .. }), "{rest:?}");
    assert_eq!(env.spends_of(&gift).await, ["40.00", "10.00"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gift_card_is_read_with_its_ledger_newest_first() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    counter
        .take_payment(gift.clone(), "12.50", Some("T-7".into()))
        .await
        .unwrap();
    let (card, ledger) = counter.read_gift_card(&gift).await.unwrap();
    assert_eq!(card.gift_card.balance, Decimal::new(3750, 2));
    let spend = &ledger[0];
    assert_eq!(spend.kind, counter_core::kinds::TransactionType::Spend);
    assert_eq!(spend.amount, Decimal::new(1250, 2));
    assert_eq!(spend.balance_after, Decimal::new(3750, 2));
    assert_eq!(spend.reference.as_deref(), Some("Counter 1 #1 · T-7"));
    assert!(
        ledger
            .iter()
            .any(|e| e.kind == counter_core::kinds::TransactionType::Issue),
        "{ledger:?}"
    );
}
