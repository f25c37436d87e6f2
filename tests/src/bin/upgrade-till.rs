//! `upgrade-till`: a shop's till for the upgrade test of `make bundle-test`
//! (scripts/bundle-test.sh), made and read through counter-core as the installed app
//! makes and reads it (the same folder, configuration and key store), so that the app
//! runs with writes of its own queue waiting while the service is down.
//!
//! ```text
//! upgrade-till prepare HOME ROOT KEY N   the till of HOME connected to the sandbox at
//!                                        ROOT with the test KEY; the tests' roster; a
//!                                        shift open; N cards chosen, with their visits
//! upgrade-till queue HOME                the cashier records a visit on each card, the
//!                                        service down: each waits in the queue
//! upgrade-till served HOME ROOT KEY      the service counted each visit once (the till
//!                                        not opened: the app may run)
//! upgrade-till check HOME ROOT KEY       after the app ran: nothing waits, the same
//!                                        shift open, each visit counted once
//! ```
//!
//! Exit 0 when all holds; 1 with what does not.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail, ensure};
use counter_core::ids::PersonId;
use counter_core::kinds::ScanAction;
use counter_core::{Config, Counter, Credential, ScanOutcome, SystemClock, UuidIds};
use loyalty_counter_e2e::{App, CASHIER_ID, CASHIER_PIN, data_dir_in};
use serde_json::Value;

