//! Accessibility, measured in the real window: touch targets and contrast on every
//! screen, a visible focus, and the counter run with the keyboard alone.

use crate::support;

use std::time::Duration;

use crate::support::{Server, audit, in_demo, shown, stamps, text_until};
use anyhow::{Context, Result, ensure};
use loyalty_counter_e2e::{App, text_of};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(15);

/// Whether the focused element shows a focus ring.
async fn focus_is_visible(driver: &WebDriver) -> Result<bool> {
    let ring: bool = driver
        .execute(
            "const s = getComputedStyle(document.activeElement);
             return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;",
            Vec::new(),
        )
        .await?
        .convert()?;
    Ok(ring)
}

async fn press(driver: &WebDriver, keys: impl Into<TypingData>) -> Result<()> {
    driver.active_element().await?.send_keys(keys).await?;
    Ok(())
}

#[tokio::test]
async fn every_screen_has_44px_targets_and_aa_contrast() -> Result<()> {
    let app = App::launch("access-connect").await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("try-demo"), Duration::from_secs(30)).await?;

        // The audit itself can fail: a small button and pale text planted on the page
        // are both reported, then removed.
        driver
            .execute(
                "const b = document.createElement('button');
                 b.id = 'planted-button'; b.textContent = 'x';
                 b.style.cssText = 'min-width:0;min-height:0;width:20px;height:20px;padding:0';
                 const p = document.createElement('p');
                 p.id = 'planted-text'; p.textContent = 'pale'; p.style.color = '#cccccc';
                 document.querySelector('main').append(b, p);",
                Vec::new(),
            )
            .await?;
        let planted = audit(driver, "planted").await?;
        ensure!(
            planted.iter().any(|p| p.contains("#planted-button"))
                && planted.iter().any(|p| p.contains("#planted-text")),
            "the audit missed what was planted: {planted:?}"
        );
        driver
            .execute(
                "document.getElementById('planted-button').remove();
                 document.getElementById('planted-text').remove();",
                Vec::new(),
            )
            .await?;

        let mut problems = audit(driver, "connect").await?;

        driver.find(By::Id("try-demo")).await?.click().await?;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        let (_, card) = server.customer(2).await?;
        support::scan(driver, &card).await?;
        shown(driver, By::Id("goal-progress"), WAIT).await?;
        problems.extend(audit(driver, "counter").await?);

        driver.find(By::Id("act-visit")).await?.click().await?;
        shown(driver, By::Id("result"), WAIT).await?;
        problems.extend(audit(driver, "counter result").await?);

        for screen in ["gift", "customers", "queue"] {
            support::go(driver, screen).await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            problems.extend(audit(driver, screen).await?);
        }
        driver
            .find(By::Id("queue-view-history"))
            .await?
            .click()
            .await?;
        // The history is a manager's, as its export.
        support::as_manager_if_asked(driver).await?;
        shown(driver, By::Id("history-filters"), WAIT).await?;
        problems.extend(audit(driver, "queue history").await?);

        // The manager's screens, the PIN pad first.
        support::go(driver, "figures").await?;
        support::pin_stage(driver, WAIT).await?;
        problems.extend(audit(driver, "pin pad").await?);
        support::as_manager(driver).await?;
        shown(driver, By::Id("figures-table"), WAIT).await?;
        problems.extend(audit(driver, "figures").await?);
        for (screen, ready) in [("messages", "message-form"), ("browse", "browse-filters")] {
            support::go(driver, screen).await?;
            support::as_manager_if_asked(driver).await?;
            shown(driver, By::Id(ready), WAIT).await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            problems.extend(audit(driver, screen).await?);
        }
        support::go(driver, "gift").await?;
        driver.find(By::Id("issue-open")).await?.click().await?;
        support::as_manager_if_asked(driver).await?;
        shown(driver, By::Id("issue-form"), WAIT).await?;
        problems.extend(audit(driver, "issue a gift card").await?);
        support::open_settings(driver).await?;
        shown(driver, By::Id("settings"), WAIT).await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        problems.extend(audit(driver, "settings").await?);

        // In French: the page says so (`<html lang>`), and every screen holds.
        driver.find(By::Id("lang-fr")).await?.click().await?;
        // Once French's words are in (loaded when first chosen), at once.
        text_until(driver, By::Css("#settings legend"), WAIT, |t| t == "Langue").await?;
        let lang: String = driver
            .execute("return document.documentElement.lang;", Vec::new())
            .await?
            .convert()?;
        ensure!(
            lang == "fr",
            "the page declares {lang:?} while the till speaks French"
        );
        problems.extend(audit(driver, "settings, French").await?);
        driver
            .find(By::Id("settings-button"))
            .await?
            .click()
            .await?;
        support::gone(driver, By::Id("settings"), WAIT).await?;
        for screen in ["counter", "gift", "customers", "queue"] {
            support::go(driver, screen).await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            problems.extend(audit(driver, &format!("{screen}, French")).await?);
        }
        for (screen, ready) in [
            ("figures", "figures-table"),
            ("messages", "message-form"),
            ("browse", "browse-filters"),
        ] {
            support::go(driver, screen).await?;
            support::as_manager_if_asked(driver).await?;
            shown(driver, By::Id(ready), WAIT).await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            problems.extend(audit(driver, &format!("{screen}, French")).await?);
        }

        ensure!(
            problems.is_empty(),
            "{} problems:\n{}",
            problems.len(),
            problems.join("\n")
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

#[tokio::test]
async fn the_counter_works_with_the_keyboard_alone() -> Result<()> {
    in_demo("access-keyboard", |driver, server| async move {
        let driver = &driver;
        let (customer, card) = server.customer(3).await?;
        let customer_id = customer["id"].as_str().context("id")?;
        let before = stamps(&server.card(customer_id, &card).await?)?;

        // Typed by hand into the field that has the focus, then Enter; F1 records a visit.
        press(driver, format!("{card}{}", char::from(Key::Enter))).await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;
        press(driver, Key::F1).await?;
        text_until(driver, By::Id("result"), WAIT, |t| {
            t.contains("Visit recorded")
        })
        .await?;

        // Tab moves to the buttons, with a ring that shows where the focus is.
        press(driver, Key::Tab).await?;
        ensure!(
            focus_is_visible(driver).await?,
            "no visible focus after Tab"
        );

        // Alt+4 opens the queue, Alt+1 brings the counter back with the scan field ready.
        press(driver, Key::Alt + "4").await?;
        shown(driver, By::Id("queue-list"), WAIT).await?;
        press(driver, Key::Alt + "1").await?;
        shown(driver, By::Id("scan"), WAIT).await?;
        text_until(driver, By::Id("status-queued"), WAIT, |t| {
            t.starts_with("0 ")
        })
        .await?;
        let focused = driver.active_element().await?.id().await?;
        ensure!(focused.as_deref() == Some("scan"), "focus on {focused:?}");

        // A second visit at once asks; Enter cancels, Escape too; nothing more recorded.
        press(driver, format!("{card}{}", char::from(Key::Enter))).await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;
        press(driver, Key::F1).await?;
        shown(driver, By::Id("repeat-dialog"), WAIT).await?;
        press(driver, Key::Enter).await?;
        support::gone(driver, By::Id("repeat-dialog"), WAIT).await?;
        let said = text_of(driver, By::Id("result"), WAIT).await?;
        ensure!(said.contains("Nothing recorded"), "after Enter: {said:?}");

        let after = stamps(&server.card(customer_id, &card).await?)?;
        ensure!(after == before + 1, "server: {before} then {after} visits");
        Ok(())
    })
    .await
}

/// The X display's keyboard layout while it lives; US again after.
struct Layout;

impl Layout {
    fn set(layout: &str) -> Result<Self> {
        let status = std::process::Command::new("setxkbmap")
            .arg(layout)
            .status()
            .context("setxkbmap is missing (Xvfb's x11-xkb-utils brings it)")?;
        ensure!(status.success(), "setxkbmap {layout}: {status}");
        Ok(Layout)
    }
}

impl Drop for Layout {
    fn drop(&mut self) {
        let _ = std::process::Command::new("setxkbmap").arg("us").status();
    }
}

/// Presses `keys` on the real keyboard of the display (xdotool), as a person would.
fn press_on_keyboard(keys: &str) -> Result<()> {
    let status = std::process::Command::new("xdotool")
        .args(["key", "--clearmodifiers", keys])
        .status()
        .context("xdotool is missing (`make test` installs it)")?;
    ensure!(status.success(), "xdotool key {keys}: {status}");
    Ok(())
}

#[tokio::test]
async fn alt_and_a_digit_key_opens_its_screen_on_a_french_keyboard() -> Result<()> {
    in_demo("access-azerty", |driver, _server| async move {
        let driver = &driver;
        let _french = Layout::set("fr")?;
        // On AZERTY the keys of the digits type & é " ' without Shift: Alt and the key
        // labelled 3 is Alt+" there. The shortcut goes by the key, not by what it types.
        let current = |id: &'static str| async move {
            let deadline = std::time::Instant::now() + WAIT;
            loop {
                let tab = driver.find(By::Id(id)).await?;
                if tab.attr("aria-current").await?.as_deref() == Some("page") {
                    return Ok::<_, anyhow::Error>(());
                }
                ensure!(std::time::Instant::now() < deadline, "{id} did not open");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        press_on_keyboard("alt+quotedbl")?;
        current("nav-customers").await?;
        press_on_keyboard("alt+apostrophe")?;
        current("nav-queue").await?;
        press_on_keyboard("alt+ampersand")?;
        current("nav-counter").await?;
        Ok(())
    })
    .await
}
