//! A restart, end to end: the app opens where it was (the counter of the business the
//! till is connected to), and a till whose key, settings or lock are wrong opens a
//! window that says what is wrong and what to do, with the queue in view.

use crate::support;

use std::path::PathBuf;
use std::time::Duration;

use crate::support::own::OwnServer as Server;
use crate::support::{PIN, as_manager, connect_with, finish_closed, invoke, shown, text_until};
use anyhow::{Context, Result, ensure};
use loyalty_counter_e2e::{App, data_dir_in, shot, text_of};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

/// Starts the app in a fresh home for `name`, connects it with a new key of a new
/// business `business`, and quits; answers the key and its id.
async fn connected_then_quit(
    server: &Server,
    name: &str,
    business: &str,
) -> Result<(String, String)> {
    let shop = server.business(business, "enterprise").await?;
    let (key, id) = server.key(&shop, "test", Value::Null).await?;
    let app = App::launch(name).await?;
    let outcome = async {
        shown(&app.driver, By::Id("api-key"), Duration::from_secs(30)).await?;
        connect_with(&app.driver, &key, &server.running.sandbox_url()).await?;
        text_until(&app.driver, By::Id("business-name"), WAIT, |t| {
            t == business
        })
        .await?;
        Ok(())
    }
    .await;
    finish_closed(app, outcome).await?;
    Ok((key, id))
}

/// The till's folder in the home of the test `name`.
fn till_dir(name: &str) -> PathBuf {
    data_dir_in(
        &loyalty_counter_e2e::workspace_root()
            .join("target/e2e-home")
            .join(name),
    )
    .join("till")
}

/// Runs `steps` on the app started again in the home of the test `name`.
async fn restarted(name: &str, steps: impl AsyncFnOnce(&App) -> Result<()>) -> Result<()> {
    let app = App::relaunch(name, &[]).await?;
    let outcome = steps(&app).await;
    finish_closed(app, outcome).await
}

/// The counter of `business` is open, with its status bar, and Connect is not.
async fn counter_of(driver: &WebDriver, business: &str) -> Result<()> {
    // Opened again after a trouble: the lock screen first.
    support::sign_in_if_locked(driver).await?;
    let name = text_of(driver, By::Id("business-name"), Duration::from_secs(30)).await?;
    ensure!(name == business, "business shown: {name:?}");
    shown(driver, By::Id("status-bar"), WAIT).await?;
    shown(driver, By::Id("scan"), WAIT).await?;
    ensure!(
        driver.find_all(By::Id("api-key")).await?.is_empty(),
        "Connect is shown"
    );
    Ok(())
}