/// What `prepare` chose, for `queue` and `check`: each card with its visits then.
const CHOSEN: &str = "upgrade-cards.json";

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let done = runtime.block_on(async {
        match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            ["prepare", home, root, key, n] => prepare(Path::new(home), root, key, n.parse()?).await,
            ["queue", home] => queue(Path::new(home)).await,
            ["served", home, root, key] => served(Path::new(home), root, key).await,
            ["check", home, root, key] => check(Path::new(home), root, key).await,
            _ => bail!(
                "usage: upgrade-till prepare HOME ROOT KEY N | queue HOME | served HOME ROOT KEY | check HOME ROOT KEY"
            ),
        }
    });
    match done {
        Ok(said) => {
            println!("upgrade-till: {said}");
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("upgrade-till: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn till(home: &Path) -> PathBuf {
    data_dir_in(home).join("till")
}

/// The till as the app opens a shop's (`Config::default()`: the keychain, else the
/// key's file).
async fn open(home: &Path) -> Result<Counter> {
    Counter::open(
        &till(home),
        Config::default(),
        Arc::new(SystemClock),
        Arc::new(UuidIds),
    )
    .await
    .context("opening the till")
}

fn cashier_signs_in(counter: &Counter) -> Result<()> {
    counter.sign_in(&Credential::Pin {
        person: PersonId(CASHIER_ID),
        pin: CASHIER_PIN.to_owned(),
    })?;
    Ok(())
}

/// The sandbox's customers, as the service lists them.
async fn customers(root: &str, key: &str) -> Result<Vec<Value>> {
    let answer: Value = reqwest::Client::new()
        .get(format!("{root}/sandbox/v1/customers?limit=100"))
        .bearer_auth(key)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(answer["data"].as_array().cloned().unwrap_or_default())
}

/// Each chosen card's visits now, by card id.
async fn visits(root: &str, key: &str) -> Result<serde_json::Map<String, Value>> {
    let mut found = serde_json::Map::new();
    for customer in customers(root, key).await? {
        for card in customer["cards"].as_array().into_iter().flatten() {
            if let Some(id) = card["id"].as_str() {
                found.insert(id.to_owned(), card["visits"].clone());
            }
        }
    }
    Ok(found)
}

async fn prepare(home: &Path, root: &str, key: &str, n: usize) -> Result<String> {
    App::fresh_home_in(home)?;
    let counter = open(home).await?;
    cashier_signs_in(&counter)?;
    counter
        .connect(&format!("{root}/sandbox"), key)
        .await
        .context("connecting to the sandbox")?;
    // Cards not visited in the last day: no visit of the test is a repeat.
    let day_ago = jiff::Timestamp::now().checked_sub(jiff::SignedDuration::from_hours(24))?;
    let mut chosen = serde_json::Map::new();
    for customer in customers(root, key).await? {
        for card in customer["cards"].as_array().into_iter().flatten() {
            let recent = card["last_visit_at"]
                .as_str()
                .and_then(|at| at.parse::<jiff::Timestamp>().ok())
                .is_some_and(|at| at > day_ago);
            if chosen.len() < n && card["status"] == "active" && !recent {
                chosen.insert(
                    card["id"].as_str().unwrap_or_default().to_owned(),
                    card["visits"].clone(),
                );
            }
        }
    }
    ensure!(
        chosen.len() == n,
        "only {} cards without a recent visit",
        chosen.len()
    );
    counter.close().await;
    let shift = open_shift_id(home)?.context("the tests' till has no shift open")?;
    let prepared = serde_json::json!({ "shift": shift, "cards": chosen });
    // Its user's alone, as the till's own files (it names the till's cards).
    counter_core::private::write(&home.join(CHOSEN), &serde_json::to_vec_pretty(&prepared)?)?;
    Ok(format!(
        "a till connected to {root}/sandbox, {n} cards chosen"
    ))
}

async fn queue(home: &Path) -> Result<String> {
    let (_, chosen) = prepared(home)?;
    let counter = open(home).await?;
    cashier_signs_in(&counter)?;
    for card in chosen.keys() {
        let outcome = counter
            .record_scan(
                loyalty_api::CardId::new(card.clone()),
                ScanAction::Visit,
                None,
            )
            .await?;
        ensure!(
            matches!(outcome, ScanOutcome::Queued { .. }),
            "a visit with the service down was not queued: {outcome:?}"
        );
    }
    let counts = counter.counts()?;
    counter.close().await;
    ensure!(
        counts.queued as usize == chosen.len(),
        "{} queued",
        counts.queued
    );
    Ok(format!("{} visits wait in the queue", counts.queued))
}

async fn check(home: &Path, root: &str, key: &str) -> Result<String> {
    let (shift_at_start, chosen) = prepared(home)?;
    let counter = open(home).await?;
    let counts = counter.counts()?;
    counter.close().await;
    let shift = open_shift_id(home)?;
    let mut wrong = Vec::new();
    if counts.queued != 0 || counts.needs_decision != 0 {
        wrong.push(format!(
            "the queue holds {} writes, {} needing a decision",
            counts.queued, counts.needs_decision
        ));
    }
    if shift != Some(shift_at_start) {
        wrong.push(format!(
            "the shift open is {shift:?}, not {shift_at_start} as at the start"
        ));
    }
    if let Err(error) = served(home, root, key).await {
        wrong.push(error.to_string());
    }
    ensure!(wrong.is_empty(), "{}", wrong.join("; "));
    Ok(format!(
        "the queue is empty, the shift open since the start is open, and the service counted each of the {} visits once",
        chosen.len()
    ))
}

/// Whether the service counted each chosen card's visit once.
async fn served(home: &Path, root: &str, key: &str) -> Result<String> {
    let (_, chosen) = prepared(home)?;
    let now = visits(root, key).await?;
    let mut wrong = Vec::new();
    for (card, before) in &chosen {
        let before = before.as_i64().unwrap_or(-1);
        let after = now.get(card).and_then(Value::as_i64).unwrap_or(-1);
        if after != before + 1 {
            wrong.push(format!(
                "card {card}: {before} visits before, {after} after (one visit was made)"
            ));
        }
    }
    ensure!(wrong.is_empty(), "{}", wrong.join("; "));
    Ok(format!(
        "the service counted each of the {} visits once",
        chosen.len()
    ))
}

/// The shift open at the till, by its id.
fn open_shift_id(home: &Path) -> Result<Option<i64>> {
    let db = loyalty_counter_e2e::open_till_db(&till(home))?;
    Ok(counter_core::shifts::open_shift(&db)?.map(|shift| shift.id))
}

/// The shift open and the cards `prepare` chose, each with its visits then.
fn prepared(home: &Path) -> Result<(i64, serde_json::Map<String, Value>)> {
    let prepared: Value = serde_json::from_slice(&std::fs::read(home.join(CHOSEN))?)?;
    let shift = prepared["shift"]
        .as_i64()
        .context("no shift in what prepare wrote")?;
    let cards = prepared["cards"]
        .as_object()
        .cloned()
        .context("no cards in what prepare wrote")?;
    Ok((shift, cards))
}
