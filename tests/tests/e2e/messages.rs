//! Messages to card holders, end to end: previewed and sent once, an expired preview
//! offered again, a scheduled message listed and cancelled; the server's records judge.

use std::time::Duration;

use anyhow::{Context, ensure};
use loyalty_counter_e2e::{shot, text_of};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

use crate::support::{self, Server, in_demo, shown, text_until};

const WAIT: Duration = Duration::from_secs(15);

/// Opens the messages screen as the manager and writes a message titled `title`.
async fn write_message(driver: &WebDriver, title: &str) -> anyhow::Result<()> {
    support::go(driver, "messages").await?;
    support::as_manager(driver).await?;
    shown(driver, By::Id("message-title"), WAIT)
        .await?
        .send_keys(title)
        .await?;
    driver
        .find(By::Id("message-body"))
        .await?
        .send_keys("Double points all day on Saturday.")
        .await?;
    Ok(())
}

/// The server's effects of `kind` that mention `needle`.
async fn effects(server: &Server, kind: &str, needle: &str) -> anyhow::Result<Vec<Value>> {
    let all = server
        .get_control(&format!(
            "/_sandbox/effects?business_id={}",
            server.business_id
        ))
        .await?;
    Ok(all["data"]
        .as_array()
        .context("effects")?
        .iter()
        .filter(|e| e["kind"] == kind && e.to_string().contains(needle))
        .cloned()
        .collect())
}

#[tokio::test]
async fn a_message_is_previewed_with_its_reach_and_quota_and_sent_once() -> anyhow::Result<()> {
    in_demo("messages-send", |driver, server| async move {
        let driver = &driver;
        write_message(driver, "Saturday points").await?;
        driver
            .find(By::Id("message-preview"))
            .await?
            .click()
            .await?;
        let reach = text_of(driver, By::Id("preview-reach"), WAIT).await?;
        ensure!(reach.contains("would receive it"), "reach: {reach:?}");
        let quota = text_of(driver, By::Id("preview-quota"), WAIT).await?;
        ensure!(
            quota.contains("sent") && quota.contains("left"),
            "quota: {quota:?}"
        );
        let countdown = text_of(driver, By::Id("preview-countdown"), WAIT).await?;
        ensure!(
            countdown.contains("9:5") || countdown.contains("10:00"),
            "countdown: {countdown:?}"
        );
        shot(driver, "messages-preview").await?;

        // A changed text is not sent on the old preview.
        driver
            .find(By::Id("message-title"))
            .await?
            .send_keys("!")
            .await?;
        shown(driver, By::Id("preview-changed"), WAIT).await?;
        ensure!(
            driver.find_all(By::Id("message-send")).await?.is_empty(),
            "Send offered for a changed text"
        );
        driver.find(By::Id("preview-again")).await?.click().await?;
        shown(driver, By::Id("message-send"), WAIT)
            .await?
            .click()
            .await?;
        text_until(driver, By::Id("message-result"), WAIT, |t| {
            t.starts_with("Sent")
        })
        .await?;
        shot(driver, "messages-sent").await?;

        let notices = effects(&server, "owner_notice", "Saturday points!").await?;
        ensure!(notices.len() == 1, "{} owner notices", notices.len());
        let id = notices[0]["broadcast_id"]
            .as_str()
            .context("broadcast id")?;
        let deliveries = effects(&server, "broadcast_delivery", id).await?;
        ensure!(!deliveries.is_empty(), "nobody received it");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_preview_past_its_ten_minutes_is_refused_and_previewed_again() -> anyhow::Result<()> {
    in_demo("messages-expired", |driver, server| async move {
        let driver = &driver;
        write_message(driver, "Late news").await?;
        driver
            .find(By::Id("message-preview"))
            .await?
            .click()
            .await?;
        shown(driver, By::Id("message-send"), WAIT).await?;
        // The service's clock moves past the token's ten minutes.
        server
            .control("/_sandbox/clock", json!({"advance_seconds": 660}))
            .await?;
        driver.find(By::Id("message-send")).await?.click().await?;
        let said = text_of(driver, By::Id("message-result"), WAIT).await?;
        ensure!(said.contains("10 minutes"), "said: {said:?}");
        shot(driver, "messages-expired").await?;
        ensure!(
            effects(&server, "owner_notice", "Late news")
                .await?
                .is_empty(),
            "an expired preview went out"
        );
        driver
            .find(By::Id("result-preview-again"))
            .await?
            .click()
            .await?;
        shown(driver, By::Id("message-send"), WAIT)
            .await?
            .click()
            .await?;
        text_until(driver, By::Id("message-result"), WAIT, |t| {
            t.starts_with("Sent")
        })
        .await?;
        let notices = effects(&server, "owner_notice", "Late news").await?;
        ensure!(notices.len() == 1, "{} owner notices", notices.len());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_message_scheduled_here_is_listed_and_cancelled_and_never_goes_out() -> anyhow::Result<()>
{
    in_demo("messages-schedule", |driver, server| async move {
        let driver = &driver;
        write_message(driver, "Tomorrow only").await?;
        // Tomorrow at this time, as the date-and-time field takes it.
        driver
            .execute(
                r#"const at = new Date(Date.now() + 26 * 3600 * 1000);
                   const pad = (n) => String(n).padStart(2, '0');
                   const field = document.getElementById('message-when');
                   field.value = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
                   field.dispatchEvent(new Event('input', { bubbles: true }));"#,
                vec![],
            )
            .await?;
        driver.find(By::Id("message-preview")).await?.click().await?;
        shown(driver, By::Id("message-send"), WAIT)
            .await?
            .click()
            .await?;
        text_until(driver, By::Id("message-result"), WAIT, |t| t.starts_with("Scheduled")).await?;
        let listed = By::Css("#scheduled-list li[data-state='scheduled']");
        shown(driver, listed.clone(), WAIT).await?;
        shot(driver, "messages-scheduled").await?;
        let id = driver
            .find(listed.clone())
            .await?
            .attr("data-id")
            .await?
            .context("data-id")?;

        driver
            .find(By::Css(format!("#scheduled-list li[data-id='{id}'] .cancel-message")))
            .await?
            .click()
            .await?;
        shown(driver, By::Css(format!("#scheduled-list li[data-id='{id}'][data-state='cancelled']")), WAIT).await?;
        text_until(driver, By::ClassName("cancel-result"), WAIT, |t| t.starts_with("Cancelled")).await?;

        // Its time comes on the server: nobody receives it.
        server
            .control("/_sandbox/clock", json!({"advance_seconds": 3 * 86400}))
            .await?;
        server.get("/v1/me").await?;
        ensure!(
            effects(&server, "broadcast_delivery", &id).await?.is_empty(),
            "a cancelled message went out"
        );
        ensure!(
            effects(&server, "owner_notice", &id).await?.is_empty(),
            "a cancelled message was reported sent"
        );
        Ok(())
    })
    .await
}
