//! Tills written by earlier versions of the app, by their own code: each folder of
//! `tests/fixtures/schema-N` was made once by running `make_fixture.rs` (kept in it) at
//! the commit its `manifest.json` names, the first with schema N: a till connected to
//! that version's own local server, its owner's PIN, settings, one write confirmed, and
//! writes queued while the server was down (a visit, a gift-card payment, an
//! enrolment), a receipt waiting for a printer where the version printed; the server's
//! file beside it. Opened by this version: migrated (a snapshot of schema N kept), its
//! key and PIN still its own, its history, settings and print jobs intact, and once the
//! server is back each queued write reaches it exactly once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use counter_core::ids::PersonId;
use counter_core::{Counter, Credential, ItemState, SystemClock, UuidIds};
use serde_json::Value;

/// The fixtures, by schema, oldest first.
fn fixtures() -> Vec<(u32, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let schema = name.strip_prefix("schema-")?.parse().ok()?;
            Some((schema, entry.path()))
        })
        .collect();
    found.sort();
    found
}

/// `from` copied into `to`, files and folders, as the app keeps them: its user's alone
/// (git keeps no such mode).
fn copy_tree(from: &Path, to: &Path) {
    counter_core::private::dir(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
            counter_core::private::file(&target).unwrap();
        }
    }
}

/// The server's own record at `path` (`/v1/...`), with the fixture's key.
async fn get(base: &str, key: &str, path: &str) -> Value {
    reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// What the server holds of the fixture's writes: each card's visits, the gift card's
/// balance, how many customers have the enrolment's email.
async fn served(manifest: &Value) -> (Vec<i64>, String, usize) {
    let base = manifest["base_url"].as_str().unwrap();
    let key = manifest["api_key"].as_str().unwrap();
    let mut visits = Vec::new();
    for customer in manifest["customers"].as_array().unwrap() {
        let found = get(
            base,
            key,
            &format!("/v1/customers/{}", customer["id"].as_str().unwrap()),
        )
        .await;
        visits.push(found["cards"][0]["visits"].as_i64().unwrap());
    }
    let gift = &manifest["gift_card"]["id"];
    let balance = get(
        base,
        key,
        &format!("/v1/gift_cards/{}", gift.as_str().unwrap()),
    )
    .await;
    let balance = balance["balance"].as_str().unwrap_or_default().to_owned();
    let email = manifest["queued_writes"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|w| w["email"].as_str());
    let list = get(base, key, "/v1/customers?limit=100").await;
    let enrolled = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| email.is_some() && c["email"].as_str() == email)
        .count();
    (visits, balance, enrolled)
}

