//! The till's database at rest, against the real sandbox: what a copy of its files
//! gives (nothing of its customers), a restart (the kept key opens it), and a till
//! whose key is gone (it does not open, says so, and changes nothing).

use std::sync::Arc;

use counter_core::db::OpenError;
use counter_core::secrets::DatabaseKeyError;
use counter_core::{Counter, Error, UuidIds};
use loyalty_api::ScanAction;
use rust_decimal::Decimal;

use crate::{Env, test_config};

/// Whether `needle` is in the bytes of the till's database or its WAL.
fn on_disk(env: &Env, needle: &str) -> bool {
    ["till.db", "till.db-wal"].iter().any(|name| {
        std::fs::read(env.till_dir().join(name))
            .unwrap_or_default()
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copied_till_gives_no_customer_a_restart_opens_it_and_without_its_key_nothing_changes() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let counter = env.counter().await;
    counter.sync(None).await.unwrap();
    let hits = counter.search("Test", 50).unwrap();
    let hit = hits
        .iter()
        .find(|hit| hit.id == customer)
        .expect("the customer is cached");
    let name = hit.name.clone().unwrap();
    let email = hit.email.clone().unwrap();
    // A write of the card: the queue is in the same file.
    counter
        .record_scan(card.clone(), ScanAction::Points, Some(Decimal::from(2)))
        .await
        .unwrap();

    // Read as bytes, as a thief with a copy would: no name, no email, not the card.
    for needle in [name.as_str(), email.as_str(), card.as_str()] {
        assert!(!on_disk(&env, needle), "{needle} is on the disk in clear");
    }
    // Read with the key, as the till does: they are there.
    assert!(env.till_holds(&email) && env.till_holds(&name));
    counter.close().await;

    // A restart finds the kept key: the customer is searchable at once.
    let counter = env.open_with(test_config()).await;
    assert!(
        counter
            .search(&name, 5)
            .unwrap()
            .iter()
            .any(|hit| hit.id == customer)
    );
    counter.close().await;

    // The key gone (another computer, a keychain emptied): the till does not open, says
    // so in words, and the file is as it was.
    for kept in ["database-key.cred", "database-key"] {
        let _ = std::fs::remove_file(env.till_dir().join(kept));
    }
    let before = std::fs::read(env.till_dir().join("till.db")).unwrap();
    let opened = Counter::open(
        &env.till_dir(),
        test_config(),
        Arc::new(env.clock.clone()),
        Arc::new(UuidIds),
    )
    .await;
    let Err(error) = opened else {
        panic!("a till opened without its key");
    };
    assert!(
        matches!(
            error,
            Error::Open(OpenError::Key(DatabaseKeyError::Missing { .. }))
        ),
        "{error:?}"
    );
    let words = error.to_string();
    assert!(
        words.contains("not on this computer") && words.contains("nothing was changed"),
        "{words}"
    );
    assert_eq!(
        std::fs::read(env.till_dir().join("till.db")).unwrap(),
        before
    );
    for kept in ["database-key.cred", "database-key"] {
        assert!(
            !env.till_dir().join(kept).exists(),
            "a new key over an encrypted till"
        );
    }
}
