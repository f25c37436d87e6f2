//! Every write endpoint and the refusals of its rules.

use loyalty_api::{
    CardId, CardStatus, Currency, EmailReason, ErrorCode, GiftCardId, GiftCardStatus,
    IdempotencyKey, MinorUnits, NewCustomer, NewGiftCard, NewPayment, NewScan, PassId, Recipient,
    ScanAction, TransactionType, Wallet,
};
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::json;

use crate::harness::{ALL_SCOPES, Env};

fn key() -> IdempotencyKey {
    IdempotencyKey::new_v4()
}

fn payment(minor: i64, currency: &str) -> NewPayment {
    NewPayment {
        amount_minor: MinorUnits(minor),
        currency: Currency::new(currency).unwrap(),
        reference: Some("T-42".into()),
    }
}

#[tokio::test]
async fn a_customer_is_enrolled_with_a_new_active_card() {
    let env = Env::start().await;
    let (customer, card) = env.enrol(&env.sandbox_pass_id).await;
    assert_eq!(customer.pass_id, env.sandbox_pass_id);
    assert_eq!(customer.name.as_deref(), Some("Ana Test"));
    assert_eq!(customer.cards.len(), 1);
    assert_eq!(customer.cards[0].id, card);
    assert_eq!(customer.cards[0].status, CardStatus::Active);
    assert_eq!(customer.cards[0].wallet, Wallet::Apple);
    assert_eq!(customer.cards[0].visits, 0);
}

#[tokio::test]
async fn enrolling_the_same_email_twice_answers_customer_exists() {
    let env = Env::start().await;
    let body = NewCustomer {
        pass_id: env.sandbox_pass_id.clone(),
        name: "Cy".into(),
        email: "cy@example.com".into(),
        wallet: Wallet::Google,
        send_welcome: false,
    };
    let first = env.client.customers().create(&key(), &body).await.unwrap();
    assert!(matches!(first.http_status, 200 | 201));
    let err = env
        .client
        .customers()
        .create(&key(), &body)
        .await
        .unwrap_err();
    let problem = err.problem().unwrap();
    assert_eq!(problem.code, ErrorCode::CustomerExists);
    assert_eq!(problem.status, 409);
    assert!(
        problem
            .detail
            .as_deref()
            .unwrap()
            .contains(first.id.as_str())
    );
}

#[tokio::test]
async fn enrolling_on_an_unknown_pass_is_not_found() {
    let env = Env::start().await;
    let err = env
        .client
        .customers()
        .create(
            &key(),
            &NewCustomer {
                pass_id: PassId::new("pass_nope"),
                name: "Di".into(),
                email: "di@example.com".into(),
                wallet: Wallet::Apple,
                send_welcome: false,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}

#[tokio::test]
async fn enrolling_past_the_plans_allowance_answers_customer_limit_reached() {
    let env = Env::start().await;
    env.patch_business(json!({"customer_limit": 1})).await;
    let live = env.live_client(env.key("live", ALL_SCOPES).await);
    let pass = env.live_pass_id.clone().unwrap();
    let body = |email: &str| NewCustomer {
        pass_id: pass.clone(),
        name: "Ed".into(),
        email: email.into(),
        wallet: Wallet::Apple,
        send_welcome: false,
    };
    live.customers()
        .create(&key(), &body("ed1@example.com"))
        .await
        .unwrap();
    let err = live
        .customers()
        .create(&key(), &body("ed2@example.com"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::CustomerLimitReached));
    assert_eq!(err.problem().unwrap().status, 403);
}

#[tokio::test]
async fn a_visit_is_recorded_and_a_second_within_15_minutes_needs_confirmation() {
    let env = Env::start().await;
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    let scans = env.client.scans();

    let first = scans
        .create(&key(), &NewScan::visit(card.clone()))
        .await
        .unwrap();
    assert_eq!(first.kind, ScanAction::Visit);
    assert_eq!(first.card_id, card);
    assert_eq!(first.visits_added, 1);
    assert_eq!(first.card.visits, 1);
    let last_visit = first.card.last_visit_at.expect("the visit is the last one");

    let err = scans
        .create(&key(), &NewScan::visit(card.clone()))
        .await
        .unwrap_err();
    let problem = err.problem().unwrap();
    assert_eq!(problem.code, ErrorCode::RecentVisit);
    assert_eq!(problem.last_visit_at, Some(last_visit));

    let confirmed = scans
        .create(&key(), &NewScan::visit(card.clone()).confirm_repeat())
        .await
        .unwrap();
    assert_eq!(confirmed.card.visits, 2);

    // After 15 minutes no confirmation is needed.
    env.advance_clock(15 * 60 + 1).await;
    let later = scans.create(&key(), &NewScan::visit(card)).await.unwrap();
    assert_eq!(later.card.visits, 3);
}

#[tokio::test]
async fn a_reward_is_earned_at_the_goal_and_redeemed_once() {
    let env = Env::start().await;
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    let goal = env
        .client
        .passes()
        .get(&env.sandbox_pass_id)
        .await
        .unwrap()
        .goal;
    let scans = env.client.scans();

    let err = scans
        .create(&key(), &NewScan::redeem(card.clone()))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NoRewardAvailable));

    let mut earned = false;
    for _ in 0..goal {
        let result = scans
            .create(&key(), &NewScan::visit(card.clone()).confirm_repeat())
            .await
            .unwrap();
        earned |= result.reward_earned;
    }
    assert!(earned);
    let redeemed = scans
        .create(&key(), &NewScan::redeem(card.clone()))
        .await
        .unwrap();
    assert_eq!(redeemed.kind, ScanAction::Redeem);
    assert_eq!(redeemed.card.rewards_redeemed, 1);
}

