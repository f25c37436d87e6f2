//! What a restart opens: the business the kept key was accepted for, at once and even
//! offline; and a till whose key, settings or lock are wrong still opens and says so.

use counter_core::{Connection, ItemState, ScanOutcome, Trouble};
use loyalty_api::ScanAction;

use crate::{Env, drain, test_config};

/// What the service said of the key (where the key sits may be worded differently).
fn business(
    connection: Option<Connection>,
) -> Option<(String, bool, Vec<counter_core::kinds::Scope>)> {
    connection.map(|c| (c.business_name, c.test_mode, c.scopes))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_opens_the_business_of_the_kept_key_even_offline_and_drains_the_queue() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    let connected = counter.connection().expect("connected");
    assert_eq!(connected.business_name, "Café Test");
    env.stop().await;
    let queued = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(queued, ScanOutcome::Queued { .. }), "{queued:?}");
    counter.close().await;

    // The service is still down: the till knows its business without asking.
    let counter = env.open_with(test_config()).await;
    assert_eq!(business(counter.connection()), business(Some(connected)));
    assert!(counter.troubles().unwrap().is_empty());
    assert_eq!(counter.counts().unwrap().queued, 1);

    env.restart().await;
    drain(&counter).await;
    assert_eq!(env.scans_of(&customer).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_use_another_key_a_restart_knows_no_business() {
    let env = Env::start().await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter); // the manager, who alone forgets a key
    counter.disconnect().unwrap();
    assert_eq!(counter.connection(), None);
    counter.close().await;
    let counter = env.open_with(test_config()).await;
    assert_eq!(counter.connection(), None);
    assert!(counter.troubles().unwrap().is_empty());
    // The address is still offered for the next key.
    assert!(counter.settings().unwrap().base_url.is_some());
}

