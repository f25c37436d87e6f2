//! Points on the numeric keypad, by touch and by keyboard, on a points pass of a
//! business of the test's own; checked against the server's records.

use std::time::Duration;

use crate::support::own::OwnServer;
use crate::support::{gone, scan, shown, text_until};
use anyhow::{Context, Result, ensure};
use loyalty_counter_e2e::{shot, text_of};
use serde_json::Value;
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn points_are_added_by_touch_deducted_by_keyboard_and_never_beyond_the_balance() -> Result<()>
{
    let server = OwnServer::start().await?;
    let shop = server.points_business("Pâtisserie Points", 100).await?;
    let (key, _) = server.key(&shop, "test", Value::Null).await?;
    let (customer, card) = server.enrol(&key, "Ada Points", "ada@example.com").await?;
    let points = || async {
        let now = server
            .api(
                &key,
                "GET",
                &format!("/v1/customers/{customer}"),
                Value::Null,
            )
            .await?;
        now["cards"][0]["points"].as_i64().context("points")
    };

    server
        .run_app("points-keypad", async |app, server| {
            let driver = &app.driver;
            let field = shown(driver, By::Id("api-key"), Duration::from_secs(30)).await?;
            field.send_keys(&key).await?;
            driver
                .find(By::Id("base-url"))
                .await?
                .send_keys(server.running.sandbox_url())
                .await?;
            driver
                .find(By::Css("form button[type=submit]"))
                .await?
                .click()
                .await?;
            shown(driver, By::Id("scan"), WAIT).await?;
            scan(driver, &card).await?;
            text_until(driver, By::Id("goal-progress"), WAIT, |_| true).await?;

            // A points pass counts no visits: Visit is not offered.
            let visit = driver.find(By::Id("act-visit")).await?;
            ensure!(!visit.is_enabled().await?, "Visit offered on a points pass");

            // Add points by touch: the keypad opens, says how far the goal is, 4 then 0.
            driver.find(By::Id("act-add")).await?.click().await?;
            let hint = text_of(driver, By::Id("keypad-hint"), WAIT).await?;
            ensure!(hint.starts_with("100 points to go"), "hint: {hint:?}");
            for key in ["key-4", "key-0"] {
                driver.find(By::Id(key)).await?.click().await?;
            }
            let typed = text_of(driver, By::Id("keypad-value"), WAIT).await?;
            ensure!(typed == "40", "keypad shows {typed:?}");
            shot(driver, "counter-keypad").await?;
            driver.find(By::Id("keypad-ok")).await?.click().await?;
            text_until(driver, By::Id("result"), WAIT, |t| {
                t.contains("40 points added")
            })
            .await?;
            text_until(driver, By::Id("points"), WAIT, |t| t == "40").await?;
            ensure!(points().await? == 40, "server: {} points", points().await?);

            // Deduct by keyboard: F3, digits, Enter.
            driver.active_element().await?.send_keys(Key::F3).await?;
            shown(driver, By::Id("keypad"), WAIT).await?;
            driver
                .active_element()
                .await?
                .send_keys(format!("15{}", char::from(Key::Enter)))
                .await?;
            text_until(driver, By::Id("result"), WAIT, |t| {
                t.contains("15 points deducted")
            })
            .await?;
            ensure!(points().await? == 25, "server: {} points", points().await?);

            // More than the card holds cannot be confirmed; Escape closes; nothing sent.
            driver.active_element().await?.send_keys(Key::F3).await?;
            shown(driver, By::Id("keypad"), WAIT).await?;
            driver.active_element().await?.send_keys("30").await?;
            let ok = driver.find(By::Id("keypad-ok")).await?;
            ensure!(!ok.is_enabled().await?, "30 of 25 points could be deducted");
            let hint = text_of(driver, By::Id("keypad-hint"), WAIT).await?;
            ensure!(hint.contains("holds 25 points"), "hint: {hint:?}");
            driver.active_element().await?.send_keys(Key::Enter).await?;
            driver
                .active_element()
                .await?
                .send_keys(Key::Escape)
                .await?;
            gone(driver, By::Id("keypad"), WAIT).await?;
            ensure!(points().await? == 25, "server: {} points", points().await?);
            Ok(())
        })
        .await
}
