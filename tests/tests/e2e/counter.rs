//! The counter screen, end to end, in the demo: scans typed as a scanner types them,
//! checked against the demo server's own records.

use std::time::Duration;

use crate::support::{audit, gone, in_demo, in_view, scan, shown, text_until};
use anyhow::{Context, ensure};
use loyalty_counter_e2e::{shot, text_of};
use serde_json::json;
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

fn visits(card: &serde_json::Value) -> anyhow::Result<i64> {
    card["visits"].as_i64().context("visits")
}

#[tokio::test]
async fn a_scanned_card_gets_a_visit_and_the_count_goes_up() -> anyhow::Result<()> {
    in_demo("counter-visit", |driver, server| async move {
        let driver = &driver;
        let (customer, card_id) = server.customer(0).await?;
        let customer_id = customer["id"].as_str().context("id")?;
        let before = visits(&server.card(customer_id, &card_id).await?)?;

        // The scan field has the focus without a click: a scanner just types.
        let active = driver.active_element().await?;
        ensure!(
            active.id().await?.as_deref() == Some("scan"),
            "scan field not focused"
        );
        active
            .send_keys(format!("{card_id}{}", char::from(Key::Enter)))
            .await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;
        let code = text_of(driver, By::Id("card-id"), WAIT).await?;
        ensure!(code == card_id, "card shown {code:?}");
        shot(driver, "counter-card").await?;

        driver.find(By::Id("act-visit")).await?.click().await?;
        let result = text_of(driver, By::Id("result"), WAIT).await?;
        ensure!(result.contains("Visit recorded"), "result: {result:?}");
        let shown_visits = text_of(driver, By::Id("visits"), WAIT).await?;
        ensure!(
            shown_visits == (before + 1).to_string(),
            "screen shows {shown_visits} visits, {before} before"
        );
        let after = visits(&server.card(customer_id, &card_id).await?)?;
        ensure!(after == before + 1, "server: {before} then {after} visits");
        // Back in the scan field, ready for the next customer.
        let active = driver.active_element().await?;
        ensure!(
            active.id().await?.as_deref() == Some("scan"),
            "focus not back on scan"
        );
        shot(driver, "counter-visit-recorded").await?;
        // The answer is where the cashier looks, at the default size and at 1280x800.
        in_view(driver, "result").await?;
        driver.set_window_rect(0, 0, 1280, 800).await?;
        in_view(driver, "result").await?;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_repeat_visit_asks_first_enter_cancels_and_record_adds_exactly_one() -> anyhow::Result<()>
{
    in_demo("counter-repeat", |driver, server| async move {
        let driver = &driver;
        let (customer, card_id) = server.customer(1).await?;
        let customer_id = customer["id"].as_str().context("id")?;

        scan(driver, &card_id).await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;
        // F1 is the Visit key.
        driver.active_element().await?.send_keys(Key::F1).await?;
        text_until(driver, By::Id("result"), WAIT, |t| {
            t.contains("Visit recorded")
        })
        .await?;
        let first = visits(&server.card(customer_id, &card_id).await?)?;

        // At once again: the question, not a second visit.
        scan(driver, &card_id).await?;
        driver.find(By::Id("act-visit")).await?.click().await?;
        shown(driver, By::Id("repeat-dialog"), WAIT).await?;
        let when = text_of(driver, By::Id("repeat-when"), WAIT).await?;
        ensure!(
            when.contains("ago, at") || when.contains("just now, at"),
            "when: {when:?}"
        );
        shot(driver, "repeat-visit-dialog").await?;
        let problems = audit(driver, "the repeat question").await?;
        ensure!(problems.is_empty(), "{}", problems.join("\n"));
        // Enter (a scanner's, or a hurried hand's) cancels: Cancel has the focus.
        let focused = driver.active_element().await?;
        ensure!(
            focused.id().await?.as_deref() == Some("repeat-cancel"),
            "focus in the dialog is not on Cancel"
        );
        focused.send_keys(Key::Enter).await?;
        gone(driver, By::Id("repeat-dialog"), WAIT).await?;
        text_until(driver, By::Id("result"), WAIT, |t| {
            t.contains("Nothing recorded")
        })
        .await?;
        ensure!(
            visits(&server.card(customer_id, &card_id).await?)? == first,
            "Cancel recorded a visit"
        );

        // Asked again, "Record another visit" records exactly one.
        driver.find(By::Id("act-visit")).await?.click().await?;
        shown(driver, By::Id("repeat-dialog"), WAIT).await?;
        driver.find(By::Id("repeat-confirm")).await?.click().await?;
        gone(driver, By::Id("repeat-dialog"), WAIT).await?;
        text_until(driver, By::Id("result"), WAIT, |t| {
            t.contains("Visit recorded")
        })
        .await?;
        let after = visits(&server.card(customer_id, &card_id).await?)?;
        ensure!(after == first + 1, "server: {first} then {after} visits");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn redeem_is_offered_and_works_when_a_reward_is_ready_and_not_before() -> anyhow::Result<()> {
    in_demo("counter-redeem", |driver, server| async move {
        let driver = &driver;
        let (customer, card_id) = server.customer(2).await?;
        let customer_id = customer["id"].as_str().context("id")?;
        let card = server.card(customer_id, &card_id).await?;
        let redeemed_before = card["rewards_redeemed"].as_i64().context("redeemed")?;

        // No reward yet (use any up first): Redeem is not offered, and F4 records
        // nothing.
        for _ in 0..card["rewards_available"].as_i64().unwrap_or(0) {
            server
                .post("/v1/scans", json!({"card_id": card_id, "kind": "redeem"}))
                .await?;
        }
        scan(driver, &card_id).await?;
        text_until(driver, By::Id("rewards"), WAIT, |t| t == "0").await?;
        ensure!(
            !driver
                .find(By::Id("act-redeem"))
                .await?
                .is_enabled()
                .await?,
            "Redeem is offered with no reward ready"
        );
        driver.active_element().await?.send_keys(Key::F4).await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        ensure!(
            driver.find_all(By::Id("result")).await?.is_empty(),
            "F4 did something with no reward ready"
        );
        shot(driver, "counter-no-reward").await?;
        let card = server.card(customer_id, &card_id).await?;
        let redeemed = card["rewards_redeemed"].as_i64().context("redeemed")?;

        // Visits up to the goal (through the API), then Redeem at the counter.
        let mut earned = false;
        for _ in 0..30 {
            let result = server
                .post(
                    "/v1/scans",
                    json!({"card_id": card_id, "kind": "visit", "confirm_repeat": true}),
                )
                .await?;
            if result["reward_earned"] == true
                || result["card"]["rewards_available"].as_i64() > Some(0)
            {
                earned = true;
                break;
            }
        }
        ensure!(earned, "no reward after 30 visits");
        // Those visits were made elsewhere: scanned again, the card shows the service's
        // figures, not the ones this till saw last.
        scan(driver, &card_id).await?;
        let on_server = server.card(customer_id, &card_id).await?;
        for (id, field) in [("visits", "visits"), ("rewards", "rewards_available")] {
            let expected = on_server[field].as_i64().context("figure")?.to_string();
            text_until(driver, By::Id(id), WAIT, |t| t == expected)
                .await
                .with_context(|| format!("{field} shown fresh"))?;
        }
        driver.find(By::Id("act-redeem")).await?.click().await?;
        text_until(driver, By::Id("result"), WAIT, |t| {
            t.contains("Reward redeemed")
        })
        .await?;
        shot(driver, "counter-redeemed").await?;
        let card = server.card(customer_id, &card_id).await?;
        let after = card["rewards_redeemed"].as_i64().context("redeemed")?;
        ensure!(
            after == redeemed + 1,
            "server: {redeemed_before}/{redeemed} then {after} rewards redeemed"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_slow_service_never_holds_the_cashier_and_the_answer_lands_on_the_card_later()
-> anyhow::Result<()> {
    in_demo("counter-slow", |driver, server| async move {
        let driver = &driver;
        let (customer, card_id) = server.customer(5).await?;
        let customer_id = customer["id"].as_str().context("id")?;
        let scans_path = format!("/v1/scans?customer_id={customer_id}&limit=100");
        let scans = |page: serde_json::Value| page["data"].as_array().map_or(0, Vec::len);
        let before = scans(server.get(&scans_path).await?);
        scan(driver, &card_id).await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;

        // The service takes 6 s to answer this visit (less than the till's time-out).
        server
            .control(
                "/_sandbox/faults",
                json!({"path": "/v1/scans", "count": 1, "delay_ms": 6000}),
            )
            .await?;
        driver.active_element().await?.send_keys(Key::F1).await?;
        // Saved and queued long before the service answers...
        let saved = text_until(driver, By::Id("result"), Duration::from_secs(4), |t| {
            t.contains("Saved")
        })
        .await?;
        ensure!(
            scans(server.get(&scans_path).await?) == before,
            "the service answered already: {saved:?}"
        );
        shot(driver, "counter-slow-saved").await?;
        // ...then its answer arrives on the card.
        text_until(driver, By::Id("result"), WAIT, |t| {
            t.contains("has recorded")
        })
        .await?;
        // The card shows the server's figures, and the server holds the visit once.
        let shown_visits = text_of(driver, By::Id("visits"), WAIT).await?;
        let server_visits = visits(&server.card(customer_id, &card_id).await?)?;
        ensure!(
            shown_visits == server_visits.to_string(),
            "screen shows {shown_visits} visits, the server {server_visits}"
        );
        let after = scans(server.get(&scans_path).await?);
        ensure!(after == before + 1, "server: {before} then {after} scans");
        shot(driver, "counter-slow-recorded").await?;
        Ok(())
    })
    .await
}
