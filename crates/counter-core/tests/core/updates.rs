//! The moment a till restarts into an update installed under it: between customers.

use std::time::Duration;

use counter_core::update::{Busy, Moment, PageAtRest};

use crate::Env;

/// A page with nothing open, nothing typed, untouched for a minute.
const AT_REST: PageAtRest = PageAtRest {
    customer_open: false,
    dialog_open: false,
    typing: false,
    untouched_ms: 60_000,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_till_restarts_between_customers_and_never_while_a_card_is_open_or_a_write_goes() {
    let env = Env::start().await;
    let counter = env.counter().await;
    assert_eq!(counter.restart_moment(AT_REST), Moment::Now);

    // A customer's card opened at the counter: not while it shows.
    let (card, customer) = env.new_visit_card().await;
    counter.sync(None).await.unwrap();
    let counter_core::FreshCard::Found(lookup) = counter.read_card(&card).await.unwrap() else {
        panic!("the card was not read");
    };
    counter.card_offer(&lookup.card, 0);
    assert_eq!(
        counter.restart_moment(AT_REST),
        Moment::Later(Busy::CardOpen)
    );
    // The cashier is done with this customer.
    counter.counter_idle().unwrap();
    assert_eq!(counter.restart_moment(AT_REST), Moment::Now);

    // The page's part: a card, a dialog, something typed, a touch, each holds it.
    for (page, busy) in [
        (
            PageAtRest {
                customer_open: true,
                ..AT_REST
            },
            Busy::CardOpen,
        ),
        (
            PageAtRest {
                dialog_open: true,
                ..AT_REST
            },
            Busy::Dialog,
        ),
        (
            PageAtRest {
                typing: true,
                ..AT_REST
            },
            Busy::Typing,
        ),
        (
            PageAtRest {
                untouched_ms: 1_000,
                ..AT_REST
            },
            Busy::Touched,
        ),
    ] {
        assert_eq!(
            counter.restart_moment(page),
            Moment::Later(busy),
            "{page:?}"
        );
    }

    // Held for the restart: no write starts on its way, and the moment says a write
    // holds it (what a send in flight holds).
    let held = counter.hold_for_restart().await;
    assert_eq!(
        counter.restart_moment(AT_REST),
        Moment::Later(Busy::Sending)
    );
    drop(held);
    assert_eq!(counter.restart_moment(AT_REST), Moment::Now);

    // A visit recorded while the till is held waits (the cashier is not kept waiting),
    // and goes once it is let go: the server counts it once.
    let held = counter.hold_for_restart().await;
    let recording = counter.record_scan(card.clone(), loyalty_api::ScanAction::Visit, None);
    tokio::time::timeout(Duration::from_secs(30), recording)
        .await
        .expect("the cashier was kept waiting")
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let served = env.api_get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(served["cards"][0]["visits"], 0, "sent while held: {served}");
    drop(held);
    crate::drain(&counter).await;
    let served = env.api_get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(served["cards"][0]["visits"], 1, "{served}");
}
