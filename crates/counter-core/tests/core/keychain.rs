//! The keychain path shops use, for real: a Secret Service (gnome-keyring) unlocked in
//! a private D-Bus session. `make test` runs this through `scripts/keychain-test.sh`;
//! without a Secret Service it is ignored, never passed by default (the file fallback
//! would make it fail: it asserts the keychain took the key).

use std::path::Path;

use counter_core::secrets::{DatabaseKeyStorage, KeyStorage, KeyStore, SecretsConfig};
use counter_core::{Config, ScanOutcome};
use loyalty_api::ScanAction;
use rust_decimal::Decimal;

use crate::{Env, test_config, uuid_like};

/// Every file under `dir` that holds `needle`'s bytes (SQLite files, WAL, logs).
fn files_holding(dir: &Path, needle: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if std::fs::read(&path)
                .unwrap_or_default()
                .windows(needle.len())
                .any(|w| w == needle.as_bytes())
            {
                found.push(path);
            }
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Secret Service: scripts/keychain-test.sh runs it (make test does)"]
async fn with_a_keychain_the_key_lands_there_and_in_no_file_and_a_restart_finds_it() {
    let env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let config = Config {
        secrets: SecretsConfig::Keychain {
            service: format!("loyalty-counter-test-{}", uuid_like()),
        },
        ..test_config()
    };
    let counter = env.open_with(config.clone()).await;
    let connection = counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    assert_eq!(connection.key_storage, KeyStorage::Keychain);
    counter
        .record_scan(card.clone(), ScanAction::Points, Some(Decimal::from(2)))
        .await
        .unwrap();
    counter.close().await;
    assert!(!env.till_dir().join("api-key").exists());
    // The database's key is there too, in no file beside the database.
    let keys = KeyStore::new(config.secrets.clone(), &env.till_dir());
    assert_eq!(
        keys.database_key_storage(),
        Some(DatabaseKeyStorage::Keychain)
    );
    for file in ["database-key", "database-key.cred"] {
        assert!(!env.till_dir().join(file).exists(), "{file}");
    }
    assert_eq!(
        files_holding(&env.till_dir(), &env.key),
        Vec::<std::path::PathBuf>::new()
    );

    // A restart finds the key in the keychain and sends with it.
    let counter = env.open_with(config.clone()).await;
    let outcome = counter
        .record_scan(card, ScanAction::Points, Some(Decimal::from(3)))
        .await
        .unwrap();
    assert!(matches!(outcome, ScanOutcome::Done { .. }), "{outcome:?}");
    assert_eq!(
        env.scans_of(&customer).await,
        [("points".into(), 2), ("points".into(), 3)]
    );

    // Forgotten: gone from the keychain too, so a restart has no key.
    crate::owner_signs_in(&counter); // the manager, who alone forgets a key
    counter.disconnect().unwrap();
    counter.close().await;
    let counter = env.open_with(config).await;
    assert!(matches!(
        counter
            .record_scan(
                env.new_card().await.0,
                ScanAction::Points,
                Some(Decimal::ONE)
            )
            .await,
        Ok(ScanOutcome::Queued { .. })
    ));
    assert_eq!(
        files_holding(&env.till_dir(), &env.key),
        Vec::<std::path::PathBuf>::new()
    );
}
