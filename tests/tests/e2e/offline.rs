//! Offline, end to end: the demo server stops answering (its requests hang past the
//! till's time-out), three visits and a payment wait in the queue, and once the server
//! answers again each reaches it exactly once.

use std::time::{Duration, Instant};

use crate::support::{self, go, in_demo, in_view, scan, shown, stamps, text_until};
use anyhow::{Context, ensure};
use loyalty_counter_e2e::{shot, text_of};
use serde_json::json;
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);
/// Longer than the till's request time-out (15 s) plus its connect time-out.
const OFFLINE_WAIT: Duration = Duration::from_secs(40);

#[tokio::test]
async fn offline_visits_and_a_payment_queue_and_each_reaches_the_server_once() -> anyhow::Result<()>
{
    in_demo("offline-queue", |driver, server| async move {
        let driver = &driver;
        let issued = server
            .post(
                "/v1/gift_cards",
                json!({"amount": 50, "currency": "EUR", "locale": "en",
                       "recipient": {"name": "Grace Hopper", "email": "grace@example.com"}}),
            )
            .await?;
        let gift = issued["id"].as_str().context("gift card id")?.to_owned();
        server
            .control(&format!("/_sandbox/gift_cards/{gift}/claim"), json!({}))
            .await?;
        let mut cards = Vec::new();
        for n in 7..10 {
            let (customer, card) = server.customer(n).await?;
            let id = customer["id"].as_str().context("id")?.to_owned();
            let before = stamps(&server.card(&id, &card).await?)?;
            cards.push((id, card, before));
        }

        // The manager allows offline payments up to 20 EUR.
        support::open_settings(driver).await?;
        shown(driver, By::Id("offline-allowed"), WAIT)
            .await?
            .click()
            .await?;
        driver
            .find(By::Id("offline-cap"))
            .await?
            .send_keys("20")
            .await?;
        driver.find(By::Id("offline-save")).await?.click().await?;
        shown(driver, By::Id("offline-saved"), WAIT).await?;
        shot(driver, "settings-offline-payments").await?;
        driver.find(By::Id("settings-close")).await?.click().await?;

        // The card's balance is read while online.
        go(driver, "gift").await?;
        shown(driver, By::Id("gift-id"), WAIT)
            .await?
            .send_keys(format!("{gift}{}", char::from(Key::Enter)))
            .await?;
        text_until(driver, By::Id("gift-balance"), WAIT, |t| t == "50.00").await?;

        // The network goes: every request to the API hangs.
        server
            .control(
                "/_sandbox/faults",
                json!({"path": "/v1", "count": 10000, "delay_ms": 120000}),
            )
            .await?;
        driver
            .find(By::Id("pay-amount"))
            .await?
            .send_keys("15")
            .await?;
        driver
            .find(By::Id("pay-reference"))
            .await?
            .send_keys("T-2001")
            .await?;
        driver.find(By::Id("pay-submit")).await?.click().await?;
        text_until(driver, By::Id("pay-result"), OFFLINE_WAIT, |t| {
            t.contains("Payment saved")
        })
        .await?;
        // No assertion on the status bar's "Offline" here: with requests held by a
        // `delay_ms` fault, each resend of the held payment gets an immediate 409
        // idempotency_in_progress, an answer, so the status shows Offline only for the
        // moment between a time-out and the next resend. What the cashier relies on, the
        // writes waiting in the queue and arriving once, is asserted below.
        go(driver, "counter").await?;
        for (_, card, _) in &cards {
            scan(driver, card).await?;
            shown(driver, By::Id("card-panel"), WAIT).await?;
            shown(driver, By::Id("act-visit"), WAIT)
                .await?
                .click()
                .await?;
            text_until(driver, By::Id("result"), OFFLINE_WAIT, |t| {
                t.contains("Saved")
            })
            .await?;
            // Saved and queued, said where the cashier looks, and the buttons still
            // there: no scrolling.
            in_view(driver, "result").await?;
            in_view(driver, "act-redeem").await?;
        }
        text_until(driver, By::Id("status-queued"), WAIT, |t| {
            t.starts_with("4 ")
        })
        .await?;
        // The queue's count on its tab keeps the header on one row (tested in the queue's
        // test): the buttons are still there.
        in_view(driver, "act-visit").await?;
        in_view(driver, "act-redeem").await?;
        shot(driver, "counter-offline").await?;
        go(driver, "queue").await?;
        shown(driver, By::Id("queue-list"), WAIT).await?;
        let queued = driver
            .find_all(By::Css(
                "#queue-list li[data-state='queued'], #queue-list li[data-state='sending']",
            ))
            .await?;
        ensure!(
            queued.len() == 4,
            "{} items listed as waiting",
            queued.len()
        );
        shot(driver, "queue-offline").await?;

        // The network comes back.
        server.delete("/_sandbox/faults").await?;
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let waiting = text_of(driver, By::Id("status-queued"), WAIT).await?;
            if waiting.starts_with("0 ") {
                break;
            }
            ensure!(Instant::now() < deadline, "still {waiting}");
            if let Ok(button) = driver.find(By::Id("send-now")).await {
                let _ = button.click().await;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        text_until(driver, By::Id("status-connectivity"), WAIT, |t| {
            t == "Online"
        })
        .await?;
        shot(driver, "queue-back-online").await?;

        for (id, card, before) in &cards {
            let after = stamps(&server.card(id, card).await?)?;
            ensure!(
                after == before + 1,
                "{card}: {before} then {after} stamps on the server"
            );
        }
        let gift_card = server.get(&format!("/v1/gift_cards/{gift}")).await?;
        let spends: Vec<_> = gift_card["transactions"]
            .as_array()
            .context("transactions")?
            .iter()
            .filter(|t| t["type"] == "spend")
            .collect();
        ensure!(spends.len() == 1, "server holds {} spends", spends.len());
        ensure!(
            gift_card["balance"] == "35.00",
            "balance {}",
            gift_card["balance"]
        );
        Ok(())
    })
    .await
}
