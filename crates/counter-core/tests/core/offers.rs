//! What the counter offers is the core's decision, read back through the real service:
//! a card's actions by its pass and the key's scopes, a gift card's payment by its
//! balance and, offline, the manager's policy, and an email already enrolled opening
//! the customer the service names.

use counter_core::offer::{CardActions, PaymentOffer};
use counter_core::payment::{CurrencyCaps, OfflinePaymentPolicy, PolicyRefusal};
use counter_core::settings::Settings;
use counter_core::{EnrolOutcome, Enrolment, FreshCard};
use rust_decimal::Decimal;
use serde_json::json;

use crate::Env;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_offers_what_its_pass_counts_and_a_read_only_key_offers_nothing() {
    let env = Env::start().await;
    let (points_card, _) = env.new_card().await;
    let (visits_card, _) = env.new_visit_card().await;
    let counter = env.counter().await;
    counter.sync(None).await.unwrap();

    // Read fresh: the pass is read with the card, and decides.
    let offer = |card| {
        let FreshCard::Found(lookup) = card else {
            panic!("{card:?}");
        };
        counter.card_offer(&lookup.card, lookup.queued_writes)
    };
    let points = offer(counter.read_card(&points_card).await.unwrap());
    assert_eq!(
        points.actions,
        CardActions {
            visit: false,
            add_points: true,
            deduct_points: true,
            redeem: false,
            add_up_to: Some(1000),
            deduct_up_to: Some(0),
        }
    );
    let visits = offer(counter.read_card(&visits_card).await.unwrap());
    assert!(visits.actions.visit && !visits.actions.add_points && !visits.actions.deduct_points);
    assert_eq!(visits.pass.map(|p| p.goal), Some(10));

    // A key that may only read: nothing is offered.
    let read_only = env
        .control(
            "POST",
            "/_sandbox/keys",
            json!({"business_id": env.business_id, "mode": "test", "scopes": ["read"]}),
        )
        .await;
    crate::manager_for_one_action(&counter);
    counter
        .connect(&env.sandbox_url(), read_only["key"].as_str().unwrap())
        .await
        .unwrap();
    let lookup = counter.lookup_card(&points_card).unwrap().unwrap();
    let none = counter.card_offer(&lookup.card, 0).actions;
    assert!(!none.visit && !none.add_points && !none.deduct_points && !none.redeem);
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_card_counts_is_known_offline_after_a_restart() {
    let mut env = Env::start().await;
    let (visits_card, _) = env.new_visit_card().await;
    let counter = env.counter().await;
    counter.sync(None).await.unwrap();
    counter.read_card(&visits_card).await.unwrap();
    counter.close().await;

    // The service away, the till restarted: the pass comes from the till's cache.
    env.stop().await;
    let counter = env.open_with(crate::test_config()).await;
    let lookup = counter.lookup_card(&visits_card).unwrap().unwrap();
    let offer = counter.card_offer(&lookup.card, 0);
    assert_eq!(offer.pass.map(|p| p.goal), Some(10));
    assert!(offer.actions.visit && !offer.actions.add_points && !offer.actions.deduct_points);
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gift_card_offers_its_balance_online_and_what_the_policy_allows_offline() {
    let mut env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;

    let fresh = counter.open_gift_card(&gift).await.unwrap();
    assert!(fresh.fresh && !fresh.ledger.is_empty());
    assert_eq!(
        fresh.offer,
        PaymentOffer::Open {
            up_to: Decimal::from(50)
        }
    );

    // The service away: the cached card, and the policy (off by default) says no.
    env.stop().await;
    let cached = counter.open_gift_card(&gift).await.unwrap();
    assert!(!cached.fresh && cached.ledger.is_empty());
    assert_eq!(
        cached.offer,
        PaymentOffer::Offline {
            refusal: PolicyRefusal::NotAllowed
        }
    );
    counter
        .save_settings(&Settings {
            offline_payments: OfflinePaymentPolicy {
                allowed: true,
                caps: vec![CurrencyCaps {
                    currency: loyalty_api::Currency::new("EUR").unwrap(),
                    per_payment: Some(Decimal::from(20)),
                    total: None,
                }],
                balance_max_age_minutes: None,
            },
            ..counter.settings().unwrap()
        })
        .unwrap();
    let capped = counter.open_gift_card(&gift).await.unwrap();
    assert_eq!(
        capped.offer,
        PaymentOffer::Open {
            up_to: Decimal::from(20)
        }
    );
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_already_enrolled_opens_the_customer_the_service_names_read_afresh() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let enrolment = |name: &str| Enrolment {
        pass_id: Some(loyalty_api::PassId::new(env.points_pass.clone())),
        name: name.into(),
        email: "twice@example.com".into(),
        wallet: "apple".into(),
        send_welcome: false,
    };
    let EnrolOutcome::Done { answer: first, .. } =
        counter.enrol(enrolment("Zoë Prieto")).await.unwrap()
    else {
        panic!("the first enrolment");
    };
    // Another customer since: the one opened is the one the service names, not a row
    // the till happens to find first.
    env.api_post(
        "/v1/customers",
        json!({"pass_id": env.points_pass, "name": "Someone Else",
               "email": "other@example.com", "wallet": "apple", "send_welcome": false}),
    )
    .await;
    let again = counter.enrol(enrolment("Zoe P.")).await.unwrap();
    let EnrolOutcome::Known {
        known: customer, ..
    } = again
    else {
        panic!("{again:?}");
    };
    assert_eq!(customer.id, first.id, "the customer the service named");
    assert_eq!(customer.name.as_deref(), Some("Zoë Prieto"));
    assert_eq!(customer.card_ids, first.card_ids);
    // One customer with that email on the server: nothing was created.
    let all = env.api_get("/v1/customers?limit=100").await;
    let with_email = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["email"] == "twice@example.com")
        .count();
    assert_eq!(with_email, 1);
    counter.close().await;
}