/// The trouble screen names `kind`, and the queue is in view under it.
async fn trouble_shown(driver: &WebDriver, kind: &str) -> Result<String> {
    shown(driver, By::Id("trouble-title"), Duration::from_secs(30)).await?;
    let said = text_of(
        driver,
        By::Css(format!(".trouble-item[data-kind={kind}] .what")),
        WAIT,
    )
    .await?;
    ensure!(
        !said.contains('{') && !said.contains('_'),
        "not in words: {said:?}"
    );
    shown(driver, By::Id("queue-title"), WAIT).await?;
    Ok(said)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_opens_the_counter_of_the_business_the_till_was_connected_to() -> Result<()> {
    const NAME: &str = "restart-counter";
    let server = Server::start().await?;
    connected_then_quit(&server, NAME, "Café Retour").await?;
    restarted(NAME, async |app| {
        let driver = &app.driver;
        counter_of(driver, "Café Retour").await?;
        shown(driver, By::Id("test-banner"), WAIT).await?;
        // The kept key is checked again behind the counter.
        text_until(driver, By::Id("status-connectivity"), WAIT, |t| {
            t == "Online"
        })
        .await?;
        shot(driver, "restart-counter").await?;
        Ok(())
    })
    .await?;
    // Once more: a restart after a restart is still the counter.
    restarted(NAME, async |app| {
        counter_of(&app.driver, "Café Retour").await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_file_holding_garbage_opens_a_window_that_asks_for_the_key_again() -> Result<()> {
    const NAME: &str = "restart-bad-key";
    let server = Server::start().await?;
    let (key, _) = connected_then_quit(&server, NAME, "Café Clé").await?;
    let file = till_dir(NAME).join("api-key");
    std::fs::write(&file, b"\xff\xfe this is not a key\n")?;

    restarted(NAME, async |app| {
        let driver = &app.driver;
        let said = trouble_shown(driver, "key_file_not_a_key").await?;
        ensure!(
            said.contains(&file.display().to_string()),
            "the file is not named: {said:?}"
        );
        shot(driver, "trouble-key-file").await?;
        driver.find(By::Id("remedy-connect")).await?.click().await?;
        support::sign_in_if_locked(driver).await?;
        let notice = text_of(driver, By::Id("connect-notice"), WAIT).await?;
        ensure!(notice.contains("cannot be used"), "notice: {notice:?}");
        connect_with(driver, &key, &server.running.sandbox_url()).await?;
        counter_of(driver, "Café Clé").await
    })
    .await?;
    ensure!(
        std::fs::read_to_string(&file)? == key,
        "the key was not replaced"
    );
    restarted(NAME, async |app| counter_of(&app.driver, "Café Clé").await).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_till_held_by_another_copy_shows_its_queue_and_opens_once_it_is_free() -> Result<()> {
    const NAME: &str = "restart-held";
    let server = Server::start().await?;
    let (key, _) = connected_then_quit(&server, NAME, "Café Tenu").await?;
    // A visit the service cannot take now (it answers 503) waits in the queue.
    let (_, card) = server.enrol(&key, "Léa Tenu", "lea@example.com").await?;
    server
        .control(
            "/faults",
            serde_json::json!({"path": "/v1/scans", "count": 1000, "status": 503,
                               "code": "service_unavailable"}),
        )
        .await?;
    restarted(NAME, async |app| {
        let driver = &app.driver;
        counter_of(driver, "Café Tenu").await?;
        support::scan(driver, &card).await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;
        driver.active_element().await?.send_keys(Key::F1).await?;
        text_until(driver, By::Id("status-queued"), WAIT, |t| {
            t.starts_with("1 ")
        })
        .await?;
        Ok(())
    })
    .await?;
    // Another program holds the till's lock (a copy the single-instance hand-over missed).
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(till_dir(NAME).join("till.lock"))?;
    lock.try_lock()
        .context("the test could not take the lock")?;
    let mut held = Some(lock);

    restarted(NAME, async |app| {
        let driver = &app.driver;
        trouble_shown(driver, "held_elsewhere").await?;
        // The queued visit is in view, and nothing offers to act on it.
        text_until(driver, By::Css("#queue-list .queue-item"), WAIT, |t| {
            t.contains("Visit")
        })
        .await?;
        ensure!(
            driver.find_all(By::Id("send-now")).await?.is_empty(),
            "a reader offers to send"
        );
        shot(driver, "trouble-held").await?;
        drop(held.take());
        driver.find(By::Id("remedy-retry")).await?.click().await?;
        counter_of(driver, "Café Tenu").await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_setting_is_named_and_reset_and_the_counter_opens() -> Result<()> {
    const NAME: &str = "restart-settings";
    let server = Server::start().await?;
    connected_then_quit(&server, NAME, "Café Réglé").await?;
    let db = loyalty_counter_e2e::open_till_db(&till_dir(NAME))?;
    db.execute(
        "UPDATE settings SET value = json_set(value, '$.offline_payments', 'always')
         WHERE name = 'settings'",
        [],
    )?;
    drop(db);

    restarted(NAME, async |app| {
        let driver = &app.driver;
        let said = trouble_shown(driver, "settings_damaged").await?;
        ensure!(
            said.contains("offline payments"),
            "settings named: {said:?}"
        );
        shot(driver, "trouble-settings").await?;
        driver
            .find(By::Id("remedy-reset_settings"))
            .await?
            .click()
            .await?;
        // Putting settings back is a manager's: the PIN pad asks first, before anyone
        // signs in.
        support::as_manager(driver).await?;
        counter_of(driver, "Café Réglé").await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_key_the_service_refuses_at_restart_opens_connect_which_says_so() -> Result<()> {
    const NAME: &str = "restart-refused";
    let server = Server::start().await?;
    let (_, id) = connected_then_quit(&server, NAME, "Café Révoqué").await?;
    server
        .control(&format!("/keys/{id}/revoke"), serde_json::json!({}))
        .await?;
    let shop = server.business("Café Révoqué 2", "enterprise").await?;
    let (another, _) = server.key(&shop, "test", Value::Null).await?;

    restarted(NAME, async |app| {
        let driver = &app.driver;
        // The counter at once, then Connect when the service refuses the kept key.
        let notice = text_of(driver, By::Id("connect-notice"), Duration::from_secs(30)).await?;
        ensure!(notice.contains("refuses the key"), "notice: {notice:?}");
        shot(driver, "restart-key-refused").await?;
        // Replacing a kept key is the manager's: the first one chooses the PIN.
        let manager = text_of(driver, By::Id("connect-manager"), WAIT).await?;
        ensure!(manager.contains("manager"), "{manager:?}");
        connect_with(driver, &another, &server.running.sandbox_url()).await?;
        as_manager(driver).await?;
        counter_of(driver, "Café Révoqué 2").await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kiosk_whose_key_is_refused_at_restart_stays_a_kiosk_closed_until_the_pin() -> Result<()>
{
    const NAME: &str = "restart-kiosk-refused";
    let server = Server::start().await?;
    let shop = server.business("Café Borne", "enterprise").await?;
    let (key, id) = server.key(&shop, "test", Value::Null).await?;
    let app = App::launch(NAME).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("api-key"), Duration::from_secs(30)).await?;
        connect_with(driver, &key, &server.running.sandbox_url()).await?;
        text_until(driver, By::Id("business-name"), WAIT, |t| t == "Café Borne").await?;
        // The owner, signed in over the cashier, makes the till a kiosk.
        let owner = json!({"with": "pin", "person": 1, "pin": PIN});
        invoke(driver, "sign_in", json!({ "credential": owner })).await?;
        invoke(driver, "set_kiosk", json!({"on": true})).await?;
        Ok(())
    }
    .await;
    finish_closed(app, outcome).await?;
    server
        .control(&format!("/keys/{id}/revoke"), json!({}))
        .await?;

    restarted(NAME, async |app| {
        let driver = &app.driver;
        // No check-in, and no Connect a customer could use to take the till out of the
        // kiosk: closed, in words, until staff come.
        let said = text_of(driver, By::Id("kiosk-closed"), Duration::from_secs(30)).await?;
        ensure!(said.contains("closed"), "the closed kiosk says {said:?}");
        ensure!(
            driver.find_all(By::Id("api-key")).await?.is_empty()
                && driver.find_all(By::Id("kiosk-scan")).await?.is_empty(),
            "a kiosk whose key is refused offers Connect or a check-in"
        );
        shot(driver, "kiosk-closed").await?;
        driver.find(By::Id("kiosk-leave")).await?.click().await?;
        support::as_manager(driver).await?;
        support::sign_in_if_locked(driver).await?;
        let notice = text_of(driver, By::Id("connect-notice"), WAIT).await?;
        ensure!(notice.contains("refuses the key"), "notice: {notice:?}");
        Ok(())
    })
    .await
}
