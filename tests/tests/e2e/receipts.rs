//! Receipts end to end: a fake ESC/POS printer on a loopback port, set up in Settings
//! as a manager does; a gift-card payment at the counter prints its receipt once; the
//! Receipts screen previews it and prints it again; an issued gift card's voucher is
//! printed with its QR code, which, drawn and read as a scanner would, opens the card
//! at the counter. What the printer received is decoded and judged.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, ensure};
use fake_printer::{BarcodeKind, Condition, FakePrinter, Receipt};
use loyalty_counter_e2e::shot;
use thirtyfour::prelude::*;

use crate::support::{self, go, in_demo, open_settings, scan, shown, text_until};

const WAIT: Duration = Duration::from_secs(15);

/// Waits (off the test's runtime) for `n` cut receipts; all that is on paper.
pub(crate) async fn paper(printer: &Arc<FakePrinter>, n: usize) -> anyhow::Result<Vec<Receipt>> {
    let printer = printer.clone();
    let receipts = tokio::task::spawn_blocking(move || printer.wait_for_receipts(n, WAIT))
        .await?
        .map_err(|e| anyhow::anyhow!("the printer got something that is not ESC/POS: {e}"))?;
    ensure!(
        receipts.len() == n,
        "{n} receipts expected, got {receipts:#?}"
    );
    Ok(receipts)
}

fn within(receipt: &Receipt, columns: usize) -> anyhow::Result<()> {
    for line in &receipt.lines {
        ensure!(
            line.columns() <= columns,
            "wider than the paper: {:?}",
            line.text
        );
    }
    ensure!(receipt.cut, "not cut: {receipt:?}");
    Ok(())
}

/// The text of the receipt's preview on screen, once drawn.
async fn preview_text(driver: &WebDriver) -> anyhow::Result<String> {
    let paper = shown(driver, By::Css("figure.paper"), WAIT).await?;
    Ok(paper.prop("textContent").await?.unwrap_or_default())
}

pub(crate) async fn set_up_printer(
    driver: &WebDriver,
    printer: &FakePrinter,
) -> anyhow::Result<()> {
    open_settings(driver).await?;
    // A serial line is one only when chosen as such, and only a serial line's path:
    // a disk is refused in words.
    let serial = driver.find(By::Id("printer-kind-serial")).await?;
    serial.scroll_into_view().await?;
    serial.click().await?;
    let path = shown(driver, By::Id("printer-path"), WAIT).await?;
    let offered = path.prop("value").await?.unwrap_or_default();
    ensure!(
        offered == "/dev/ttyUSB0",
        "a serial line's path is offered: {offered:?}"
    );
    path.clear().await?;
    path.send_keys("/dev/sda").await?;
    let save = driver.find(By::Id("printer-save")).await?;
    save.scroll_into_view().await?;
    save.click().await?;
    support::as_manager_if_asked(driver).await?;
    text_until(driver, By::Id("printer-error"), WAIT, |t| {
        t.contains("is not a serial line")
    })
    .await?;
    shot(driver, "settings-printer-serial-refused").await?;
    let network = driver.find(By::Id("printer-kind-network")).await?;
    network.scroll_into_view().await?;
    network.click().await?;
    let host = shown(driver, By::Id("printer-host"), WAIT).await?;
    host.send_keys("127.0.0.1").await?;
    let port = driver.find(By::Id("printer-port")).await?;
    port.clear().await?;
    port.send_keys(printer.addr().port().to_string()).await?;
    let paper = driver.find(By::Id("printer-paper-58")).await?;
    paper.scroll_into_view().await?;
    paper.click().await?;
    let save = driver.find(By::Id("printer-save")).await?;
    save.scroll_into_view().await?;
    save.click().await?;
    support::as_manager_if_asked(driver).await?;
    text_until(driver, By::Id("printer-done"), WAIT, |t| {
        t.contains("saved")
    })
    .await?;
    text_until(driver, By::Id("printer-state"), WAIT, |t| {
        t.contains("ready")
    })
    .await?;
    shot(driver, "settings-printer").await?;
    driver.find(By::Id("settings-close")).await?.click().await?;
    Ok(())
}