/// The key file of the till in `env`, once that till has connected and closed.
async fn closed_till_key_file(env: &Env) -> std::path::PathBuf {
    env.counter().await.close().await;
    env.till_dir().join("api-key")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_file_holding_garbage_opens_the_till_without_a_key_and_a_new_key_replaces_it() {
    let env = Env::start().await;
    let file = closed_till_key_file(&env).await;
    std::fs::write(&file, b"\xff\xfe garbage\n").unwrap();

    let counter = env.open_with(test_config()).await;
    assert_eq!(counter.connection(), None, "no key, no business");
    assert_eq!(
        counter.troubles().unwrap(),
        [Trouble::KeyFileNotAKey { path: file.clone() }]
    );
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    assert!(counter.troubles().unwrap().is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), env.key);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_key_stays_a_trouble_until_forgotten_and_is_read_at_the_next_open() {
    let env = Env::start().await;
    let file = closed_till_key_file(&env).await;
    std::fs::write(&file, b"not a key\n").unwrap();

    let counter = env.open_with(test_config()).await;
    let unreadable = [Trouble::KeyFileNotAKey { path: file.clone() }];
    assert_eq!(counter.troubles().unwrap(), unreadable);
    assert_eq!(counter.troubles().unwrap(), unreadable, "asked again");
    // Use another key: the unreadable one is forgotten, and with it the trouble.
    counter.disconnect().unwrap();
    assert!(counter.troubles().unwrap().is_empty());
    assert!(!file.exists());
    counter.close().await;

    // The key is read when the till opens: a good one put there meanwhile is used.
    std::fs::write(&file, env.key.as_bytes()).unwrap();
    let counter = env.open_with(test_config()).await;
    assert!(counter.troubles().unwrap().is_empty());
    assert!(
        counter.connection().is_some(),
        "the key in the file is in use"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_file_that_cannot_be_read_opens_the_till_and_says_so() {
    let env = Env::start().await;
    let file = closed_till_key_file(&env).await;
    // Not a file any more (permissions cannot stop the root user the tests may run as).
    std::fs::remove_file(&file).unwrap();
    std::fs::create_dir(&file).unwrap();

    let counter = env.open_with(test_config()).await;
    assert_eq!(counter.connection(), None);
    assert_eq!(
        counter.troubles().unwrap(),
        [Trouble::KeyFileUnreadable { path: file }]
    );
    assert!(counter.queue(true, 10).unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_setting_opens_at_its_default_keeps_the_others_and_is_reset_on_request() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let connected = counter.connection();
    let mut settings = counter.settings().unwrap();
    counter.close().await;
    settings.zoom_percent = Some(125);
    let mut stored = serde_json::to_value(&settings).unwrap();
    stored["offline_payments"] = serde_json::json!("everything, always");
    env.replace_settings(&stored.to_string());

    let counter = env.open_with(test_config()).await;
    assert_eq!(
        business(counter.connection()),
        business(connected),
        "the key and its business are kept"
    );
    assert_eq!(
        counter.troubles().unwrap(),
        [Trouble::SettingsDamaged {
            settings: vec!["offline_payments".into()]
        }]
    );
    let now = counter.settings().unwrap();
    assert_eq!(now.zoom_percent, Some(125));
    assert_eq!(now.offline_payments, Default::default());

    counter.reset_damaged_settings().unwrap();
    assert!(counter.troubles().unwrap().is_empty());
    assert_eq!(counter.settings().unwrap().zoom_percent, Some(125));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_settings_row_that_is_not_json_opens_the_till_with_defaults_and_says_so() {
    let env = Env::start().await;
    env.counter().await.close().await;
    env.replace_settings("{\"base_url\": \"http://trunc");

    let counter = env.open_with(test_config()).await;
    assert_eq!(
        counter.connection(),
        None,
        "no address: the key cannot be used"
    );
    let troubles = counter.troubles().unwrap();
    let [Trouble::SettingsDamaged { settings }] = troubles.as_slice() else {
        panic!("{troubles:?}");
    };
    assert!(settings.contains(&"base_url".to_owned()), "{settings:?}");
    // Connecting again saves good settings.
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    assert!(counter.troubles().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_till_another_copy_owns_opens_reading_its_queue_and_changes_nothing() {
    let mut env = Env::start().await;
    let (card, _) = env.new_visit_card().await;
    let owner = env.counter().await;
    env.stop().await;
    owner
        .record_scan(card, ScanAction::Visit, None)
        .await
        .unwrap();

    let reader = env.open_with(test_config()).await;
    assert_eq!(
        reader.troubles().unwrap(),
        [Trouble::HeldElsewhere {
            path: env.till_dir()
        }]
    );
    let queue = reader.queue(true, 10).unwrap();
    assert_eq!(queue.len(), 1);
    assert_eq!(queue[0].state, ItemState::Queued);
    assert_eq!(reader.counts().unwrap().queued, 1);
    assert_eq!(reader.connection(), None);
    for refused in [
        reader
            .connect(&env.sandbox_url(), &env.key)
            .await
            .unwrap_err(),
        reader.disconnect().unwrap_err(),
        reader.reset_damaged_settings().unwrap_err(),
    ] {
        assert_eq!(refused.code(), counter_core::ErrorCode::AlreadyOpen);
    }
    assert!(
        env.till_dir().join("api-key").exists(),
        "the owner's key is untouched"
    );
    drop(reader);

    // The owner was never disturbed, and sends once the service is back.
    env.restart().await;
    drain(&owner).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_kept_by_an_earlier_version_learns_its_business_at_the_first_restart() {
    let mut env = Env::start().await;
    env.counter().await.close().await;
    // An earlier version kept the key and the address, not the business.
    damage_settings_with(&env, "json_remove(value, '$.connection')");

    let counter = env.open_with(test_config()).await;
    let learnt = counter.connection().map(|c| c.business_name);
    assert_eq!(learnt.as_deref(), Some("Café Test"));
    counter.close().await;

    // Remembered: the next restart knows it even offline.
    env.stop().await;
    let counter = env.open_with(test_config()).await;
    let known = counter.connection().map(|c| c.business_name);
    assert_eq!(known.as_deref(), Some("Café Test"));
}

/// Rewrites the settings row of the closed till in `env` with the SQL expression `value`.
fn damage_settings_with(env: &Env, value: &str) {
    let db = env.till_db();
    db.execute(
        &format!("UPDATE settings SET value = {value} WHERE name = 'settings'"),
        [],
    )
    .unwrap();
}
