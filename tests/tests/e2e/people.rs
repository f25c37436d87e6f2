//! A shop is a team, in the real window: the lock screen, switching by name and PIN or
//! by badge, a customer's card and a disabled person's badge refused there, and a
//! cashier's page that calls every command her role may not use changing nothing, on
//! the server or in the till.

use std::time::Duration;

use crate::support::{PIN, Server, call, gone, in_demo, invoke, scan, shown};
use anyhow::{Result, ensure};
use loyalty_counter_e2e::{CASHIER, CASHIER_ID, shot};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

/// The name the header shows for whoever is signed in (the text of the button's
/// label, which the button's own accessible name covers).
async fn signed_in(driver: &WebDriver, name: &str) -> Result<()> {
    let deadline = std::time::Instant::now() + WAIT;
    let mut last = String::new();
    while std::time::Instant::now() < deadline {
        if let Ok(found) = driver.find(By::Id("signed-in-name")).await
            && let Ok(Some(text)) = found.prop("textContent").await
        {
            if text.trim() == name {
                return Ok(());
            }
            last = text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    anyhow::bail!("the header names {last:?}, not {name:?}")
}

/// Locks the till from the header and waits for the lock screen.
pub(crate) async fn lock(driver: &WebDriver) -> Result<()> {
    driver.find(By::Id("lock-button")).await?.click().await?;
    shown(driver, By::Id("lock-screen"), WAIT).await?;
    Ok(())
}

/// Taps `id`'s name at the lock screen and types `pin` on the pad.
pub(crate) async fn sign_in(driver: &WebDriver, id: i64, pin: &str) -> Result<()> {
    shown(driver, By::Id(format!("lock-person-{id}")), WAIT)
        .await?
        .click()
        .await?;
    shown(driver, By::Id("pin-pad"), WAIT).await?;
    crate::support::type_pin(driver, pin).await?;
    gone(driver, By::Id("lock-screen"), WAIT).await
}

/// What a scanner types at the lock screen: the code, then Enter.
async fn scanned_at_the_lock(driver: &WebDriver, code: &str) -> Result<()> {
    driver
        .find(By::Tag("body"))
        .await?
        .send_keys(format!("{code}{}", char::from(Key::Enter)))
        .await?;
    Ok(())
}

#[tokio::test]
async fn the_till_locks_and_people_switch_in_by_name_and_pin_or_by_badge() -> Result<()> {
    in_demo("people-switch", |driver, server: Server| async move {
        signed_in(&driver, CASHIER).await?;
        shot(&driver, "people-signed-in").await?;
        let (_, card) = server.customer(1).await?;

        // The owner signs in over the cashier: lock, name, PIN.
        lock(&driver).await?;
        shot(&driver, "people-lock-screen").await?;
        // A customer's card scanned here signs no one in.
        scanned_at_the_lock(&driver, &card).await?;
        shown(&driver, By::Id("lock-error"), WAIT).await?;
        ensure!(driver.find(By::Id("lock-screen")).await.is_ok(), "a card unlocked the till");
        sign_in(&driver, 1, PIN).await?;
        signed_in(&driver, "Owner").await?;

        // The owner makes Sam a badge in Settings → People, shown as it prints (no
        // printer here); Sam's badge then switches her in, in one scan.
        crate::support::open_settings(&driver).await?;
        shown(&driver, By::Id(format!("person-badge-{CASHIER_ID}")), WAIT)
            .await?
            .click()
            .await?;
        let badge = shown(&driver, By::Id("badge-code"), WAIT).await?.text().await?;
        ensure!(
            driver.find(By::Css("#badge-made svg.qr")).await.is_ok(),
            "the badge's QR code is not drawn"
        );
        shot(&driver, "settings-people-badge").await?;
        driver.find(By::Id("settings-button")).await?.click().await?;
        gone(&driver, By::Id("settings"), WAIT).await?;
        ensure!(badge.starts_with("staff_"), "{badge}");
        lock(&driver).await?;
        scanned_at_the_lock(&driver, &badge).await?;
        gone(&driver, By::Id("lock-screen"), WAIT).await?;
        signed_in(&driver, CASHIER).await?;
        // A badge is no card at the counter.
        scan(&driver, &badge).await?;

        // The owner disables Sam: her name leaves the lock screen, her badge and her PIN
        // open nothing.
        lock(&driver).await?;
        sign_in(&driver, 1, PIN).await?;
        invoke(
            &driver,
            "change_person",
            json!({ "person": CASHIER_ID, "change": { "change": "disabled", "disabled": true } }),
        )
        .await?;
        lock(&driver).await?;
        ensure!(
            driver
                .find(By::Id(format!("lock-person-{CASHIER_ID}")))
                .await
                .is_err(),
            "a disabled person is offered at the lock screen"
        );
        scanned_at_the_lock(&driver, &badge).await?;
        shown(&driver, By::Id("lock-error"), WAIT).await?;
        let by_pin = call(
            &driver,
            "sign_in",
            json!({ "credential": { "with": "pin", "person": CASHIER_ID, "pin": loyalty_counter_e2e::CASHIER_PIN } }),
        )
        .await?;
        ensure!(by_pin["ok"] == false, "a disabled person signed in: {by_pin}");
        ensure!(driver.find(By::Id("lock-screen")).await.is_ok(), "unlocked");
        Ok(())
    })
    .await
}

/// Every command the cashier's role may not use, called from her page through the
/// real IPC with whatever arguments: each refused at the door, and the server and the
/// till unchanged. Generated from what the core says of her seat: a command added later
/// is in this test by itself.
#[tokio::test]
async fn a_cashiers_page_calling_each_command_her_role_may_not_use_changes_nothing() -> Result<()> {
    in_demo(
        "people-cashier-calls",
        |driver, server: Server| async move {
            signed_in(&driver, CASHIER).await?;
            let gift_cards = |listed: Value| listed["data"].as_array().map_or(0, Vec::len);
            let cards_before = gift_cards(server.get("/v1/gift_cards?limit=100").await?);
            let settings_before = invoke(&driver, "offline_payments", json!({})).await?;
            let seat = invoke(&driver, "seat", json!({})).await?;
            let rules = seat["rules"].as_object().cloned().unwrap_or_default();
            let mut refused = 0;
            for (action, rule) in &rules {
                if rule == "allowed" {
                    continue;
                }
                let answer = call(&driver, action, json!({})).await?;
                let code = answer["error"]["code"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                if code == "invalid_arguments"
                    && answer["error"]["data"]["reason"]["kind"] == "no_such_command"
                {
                    // A decision a command makes (withdrawing money), not a command.
                    continue;
                }
                ensure!(
                    answer["ok"] == false && (code == "pin_refused" || code == "not_allowed"),
                    "{action} ({rule}) was not refused at the door: {answer}"
                );
                refused += 1;
            }
            ensure!(
                refused >= 25,
                "only {refused} commands were refused to a cashier"
            );
            ensure!(
                gift_cards(server.get("/v1/gift_cards?limit=100").await?) == cards_before,
                "a gift card was issued"
            );
            ensure!(
                invoke(&driver, "offline_payments", json!({})).await? == settings_before,
                "the till's settings changed"
            );
            // The owner finds the roster and the table as they were.
            lock(&driver).await?;
            sign_in(&driver, 1, PIN).await?;
            let roster = invoke(&driver, "roster", json!({})).await?;
            ensure!(roster.as_array().map_or(0, Vec::len) == 2, "{roster}");
            let table = invoke(&driver, "role_table", json!({})).await?;
            let issue = table
                .as_array()
                .and_then(|lines| lines.iter().find(|l| l["action"] == "issue_gift_card"))
                .cloned()
                .unwrap_or_default();
            ensure!(issue["cashier"] == "with_approval", "{issue}");
            Ok(())
        },
    )
    .await
}

/// The people on the lock screen, by name.
async fn at_the_lock(driver: &WebDriver) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for person in driver.find_all(By::Css("[id^='lock-person-']")).await? {
        names.push(person.text().await?.lines().next().unwrap_or("").to_owned());
    }
    Ok(names)
}

/// The kind of a refusal the page received.
fn refused_as(answer: &Value) -> Option<&str> {
    answer["error"]["data"]["reason"]["kind"].as_str()
}

#[tokio::test]
async fn a_roster_signed_on_one_till_brings_its_people_to_another_and_takes_them_back() -> Result<()>
{
    let files = std::env::temp_dir().join(format!("roster-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&files)?;
    let first = files.join("first.roster");
    let second = files.join("second.roster");
    let foreign = files.join("foreign.roster");

    // The first till: its owner adds Rita, a manager, exports; then disables her and
    // exports again.
    let fingerprint = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let kept = fingerprint.clone();
    let (one, two) = (first.clone(), second.clone());
    in_demo("roster-first-till", |driver, _server: Server| async move {
        lock(&driver).await?;
        sign_in(&driver, 1, PIN).await?;
        let rita = invoke(
            &driver,
            "add_person",
            json!({"name": "Rita Moreno", "role": "manager", "pin": "9753"}),
        )
        .await?;
        let exported = invoke(&driver, "export_roster", json!({"path": one})).await?;
        ensure!(exported["people"] == 3, "{exported}");
        *kept.lock().unwrap() = exported["fingerprint"].as_str().unwrap_or("").to_owned();
        invoke(
            &driver,
            "change_person",
            json!({"person": rita["id"], "change": {"change": "disabled", "disabled": true}}),
        )
        .await?;
        invoke(&driver, "export_roster", json!({"path": two})).await?;
        // A cashier may not export it.
        lock(&driver).await?;
        sign_in(&driver, CASHIER_ID, loyalty_counter_e2e::CASHIER_PIN).await?;
        let refused = call(&driver, "export_roster", json!({"path": one})).await?;
        ensure!(refused["ok"] == false, "a cashier exported the roster");
        Ok(())
    })
    .await?;
    let fingerprint = fingerprint.lock().unwrap().clone();
    let text = std::fs::read_to_string(&first)?;
    ensure!(!text.contains("9753"), "a PIN left the till");
    // Changed after it was signed: Rita made an owner.
    let altered = files.join("altered.roster");
    std::fs::write(&altered, text.replacen("manager", "owner", 1))?;

    // The second till: its owner trusts the first till's key, once; Rita signs in here
    // with her own PIN; the newer file takes her back.
    let (one, two, other) = (first.clone(), second.clone(), foreign.clone());
    in_demo("roster-second-till", |driver, _server: Server| async move {
        lock(&driver).await?;
        sign_in(&driver, 1, PIN).await?;
        let asked = call(
            &driver,
            "import_roster",
            json!({"path": one, "trust": null}),
        )
        .await?;
        ensure!(refused_as(&asked) == Some("not_trusted"), "{asked}");
        ensure!(
            asked["error"]["data"]["reason"]["fingerprint"] == fingerprint.as_str(),
            "the key shown is not the first till's: {asked}"
        );
        let bad = call(
            &driver,
            "import_roster",
            json!({"path": altered, "trust": fingerprint}),
        )
        .await?;
        ensure!(
            matches!(refused_as(&bad), Some("altered" | "unreadable")),
            "{bad}"
        );
        let imported = invoke(
            &driver,
            "import_roster",
            json!({"path": one, "trust": fingerprint}),
        )
        .await?;
        ensure!(imported["added"] == json!(["Rita Moreno"]), "{imported}");
        lock(&driver).await?;
        let names = at_the_lock(&driver).await?;
        ensure!(names.iter().any(|n| n.contains("Rita Moreno")), "{names:?}");
        let rita = driver
            .find(By::XPath(
                "//*[starts-with(@id,'lock-person-')][contains(., 'Rita Moreno')]",
            ))
            .await?
            .id()
            .await?
            .unwrap_or_default();
        let rita: i64 = rita.trim_start_matches("lock-person-").parse()?;
        sign_in(&driver, rita, "9753").await?;
        signed_in(&driver, "Rita Moreno").await?;
        shot(&driver, "people-roster-imported").await?;

        // A file signed by another key (this till's own) is refused.
        lock(&driver).await?;
        sign_in(&driver, 1, PIN).await?;
        invoke(&driver, "export_roster", json!({"path": other})).await?;
        let foreign = call(
            &driver,
            "import_roster",
            json!({"path": other, "trust": null}),
        )
        .await?;
        ensure!(refused_as(&foreign) == Some("other_key"), "{foreign}");

        let newer = invoke(
            &driver,
            "import_roster",
            json!({"path": two, "trust": null}),
        )
        .await?;
        ensure!(newer["revoked"] == json!(["Rita Moreno"]), "{newer}");
        let older = call(
            &driver,
            "import_roster",
            json!({"path": one, "trust": null}),
        )
        .await?;
        ensure!(refused_as(&older) == Some("not_newer"), "{older}");
        lock(&driver).await?;
        let names = at_the_lock(&driver).await?;
        ensure!(!names.iter().any(|n| n.contains("Rita")), "{names:?}");
        Ok(())
    })
    .await?;
    let _ = std::fs::remove_dir_all(&files);
    Ok(())
}
