//! The camera, end to end, fed recorded frames through the app's own pipeline
//! (`--camera FOLDER`: a folder of images played in a loop as if it were a camera, read
//! again at each pass, so the test puts a card's frames there when it knows the card):
//!
//! - a kiosk whose camera sees only phones without a code records nothing; shown a demo
//!   card's QR code, held in view for seconds, it checks the customer in once;
//! - at the counter, the Camera button opens the camera, and a PDF417 and an Aztec
//!   frame of a gift card each open it on the gift-card screen; the camera is released
//!   when its panel closes.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, ensure};
use camera_frames::{Scene, Symbology};
use loyalty_counter_e2e::{App, shot};
use thirtyfour::prelude::*;

use crate::support::{self, Server, go, shown, stamps, text_until};

const WAIT: Duration = Duration::from_secs(20);

/// Frames of phones showing no code, for a camera that sees nothing to read.
fn nothing_to_read(folder: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(folder)?;
    for seed in 0..3 {
        Scene::held(None, 500 + seed)
            .draw()
            .save(folder.join(format!("a-{seed}.png")))?;
    }
    Ok(())
}

/// Takes the frames of a code out of the folder.
fn hide_codes(folder: &Path) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(folder)? {
        let path = entry?.path();
        if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("code-"))
        {
            std::fs::remove_file(path)?;
        }
    }
    Ok(())
}

/// Puts frames of `text` as `symbology` in the folder, in place of any code's frames:
/// a straight one, then hands that move.
fn show(folder: &Path, symbology: Symbology, text: &str) -> anyhow::Result<()> {
    hide_codes(folder)?;
    let frames = [
        Scene::plain(symbology, text),
        Scene::held(Some((symbology, text)), 3),
    ];
    for (n, scene) in frames.iter().enumerate() {
        // Written aside, then renamed: the camera never reads half a file.
        let part = folder.join(format!(".code-{n}.part"));
        scene
            .draw()
            .save_with_format(&part, image::ImageFormat::Png)?;
        std::fs::rename(&part, folder.join(format!("code-{n}.png")))?;
    }
    Ok(())
}

#[tokio::test]
async fn a_kiosk_checks_in_a_card_its_camera_reads_once_and_records_nothing_without_one()
-> anyhow::Result<()> {
    let frames = tempfile::tempdir()?;
    nothing_to_read(frames.path())?;
    let folder = frames.path().to_str().context("a path")?;
    // No one on the roster yet: the kiosk asks for the owner's PIN first.
    let app = App::launch_bare("camera-kiosk", &["--demo", "--kiosk", "--camera", folder]).await?;
    let outcome = async {
        let driver = &app.driver;
        ensure!(
            support::pin_stage(driver, Duration::from_secs(30)).await? == "new",
            "a kiosk without a manager PIN did not ask for one first"
        );
        support::as_manager(driver).await?;
        shown(driver, By::Id("kiosk-scan"), WAIT).await?;
        let server = Server::of(&app).await?;
        let (customer, card) = server.customer(7).await?;
        let id = customer["id"].as_str().context("id")?.to_owned();
        let before = stamps(&server.card(&id, &card).await?)?;

        // The preview shows what the camera sees, with the frame to aim at. A finger on
        // it (a customer pointing at their phone) takes nothing from the scan field.
        let preview = shown(driver, By::Id("camera-preview"), WAIT).await?;
        text_until(driver, By::Id("camera-status"), WAIT, |t| {
            t.contains("inside the frame")
        })
        .await?;
        // On a 1280 × 800 tablet, with the camera shown, every key and OK are in view:
        // nothing to scroll.
        driver.set_window_rect(0, 0, 1280, 800).await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let fits: serde_json::Value = driver
            .execute(
                "const main = document.querySelector('.kiosk-main');
                 const ok = document.getElementById('kiosk-ok').getBoundingClientRect();
                 return { ok: ok.bottom, height: window.innerHeight, width: window.innerWidth,
                          scrolls: main.scrollHeight - main.clientHeight };",
                Vec::new(),
            )
            .await?
            .json()
            .clone();
        ensure!(
            fits["scrolls"].as_f64() <= Some(1.0) && fits["ok"].as_f64() <= fits["height"].as_f64(),
            "the kiosk does not fit its screen with the camera: {fits}"
        );
        support::tap(driver, &preview).await?;
        let focused = driver.active_element().await?.id().await?;
        ensure!(
            focused.as_deref() == Some("kiosk-scan"),
            "after a tap on the preview the scanner would type into {focused:?}"
        );
        // Phones without a code, looped for three seconds: nothing read, nothing queued.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let said = driver.find(By::Id("kiosk-result")).await?.text().await?;
        ensure!(
            said.trim().is_empty(),
            "frames without a code said {said:?}"
        );
        ensure!(
            stamps(&server.card(&id, &card).await?)? == before,
            "a visit was recorded from frames without a code"
        );

        show(frames.path(), Symbology::Qr, &card)?;
        text_until(driver, By::Id("kiosk-result"), WAIT, |t| {
            t.contains("your visit counts")
        })
        .await?;
        shot(driver, "kiosk-camera").await?;
        // Held in view for five more seconds (the folder loops under a second): one scan.
        tokio::time::sleep(Duration::from_secs(5)).await;
        let after = stamps(&server.card(&id, &card).await?)?;
        ensure!(
            after == before + 1,
            "the card held to the camera counted {} visits",
            after - before
        );
        Ok(())
    }
    .await;
    app.finish(outcome).await
}

#[tokio::test]
async fn the_counters_camera_opens_a_gift_card_from_its_pdf417_and_its_aztec_code()
-> anyhow::Result<()> {
    let frames = tempfile::tempdir()?;
    nothing_to_read(frames.path())?;
    let folder = frames.path().to_str().context("a path")?;
    let app = App::launch_with("camera-counter", &["--demo", "--camera", folder]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), WAIT).await?;
        let server = Server::of(&app).await?;
        let till = tempfile::tempdir()?;
        let gift = server
            .issue_gift_card(till.path(), "40", "Alan Turing")
            .await?;

        // No camera is open until the cashier asks for it.
        ensure!(
            driver.find_all(By::Id("camera-panel")).await?.is_empty(),
            "the camera panel showed before the Camera button was pressed"
        );
        for (symbology, name) in [(Symbology::Pdf417, "pdf417"), (Symbology::Aztec, "aztec")] {
            hide_codes(frames.path())?;
            go(driver, "counter").await?;
            shown(driver, By::Id("camera-toggle"), WAIT)
                .await?
                .click()
                .await?;
            shown(driver, By::Id("camera-preview"), WAIT).await?;
            if name == "pdf417" {
                shot(driver, "counter-camera").await?;
            }
            show(frames.path(), symbology, &gift)?;
            text_until(driver, By::Id("gift-recipient"), WAIT, |t| {
                t == "Alan Turing"
            })
            .await
            .with_context(|| format!("the {name} frame did not open the gift card"))?;
            ensure!(
                driver.find_all(By::Id("camera-panel")).await?.is_empty(),
                "the camera stayed open after it read the {name} code"
            );
        }
        Ok(())
    }
    .await;
    app.finish(outcome).await
}
