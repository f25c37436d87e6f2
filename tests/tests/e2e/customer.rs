//! The customer's screen, end to end: two windows; a card opened at the counter shows
//! on the customer's screen with the customer's progress; a gift-card payment shows its
//! balance; the next customer brings the welcome back. The customer's window can call
//! nothing a cashier can.

use std::time::Duration;

use anyhow::{Context, ensure};
use loyalty_counter_e2e::{App, shot, shot_of, text_of};
use serde_json::json;
use thirtyfour::prelude::*;

use crate::support::{Server, call, pay_open_gift_card, scan, shown, text_until};

const WAIT: Duration = Duration::from_secs(15);
const CUSTOMER: &str = "customer screen$";

/// The customer's window's handle and the counter's.
async fn windows(driver: &WebDriver) -> anyhow::Result<(WindowHandle, WindowHandle)> {
    let counter = driver.window().await?;
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let all = driver.windows().await?;
        if let Some(customer) = all.into_iter().find(|w| *w != counter) {
            return Ok((customer, counter));
        }
        ensure!(std::time::Instant::now() < deadline, "no customer's window");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_customers_screen_follows_the_counter_in_a_second_window() -> anyhow::Result<()> {
    let app = App::launch_with("customer-screen", &["--demo", "--customer-display"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        let (customer, counter) = windows(driver).await?;

        driver.switch_to_window(customer.clone()).await?;
        let welcome = text_of(driver, By::Id("customer-welcome"), WAIT).await?;
        ensure!(welcome.starts_with("Welcome to"), "{welcome:?}");
        ensure!(
            driver
                .find_all(By::Css("button, input, a"))
                .await?
                .is_empty(),
            "the customer's screen offers controls"
        );
        // Its window may call nothing a cashier can.
        let refused = call(
            driver,
            "record_scan",
            json!({"cardId": "card_x", "action": "visit"}),
        )
        .await?;
        ensure!(
            refused["ok"] == false,
            "the customer's window recorded a scan: {refused}"
        );
        let refused = call(driver, "queue", json!({"openOnly": false})).await?;
        ensure!(
            refused["ok"] == false,
            "the customer's window read the queue: {refused}"
        );
        shot_of(driver, "customer-welcome", CUSTOMER).await?;

        // A card opened at the counter: the customer's name and progress.
        driver.switch_to_window(counter.clone()).await?;
        let (person, card) = server.customer(0).await?;
        let name = person["name"].as_str().context("name")?.to_owned();
        scan(driver, &card).await?;
        text_until(driver, By::Id("card-id"), WAIT, |t| t == card).await?;
        driver.switch_to_window(customer.clone()).await?;
        text_until(driver, By::Id("customer-hello"), WAIT, |t| {
            t.contains(&name)
        })
        .await?;
        shown(driver, By::Id("customer-count"), WAIT).await?;
        shot_of(driver, "customer-card", CUSTOMER).await?;

        // The next customer: the welcome is back.
        driver.switch_to_window(counter.clone()).await?;
        driver.find(By::Id("next-customer")).await?.click().await?;
        driver.switch_to_window(customer.clone()).await?;
        shown(driver, By::Id("customer-welcome"), WAIT).await?;

        // A gift-card payment: the balance left.
        driver.switch_to_window(counter.clone()).await?;
        let id = server
            .open_claimed_gift_card(driver, "40", "Mary Jackson")
            .await?;
        pay_open_gift_card(driver, "15", None).await?;
        shot(driver, "gift-card-paid-with-customer-screen").await?;
        driver.switch_to_window(customer.clone()).await?;
        let balance = text_of(driver, By::Id("customer-balance"), WAIT).await?;
        ensure!(balance.contains("25.00"), "customer's screen: {balance:?}");
        shot_of(driver, "customer-balance", CUSTOMER).await?;
        let card = server.get(&format!("/v1/gift_cards/{id}")).await?;
        ensure!(
            card["balance"] == "25.00",
            "server balance {}",
            card["balance"]
        );
        driver.switch_to_window(counter).await?;
        Ok(())
    }
    .await;
    app.finish(outcome).await
}
