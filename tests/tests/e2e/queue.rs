//! The queue's decisions, end to end in the demo: a queued write withdrawn before it
//! went, and a queued visit the service answered "too recent" recorded as a repeat
//! visit from the queue. Checked against the demo server's own records.

use std::time::{Duration, Instant};

use crate::support::{self, go, in_demo, scan, shown, stamps, text_until};
use anyhow::{Context, Result, bail, ensure};
use loyalty_counter_e2e::shot;
use serde_json::json;
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

/// The queue's entry whose line names `card` and says `what`, once it is in `state`.
async fn entry(
    driver: &WebDriver,
    card: &str,
    what: &str,
    state: &str,
    timeout: Duration,
) -> Result<WebElement> {
    let deadline = Instant::now() + timeout;
    loop {
        for item in driver
            .find_all(By::Css(format!("#queue-list li[data-state='{state}']")))
            .await?
        {
            let line = item.find(By::Css(".what")).await?.text().await?;
            if line.contains(card) && line.starts_with(what) {
                return Ok(item);
            }
        }
        if Instant::now() > deadline {
            bail!("no {state} entry {what:?} for {card} after {timeout:?}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Records a visit at the counter and waits for its result.
async fn visit(driver: &WebDriver, card: &str) -> Result<String> {
    go(driver, "counter").await?;
    scan(driver, card).await?;
    shown(driver, By::Id("card-panel"), WAIT).await?;
    driver.active_element().await?.send_keys(Key::F1).await?;
    text_until(driver, By::Id("result"), WAIT, |t| !t.is_empty()).await
}

#[tokio::test]
async fn a_withdrawn_write_never_arrives_and_a_repeat_visit_is_recorded_from_the_queue()
-> Result<()> {
    in_demo("queue-decisions", |driver, server| async move {
        let driver = &driver;
        let (a, card_a) = server.customer(7).await?;
        let (b, card_b) = server.customer(8).await?;
        let (a, b) = (
            a["id"].as_str().context("id")?.to_owned(),
            b["id"].as_str().context("id")?.to_owned(),
        );
        let before_a = stamps(&server.card(&a, &card_a).await?)?;
        let before_b = stamps(&server.card(&b, &card_b).await?)?;

        // A first visit goes through at once.
        let said = visit(driver, &card_a).await?;
        ensure!(said.contains("Visit recorded"), "first visit: {said:?}");

        // The service answers 503 for a while: a second visit on A and one on B wait.
        server
            .control(
                "/_sandbox/faults",
                json!({"path": "/v1/scans", "count": 10000, "status": 503, "code": "service_unavailable"}),
            )
            .await?;
        for card in [&card_a, &card_b] {
            let said = visit(driver, card).await?;
            ensure!(said.contains("will be sent"), "queued visit: {said:?}");
        }
        // With the queue's count on its tab and the person's name on the lock button,
        // the header keeps one row at the window's first size, in English and French.
        text_until(driver, By::Id("status-queued"), WAIT, |t| t.starts_with("2 ")).await?;
        support::header_in_one_row(driver, "en").await?;
        support::speak(driver, "fr").await?;
        shot(driver, "counter-queued-fr").await?;
        support::header_in_one_row(driver, "fr").await?;
        support::speak(driver, "en").await?;

        // B's visit is withdrawn: asked first, then kept as a record, never sent.
        go(driver, "queue").await?;
        let mut withdrawn = false;
        for _ in 0..3 {
            let item = entry(driver, &card_b, "Visit", "queued", WAIT).await?;
            item.find(By::Css("button.discard")).await?.click().await?;
            shown(driver, By::Css("button.discard-yes"), WAIT).await?.click().await?;
            // The sender may have held it at that very moment: then the cashier tries again.
            if entry(driver, &card_b, "Visit", "refused", Duration::from_secs(3)).await.is_ok() {
                withdrawn = true;
                break;
            }
        }
        ensure!(withdrawn, "B's visit could not be withdrawn");
        let record = entry(driver, &card_b, "Visit", "refused", WAIT).await?;
        let note = record.find(By::Css(".resolution")).await?.text().await?;
        ensure!(note.contains("Discarded at the counter"), "record: {note:?}");

        // The service answers again: A's second visit comes back "too recent" and
        // waits for a decision, which the queue offers.
        server.delete("/_sandbox/faults").await?;
        driver.find(By::Id("send-now")).await?.click().await?;
        let asked = entry(driver, &card_a, "Visit", "needs_decision", Duration::from_secs(60)).await?;
        let why = asked.find(By::Css(".refusal")).await?.text().await?;
        ensure!(why.contains("less than 15 minutes"), "reason: {why:?}");
        text_until(driver, By::Id("status-decisions"), WAIT, |t| t.starts_with("1 ")).await?;
        shot(driver, "queue-decision").await?;
        asked
            .find(By::Css("button.confirm-repeat"))
            .await?
            .click()
            .await?;
        entry(driver, &card_a, "Repeat visit", "done", WAIT).await?;
        let first = entry(driver, &card_a, "Visit", "refused", WAIT).await?;
        let note = first.find(By::Css(".resolution")).await?.text().await?;
        ensure!(note.contains("Confirmed as a repeat visit"), "record: {note:?}");
        text_until(driver, By::Id("status-decisions"), WAIT, |t| t.starts_with("0 ")).await?;
        shot(driver, "queue-decided").await?;

        // The server: A has its two visits, each once; B has nothing new.
        let after_a = stamps(&server.card(&a, &card_a).await?)?;
        let after_b = stamps(&server.card(&b, &card_b).await?)?;
        ensure!(after_a == before_a + 2, "A: {before_a} then {after_a}");
        ensure!(after_b == before_b, "B: {before_b} then {after_b}");
        text_until(driver, By::Id("status-queued"), WAIT, |t| t.starts_with("0 ")).await?;
        Ok(())
    })
    .await
}
