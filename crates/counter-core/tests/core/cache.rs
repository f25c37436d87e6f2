//! The customer cache: resumable sync, top-up, search, provisional cards.

use counter_core::{EnrolOutcome, Enrolment, Event, FreshCard, ScanOutcome};
use loyalty_api::{CardId, ScanAction};
use rust_decimal::Decimal;
use serde_json::json;

use crate::{Env, drain, test_config};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_sync_resumes_where_it_stopped_and_a_top_up_adds_new_customers() {
    let env = Env::start().await;
    env.control(
        "POST",
        "/_sandbox/seed",
        json!({"business_id": env.business_id, "place": "sandbox", "customers": 180, "scans": 0, "seed": 7}),
    )
    .await;
    let total = 25 + 180;
    let counter = env.counter().await;
    let mut events = counter.subscribe();
    let first = counter.sync(Some(1)).await.unwrap();
    assert_eq!(first.stored, 100);
    assert!(!first.finished);
    assert!(matches!(
        events.try_recv().unwrap(),
        Event::SyncProgress {
            done: 100,
            finished: false,
            ..
        }
    ));
    drop(counter); // stopped in the middle

    let counter = env.open_with(test_config()).await;
    let rest = counter.sync(None).await.unwrap();
    assert!(rest.finished);
    assert_eq!(rest.stored, total - 100, "resumed, not restarted");
    assert_eq!(rest.cached, total);

    let (card, _) = env.new_card().await;
    let top = counter.top_up().await.unwrap();
    assert_eq!(top.stored, 1);
    let found = counter.lookup_card(&card).unwrap().unwrap();
    let name = found.customer.unwrap().name.unwrap();
    let hits = counter.search(&name[..7], 10).unwrap();
    assert!(hits.iter().any(|c| c.card_ids.contains(&card)), "{hits:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_with_queued_writes_is_provisional_until_the_service_answers() {
    let mut env = Env::start().await;
    let counter = env.counter().await;
    let settings = counter.settings().unwrap();
    counter
        .save_settings(&counter_core::settings::Settings {
            pass_id: Some(loyalty_api::PassId::new(env.points_pass.clone())),
            ..settings
        })
        .unwrap();
    let enrolled = counter
        .enrol(Enrolment {
            pass_id: None,
            name: "Zoë Prieto".into(),
            email: "zoe@example.com".into(),
            wallet: "google".into(),
            send_welcome: false,
        })
        .await
        .unwrap();
    let EnrolOutcome::Done {
        answer: customer, ..
    } = enrolled
    else {
        panic!("{enrolled:?}");
    };
    let card: CardId = customer.card_ids[0].clone();
    assert_eq!(counter.search("zoe", 5).unwrap()[0].id, customer.id);

    env.stop().await;
    let queued = counter
        .record_scan(card.clone(), ScanAction::Points, Some(Decimal::from(3)))
        .await
        .unwrap();
    assert!(matches!(queued, ScanOutcome::Queued { .. }));
    let lookup = counter.lookup_card(&card).unwrap().unwrap();
    assert!(lookup.provisional);
    assert_eq!(lookup.queued_writes, 1);
    assert_eq!(lookup.card.points, 0);

    env.restart().await;
    drain(&counter).await;
    let lookup = counter.lookup_card(&card).unwrap().unwrap();
    assert!(!lookup.provisional);
    assert_eq!(lookup.card.points, 3);
    assert_eq!(env.scans_of(&customer.id).await, [("points".into(), 3)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pass_is_read_with_its_goal_and_reward() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let pass = counter
        .pass(&loyalty_api::PassId::new(env.visits_pass.clone()))
        .await
        .unwrap();
    assert_eq!(pass.goal, 10);
    assert_eq!(pass.loyalty_type, counter_core::kinds::LoyaltyType::Visits);
    assert_eq!(pass.reward_title, "A coffee");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_active_passes_are_listed_to_enrol_on() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let passes = counter.passes().await.unwrap();
    let ids: Vec<&str> = passes.iter().map(|p| p.id.as_str()).collect();
    assert!(ids.contains(&env.visits_pass.as_str()), "{ids:?}");
    assert!(ids.contains(&env.points_pass.as_str()), "{ids:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_read_fresh_shows_what_happened_elsewhere_and_forgets_a_deleted_customer() {
    let env = Env::start().await;
    let counter = env.counter().await;
    // Before a first sync, a card the till does not know is not looked for.
    let (early, _) = env.new_card().await;
    assert_eq!(
        counter.read_card(&early).await.unwrap(),
        FreshCard::NotChecked
    );
    counter.sync(None).await.unwrap();
    let (card, customer) = env.new_card().await;

    // Not cached yet: a fresh read fetches the customers enrolled since the last sync.
    assert!(counter.lookup_card(&card).unwrap().is_none());
    let FreshCard::Found(first) = counter.read_card(&card).await.unwrap() else {
        panic!("not found");
    };
    assert_eq!(first.card.points, 0);

    // Another till adds points: the cache still says 0, a fresh read says 40.
    env.api_post(
        "/v1/scans",
        json!({"card_id": card.as_str(), "kind": "points", "amount": 40}),
    )
    .await;
    assert_eq!(counter.lookup_card(&card).unwrap().unwrap().card.points, 0);
    let FreshCard::Found(fresh) = counter.read_card(&card).await.unwrap() else {
        panic!("not found");
    };
    assert_eq!(fresh.card.points, 40);
    assert_eq!(counter.lookup_card(&card).unwrap().unwrap().card.points, 40);

    // Deleted elsewhere: gone from the service, so gone from the cache and from search.
    let name = fresh.customer.unwrap().name.unwrap();
    env.control(
        "DELETE",
        &format!("/_sandbox/customers/{customer}"),
        json!({}),
    )
    .await;
    assert_eq!(
        counter.read_card(&card).await.unwrap(),
        FreshCard::NoSuchCard
    );
    assert!(counter.lookup_card(&card).unwrap().is_none());
    assert!(counter.search(&name, 5).unwrap().is_empty());

    // A card no one has: said so, not an error.
    assert_eq!(
        counter
            .read_card(&CardId::new("card_n0b0dyHasThisCard"))
            .await
            .unwrap(),
        FreshCard::NoSuchCard
    );

    // The newest customer the till knew is deleted: a later look for new customers
    // still stops where the till's knowledge ends (by enrolment time), not at the end
    // of the list.
    let (newest_card, newest) = env.new_card().await;
    counter.top_up().await.unwrap();
    assert!(counter.lookup_card(&newest_card).unwrap().is_some());
    env.control(
        "DELETE",
        &format!("/_sandbox/customers/{newest}"),
        json!({}),
    )
    .await;
    let (late, _) = env.new_card().await;
    let top = counter.top_up().await.unwrap();
    assert_eq!(top.stored, 1, "only the one enrolled since");
    assert!(counter.lookup_card(&late).unwrap().is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_sync_forgets_customers_deleted_since_the_last_one() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let (card, customer) = env.new_card().await;
    let (kept, _) = env.new_card().await;
    let first = counter.sync(None).await.unwrap();
    assert_eq!(first.removed, 0);
    let name = counter
        .lookup_card(&card)
        .unwrap()
        .unwrap()
        .customer
        .unwrap()
        .name
        .unwrap();
    assert!(!counter.search(&name, 5).unwrap().is_empty());

    env.control(
        "DELETE",
        &format!("/_sandbox/customers/{customer}"),
        json!({}),
    )
    .await;
    let second = counter.sync(None).await.unwrap();
    assert!(second.finished);
    assert_eq!(second.removed, 1);
    assert_eq!(second.cached, first.cached - 1);
    assert!(counter.lookup_card(&card).unwrap().is_none());
    assert!(counter.search(&name, 5).unwrap().is_empty());
    assert!(counter.lookup_card(&kept).unwrap().is_some(), "others stay");

    // A walk spread over several calls forgets only once it has seen everything.
    env.control(
        "POST",
        "/_sandbox/seed",
        json!({"business_id": env.business_id, "place": "sandbox", "customers": 150, "scans": 0, "seed": 3}),
    )
    .await;
    let (gone, gone_customer) = env.new_card().await;
    counter.top_up().await.unwrap();
    env.control(
        "DELETE",
        &format!("/_sandbox/customers/{gone_customer}"),
        json!({}),
    )
    .await;
    let part = counter.sync(Some(1)).await.unwrap();
    assert!(!part.finished);
    assert_eq!(part.removed, 0);
    assert!(counter.lookup_card(&kept).unwrap().is_some());
    let rest = counter.sync(None).await.unwrap();
    assert!(rest.finished);
    assert_eq!(rest.removed, 1);
    assert!(counter.lookup_card(&gone).unwrap().is_none());
    assert!(counter.lookup_card(&kept).unwrap().is_some());
}
