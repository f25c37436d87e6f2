//! The desktop's own settings, followed: high contrast (GNOME's switch turns on GTK's
//! HighContrast theme, which WebKitGTK reports as `prefers-contrast: more`) and less
//! motion (GTK's `gtk-enable-animations` off: `prefers-reduced-motion: reduce`), set in
//! the till's GTK settings as the desktop would.

use std::time::Duration;

use anyhow::{Result, ensure};
use loyalty_counter_e2e::{App, shot};
use thirtyfour::prelude::*;

use crate::support::{Contrast, Server, audit_at, go, scan, shown, text_until};

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test]
async fn high_contrast_holds_every_text_at_7_to_1_and_reduced_motion_stops_movement() -> Result<()>
{
    let name = "desktop-high-contrast";
    let gtk = App::fresh_home(name)?.join("config/gtk-3.0");
    std::fs::create_dir_all(&gtk)?;
    std::fs::write(
        gtk.join("settings.ini"),
        "[Settings]\ngtk-theme-name=HighContrast\ngtk-enable-animations=false\n",
    )?;
    let app = App::relaunch(name, &["--demo"]).await?;
    let outcome = async {
        let driver = &app.driver;
        shown(driver, By::Id("scan"), Duration::from_secs(30)).await?;
        let server = Server::of(&app).await?;
        let asked: Vec<bool> = driver
            .execute(
                "return ['(prefers-contrast: more)', '(prefers-reduced-motion: reduce)']
                   .map((q) => matchMedia(q).matches);",
                Vec::new(),
            )
            .await?
            .convert()?;
        ensure!(
            asked == [true, true],
            "WebKitGTK did not report the desktop's settings: {asked:?}"
        );

        // Something that would move for two seconds does not move.
        let moves: f64 = driver
            .execute(
                "const b = document.createElement('button');
                 b.textContent = 'moving';
                 b.style.transition = 'opacity 2s';
                 b.style.animation = 'x 2s infinite';
                 document.querySelector('main').append(b);
                 const s = getComputedStyle(b);
                 const longest = Math.max(parseFloat(s.transitionDuration), parseFloat(s.animationDuration));
                 b.remove();
                 return longest;",
                Vec::new(),
            )
            .await?
            .convert()?;
        ensure!(moves < 0.001, "a 2 s transition lasts {moves} s");

        let (_, card_id) = server.customer(1).await?;
        scan(driver, &card_id).await?;
        shown(driver, By::Id("card-panel"), WAIT).await?;
        driver.active_element().await?.send_keys(Key::F1).await?;
        text_until(driver, By::Id("result"), WAIT, |t| {
            t.contains("Visit recorded")
        })
        .await?;
        let mut problems = audit_at(driver, "high contrast: a visit", Contrast::Enhanced).await?;
        shot(driver, "high-contrast-counter").await?;
        for screen in ["gift", "customers", "queue"] {
            go(driver, screen).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            problems.extend(
                audit_at(driver, &format!("high contrast: {screen}"), Contrast::Enhanced).await?,
            );
            shot(driver, &format!("high-contrast-{screen}")).await?;
        }
        ensure!(problems.is_empty(), "{}", problems.join("\n"));
        Ok(())
    }
    .await;
    app.finish(outcome).await
}
