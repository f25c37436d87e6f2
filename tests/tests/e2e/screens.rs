//! Gift cards, customers and the queue, end to end in the demo, checked against the
//! demo server's own records.

use std::time::Duration;

use crate::support::{go, in_demo, scan, shown, stamps, text_until};
use anyhow::{Context, ensure};
use loyalty_counter_e2e::{shot, text_of};
use serde_json::json;
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test]
async fn a_gift_card_is_paid_in_part_then_its_remaining_balance_exactly() -> anyhow::Result<()> {
    in_demo("gift-card-payments", |driver, server| async move {
        let driver = &driver;
        let id = server
            .issue_gift_card(&server.home.join("manager-till"), "50", "Ada Lovelace")
            .await?;

        // Not claimed yet: explained, no payment offered.
        go(driver, "gift").await?;
        let field = shown(driver, By::Id("gift-id"), WAIT).await?;
        field
            .send_keys(format!("{id}{}", char::from(Key::Enter)))
            .await?;
        let explained = text_of(driver, By::Id("gift-explain"), WAIT).await?;
        ensure!(
            explained.contains("Not claimed"),
            "issued card: {explained:?}"
        );
        ensure!(driver.find_all(By::Id("pay-amount")).await?.is_empty());
        shot(driver, "gift-card-not-claimed").await?;

        server
            .control(&format!("/_sandbox/gift_cards/{id}/claim"), json!({}))
            .await?;
        driver.find(By::Id("gift-open")).await?.click().await?;
        text_until(driver, By::Id("gift-status"), WAIT, |t| t == "Active").await?;
        let balance = text_of(driver, By::Id("gift-balance"), WAIT).await?;
        ensure!(balance == "50.00", "balance shown {balance:?}");
        ensure!(text_of(driver, By::Id("gift-currency"), WAIT).await? == "EUR");
        ensure!(text_of(driver, By::Id("gift-recipient"), WAIT).await? == "Ada Lovelace");

        driver
            .find(By::Id("pay-amount"))
            .await?
            .send_keys("12,50")
            .await?;
        driver
            .find(By::Id("pay-reference"))
            .await?
            .send_keys("T-1001")
            .await?;
        driver.find(By::Id("pay-submit")).await?.click().await?;
        let paid = text_until(driver, By::Id("pay-result"), WAIT, |t| t.contains("taken")).await?;
        ensure!(paid.contains("37.50"), "after the first payment: {paid:?}");
        let ledger = text_until(driver, By::Id("gift-ledger"), WAIT, |t| {
            t.contains("T-1001")
        })
        .await?;
        ensure!(ledger.contains("12.50"), "ledger: {ledger:?}");
        ensure!(ledger.contains("by Sam"), "who took it: {ledger:?}");
        shot(driver, "gift-card-paid").await?;

        // More than is left: nothing taken, the rest offered.
        let amount = driver.find(By::Id("pay-amount")).await?;
        amount.clear().await?;
        amount.send_keys("40").await?;
        driver.find(By::Id("pay-submit")).await?.click().await?;
        let offer = shown(driver, By::Id("take-remaining"), WAIT).await?;
        let label = offer.text().await?;
        ensure!(label.contains("37.50 EUR"), "offer: {label:?}");
        shot(driver, "gift-card-insufficient").await?;
        offer.click().await?;
        text_until(driver, By::Id("pay-result"), WAIT, |t| {
            t.contains("0.00 EUR left")
        })
        .await?;
        text_until(driver, By::Id("gift-explain"), WAIT, |t| {
            t.contains("used up")
        })
        .await?;
        shot(driver, "gift-card-depleted").await?;

        let card = server.get(&format!("/v1/gift_cards/{id}")).await?;
        ensure!(
            card["status"] == "depleted",
            "server status {}",
            card["status"]
        );
        let spends: Vec<_> = card["transactions"]
            .as_array()
            .context("transactions")?
            .iter()
            .filter(|t| t["type"] == "spend")
            .collect();
        ensure!(
            spends.len() == 2,
            "server holds {} spends: {spends:?}",
            spends.len()
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_customer_is_found_by_part_of_a_name_and_opened() -> anyhow::Result<()> {
    in_demo("customer-search", |driver, server| async move {
        let driver = &driver;
        let (customer, card_id) = server.customer(3).await?;
        let name = customer["name"].as_str().context("name")?.to_owned();
        let part: String = name
            .split_whitespace()
            .last()
            .context("surname")?
            .chars()
            .take(4)
            .collect();

        go(driver, "customers").await?;
        let field = shown(driver, By::Id("customer-search"), WAIT).await?;
        field.send_keys(&part).await?;
        let row = shown(
            driver,
            By::XPath(format!(
                "//ul[@id='customer-results']//button[contains(., '{name}')]"
            )),
            WAIT,
        )
        .await?;
        shot(driver, "customers-search").await?;
        row.click().await?;
        let opened = text_of(driver, By::Id("customer-detail-name"), WAIT).await?;
        ensure!(opened == name, "opened {opened:?}, server has {name:?}");
        let detail = text_of(driver, By::Id("customer-detail"), WAIT).await?;
        ensure!(
            detail.contains(&card_id),
            "card {card_id} not shown: {detail:?}"
        );
        shot(driver, "customer-detail").await?;

        // Open the card at the counter: the same customer, as the server has them.
        driver
            .find(By::Css("#customer-detail .open-card"))
            .await?
            .click()
            .await?;
        let at_counter = text_of(driver, By::Id("customer-name"), WAIT).await?;
        ensure!(at_counter == name, "counter shows {at_counter:?}");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn visits_refused_for_a_while_wait_in_the_queue_and_arrive_once() -> anyhow::Result<()> {
    in_demo("queue-visits", |driver, server| async move {
        let driver = &driver;
        let mut cards = Vec::new();
        for n in 4..7 {
            let (customer, card) = server.customer(n).await?;
            let id = customer["id"].as_str().context("id")?.to_owned();
            let before = stamps(&server.card(&id, &card).await?)?;
            cards.push((id, card, before));
        }
        // The service answers 503 to the next scans: the visits wait in the queue.
        server
            .control(
                "/_sandbox/faults",
                json!({"path": "/v1/scans", "count": 3, "status": 503, "code": "service_unavailable"}),
            )
            .await?;
        for (_, card, _) in &cards {
            scan(driver, card).await?;
            shown(driver, By::Id("card-panel"), WAIT).await?;
            driver.active_element().await?.send_keys(Key::F1).await?;
            text_until(driver, By::Id("result"), WAIT, |t| !t.is_empty()).await?;
        }
        go(driver, "queue").await?;
        shown(driver, By::Id("queue-list"), WAIT).await?;
        shot(driver, "queue").await?;
        // Sent when the service answers again (now, or after "Send now").
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            let waiting = text_of(driver, By::Id("status-queued"), WAIT).await?;
            if waiting.starts_with("0 ") {
                break;
            }
            ensure!(std::time::Instant::now() < deadline, "still {waiting}");
            driver.find(By::Id("send-now")).await?.click().await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let done = driver.find_all(By::Css("#queue-list li[data-state='done']")).await?;
        ensure!(done.len() >= 3, "{} sent items listed", done.len());
        shot(driver, "queue-sent").await?;
        for (id, card, before) in &cards {
            let after = stamps(&server.card(id, card).await?)?;
            ensure!(after == before + 1, "{card}: {before} then {after} stamps on the server");
        }
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_customer_is_enrolled_and_an_email_already_enrolled_opens_that_customer()
-> anyhow::Result<()> {
    in_demo("customer-enrol", |driver, server| async move {
        let driver = &driver;
        go(driver, "customers").await?;

        shown(driver, By::Id("enrol-open"), WAIT)
            .await?
            .click()
            .await?;
        shown(driver, By::Id("enrol-name"), WAIT)
            .await?
            .send_keys("Zoë Nakamura")
            .await?;
        driver
            .find(By::Id("enrol-email"))
            .await?
            .send_keys("zoe.nakamura@example.com")
            .await?;
        shot(driver, "customers-enrol").await?;
        driver.find(By::Id("enrol-submit")).await?.click().await?;
        text_until(driver, By::Id("enrol-result"), WAIT, |t| {
            t.contains("is enrolled")
        })
        .await?;
        let opened = text_of(driver, By::Id("customer-detail-name"), WAIT).await?;
        ensure!(opened == "Zoë Nakamura", "opened {opened:?}");
        let list = server.get("/v1/customers?limit=100").await?;
        let on_server: Vec<_> = list["data"]
            .as_array()
            .context("data")?
            .iter()
            .filter(|c| c["email"] == "zoe.nakamura@example.com")
            .collect();
        ensure!(
            on_server.len() == 1,
            "server holds {} such customers",
            on_server.len()
        );

        // The email of a demo customer: the existing one opens.
        let (existing, _) = server.customer(5).await?;
        let name = existing["name"].as_str().context("name")?;
        let email = existing["email"].as_str().context("email")?;
        shown(driver, By::Id("enrol-open"), WAIT)
            .await?
            .click()
            .await?;
        let field = shown(driver, By::Id("enrol-name"), WAIT).await?;
        field.clear().await?;
        field.send_keys("Someone Else").await?;
        let field = driver.find(By::Id("enrol-email")).await?;
        field.clear().await?;
        field.send_keys(email).await?;
        driver.find(By::Id("enrol-submit")).await?.click().await?;
        text_until(driver, By::Id("enrol-result"), WAIT, |t| {
            t.contains("already enrolled")
        })
        .await?;
        let opened =
            text_until(driver, By::Id("customer-detail-name"), WAIT, |t| t == name).await?;
        ensure!(opened == name);
        shot(driver, "customers-enrol-exists").await?;
        Ok(())
    })
    .await
}
