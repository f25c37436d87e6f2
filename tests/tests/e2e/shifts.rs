//! Shifts in the real window, against the demo's real server: the cashier's first
//! sign-in of the day is offered a shift and opens it; her page's own call to close it
//! is refused; a manager closes it on the Shifts screen; the Z the fake printer decodes,
//! the screen's and the CSV's totals are the same, and the server's records agree.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use fake_printer::{BarcodeKind, FakePrinter};
use loyalty_counter_e2e::{App, data_dir_in, open_till_db, shot};
use serde_json::json;
use thirtyfour::prelude::*;

use crate::support::{self, PIN, Server, call, go, gone, invoke, shown, text_until};

const WAIT: Duration = Duration::from_secs(15);

/// The text of a cell of the report table `table`: the figure `measure`, `column`.
async fn cell(driver: &WebDriver, table: &str, measure: &str, column: &str) -> Result<String> {
    let css = format!("#{table} tr[data-measure='{measure}'] td[data-column='{column}']");
    Ok(shown(driver, By::Css(css), WAIT).await?.text().await?)
}

#[tokio::test]
async fn the_cashier_opens_the_shift_a_manager_closes_it_and_paper_screen_and_csv_agree()
-> Result<()> {
    const NAME: &str = "shifts-z";
    // A till at the start of a day: no shift opened yet.
    let home = App::fresh_home(NAME)?;
    open_till_db(&data_dir_in(&home).join("demo/till"))?.execute("DELETE FROM shifts", [])?;
    let printer = Arc::new(FakePrinter::start()?);
    let app = App::relaunch(NAME, &["--demo"]).await?;
    let opened = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;

        // The first sign-in of the day is offered a shift.
        shown(driver, By::Id("shift-offer"), WAIT).await?;
        shot(driver, "shift-offer").await?;
        driver
            .find(By::Id("shift-offer-open"))
            .await?
            .click()
            .await?;
        gone(driver, By::Id("shift-offer"), WAIT).await?;
        let status = invoke(driver, "shift_status", json!({})).await?;
        ensure!(status["open"]["opened_by"] == "Sam", "{status}");
        let shift = status["open"]["id"].as_i64().context("the shift's id")?;

        let id = server
            .open_claimed_gift_card(driver, "50", "Ada Lovelace")
            .await?;
        support::pay_open_gift_card(driver, "12,50", None).await?;
        Ok((id, shift))
    }
    .await;
    let (id, shift) = match opened {
        Ok(opened) => opened,
        Err(error) => return app.finish(Err(error)).await,
    };
    // Killed with the shift open (a power cut): the restarted till has it, open, and
    // offers no other.
    app.kill();
    let app = App::relaunch(NAME, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        // The demo's server comes back on another port, with its records.
        let server = Server::of(&app).await?;
        let status = invoke(driver, "shift_status", json!({})).await?;
        ensure!(
            status["open"]["id"] == shift && status["offer"] == false,
            "after the kill: {status}"
        );

        // Her page calling the close itself is refused: the shift stays open.
        let refused = call(driver, "close_shift", json!({"shift": shift})).await?;
        ensure!(
            refused["ok"] == false && refused["error"]["code"] == "pin_refused",
            "{refused}"
        );
        let status = invoke(driver, "shift_status", json!({})).await?;
        ensure!(status["open"]["id"] == shift, "{status}");

        crate::receipts::set_up_printer(driver, &printer).await?;

        // The manager closes it on the Shifts screen, over the cashier's session.
        go(driver, "shifts").await?;
        text_until(driver, By::Id("shift-open-status"), WAIT, |t| {
            t.contains("Sam")
        })
        .await?;
        driver.find(By::Id("shift-x")).await?.click().await?;
        support::as_manager_if_asked(driver).await?;
        let x = cell(driver, "x-all", "payments", "confirmed").await?;
        ensure!(x == "1 · 12.50", "the X says {x:?}");
        driver.find(By::Id("shift-close")).await?.click().await?;
        shown(driver, By::Id("shift-close-ask"), WAIT).await?;
        driver
            .find(By::Id("shift-close-yes"))
            .await?
            .click()
            .await?;
        support::as_manager_if_asked(driver).await?;
        shown(driver, By::Id("z-report"), WAIT).await?;
        shot(driver, "shift-z").await?;
        let screen = cell(driver, "z-all", "payments", "confirmed").await?;
        ensure!(screen == "1 · 12.50", "the Z says {screen:?}");
        let checked = driver.find(By::Id("z-check-all")).await?.text().await?;
        ensure!(checked.contains("matches the service"), "{checked:?}");
        let hash = driver.find(By::Id("z-hash")).await?.text().await?;
        ensure!(hash.len() == 64, "{hash:?}");
        shown(driver, By::Id("shift-none"), WAIT).await?;

        // On paper: the same figure, and the seal as its QR code.
        let receipts = crate::receipts::paper(&printer, 1).await?;
        let z = &receipts[0];
        let text = z.text().join("\n");
        // Kept for a person to read: the Z as the printer received it, decoded.
        let kept = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/z-demo");
        std::fs::create_dir_all(&kept)?;
        std::fs::write(kept.join("z-1-printed.txt"), &text)?;
        for wanted in [
            "Z REPORT 1",
            "Gift-card payments EUR",
            "1 x €12.50",
            "SAM",
            "The write matches the service's records.",
        ] {
            ensure!(
                text.replace('\n', " ").contains(wanted),
                "{wanted:?} not on the Z:\n{text}"
            );
        }
        ensure!(
            z.barcodes
                .iter()
                .any(|code| code.kind == BarcodeKind::QrModel2 && code.data == hash),
            "the seal's QR code: {:?}",
            z.barcodes
        );

        // For the books: the CSV's totals are the screen's (the owner exports it).
        crate::people::lock(driver).await?;
        crate::people::sign_in(driver, 1, PIN).await?;
        let path = app.data_dir().join("z-1.csv");
        let path_text = path.to_str().context("a path in UTF-8")?;
        let written = invoke(driver, "export_z", json!({"number": 1, "path": path_text})).await?;
        ensure!(written == 1, "{written}");
        let csv = std::fs::read_to_string(&path)?;
        std::fs::write(kept.join("z-1.csv"), &csv)?;
        ensure!(
            csv.lines()
                .any(|l| l.starts_with("total,")
                    && l.contains(",All,payments,EUR,12.50,1,confirmed,")),
            "{csv}"
        );
        let writes: Vec<&str> = csv.lines().filter(|l| l.starts_with("write,")).collect();
        ensure!(
            writes.len() == 1
                && writes[0].contains(",confirmed,")
                && writes[0].contains(",matched,"),
            "{csv}"
        );

        // The server holds the one payment the Z counts.
        let card = server.get(&format!("/v1/gift_cards/{id}")).await?;
        let spends: Vec<_> = card["transactions"]
            .as_array()
            .context("transactions")?
            .iter()
            .filter(|t| t["type"] == "spend")
            .map(|t| t["amount"].clone())
            .collect();
        ensure!(spends == [json!("12.50")], "{card}");
        Ok(())
    }
    .await;
    app.finish(outcome).await
}