async fn open(till: &Path) -> Counter {
    Counter::open(
        till,
        crate::test_config(),
        Arc::new(SystemClock),
        Arc::new(UuidIds),
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_earlier_schema_migrates_its_till_and_sends_its_queued_writes_once() {
    let fixtures = fixtures();
    let schemas: Vec<u32> = fixtures.iter().map(|(schema, _)| *schema).collect();
    // Every schema an app of this repository ever ran, but 6: migrations 6 and 7 came in
    // one commit (cf43936), so no version of the app had schema 6.
    let every: Vec<u32> = (1..counter_core::db::SCHEMA_VERSION)
        .filter(|schema| *schema != 6)
        .collect();
    assert_eq!(schemas, every, "a fixture of each earlier schema");
    for (schema, fixture) in fixtures {
        let manifest: Value =
            serde_json::from_slice(&std::fs::read(fixture.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(manifest["schema"], schema, "{}", fixture.display());
        let scratch = tempfile::tempdir().unwrap();
        copy_tree(&fixture, scratch.path());
        let till = scratch.path().join("till");
        let _ = std::fs::remove_file(till.join("till.lock"));
        // The version's own server, its file as that version left it, where the till
        // last reached it.
        let sandbox = loyalty_sandbox::Sandbox::open(loyalty_sandbox::Config {
            db: Some(scratch.path().join("server.db")),
            control: true,
            demo: false,
        })
        .unwrap();
        let port = manifest["port"].as_u64().unwrap() as u16;
        let running = sandbox
            .serve(
                tokio::net::TcpListener::bind(("127.0.0.1", port))
                    .await
                    .unwrap(),
            )
            .await
            .unwrap();
        let (visits_before, balance_before, enrolled_before) = served(&manifest).await;

        let counter = open(&till).await;
        let context = format!("schema {schema} ({})", manifest["commit"]);
        // Migrated, a snapshot of the file as it was kept.
        let snapshots = counter_core::db::snapshots::list(&till.join("till.db")).unwrap();
        assert_eq!(
            snapshots.iter().map(|s| s.schema).collect::<Vec<_>>(),
            vec![schema],
            "{context}"
        );
        // The key it was connected with, kept: the same business.
        let connection = counter.connection().expect(&context);
        assert_eq!(
            Some(connection.business_name.as_str()),
            manifest["business_name"].as_str(),
            "{context}"
        );
        // The owner's PIN (the manager's PIN of a version before people) still opens it;
        // a till from before any PIN has no one on its roster yet (its first start asks).
        match manifest["pin"].as_str() {
            Some(pin) => {
                counter
                    .sign_in(&Credential::Pin {
                        person: PersonId(manifest["pin_person"].as_i64().unwrap_or(1)),
                        pin: pin.to_owned(),
                    })
                    .unwrap_or_else(|e| panic!("{context}: the PIN: {e}"));
            }
            None => assert!(counter.people().unwrap().is_empty(), "{context}"),
        }
        // The shift open when that version stopped (a version with shifts), open still.
        if let Some(shift) = manifest["shift_open"].as_i64() {
            let status = counter.shift_status().unwrap();
            assert_eq!(status.open.map(|open| open.id), Some(shift), "{context}");
        }
        // Settings as that version saved them.
        let settings = counter.settings().unwrap();
        let saved = &manifest["settings"];
        if let Some(language) = saved["language"].as_str() {
            assert_eq!(settings.language.as_deref(), Some(language), "{context}");
        }
        if saved["offline_payments"]["allowed"] == true {
            assert!(settings.offline_payments.allowed, "{context}");
        }
        if let Some(name) = saved["till_name"].as_str() {
            assert_eq!(counter.till_name().unwrap(), name, "{context}");
        }
        // The receipts that waited for a printer wait still.
        let waiting = manifest["print_jobs_waiting"].as_u64().unwrap_or(0) as usize;
        if waiting > 0 {
            assert!(settings.printer.is_some(), "{context}");
            assert!(counter.receipts().unwrap().len() >= waiting, "{context}");
        }

        // The server is back: the queued writes go, each once.
        crate::drain(&counter).await;
        let counts = counter.counts().unwrap();
        assert_eq!((counts.queued, counts.needs_decision), (0, 0), "{context}");
        let items = counter.queue(false, 100).unwrap();
        let confirmed = manifest["confirmed_writes"].as_u64().unwrap() as usize;
        let queued = manifest["queued_writes"].as_array().unwrap().len();
        assert_eq!(items.len(), confirmed + queued, "{context}: {items:#?}");
        assert!(
            items.iter().all(|item| item.state == ItemState::Done),
            "{context}: {items:#?}"
        );
        counter.close().await;
        // Opened again: nothing more is sent.
        let counter = open(&till).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        crate::drain(&counter).await;
        counter.close().await;

        let (visits, balance, enrolled) = served(&manifest).await;
        let visited: Vec<i64> = manifest["customers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|customer| {
                manifest["queued_writes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|w| w["action"] == "visit" && w["card"] == customer["card"])
                    .count() as i64
            })
            .collect();
        let expected: Vec<i64> = visits_before
            .iter()
            .zip(&visited)
            .map(|(a, b)| a + b)
            .collect();
        assert_eq!(visits, expected, "{context}: visits");
        if let Some(after) = manifest["gift_card_balance_after_payment"].as_str() {
            assert_ne!(balance_before, after, "{context}: paid before");
            assert_eq!(balance, after, "{context}: the gift card's balance");
        }
        let enrolments = manifest["queued_writes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|w| w["kind"] == "enrol")
            .count();
        assert_eq!(
            enrolled,
            enrolled_before + enrolments,
            "{context}: enrolments"
        );
        eprintln!(
            "{context}: migrated to {}, {queued} queued writes sent once, visits {visits_before:?} -> \
             {visits:?}, gift card {balance_before} -> {balance}, {waiting} receipts waiting",
            counter_core::db::SCHEMA_VERSION
        );
        running.shutdown().await.unwrap();
    }
}
