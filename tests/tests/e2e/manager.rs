//! The manager at the till, end to end: the PIN set on first use, five wrong tries
//! locking it through a restart, and money withdrawn from the queue only behind it.

use std::time::Duration;

use anyhow::{Context, ensure};
use loyalty_counter_e2e::{App, shot, text_of};
use serde_json::json;
use thirtyfour::prelude::*;

use crate::support::{self, PIN, Server, gone, in_demo, pin_stage, shown, text_until, type_pin};

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test]
async fn the_pin_is_set_on_first_use_and_five_wrong_tries_lock_it_through_a_restart()
-> anyhow::Result<()> {
    let name = "manager-pin-lock";
    let app = App::launch_with(name, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;

        // First use: the settings ask the manager to choose a PIN, typed twice.
        driver
            .find(By::Id("settings-button"))
            .await?
            .click()
            .await?;
        ensure!(
            pin_stage(driver, WAIT).await? == "new",
            "no PIN is set, yet the pad does not ask for a new one"
        );
        ensure!(
            driver.find_all(By::Id("settings")).await?.is_empty(),
            "the settings opened before any PIN"
        );
        shot(driver, "pin-first-use").await?;
        // Two different PINs are not taken.
        type_pin(driver, PIN).await?;
        text_until(driver, By::Id("pin-prompt"), WAIT, |t| t.contains("again")).await?;
        type_pin(driver, "1357").await?;
        text_until(driver, By::Id("pin-error"), WAIT, |t| t.contains("differ")).await?;
        type_pin(driver, PIN).await?;
        text_until(driver, By::Id("pin-prompt"), WAIT, |t| t.contains("again")).await?;
        type_pin(driver, PIN).await?;
        shown(driver, By::Id("settings"), WAIT).await?;
        shot(driver, "settings-manager").await?;
        // Leaving locks the settings again.
        driver.find(By::Id("settings-close")).await?.click().await?;
        gone(driver, By::Id("settings"), WAIT).await?;

        // Five wrong tries: the pad says how many are left, then locks.
        driver
            .find(By::Id("settings-button"))
            .await?
            .click()
            .await?;
        ensure!(
            pin_stage(driver, WAIT).await? == "enter",
            "the PIN is not asked"
        );
        for left in (1..5).rev() {
            type_pin(driver, "0000").await?;
            let said = text_until(driver, By::Id("pin-error"), WAIT, |t| {
                t.contains(&format!("{left} tr"))
            })
            .await?;
            ensure!(said.starts_with("Wrong PIN"), "after a wrong try: {said:?}");
        }
        type_pin(driver, "0000").await?;
        let locked = text_of(driver, By::Id("pin-locked"), WAIT).await?;
        ensure!(
            locked.starts_with("Too many") && (locked.contains(" 4:5") || locked.contains(" 5:00")),
            "locked: {locked:?}"
        );
        shot(driver, "pin-locked").await?;
        // Even the right PIN is not tried while locked.
        ensure!(
            !driver.find(By::Id("pin-key-2")).await?.is_enabled().await?,
            "the keys take a PIN while it is locked"
        );
        ensure!(
            driver.find_all(By::Id("settings")).await?.is_empty(),
            "the settings opened while locked"
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await?;

    // A restart does not lift the lock.
    let app = App::relaunch(name, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        driver
            .find(By::Id("settings-button"))
            .await?
            .click()
            .await?;
        let locked = text_of(driver, By::Id("pin-locked"), WAIT).await?;
        ensure!(locked.contains("Too many"), "after a restart: {locked:?}");
        ensure!(
            driver.find_all(By::Id("settings")).await?.is_empty(),
            "a restart opened the settings"
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

#[tokio::test]
async fn withdrawing_a_queued_payment_asks_for_the_pin() -> anyhow::Result<()> {
    in_demo("manager-discard", |driver, server| async move {
        let driver = &driver;
        let gift = active_gift_card(&server).await?;
        support::go(driver, "gift").await?;
        shown(driver, By::Id("gift-id"), WAIT)
            .await?
            .send_keys(format!("{gift}{}", char::from(Key::Enter)))
            .await?;
        text_until(driver, By::Id("gift-balance"), WAIT, |t| t == "50.00").await?;

        // The service turns every payment away before doing it (rate limited): the
        // payment waits in the queue and cannot have arrived, so it may be withdrawn.
        server
            .control(
                "/_sandbox/faults",
                json!({"path": format!("/v1/gift_cards/{gift}/payments"), "count": 10000,
                       "status": 429, "code": "rate_limited"}),
            )
            .await?;
        driver
            .find(By::Id("pay-amount"))
            .await?
            .send_keys("15")
            .await?;
        driver.find(By::Id("pay-submit")).await?.click().await?;
        text_until(driver, By::Id("pay-result"), WAIT, |t| {
            t.contains("Payment saved")
        })
        .await?;

        support::go(driver, "queue").await?;
        let payment = By::Css("#queue-list li[data-kind='payment']");
        shown(driver, payment.clone(), WAIT)
            .await?
            .find(By::ClassName("discard"))
            .await?
            .click()
            .await?;
        driver
            .find(By::ClassName("discard-yes"))
            .await?
            .click()
            .await?;
        // Money: the PIN comes first. Cancelled, nothing is withdrawn.
        ensure!(pin_stage(driver, WAIT).await? == "new", "no PIN asked");
        driver.find(By::Id("pin-cancel")).await?.click().await?;
        gone(driver, By::Id("pin-pad"), WAIT).await?;
        let state = driver
            .find(payment.clone())
            .await?
            .attr("class")
            .await?
            .unwrap_or_default();
        ensure!(
            !state.contains("closed"),
            "withdrawn without the PIN: {state}"
        );

        // With the PIN, it is withdrawn.
        shown(driver, payment.clone(), WAIT)
            .await?
            .find(By::ClassName("discard"))
            .await?
            .click()
            .await?;
        driver
            .find(By::ClassName("discard-yes"))
            .await?
            .click()
            .await?;
        support::as_manager(driver).await?;
        text_until(driver, payment.clone(), WAIT, |t| t.contains("Discarded")).await?;
        shot(driver, "queue-withdrawn-payment").await?;

        // The service answers again: nothing is charged, the card keeps its 50.00.
        server.delete("/_sandbox/faults").await?;
        driver.find(By::Id("send-now")).await?.click().await?;
        tokio::time::sleep(Duration::from_secs(3)).await;
        let card = server.get(&format!("/v1/gift_cards/{gift}")).await?;
        ensure!(card["balance"] == "50.00", "the card was charged: {card}");
        let spends = card["transactions"]
            .as_array()
            .context("transactions")?
            .iter()
            .filter(|t| t["type"] == "spend")
            .count();
        ensure!(spends == 0, "{spends} spends on the server");
        Ok(())
    })
    .await
}

/// A claimed gift card of 50.00 EUR on the demo server.
async fn active_gift_card(server: &Server) -> anyhow::Result<String> {
    let issued = server
        .post(
            "/v1/gift_cards",
            json!({"amount": 50, "currency": "EUR", "locale": "en",
                   "recipient": {"name": "Ada Lovelace", "email": "ada@example.com"}}),
        )
        .await?;
    let gift = issued["id"].as_str().context("gift card id")?.to_owned();
    server
        .control(&format!("/_sandbox/gift_cards/{gift}/claim"), json!({}))
        .await?;
    Ok(gift)
}

#[tokio::test]
async fn a_manager_issues_a_gift_card_and_the_answer_says_why_no_email_went() -> anyhow::Result<()>
{
    in_demo("manager-issue", |driver, server| async move {
        let driver = &driver;
        support::go(driver, "gift").await?;
        shown(driver, By::Id("issue-open"), WAIT)
            .await?
            .click()
            .await?;
        support::as_manager(driver).await?;
        shown(driver, By::Id("issue-form"), WAIT).await?;
        // The business's usual currency is offered first.
        let currency = driver
            .find(By::Id("issue-currency"))
            .await?
            .prop("value")
            .await?
            .unwrap_or_default();
        ensure!(currency == "EUR", "currency offered: {currency:?}");
        driver
            .find(By::Id("issue-amount"))
            .await?
            .send_keys("35")
            .await?;
        driver
            .find(By::Id("issue-name"))
            .await?
            .send_keys("Katherine Johnson")
            .await?;
        let email = "katherine@example.com";
        // A wrong address first: refused before anything is stored.
        driver
            .find(By::Id("issue-email"))
            .await?
            .send_keys("katherine.example.com")
            .await?;
        shot(driver, "gift-issue-form").await?;
        let submit = driver.find(By::Id("issue-submit")).await?;
        let deadline = std::time::Instant::now() + WAIT;
        while !submit.is_enabled().await? {
            ensure!(
                std::time::Instant::now() < deadline,
                "the amount was not taken"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        submit.click().await?;
        text_until(driver, By::Id("issue-result"), WAIT, |t| {
            t.contains("email")
        })
        .await?;
        let issued = || async {
            let effects = server
                .get_control(&format!(
                    "/_sandbox/effects?business_id={}",
                    server.business_id
                ))
                .await?;
            anyhow::Ok(
                effects["data"]
                    .as_array()
                    .context("effects")?
                    .iter()
                    .filter(|e| e["template"] == "gift_card_issued" && e["to"] == email)
                    .cloned()
                    .collect::<Vec<_>>(),
            )
        };
        ensure!(
            issued().await?.is_empty(),
            "a wrong address went to the server"
        );
        let field = driver.find(By::Id("issue-email")).await?;
        field.clear().await?;
        field.send_keys(email).await?;
        driver.find(By::Id("issue-submit")).await?.click().await?;

        // Issued: the words say the email did not go and why; the card opens with its
        // ledger.
        let said = text_of(driver, By::Id("issue-said"), WAIT).await?;
        ensure!(
            said.contains("35.00 EUR") && said.contains("not sent") && said.contains("test key"),
            "said: {said:?}"
        );
        text_until(driver, By::Id("gift-balance"), WAIT, |t| t == "35.00").await?;
        shown(driver, By::Css("#gift-ledger tr[data-kind='issue']"), WAIT).await?;
        shot(driver, "gift-issued").await?;

        // The server's records: one card, its email recorded and not sent.
        let effects = issued().await?;
        ensure!(effects.len() == 1, "{} emails recorded", effects.len());
        ensure!(effects[0]["sent"] == false, "email: {}", effects[0]);
        let id = effects[0]["gift_card_id"]
            .as_str()
            .context("gift_card_id")?;
        let card = server.get(&format!("/v1/gift_cards/{id}")).await?;
        ensure!(
            card["initial_amount"] == "35.00" && card["recipient"]["name"] == "Katherine Johnson",
            "on the server: {card}"
        );
        Ok(())
    })
    .await
}