#[tokio::test]
async fn a_payment_prints_its_receipt_once_and_the_voucher_opens_its_gift_card()
-> anyhow::Result<()> {
    let printer = Arc::new(FakePrinter::start()?);
    let fake = printer.clone();
    in_demo("receipts", |driver, server| async move {
        let driver = &driver;
        let printer = &fake;
        set_up_printer(driver, printer).await?;

        let id = server
            .open_claimed_gift_card(driver, "50", "Ada Lovelace")
            .await?;
        support::pay_open_gift_card(driver, "12,50", Some("T-1001")).await?;

        let receipts = paper(printer, 1).await?;
        let receipt = &receipts[0];
        within(receipt, 32)?;
        let text = receipt.text().join("\n");
        let end = &id[id.len() - 4..];
        for wanted in [
            "GIFT CARD PAYMENT",
            "€12.50",
            "€37.50",
            "T-1001",
            "Counter 1 #",
            "Balance left",
            "Served by Sam",
        ] {
            ensure!(
                receipt.contains(wanted),
                "{wanted:?} not on the receipt:\n{text}"
            );
        }
        ensure!(
            receipt.contains(&format!("****{end}")),
            "card's end:\n{text}"
        );
        ensure!(
            !receipt.contains(&id),
            "the whole card id is printed:\n{text}"
        );
        // The server took it once.
        let card = server.get(&format!("/v1/gift_cards/{id}")).await?;
        ensure!(
            card["balance"] == "37.50",
            "server balance {}",
            card["balance"]
        );

        // The preview at the counter is the receipt's lines.
        shown(driver, By::Id("receipt-show"), WAIT)
            .await?
            .click()
            .await?;
        let preview = preview_text(driver).await?;
        ensure!(
            preview.contains("Balance left") && preview.contains("€37.50"),
            "{preview}"
        );
        shot(driver, "receipt-preview-payment").await?;

        // Printed once: the printer task's later rounds send nothing more.
        tokio::time::sleep(Duration::from_secs(3)).await;
        ensure!(printer.paper()?.len() == 1, "printed more than once");

        // The Receipts screen lists it and prints it again.
        go(driver, "receipts").await?;
        text_until(driver, By::Id("receipt-list"), WAIT, |t| {
            t.contains("Printed")
        })
        .await?;
        shot(driver, "receipts").await?;
        // A copy is a manager's: the PIN first; it says "COPY" above the same receipt.
        shown(driver, By::Id("receipt-reprint"), WAIT)
            .await?
            .click()
            .await?;
        support::as_manager_if_asked(driver).await?;
        let again = paper(printer, 2).await?;
        let copy = again[1].text();
        ensure!(
            copy.first().map(|l| l.trim()) == Some("COPY") && again[0].text() == copy[1..],
            "the copy differs: {copy:?}"
        );

        // Out of paper: the status bar says so, the receipt waits, and prints once
        // paper is back.
        printer.set_condition(Condition::PaperOut);
        shown(driver, By::Id("receipt-reprint"), WAIT)
            .await?
            .click()
            .await?;
        support::as_manager_if_asked(driver).await?;
        text_until(driver, By::Id("status-printer"), WAIT, |t| {
            t.contains("out of paper") && t.contains("1 receipt waiting")
        })
        .await?;
        shot(driver, "status-printer-paper-out").await?;
        printer.set_condition(Condition::Online);
        paper(printer, 3).await?;
        support::gone(driver, By::Id("status-printer"), WAIT).await?;

        // A voucher, issued by the manager, with its card as a QR code.
        support::issue_in_ui(driver, "25", "Grace Hopper", "grace@example.com").await?;
        let receipts = paper(printer, 4).await?;
        let voucher = &receipts[3];
        within(voucher, 32)?;
        ensure!(
            voucher.contains("GIFT VOUCHER") && voucher.contains("For Grace Hopper"),
            "{:?}",
            voucher.text()
        );
        let qr = voucher
            .barcodes
            .first()
            .context("no barcode on the voucher")?;
        ensure!(qr.kind == BarcodeKind::QrModel2, "{qr:?}");
        shown(driver, By::Id("receipt-show"), WAIT)
            .await?
            .click()
            .await?;
        // On screen, the card by its last four characters: its whole id is its money,
        // and goes to the customer on paper only.
        let end = &qr.data[qr.data.len() - 4..];
        let preview = preview_text(driver).await?;
        ensure!(
            preview.contains(&format!("****{end}")) && !preview.contains(&qr.data),
            "{preview}"
        );
        ensure!(
            driver.find_all(By::Css(".paper svg.qr")).await?.is_empty(),
            "the voucher's QR code is on screen"
        );
        shown(driver, By::Css("figure.paper"), WAIT)
            .await?
            .scroll_into_view()
            .await?;
        shot(driver, "receipt-preview-voucher").await?;

        // The first receipt, as a printer unplugged halfway leaves it: it may have
        // printed. The status bar counts it, the Receipts screen asks, and "print it
        // again" prints it as it was, once.
        let till = loyalty_counter_e2e::data_dir_in(&server.home).join("demo/till");
        let first: i64 = {
            let db = loyalty_counter_e2e::open_till_db(&till)?;
            let first = db.query_row("SELECT MIN(id) FROM print_jobs", [], |row| row.get(0))?;
            db.execute(
                "UPDATE print_jobs SET state = 'unsure' WHERE id = ?1",
                [first],
            )?;
            first
        };
        support::invoke(driver, "printer_report", serde_json::json!({})).await?;
        text_until(driver, By::Id("status-printer"), WAIT, |t| {
            t.contains("1 receipt may have printed")
        })
        .await?;
        go(driver, "receipts").await?;
        shown(
            driver,
            By::Css(format!("button.job[data-job='{first}']")),
            WAIT,
        )
        .await?
        .click()
        .await?;
        shown(driver, By::Id("receipt-unsure"), WAIT).await?;
        shot(driver, "receipt-unsure").await?;
        driver
            .find(By::Id("receipt-unsure-again"))
            .await?
            .click()
            .await?;
        let again = paper(printer, 5).await?;
        ensure!(
            again[4].text() == receipts[0].text(),
            "printed again otherwise than it was: {:?}",
            again[4].text()
        );
        support::gone(driver, By::Id("status-printer"), WAIT).await?;
        tokio::time::sleep(Duration::from_secs(3)).await;
        ensure!(printer.paper()?.len() == 5, "printed more than once");

        // Read from its drawing as a scanner would, it opens that gift card.
        let read = fake_printer::read_drawn_qr(&qr.data).map_err(anyhow::Error::msg)?;
        go(driver, "counter").await?;
        shown(driver, By::Id("scan"), WAIT).await?;
        scan(driver, &read).await?;
        text_until(driver, By::Id("gift-recipient"), WAIT, |t| {
            t == "Grace Hopper"
        })
        .await?;
        let issued = server.get(&format!("/v1/gift_cards/{read}")).await?;
        ensure!(issued["recipient"]["name"] == "Grace Hopper", "{issued}");
        Ok(())
    })
    .await
}
