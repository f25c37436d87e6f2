//! The built-in demo, end to end: the app starts its own local server and connects.

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use loyalty_counter_e2e::{App, shot, text_of};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

use crate::support;

/// Asks the demo server itself which business it holds, through its API, with a key of
/// our own: the screen must show the server's record, not a hard-coded name.
async fn business_name_on_the_server(app: &App) -> anyhow::Result<String> {
    let address: Value =
        serde_json::from_slice(&std::fs::read(app.data_dir().join("demo/server.json"))?)?;
    let root = address["root_url"].as_str().context("root_url")?;
    let http = reqwest::Client::new();
    let key: Value = http
        .post(format!("{root}/_sandbox/keys"))
        .json(&json!({ "business_id": address["business_id"], "mode": "test", "scopes": ["read"], "expires_at": null }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let me: Value = http
        .get(format!(
            "{}/v1/me",
            address["sandbox_url"].as_str().context("sandbox_url")?
        ))
        .bearer_auth(key["key"].as_str().context("key")?)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(me["business"]["name"]
        .as_str()
        .context("business name")?
        .to_owned())
}

#[tokio::test]
async fn try_the_demo_connects_to_the_built_in_server_with_a_test_key() -> anyhow::Result<()> {
    let app = App::launch("try-demo").await?;
    let outcome = async {
        text_of(&app.driver, By::Id("app-info"), Duration::from_secs(30)).await?;
        ensure!(
            app.driver.find_all(By::Id("test-banner")).await?.is_empty(),
            "TEST banner before connecting"
        );

        // The window shows "Starting…" until the till has looked for a kept key: wait
        // for Connect (clicking at once raced it, and lost now and then).
        text_of(&app.driver, By::Id("try-demo"), Duration::from_secs(30)).await?;
        let started = Instant::now();
        app.driver.find(By::Id("try-demo")).await?.click().await?;
        let banner = text_of(&app.driver, By::Id("test-banner"), Duration::from_secs(20)).await?;
        eprintln!("demo connected {:?} after the click", started.elapsed());
        ensure!(banner.starts_with("TEST"), "banner: {banner:?}");

        let shown = text_of(&app.driver, By::Id("business-name"), Duration::from_secs(5)).await?;
        let on_server = business_name_on_the_server(&app).await?;
        ensure!(
            shown == on_server,
            "screen shows {shown:?}, server holds {on_server:?}"
        );
        ensure!(on_server == "Demo Coffee", "demo business is {on_server:?}");

        shot(&app.driver, "counter-empty").await?;
        support::open_settings(&app.driver).await?;
        let scopes = text_of(&app.driver, By::Id("scopes"), Duration::from_secs(5)).await?;
        ensure!(
            scopes.contains("scans:write") && scopes.contains("gift_cards:spend"),
            "scopes: {scopes:?}"
        );
        shot(&app.driver, "settings").await?;

        // French from the settings, everywhere (its words are fetched on the first
        // switch: a moment).
        app.driver.find(By::Id("lang-fr")).await?.click().await?;
        support::text_until(
            &app.driver,
            By::Id("nav-counter"),
            Duration::from_secs(5),
            |tab| tab.contains("Comptoir"),
        )
        .await?;
        shot(&app.driver, "settings-fr").await?;
        app.driver.find(By::Id("lang-en")).await?.click().await?;
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

#[tokio::test]
async fn started_with_demo_the_app_opens_already_in_the_demo() -> anyhow::Result<()> {
    App::run_with("start-in-demo", &["--demo"], |driver| async move {
        let banner = text_of(&driver, By::Id("test-banner"), Duration::from_secs(30)).await?;
        ensure!(banner.starts_with("TEST"), "banner: {banner:?}");
        let shown = text_of(&driver, By::Id("business-name"), Duration::from_secs(5)).await?;
        ensure!(shown == "Demo Coffee", "business shown: {shown:?}");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_newcomer_taps_a_sample_card_records_a_visit_and_pays_with_a_sample_gift_card()
-> anyhow::Result<()> {
    crate::support::in_demo("demo-samples", |driver, server| async move {
        let driver = &driver;
        let samples =
            crate::support::shown(driver, By::Id("demo-samples"), Duration::from_secs(15)).await?;
        shot(driver, "demo-samples").await?;
        // A loyalty card that is nearly at its reward: tapped, it opens like a scan.
        let card = samples
            .find(By::Css("button[data-kind='nearly_there']"))
            .await?;
        let card_id = card.attr("data-card").await?.context("data-card")?;
        card.click().await?;
        crate::support::shown(driver, By::Id("card-panel"), Duration::from_secs(15)).await?;
        let customers = server.get("/v1/customers?limit=100").await?;
        let customer = customers["data"]
            .as_array()
            .context("customers")?
            .iter()
            .find(|c| c["cards"][0]["id"] == card_id.as_str())
            .context("the sample card's customer")?
            .clone();
        let id = customer["id"].as_str().context("id")?.to_owned();
        let before = crate::support::stamps(&server.card(&id, &card_id).await?)?;
        driver.active_element().await?.send_keys(Key::F1).await?;
        crate::support::text_until(driver, By::Id("result"), Duration::from_secs(15), |t| {
            t.contains("Visit recorded")
        })
        .await?;
        let after = crate::support::stamps(&server.card(&id, &card_id).await?)?;
        ensure!(
            after == before + 1,
            "visits on the server: {before} then {after}"
        );

        // A card whose reward is ready: redeemed, its sample no longer says so.
        let ready = driver
            .find(By::Css("#demo-samples button[data-kind='reward_ready']"))
            .await?;
        let ready_id = ready.attr("data-card").await?.context("data-card")?;
        ready.click().await?;
        crate::support::text_until(driver, By::Id("card-id"), Duration::from_secs(15), |t| {
            t == ready_id
        })
        .await?;
        driver.active_element().await?.send_keys(Key::F4).await?;
        crate::support::text_until(driver, By::Id("result"), Duration::from_secs(15), |t| {
            t.contains("Reward redeemed")
        })
        .await?;
        let owner = customers["data"]
            .as_array()
            .context("customers")?
            .iter()
            .find(|c| c["cards"][0]["id"] == ready_id.as_str())
            .context("the sample card's customer")?;
        let left = server
            .card(owner["id"].as_str().context("id")?, &ready_id)
            .await?;
        if left["rewards_available"] == 0 {
            let still =
                format!("#demo-samples button[data-kind='reward_ready'][data-card='{ready_id}']");
            crate::support::gone(driver, By::Css(still), Duration::from_secs(15))
                .await
                .context("the sample still says a reward is ready")?;
        }

        // A sample gift card ready to pay with: it opens on the gift-card screen and pays.
        let gift = driver
            .find(By::Css(
                "#demo-samples button[data-kind='active'][data-gift]",
            ))
            .await?;
        let gift_id = gift.attr("data-gift").await?.context("data-gift")?;
        gift.click().await?;
        let balance = crate::support::text_until(
            driver,
            By::Id("gift-balance"),
            Duration::from_secs(15),
            |t| !t.is_empty(),
        )
        .await?;
        driver
            .find(By::Id("pay-amount"))
            .await?
            .send_keys("5")
            .await?;
        driver.find(By::Id("pay-submit")).await?.click().await?;
        crate::support::text_until(driver, By::Id("pay-result"), Duration::from_secs(15), |t| {
            t.contains("taken")
        })
        .await?;
        let on_server = server.get(&format!("/v1/gift_cards/{gift_id}")).await?;
        let expected = format!("{:.2}", balance.parse::<f64>()? - 5.0);
        ensure!(
            on_server["balance"] == expected.as_str(),
            "balance on the server: {}",
            on_server["balance"]
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_demo_is_reset_to_its_first_state_from_the_settings() -> anyhow::Result<()> {
    crate::support::in_demo("demo-reset", |driver, server| async move {
        let driver = &driver;
        let wait = Duration::from_secs(15);
        let gift = crate::support::shown(
            driver,
            By::Css("#demo-samples button[data-kind='active'][data-gift]"),
            wait,
        )
        .await?;
        let gift_id = gift.attr("data-gift").await?.context("data-gift")?;
        gift.click().await?;
        crate::support::text_until(driver, By::Id("gift-balance"), wait, |t| t == "50.00").await?;
        crate::support::shown(driver, By::Id("pay-amount"), wait)
            .await?
            .send_keys("20")
            .await?;
        driver.find(By::Id("pay-submit")).await?.click().await?;
        crate::support::text_until(driver, By::Id("pay-result"), wait, |t| t.contains("taken"))
            .await?;
        let spent = server.get(&format!("/v1/gift_cards/{gift_id}")).await?;
        ensure!(
            spent["balance"] == "30.00",
            "after the payment: {}",
            spent["balance"]
        );

        crate::support::open_settings(driver).await?;
        crate::support::shown(driver, By::Id("reset-demo"), wait)
            .await?
            .click()
            .await?;
        // Asked first: everything done in the demo goes.
        let asked = text_of(driver, By::Id("reset-demo-question"), wait).await?;
        ensure!(asked.contains("gone"), "the reset asks {asked:?}");
        shot(driver, "settings-demo-reset").await?;
        driver
            .find(By::Id("reset-demo-confirm"))
            .await?
            .click()
            .await?;
        // The demo starts afresh: its sample gift card is whole again, and this demo
        // till's queue holds nothing of before.
        crate::support::shown(driver, By::Id("demo-samples"), Duration::from_secs(30)).await?;
        let fresh = crate::support::text_until(
            driver,
            By::Css("#demo-samples button[data-kind='active'][data-gift] strong"),
            wait,
            |t| t.contains("50.00"),
        )
        .await?;
        ensure!(
            fresh.contains("50.00 EUR"),
            "sample after the reset: {fresh:?}"
        );
        let said = text_of(driver, By::Id("demo-was-reset"), wait).await?;
        ensure!(
            said.contains("as it was at first"),
            "after the reset: {said:?}"
        );
        crate::support::text_until(driver, By::Id("status-queued"), wait, |t| {
            t.starts_with("0 ")
        })
        .await?;
        crate::support::go(driver, "queue").await?;
        crate::support::shown(driver, By::Id("queue-list"), wait).await?;
        ensure!(
            driver.find_all(By::Css("#queue-list li")).await?.is_empty(),
            "the demo till's queue kept writes from before the reset"
        );
        Ok(())
    })
    .await
}

/// The keys the demo server holds, from its own database.
fn keys_on_the_demo_server(app_home: &std::path::Path) -> anyhow::Result<i64> {
    let db = rusqlite::Connection::open(
        loyalty_counter_e2e::data_dir_in(app_home).join("demo/sandbox.db"),
    )?;
    Ok(db.query_row("SELECT COUNT(*) FROM api_keys", [], |row| row.get(0))?)
}

/// A visit whose answer was lost when the demo stopped goes once after a restart, with
/// no decision asked: the demo's till keeps its key, and its server comes back where it
/// was. (A new key each start held such a write as "sent under another key".)
#[tokio::test]
async fn a_restarted_demo_keeps_its_key_and_a_visit_in_doubt_goes_once() -> anyhow::Result<()> {
    const NAME: &str = "demo-restart";
    let wait = Duration::from_secs(15);
    let app = App::launch_with(NAME, &["--demo"]).await?;
    let home = app.home().to_path_buf();
    let mut before_restart = None;
    let outcome = async {
        let driver = &app.driver;
        support::shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = support::Server::of(&app).await?;
        let (customer, card_id) = server.customer(4).await?;
        let customer_id = customer["id"].as_str().context("id")?.to_owned();
        let before = support::stamps(&server.card(&customer_id, &card_id).await?)?;
        support::scan(driver, &card_id).await?;
        support::shown(driver, By::Id("card-panel"), wait).await?;
        // The service records every visit but its answer never reaches the till.
        server
            .control(
                "/_sandbox/faults",
                json!({"path": "/v1/scans", "count": 1000, "drop_after_commit": true}),
            )
            .await?;
        driver.active_element().await?.send_keys(Key::F1).await?;
        let deadline = Instant::now() + wait;
        while support::stamps(&server.card(&customer_id, &card_id).await?)? == before {
            ensure!(
                Instant::now() < deadline,
                "the visit never reached the server"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        support::text_until(driver, By::Id("status-queued"), wait, |t| {
            t.starts_with("1 ")
        })
        .await?;
        before_restart = Some((server, customer_id, card_id, before));
        Ok(())
    }
    .await;
    support::finish_closed(app, outcome).await?;
    let (server, customer_id, card_id, before) =
        before_restart.context("the first run did not finish")?;
    let keys = keys_on_the_demo_server(&home)?;

    let app = App::relaunch(NAME, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        support::text_until(driver, By::Id("status-queued"), wait, |t| {
            t.starts_with("0 ")
        })
        .await?;
        let decisions = text_of(driver, By::Id("status-decisions"), wait).await?;
        ensure!(
            decisions.starts_with("0 "),
            "after the restart: {decisions:?}"
        );
        // The tests' key of the first run still works, at the same address: the same
        // server, on the same port.
        let after = support::stamps(&server.card(&customer_id, &card_id).await?)?;
        ensure!(
            after == before + 1,
            "visits on the server: {before} before, {after} after the restart"
        );
        ensure!(
            keys_on_the_demo_server(&home)? == keys,
            "the restarted demo minted another key"
        );
        Ok(())
    }
    .await;
    support::finish_closed(app, outcome).await?;
    // The till's own record: the one write it made, sent.
    let till = loyalty_counter_e2e::open_till_db(
        &loyalty_counter_e2e::data_dir_in(&home).join("demo/till"),
    )?;
    let states = till
        .prepare("SELECT state FROM outbox")?
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    ensure!(
        states == ["done"],
        "the till's outbox after the restart: {states:?}"
    );
    Ok(())
}

/// The demo's port at the last start, as `demo/server.json` says.
fn demo_port(app_home: &std::path::Path) -> anyhow::Result<u16> {
    let address: Value = serde_json::from_slice(&std::fs::read(
        loyalty_counter_e2e::data_dir_in(app_home).join("demo/server.json"),
    )?)?;
    let root = address["root_url"].as_str().context("root_url")?;
    Ok(root.rsplit_once(':').context("a port")?.1.parse()?)
}

/// When another program has taken the demo's port, the demo starts on another one with
/// a new key, and its till is online there; the key it kept is not offered to that
/// program.
#[tokio::test]
async fn a_demo_whose_port_was_taken_starts_on_another_and_connects() -> anyhow::Result<()> {
    const NAME: &str = "demo-port-taken";
    let app = App::launch_with(NAME, &["--demo"]).await?;
    let home = app.home().to_path_buf();
    let outcome = support::shown(&app.driver, By::Id("scan"), Duration::from_secs(30))
        .await
        .map(drop);
    support::finish_closed(app, outcome).await?;
    let key_file = loyalty_counter_e2e::data_dir_in(&home).join("demo/till/api-key");
    let old_key = std::fs::read(&key_file)?;
    let port = demo_port(&home)?;
    let taken = std::net::TcpListener::bind(("127.0.0.1", port))?;
    taken.set_nonblocking(true)?;

    let app = App::relaunch(NAME, &["--demo"]).await?;
    let outcome = async {
        let wait = Duration::from_secs(15);
        support::text_until(&app.driver, By::Id("status-connectivity"), wait, |t| {
            t == "Online"
        })
        .await?;
        let now = demo_port(&home)?;
        ensure!(now != port, "the demo server claims the taken port {port}");
        ensure!(
            std::fs::read(&key_file)? != old_key,
            "the till still keeps the key it had for the taken port"
        );
        match taken.accept() {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(()),
            Ok((_, from)) => anyhow::bail!("the till reached the old port, from {from}"),
            Err(e) => Err(e.into()),
        }
    }
    .await;
    support::finish_closed(app, outcome).await
}

/// Leaving the demo and trying it again in the same run finds its server where it was:
/// its till goes on with the key it kept, and no key is minted.
#[tokio::test]
async fn the_demo_tried_again_after_leaving_it_mints_no_key() -> anyhow::Result<()> {
    let app = App::launch_with("demo-again", &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        let wait = Duration::from_secs(15);
        support::text_until(driver, By::Id("status-connectivity"), wait, |t| {
            t == "Online"
        })
        .await?;
        let keys = keys_on_the_demo_server(app.home())?;
        support::open_settings(driver).await?;
        support::shown(driver, By::Id("use-another-key"), wait)
            .await?
            .click()
            .await?;
        support::shown(driver, By::Id("try-demo"), wait)
            .await?
            .click()
            .await?;
        support::text_until(driver, By::Id("status-connectivity"), wait, |t| {
            t == "Online"
        })
        .await?;
        ensure!(
            keys_on_the_demo_server(app.home())? == keys,
            "trying the demo again minted another key"
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

/// A connection the service or the till refuses leaves the demo exactly as it was: its
/// server still answers, the window still shows the demo business, and a visit made
/// after it still counts on the demo's server.
#[tokio::test]
async fn a_refused_connection_leaves_the_demo_as_it_was() -> anyhow::Result<()> {
    crate::support::in_demo("demo-refused-connect", |driver, server| async move {
        let driver = &driver;
        let refused = [
            json!({"baseUrl": "", "apiKey": "lc_test_0000000000000000"}),
            json!({"baseUrl": server.api, "apiKey": "lc_test_\u{200b}0000000000000000"}),
            json!({"baseUrl": "http://127.0.0.1:9/sandbox", "apiKey": "lc_test_0000000000000000"}),
            json!({"baseUrl": server.api, "apiKey": "lc_test_not_a_key_the_server_knows"}),
        ];
        for args in refused {
            let answer = support::call(driver, "connect", args.clone()).await?;
            ensure!(answer["ok"] == false, "accepted: {args} -> {answer}");
            ensure!(answer["error"]["code"].is_string(), "{answer}");
        }
        // Still the demo: its server answers, and the window says so.
        ensure!(server.get("/v1/me").await?["business"]["name"] == "Demo Coffee");
        let opening = support::invoke(driver, "opening", json!({})).await?;
        ensure!(
            opening["connection"]["demo"] == true
                && opening["connection"]["business_name"] == "Demo Coffee",
            "after refused keys the till is {opening}"
        );
        let name = text_of(driver, By::Id("business-name"), Duration::from_secs(5)).await?;
        ensure!(name == "Demo Coffee", "shown: {name:?}");
        let (customer, card) = server.customer(6).await?;
        let id = customer["id"].as_str().context("id")?.to_owned();
        let before = support::stamps(&server.card(&id, &card).await?)?;
        support::scan(driver, &card).await?;
        // The card read first (a click before it lands acts on nothing).
        support::text_until(driver, By::Id("card-panel"), Duration::from_secs(15), |t| {
            t.contains(card.as_str())
        })
        .await?;
        driver.find(By::Id("act-visit")).await?.click().await?;
        support::shown(driver, By::Id("result"), Duration::from_secs(15)).await?;
        ensure!(support::stamps(&server.card(&id, &card).await?)? == before + 1);
        Ok(())
    })
    .await
}
