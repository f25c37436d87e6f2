//! What the core says reaches the window's page by a call the page keeps open (the
//! window's mailbox, `src-tauri/src/mailbox.rs`): another script's call of the same
//! command is answered at once and the page goes on hearing, and a reloaded page hears
//! what happens next.

use std::time::Duration;

use anyhow::{Context, ensure};
use serde_json::json;
use thirtyfour::prelude::*;

use crate::support::{call, in_demo, scan, shown, stamps, text_until};

const WAIT: Duration = Duration::from_secs(15);
/// The outbox sends a write again after its answer was lost.
const RESEND_WAIT: Duration = Duration::from_secs(45);

#[tokio::test]
async fn a_reloaded_page_hears_a_lost_answer_queued_and_then_recorded() -> anyhow::Result<()> {
    in_demo("page-events", |driver, server| async move {
        let driver = &driver;
        text_until(driver, By::Id("status-connectivity"), WAIT, |t| {
            t == "Online"
        })
        .await?;

        // Any script in the page may ask too: it is answered at once (with nothing, or
        // what came in the moment it held the mailbox), as the page's own call takes the
        // mailbox back.
        let stray = call(driver, "page_events", json!({})).await?;
        ensure!(
            stray["ok"] == true && stray["answer"].is_array(),
            "a script's ask got {stray}"
        );

        driver.execute("window.location.reload()", vec![]).await?;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        text_until(driver, By::Id("status-queued"), WAIT, |t| {
            t.starts_with("0 ")
        })
        .await?;

        // The service records the visit, but its answer never reaches the till: the
        // till queues it, sends it again and hears it recorded; the counter says so only
        // when the page hears that the queued write is done (its item's event).
        let (customer, card_id) = server.customer(5).await?;
        let customer_id = customer["id"].as_str().context("id")?.to_owned();
        let before = stamps(&server.card(&customer_id, &card_id).await?)?;
        server
            .control(
                "/_sandbox/faults",
                json!({"path": "/v1/scans", "count": 1, "drop_after_commit": true}),
            )
            .await?;
        scan(driver, &card_id).await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;
        driver.active_element().await?.send_keys(Key::F1).await?;
        text_until(driver, By::Id("result"), RESEND_WAIT, |t| {
            t.contains("The service has recorded the saved write")
        })
        .await?;
        text_until(driver, By::Id("status-queued"), WAIT, |t| {
            t.starts_with("0 ")
        })
        .await?;
        let after = stamps(&server.card(&customer_id, &card_id).await?)?;
        ensure!(
            after == before + 1,
            "visits on the server: {before} before, {after} after"
        );
        Ok(())
    })
    .await
}
