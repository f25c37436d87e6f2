//! An update installed under the running app, in the real window: the app runs from a
//! copy of its binary (as a package installs it), the copy is replaced as dpkg replaces
//! it (the new file renamed over the old one), and the app says in its status bar that
//! the update waits while a customer's card is open, then restarts into it by itself
//! once the cashier is done with that customer: the same process, started again with
//! its options, the shift still open. (`make bundle-test` does it with apt, as root.)

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use loyalty_counter_e2e::{App, shot};
use thirtyfour::prelude::*;

use crate::support::{Server, scan, shown, text_until};

/// The app's log lines so far, every day's file.
fn log_of(app: &App) -> String {
    let mut text = String::new();
    if let Ok(files) = std::fs::read_dir(app.data_dir().join("logs")) {
        for file in files.flatten() {
            text.push_str(&std::fs::read_to_string(file.path()).unwrap_or_default());
        }
    }
    text
}

/// The processes running `binary`, by their id.
fn running(binary: &Path) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let exe = std::fs::read_link(entry.path().join("exe")).unwrap_or_default();
        let exe = exe.to_string_lossy();
        if exe.trim_end_matches(" (deleted)") == binary.to_string_lossy() {
            found.push(pid);
        }
    }
    found
}

/// Copies `from` to `to` as dpkg installs a file: written beside it, then renamed over.
fn install(from: &Path, to: &Path) -> Result<()> {
    let new = to.with_extension("dpkg-new");
    std::fs::copy(from, &new)?;
    std::fs::rename(&new, to)?;
    Ok(())
}

#[tokio::test]
async fn an_update_installed_under_the_app_is_restarted_into_between_customers() -> Result<()> {
    let name = "update-between-customers";
    let home = App::fresh_home(name)?;
    let binary: PathBuf = home.join("bin/loyalty-counter");
    std::fs::create_dir_all(home.join("bin"))?;
    install(&App::built(), &binary)?;
    let binary = binary.canonicalize()?;
    let app = App::launch_from(name, &binary, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        let pids = running(&binary);
        ensure!(pids.len() == 1, "processes running the copy: {pids:?}");

        // A customer's card is open when the package is upgraded.
        let (_, card) = server.customer(0).await?;
        scan(driver, &card).await?;
        shown(driver, By::Id("card-panel"), Duration::from_secs(10)).await?;
        install(&App::built(), &binary)?;
        let said = text_until(
            driver,
            By::Id("status-update"),
            Duration::from_secs(15),
            |t| t.contains("installed"),
        )
        .await?;
        ensure!(said.contains(env!("CARGO_PKG_VERSION")), "{said}");
        shot(driver, "update-waiting").await?;
        // Not while the card is open, however long it stays.
        tokio::time::sleep(Duration::from_secs(8)).await;
        let log = log_of(&app);
        ensure!(
            log.matches("Loyalty Counter started").count() == 1 && !log.contains("restarting"),
            "restarted with a card open:\n{log}"
        );

        // Done with this customer: the till restarts into the update by itself.
        driver.find(By::Id("next-customer")).await?.click().await?;
        let done = Instant::now();
        let deadline = done + Duration::from_secs(30);
        let log = loop {
            let log = log_of(&app);
            if log.matches("first screen on display").count() >= 2 {
                break log;
            }
            ensure!(
                Instant::now() < deadline,
                "no restart 30 s after the card closed:\n{log}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        eprintln!(
            "restarted into the update {:.1} s after the card closed (5 s untouched first)",
            done.elapsed().as_secs_f64()
        );
        ensure!(log.contains("restarting into the update"), "{log}");
        ensure!(log.matches("Loyalty Counter started").count() == 2, "{log}");
        // The same process runs the new file, with the same options (the demo).
        ensure!(
            running(&binary) == pids,
            "{:?} then {:?}",
            pids,
            running(&binary)
        );
        let exe = std::fs::read_link(format!("/proc/{}/exe", pids[0]))?;
        ensure!(exe == binary, "the process runs {}", exe.display());
        let options = std::fs::read(format!("/proc/{}/cmdline", pids[0]))?;
        ensure!(
            options.split(|b| *b == 0).any(|option| option == b"--demo"),
            "{:?}",
            String::from_utf8_lossy(&options)
        );
        Ok(())
    }
    .await;
    let data = app.data_dir();
    app.finish(outcome).await?;
    // The copy of the app is no till's file (and 100 MB).
    std::fs::remove_dir_all(home.join("bin"))?;
    // The shift the day began with is still open.
    let db = loyalty_counter_e2e::open_till_db(&data.join("demo/till"))?;
    let shift =
        counter_core::shifts::open_shift(&db)?.context("no shift open after the restart")?;
    ensure!(shift.id == 1, "{shift:?}");
    Ok(())
}
