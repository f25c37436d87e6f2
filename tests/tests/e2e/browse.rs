//! The manager's lists, end to end: a first page, "Load more" on the cursor, a filter,
//! a deleted customer shown as such, a gift card opened with its ledger.

use std::time::Duration;

use anyhow::{Context, ensure};
use loyalty_counter_e2e::shot;
use serde_json::json;
use thirtyfour::prelude::*;

use crate::support::{self, in_demo, shown, text_until};

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test]
async fn the_scans_list_loads_a_second_page_and_shows_a_deleted_customer() -> anyhow::Result<()> {
    in_demo("browse-scans", |driver, server| async move {
        let driver = &driver;
        support::go(driver, "browse").await?;
        support::as_manager(driver).await?;
        text_until(driver, By::Id("browse-count"), WAIT, |t| t.ends_with("rows loaded")).await?;
        shot(driver, "browse-customers").await?;

        driver.find(By::Id("browse-scans")).await?.click().await?;
        text_until(driver, By::Id("browse-count"), WAIT, |t| t == "50 rows loaded").await?;
        // The newest scan on the server is the first row.
        let newest = server.get("/v1/scans?limit=100").await?;
        let first = newest["data"][0]["customer_id"].as_str().context("customer")?.to_owned();
        let top = driver.find(By::Css("[role='listitem']")).await?.text().await?;
        ensure!(top.contains(&first), "first row {top:?}, newest scan's customer {first}");

        // Load more: the next page on the cursor, the rows after the first 50.
        driver.find(By::Id("browse-more")).await?.click().await?;
        text_until(driver, By::Id("browse-count"), WAIT, |t| t == "100 rows loaded").await?;
        let row_100 = newest["data"][99]["customer_id"].as_str().context("100th")?.to_owned();
        driver
            .execute(
                "const v = document.querySelector('.viewport'); v.scrollTop = v.scrollHeight; v.dispatchEvent(new Event('scroll'));",
                vec![],
            )
            .await?;
        let last = driver
            .find(By::Css("[role='listitem'][aria-posinset='100']"))
            .await?
            .text()
            .await?;
        ensure!(last.contains(&row_100), "row 100 {last:?}, server's {row_100}");
        shot(driver, "browse-scans").await?;

        // The business deletes a customer: their scans stay, shown as a deleted customer's.
        server
            .delete(&format!("/_sandbox/customers/{first}"))
            .await?;
        driver
            .find(By::Id("browse-customer"))
            .await?
            .send_keys(&first)
            .await?;
        driver.find(By::Id("browse-apply")).await?.click().await?;
        text_until(driver, By::Css("[role='listitem']"), WAIT, |t| {
            t.contains(&format!("Deleted customer {first}"))
        })
        .await?;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_gift_card_in_the_list_opens_with_its_ledger() -> anyhow::Result<()> {
    in_demo("browse-gift", |driver, server| async move {
        let driver = &driver;
        let issued = server
            .post(
                "/v1/gift_cards",
                json!({"amount": 40, "currency": "EUR", "locale": "en",
                       "recipient": {"name": "Mary Jackson", "email": "mary@example.com"}}),
            )
            .await?;
        let id = issued["id"].as_str().context("id")?.to_owned();
        support::go(driver, "browse").await?;
        support::as_manager(driver).await?;
        // The list's tabs show once the screen's code is in (a lazy screen).
        shown(driver, By::Id("browse-gift_cards"), WAIT)
            .await?
            .click()
            .await?;
        let link = shown(driver, By::XPath(format!("//button[text()='{id}']")), WAIT).await?;
        link.click().await?;
        text_until(driver, By::Id("gift-balance"), WAIT, |t| t == "40.00").await?;
        shown(driver, By::Css("#gift-ledger tr[data-kind='issue']"), WAIT).await?;
        Ok(())
    })
    .await
}
