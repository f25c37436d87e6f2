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

#[tokio::test]
async fn a_second_launch_hands_over_to_the_running_window() -> anyhow::Result<()> {
    let app = App::launch("single-instance").await?;
    let outcome = async {
        text_of(&app.driver, By::Id("app-info"), Duration::from_secs(30)).await?;
        let status = app.launch_second_copy(Duration::from_secs(20))?;
        ensure!(status.success(), "the second copy ended with {status}");
        // The first copy is untouched and still answers.
        let heading = text_of(&app.driver, By::Css("h1"), Duration::from_secs(5)).await?;
        ensure!(
            heading == "Connect",
            "heading after the second launch: {heading:?}"
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}