#[tokio::test]
async fn points_are_added_and_deducted_but_never_below_zero() {
    let env = Env::start().await;
    let pass = env
        .control(
            Method::POST,
            "/_sandbox/passes",
            Some(
                json!({"business_id": env.business_id, "place": "sandbox", "name": "Points",
                "loyalty_type": "points", "goal": 100, "reward_title": "Cake", "locale": "en"}),
            ),
        )
        .await;
    let pass = PassId::new(pass["id"].as_str().unwrap());
    let (_, card) = env.enrol(&pass).await;
    let scans = env.client.scans();

    let added = scans
        .create(&key(), &NewScan::points(card.clone(), 30))
        .await
        .unwrap();
    assert_eq!(added.points_added, 30);
    assert_eq!(added.card.points, 30);
    let deducted = scans
        .create(&key(), &NewScan::points(card.clone(), -10))
        .await
        .unwrap();
    assert_eq!(deducted.points_deducted, 10);
    assert_eq!(deducted.card.points, 20);

    let err = scans
        .create(&key(), &NewScan::points(card.clone(), -50))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::InsufficientBalance));
    assert!(
        err.problem().unwrap().balance.is_none(),
        "a points balance is not money"
    );
}

#[tokio::test]
async fn a_points_scan_on_a_visits_card_is_refused() {
    let env = Env::start().await;
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    let err = env
        .client
        .scans()
        .create(&key(), &NewScan::points(card, 5))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::ScanRefused));
}

#[tokio::test]
async fn a_scan_on_a_replaced_card_or_an_unknown_card_is_refused() {
    let env = Env::start().await;
    let (_, card) = env.enrol(&env.sandbox_pass_id).await;
    env.control(
        Method::POST,
        &format!("/_sandbox/cards/{card}/status"),
        Some(json!({"status": "replaced"})),
    )
    .await;
    let err = env
        .client
        .scans()
        .create(&key(), &NewScan::visit(card))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::CardNotActive));

    let err = env
        .client
        .scans()
        .create(&key(), &NewScan::visit(CardId::new("card_nope")))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}

