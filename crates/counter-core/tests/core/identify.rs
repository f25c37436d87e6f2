//! A scanned code is a card whatever its id looks like: the API's ids are strings, and
//! the counter must not depend on this project's own `card_` / `gc_` prefixes.

use counter_core::scanner::{NotACard, Scanned};
use counter_core::{ScanFound, ScanOutcome};
use loyalty_api::{CardId, ScanAction};

use crate::Env;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_without_a_known_prefix_is_looked_up_as_a_loyalty_card_then_as_a_gift_card() {
    let mut env = Env::start_with_plain_ids().await;
    let counter = env.counter().await;
    counter.sync(None).await.unwrap();
    // Enrolled after the till's last sync, and issued: the till has seen neither.
    let (card, customer) = env.new_visit_card().await;
    let gift = env.gift_card(50).await;
    assert!(
        !card.as_str().contains('_') && !gift.as_str().contains('_'),
        "{card} {gift}"
    );

    // A wedge scanner's start and stop characters and its Enter around the code.
    assert_eq!(
        counter.identify(&format!("*{card}*\r\n")).await.unwrap(),
        Scanned::Card { id: card.clone() }
    );
    assert_eq!(
        counter.identify(&format!(" {gift}\t")).await.unwrap(),
        Scanned::GiftCard { id: gift.clone() }
    );
    assert_eq!(
        counter.identify("4006381333931").await.unwrap(),
        Scanned::NotACard {
            reason: NotACard::NotKnown
        }
    );

    // The card found is a card like any other: a visit reaches the service once.
    let visit = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(visit, ScanOutcome::Done { .. }), "{visit:?}");
    assert_eq!(env.scans_of(&customer).await, [("visit".to_owned(), 0)]);
    // A code nobody looked up is no card to write to: nothing is stored.
    assert!(
        counter
            .record_scan(CardId::new("4006381333931"), ScanAction::Visit, None)
            .await
            .is_err()
    );
    assert_eq!(counter.queue(false, 10).unwrap().len(), 1);

    // Offline, the till knows what it has seen, and says when it cannot ask.
    env.stop().await;
    assert_eq!(
        counter.identify(card.as_str()).await.unwrap(),
        Scanned::Card { id: card.clone() }
    );
    assert_eq!(
        counter.identify(gift.as_str()).await.unwrap(),
        Scanned::GiftCard { id: gift }
    );
    assert_eq!(
        counter.identify("LOY-2026-000042").await.unwrap(),
        Scanned::NotACard {
            reason: NotACard::NotKnownOffline
        }
    );
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scan_offers_what_the_card_allows_or_before_the_till_read_it_what_the_key_may_do() {
    let env = Env::start().await;
    let (card, _) = env.new_visit_card().await;
    let counter = env.counter().await;

    // Not read yet: what the key may do (the service says the rest when the write comes).
    let ScanFound::Card {
        known: None,
        actions,
        ..
    } = counter.read_scan(card.as_str()).await.unwrap()
    else {
        panic!("an unread card");
    };
    assert!(actions.visit && actions.redeem, "{actions:?}");

    // Read: what this card allows (no reward ready: nothing to redeem).
    counter.sync(None).await.unwrap();
    let ScanFound::Card {
        known: Some(known),
        actions,
        ..
    } = counter.read_scan(card.as_str()).await.unwrap()
    else {
        panic!("a card the till has read");
    };
    assert_eq!(known.0.card.id, card);
    assert!(actions.visit && !actions.redeem, "{actions:?}");

    assert_eq!(
        counter.read_scan("4006381333931").await.unwrap(),
        ScanFound::NotACard {
            reason: NotACard::NotKnown
        }
    );
}
