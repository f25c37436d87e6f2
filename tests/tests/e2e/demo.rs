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
