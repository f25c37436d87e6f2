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

        // French from the settings, at once, everywhere.
        app.driver.find(By::Id("lang-fr")).await?.click().await?;
        let tab = app.driver.find(By::Id("nav-counter")).await?.text().await?;
        ensure!(tab.contains("Comptoir"), "counter tab in French: {tab:?}");
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