#[tokio::test]
async fn a_gift_card_is_issued_claimed_and_paid_down_to_depleted() {
    let env = Env::start().await;
    let issued = env
        .client
        .gift_cards()
        .issue(
            &key(),
            &NewGiftCard {
                amount: Decimal::new(5000, 2),
                currency: Currency::new("EUR").unwrap(),
                locale: "en".into(),
                recipient: Recipient {
                    name: "Bea".into(),
                    email: "bea@example.com".into(),
                },
            },
        )
        .await
        .unwrap();
    let card = &issued.gift_card;
    assert_eq!(card.status, GiftCardStatus::Issued);
    assert_eq!(card.initial_amount, Decimal::new(5000, 2));
    assert_eq!(card.balance.to_string(), "50.00");
    assert!(card.test);
    assert!(!issued.email.sent, "the sandbox sends no email");
    assert_eq!(issued.email.reason, Some(EmailReason::Sandbox));
    let id = card.id.clone();
    let cards = env.client.gift_cards();

    let err = cards
        .pay(&id, &key(), &payment(750, "EUR"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::GiftCardNotClaimed));

    env.control(
        Method::POST,
        &format!("/_sandbox/gift_cards/{id}/claim"),
        Some(json!({})),
    )
    .await;

    let paid = cards.pay(&id, &key(), &payment(750, "EUR")).await.unwrap();
    assert_eq!(paid.amount_minor, MinorUnits(750));
    assert_eq!(paid.amount.to_string(), "7.50");
    assert_eq!(paid.balance_after.to_string(), "42.50");
    assert_eq!(paid.reference.as_deref(), Some("T-42"));
    assert_eq!(paid.gift_card.status, GiftCardStatus::Active);
    assert!(paid.test);

    let err = cards
        .pay(&id, &key(), &payment(100, "USD"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::CurrencyMismatch));
    assert_eq!(err.problem().unwrap().status, 422);

    let err = cards
        .pay(&id, &key(), &payment(5000, "EUR"))
        .await
        .unwrap_err();
    let problem = err.problem().unwrap();
    assert_eq!(problem.code, ErrorCode::InsufficientBalance);
    assert_eq!(problem.param.as_deref(), Some("amount_minor"));
    let balance = problem.balance.as_ref().expect("the balance is reported");
    assert_eq!(balance.amount_minor, MinorUnits(4250));
    assert_eq!(balance.amount, Decimal::new(4250, 2));
    assert_eq!(balance.currency.as_str(), "EUR");

    let last = cards.pay(&id, &key(), &payment(4250, "EUR")).await.unwrap();
    assert_eq!(last.gift_card.status, GiftCardStatus::Depleted);
    assert_eq!(last.gift_card.balance, Decimal::ZERO);
    assert!(last.gift_card.depleted_at.is_some());

    let err = cards
        .pay(&id, &key(), &payment(1, "EUR"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::GiftCardDepleted));

    let read = cards.get(&id).await.unwrap();
    let spends: Vec<_> = read
        .transactions
        .iter()
        .filter(|t| t.kind == TransactionType::Spend)
        .collect();
    assert_eq!(spends.len(), 2);
    assert_eq!(spends[0].amount.to_string(), "42.50", "newest first");
    assert_eq!(spends[1].balance_after.to_string(), "42.50");
}

#[tokio::test]
async fn a_cancelled_gift_card_refuses_payments() {
    let env = Env::start().await;
    let id = env.gift_card(20, true).await;
    env.control(
        Method::POST,
        &format!("/_sandbox/gift_cards/{id}/cancel"),
        Some(json!({})),
    )
    .await;
    let err = env
        .client
        .gift_cards()
        .pay(&id, &key(), &payment(100, "EUR"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::GiftCardCancelled));
}

#[tokio::test]
async fn paying_an_unknown_gift_card_is_not_found() {
    let env = Env::start().await;
    let err = env
        .client
        .gift_cards()
        .pay(&GiftCardId::new("gc_nope"), &key(), &payment(100, "EUR"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::NotFound));
}

#[tokio::test]
async fn issuing_a_gift_card_without_a_pass_answers_pass_required() {
    let env =
        Env::start_with(json!({"name": "No Pass Ltd", "plan": "enterprise", "pass": null})).await;
    assert!(env.live_pass_id.is_none());
    let live = env.live_client(env.key("live", ALL_SCOPES).await);
    let err = live
        .gift_cards()
        .issue(
            &key(),
            &NewGiftCard {
                amount: Decimal::from(10),
                currency: Currency::new("EUR").unwrap(),
                locale: "en".into(),
                recipient: Recipient {
                    name: "Flo".into(),
                    email: "flo@example.com".into(),
                },
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&ErrorCode::PassRequired));
    assert_eq!(err.problem().unwrap().status, 409);
}
