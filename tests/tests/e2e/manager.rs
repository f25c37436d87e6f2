//! The manager at the till, end to end: the PIN set on first use, five wrong tries
//! locking it through a restart, and money withdrawn from the queue only behind it.

use std::time::Duration;

use anyhow::{Context, ensure};
use loyalty_counter_e2e::{App, CASHIER, CASHIER_ID, CASHIER_PIN, shot, text_of};
use serde_json::json;
use thirtyfour::prelude::*;

use crate::support::{
    self, PIN, Server, gone, in_demo, invoke, pin_stage, shown, text_until, type_pin,
};

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test]
async fn the_pin_is_set_on_first_use_and_five_wrong_tries_lock_it_through_a_restart()
-> anyhow::Result<()> {
    let name = "manager-pin-lock";
    let app = App::launch_bare(name, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        // First start: the owner chooses a PIN, typed twice, before the counter opens.
        ensure!(
            pin_stage(driver, Duration::from_secs(30)).await? == "new",
            "no PIN is set, yet the pad does not ask for a new one"
        );
        ensure!(
            driver.find_all(By::Id("scan")).await?.is_empty(),
            "the counter opened before any PIN"
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
        shown(driver, By::Id("scan"), WAIT).await?;
        // The owner's own settings open without a PIN.
        driver
            .find(By::Id("settings-button"))
            .await?
            .click()
            .await?;
        shown(driver, By::Id("settings"), WAIT).await?;
        shot(driver, "settings-manager").await?;
        driver.find(By::Id("settings-close")).await?.click().await?;
        gone(driver, By::Id("settings"), WAIT).await?;
        // The owner adds the cashier, who signs in.
        invoke(
            driver,
            "add_person",
            json!({"name": CASHIER, "role": "cashier", "pin": CASHIER_PIN}),
        )
        .await?;
        driver.find(By::Id("lock-button")).await?.click().await?;
        support::sign_in_at_lock(driver, CASHIER_ID, CASHIER_PIN).await?;

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
        ensure!(pin_stage(driver, WAIT).await? == "enter", "no PIN asked");
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
        // Issuing is the manager's: the PIN, for this card, before the core checks it.
        support::as_manager(driver).await?;
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
        // Each call is its own: the manager approves this one too.
        support::as_manager(driver).await?;

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

        // The PIN opened that one card: the same call again, from any script in the page,
        // is refused until a manager approves it too; no second card.
        let again = support::call(
            driver,
            "issue_gift_card",
            json!({"issue": {"amount": "35", "currency": "EUR", "locale": "en",
                             "recipient_name": "Katherine Johnson", "recipient_email": email}}),
        )
        .await?;
        ensure!(
            again["error"]["data"]["reason"]["kind"] == "manager_only",
            "the next issue asked no PIN: {again}"
        );
        ensure!(issued().await?.len() == 1, "a second card was issued");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn todays_history_lists_and_exports_exactly_todays_writes_with_their_keys()
-> anyhow::Result<()> {
    in_demo("manager-history", |driver, server| async move {
        let driver = &driver;
        let mut cards = Vec::new();
        let mut customers = Vec::new();
        for n in 11..13 {
            let (customer, card) = server.customer(n).await?;
            customers.push(customer["id"].as_str().context("customer id")?.to_owned());
            support::scan(driver, &card).await?;
            shown(driver, By::Id("act-visit"), WAIT)
                .await?
                .click()
                .await?;
            text_until(driver, By::Id("result"), WAIT, |t| t.contains("Visit recorded")).await?;
            cards.push(card);
        }

        support::go(driver, "queue").await?;
        // The history is a manager's, as its export: the cashier's page is refused, and
        // the button asks for the manager (cancelled: the queue stays).
        let refused = support::call(
            driver,
            "history",
            json!({"from": "2026-11-23", "to": "2026-11-23", "state": null}),
        )
        .await?;
        ensure!(
            refused["error"]["data"]["reason"]["kind"] == "manager_only",
            "a cashier read the history: {refused}"
        );
        shown(driver, By::Id("queue-view-history"), WAIT)
            .await?
            .click()
            .await?;
        ensure!(pin_stage(driver, WAIT).await? == "enter", "the history asked no PIN");
        driver.find(By::Id("pin-cancel")).await?.click().await?;
        gone(driver, By::Id("pin-pad"), WAIT).await?;
        shown(driver, By::Id("send-now"), WAIT).await?;
        driver.find(By::Id("queue-view-history")).await?.click().await?;
        support::as_manager(driver).await?;
        text_until(driver, By::Id("history-count"), WAIT, |t| t == "2 writes").await?;
        let mut keys = Vec::new();
        for key in driver.find_all(By::Css("#queue-list code.key")).await? {
            keys.push(key.text().await?);
        }
        ensure!(keys.len() == 2, "keys shown: {keys:?}");
        shot(driver, "queue-history").await?;

        // The file the save dialog would name, written by the real command while the
        // manager is here (the system's dialog itself is not the app's to drive).
        let today: String = driver
            .execute("const d = new Date(); return d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0');", vec![])
            .await?
            .convert()?;
        let path = server.home.join("history.csv");
        let rows = invoke(
            driver,
            "export_history",
            json!({"from": today, "to": today, "state": null,
                   "path": path.display().to_string(), "wholeIds": false}),
        )
        .await?;
        ensure!(rows == 2, "rows exported: {rows}");
        let mut csv = csv::Reader::from_path(&path)?;
        let header = csv.headers()?.clone();
        let column = |name: &str| header.iter().position(|h| h == name).context(name.to_owned());
        let records: Vec<csv::StringRecord> = csv.records().collect::<Result<_, _>>()?;
        ensure!(records.len() == 2, "{} rows in the file", records.len());
        let (key, target, outcome) = (column("idempotency_key")?, column("target")?, column("outcome")?);
        let mut in_file: Vec<String> = records.iter().map(|r| r[key].to_owned()).collect();
        in_file.sort();
        keys.sort();
        ensure!(in_file == keys, "file keys {in_file:?}, shown {keys:?}");
        let targets: Vec<&str> = records.iter().map(|r| &r[target]).collect();
        ensure!(targets == cards, "targets {targets:?}, scanned {cards:?}");
        // Each row says who made it: the cashier at the till.
        let made_by = column("made_by")?;
        ensure!(
            records.iter().all(|r| &r[made_by] == CASHIER),
            "made by {:?}",
            records.iter().map(|r| r[made_by].to_owned()).collect::<Vec<_>>()
        );
        ensure!(records.iter().all(|r| &r[outcome] == "done"), "outcomes: {records:?}");

        // The server holds exactly those two visits, once each.
        let scans = server.get("/v1/scans?limit=10").await?;
        for customer in &customers {
            let theirs = scans["data"]
                .as_array()
                .context("scans")?
                .iter()
                .filter(|s| s["customer_id"] == customer.as_str())
                .count();
            ensure!(theirs == 1, "{theirs} scans of {customer} on the server");
        }
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_figures_of_the_last_30_days_and_of_today_are_the_services() -> anyhow::Result<()> {
    in_demo("manager-figures", |driver, server| async move {
        let driver = &driver;
        support::go(driver, "figures").await?;
        support::as_manager(driver).await?;
        shown(driver, By::Id("figures-table"), WAIT).await?;
        shown(driver, By::Id("figures-chart"), WAIT).await?;
        shot(driver, "figures-30-days").await?;

        let now = server.get("/v1/stats").await?;
        let from = jiff::civil::Date::strptime("%Y-%m-%d", now["from"].as_str().context("from")?)?;
        let to = jiff::civil::Date::strptime("%Y-%m-%d", now["to"].as_str().context("to")?)?;
        let before_to = from.yesterday()?;
        let before_from = before_to.checked_sub(jiff::Span::new().days(29))?;
        let before = server
            .get(&format!("/v1/stats?from={before_from}&to={before_to}"))
            .await?;
        compare(driver, &now, &before).await?;

        // Today: the business's today, beside yesterday.
        driver.find(By::Id("figures-today")).await?.click().await?;
        let today = server.get(&format!("/v1/stats?from={to}&to={to}")).await?;
        let yesterday = to.yesterday()?;
        let before = server
            .get(&format!("/v1/stats?from={yesterday}&to={yesterday}"))
            .await?;
        text_until(driver, By::Id("figures-period"), WAIT, |t| {
            !t.contains(" – ")
        })
        .await?;
        compare(driver, &today, &before).await?;
        Ok(())
    })
    .await
}

/// Every figure on screen equals the service's, this period's and the one's before.
async fn compare(
    driver: &WebDriver,
    now: &serde_json::Value,
    before: &serde_json::Value,
) -> anyhow::Result<()> {
    for name in [
        "scans",
        "visits",
        "active_customers",
        "returning_customers",
        "new_customers",
        "rewards_earned",
        "rewards_redeemed",
        "gift_cards_issued",
    ] {
        let row = format!("#figures-table tr[data-figure='{name}']");
        let value = text_until(driver, By::Css(format!("{row} .value")), WAIT, |t| {
            digits(t) == now[name].as_i64()
        })
        .await?;
        let previous = text_of(driver, By::Css(format!("{row} .previous")), WAIT).await?;
        ensure!(
            digits(&previous) == before[name].as_i64(),
            "{name}: {value} beside {previous}, the service says {} beside {}",
            now[name],
            before[name]
        );
    }
    Ok(())
}

/// A number as the screen writes it (1,234 or 1 234), read back.
fn digits(shown: &str) -> Option<i64> {
    shown
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()
}

#[tokio::test]
async fn settings_keep_the_tills_place_and_policy_and_the_pin_changes_with_the_old_one()
-> anyhow::Result<()> {
    in_demo("manager-settings", |driver, server| async move {
        let driver = &driver;
        support::open_settings(driver).await?;
        // The business's own locations are offered; the choice is kept.
        let locations = server.get("/v1/locations?limit=100").await?;
        let location = locations["data"][0]["id"]
            .as_str()
            .context("a location")?
            .to_owned();
        shown(driver, By::Id("till-location"), WAIT).await?;
        // A select's options are the system's popup: chosen as the page does.
        driver
            .execute(
                "const s = document.getElementById('till-location'); s.value = arguments[0]; s.dispatchEvent(new Event('change', { bubbles: true }));",
                vec![json!(location)],
            )
            .await?;
        driver
            .find(By::Id("till-places-save"))
            .await?
            .click()
            .await?;
        shown(driver, By::Id("till-places-saved"), WAIT).await?;
        driver
            .find(By::Id("offline-allowed"))
            .await?
            .click()
            .await?;
        driver
            .find(By::Id("offline-max-age"))
            .await?
            .send_keys("45")
            .await?;
        driver.find(By::Id("offline-save")).await?.click().await?;
        shown(driver, By::Id("offline-saved"), WAIT).await?;
        shot(driver, "settings-till").await?;

        // How long customers' details are kept: 90 days at first; a day out of range is
        // refused in words and changes nothing; 30 is kept.
        let days = shown(driver, By::Id("retention-days"), WAIT).await?;
        days.scroll_into_view().await?;
        ensure!(days.prop("value").await?.as_deref() == Some("90"), "not 90 at first");
        for (typed, refused) in [("0", true), ("30", false)] {
            days.clear().await?;
            days.send_keys(typed).await?;
            driver.find(By::Id("retention-save")).await?.click().await?;
            if refused {
                text_until(driver, By::Id("retention-error"), WAIT, |t| {
                    t.contains("1 to 3650 days")
                })
                .await?;
            } else {
                shown(driver, By::Id("retention-saved"), WAIT).await?;
            }
        }
        let kept = support::invoke(driver, "retention", json!({})).await?;
        ensure!(kept == json!(30), "retention kept: {kept}");
        shot(driver, "settings-retention").await?;

        // The PIN changes only with the old one.
        driver.find(By::Id("pin-change")).await?.click().await?;
        ensure!(
            pin_stage(driver, WAIT).await? == "old",
            "the old PIN is not asked"
        );
        type_pin(driver, "9999").await?;
        type_pin(driver, "1357").await?;
        type_pin(driver, "1357").await?;
        text_until(driver, By::Id("pin-error"), WAIT, |t| {
            t.starts_with("Wrong PIN")
        })
        .await?;
        type_pin(driver, PIN).await?;
        type_pin(driver, "1357").await?;
        type_pin(driver, "1357").await?;
        shown(driver, By::Id("pin-changed"), WAIT).await?;

        // Locked again on leaving; the new PIN opens the settings, which kept it all.
        driver.find(By::Id("settings-close")).await?.click().await?;
        driver
            .find(By::Id("settings-button"))
            .await?
            .click()
            .await?;
        ensure!(pin_stage(driver, WAIT).await? == "enter", "no PIN asked");
        type_pin(driver, "1357").await?;
        shown(driver, By::Id("settings"), WAIT).await?;
        shown(driver, By::Id("till-location"), WAIT).await?;
        let deadline = std::time::Instant::now() + WAIT;
        let mut chosen = String::new();
        while chosen != location && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
            chosen = driver
                .find(By::Id("till-location"))
                .await?
                .prop("value")
                .await?
                .unwrap_or_default();
        }
        ensure!(
            chosen == location,
            "location kept: {chosen:?}, chosen {location}"
        );
        let age = driver
            .find(By::Id("offline-max-age"))
            .await?
            .prop("value")
            .await?
            .unwrap_or_default();
        ensure!(age == "45", "balance age kept: {age:?}");
        Ok(())
    })
    .await
}
