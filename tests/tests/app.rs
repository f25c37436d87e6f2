//! The app window, end to end.

use std::time::Duration;

use anyhow::ensure;
use loyalty_counter_e2e::{App, shot, text_of};
use thirtyfour::prelude::*;

#[tokio::test]
async fn the_window_opens_on_connect_and_shows_what_rust_answered() -> anyhow::Result<()> {
    App::run("connect", |driver| async move {
        let heading = text_of(&driver, By::Css("h1"), Duration::from_secs(30)).await?;
        ensure!(heading == "Connect", "first screen heading was {heading:?}");
        ensure!(driver.title().await? == "Loyalty Counter", "window title");

        // The footer shows the answer of the `app_info` command: this proves the round trip
        // through IPC, not just that the page loaded.
        let info = text_of(&driver, By::Id("app-info"), Duration::from_secs(10)).await?;
        let expected = format!("Loyalty Counter {}", env!("CARGO_PKG_VERSION"));
        ensure!(
            info == expected,
            "app_info shown as {info:?}, expected {expected:?}"
        );

        for id in ["api-key", "base-url", "try-demo"] {
            driver.find(By::Id(id)).await?;
        }
        shot(&driver, "connect").await?;
        Ok(())
    })
    .await
}
