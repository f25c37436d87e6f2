//! A wedge scanner set up as US QWERTY, on a till whose keyboard is French AZERTY
//! (`setxkbmap fr` on the test's display): the X keycodes the scanner sends for a demo
//! card's id open that card, while a person typing on the keyboard still types French.

use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail, ensure};
use thirtyfour::prelude::*;

use crate::support::{in_demo, shown, text_until};

const WAIT: Duration = Duration::from_secs(20);

/// The display's keyboard set to a layout for as long as the test holds it, then back
/// to US (the display is shared with the tests that follow).
struct Layout;

impl Layout {
    fn set(layout: &str) -> anyhow::Result<Self> {
        let status = Command::new("setxkbmap")
            .arg(layout)
            .status()
            .context("setxkbmap is missing (`make test` installs it)")?;
        ensure!(status.success(), "setxkbmap {layout}: {status}");
        Ok(Self)
    }
}

impl Drop for Layout {
    fn drop(&mut self) {
        let _ = Command::new("setxkbmap").arg("us").status();
    }
}

/// Gives the till's window the keyboard's focus (xdotool types into the focused one).
fn focus_the_till() -> anyhow::Result<()> {
    let status = Command::new("xdotool")
        .args([
            "search",
            "--onlyvisible",
            "--name",
            "^Loyalty Counter$",
            "windowfocus",
            "--sync",
        ])
        .status()
        .context("xdotool")?;
    ensure!(
        status.success(),
        "the till's window cannot be focused: {status}"
    );
    std::thread::sleep(Duration::from_millis(200));
    Ok(())
}

/// The X keycode (evdev) of the US key that types `c`, and whether Shift is held.
fn us_key(c: char) -> anyhow::Result<(u8, bool)> {
    const ROWS: [(&str, u8); 4] = [
        ("1234567890-=", 10),
        ("qwertyuiop[]", 24),
        ("asdfghjkl;'", 38),
        ("zxcvbnm,./", 52),
    ];
    const SHIFTED: [(&str, u8); 4] = [
        ("!@#$%^&*()_+", 10),
        ("QWERTYUIOP{}", 24),
        ("ASDFGHJKL:\"", 38),
        ("ZXCVBNM<>?", 52),
    ];
    for (table, shift) in [(ROWS, false), (SHIFTED, true)] {
        for (row, first) in table {
            if let Some(at) = row.chars().position(|k| k == c) {
                return Ok((first + at as u8, shift));
            }
        }
    }
    bail!("{c:?} is not on a US keyboard's main keys")
}

/// Sends the keycodes a US scanner sends for `text`, then Enter, as one fast burst:
/// one xdotool run of chained commands, a key every 3 ms (Shift is 50, Return 36).
fn scanner_types(text: &str) -> anyhow::Result<()> {
    let mut args: Vec<String> = Vec::new();
    for c in text.chars() {
        let (code, shift) = us_key(c)?;
        if shift {
            args.extend(["keydown".into(), "--delay".into(), "1".into(), "50".into()]);
        }
        args.extend(["key".into(), "--delay".into(), "3".into(), code.to_string()]);
        if shift {
            args.extend(["keyup".into(), "--delay".into(), "1".into(), "50".into()]);
        }
    }
    args.extend(["key".into(), "36".into()]);
    let status = Command::new("xdotool")
        .args(&args)
        .status()
        .context("xdotool")?;
    ensure!(status.success(), "xdotool {args:?}: {status}");
    Ok(())
}

#[tokio::test]
async fn a_us_scanner_opens_a_card_on_an_azerty_till_and_a_person_still_types_french()
-> anyhow::Result<()> {
    in_demo("layout-azerty", |driver, server| async move {
        let (customer, card) = server.customer(3).await?;
        let name = customer["name"].as_str().context("name")?.to_owned();
        let field = shown(&driver, By::Id("scan"), WAIT).await?;
        let _azerty = Layout::set("fr")?;
        // The till's window has the keyboard, whatever the display's last test left.
        focus_the_till()?;
        field.click().await?;

        // A person types on their AZERTY keyboard: the field holds what they typed.
        Command::new("xdotool")
            .args(["type", "--delay", "120", "café"])
            .status()?;
        let typed = field.prop("value").await?.unwrap_or_default();
        ensure!(typed == "café", "a person typing French got {typed:?}");
        // Cleared as a person does: all selected, deleted.
        Command::new("xdotool")
            .args(["key", "--delay", "50", "ctrl+a", "BackSpace"])
            .status()?;

        // The scanner's keys, as a US keyboard's: on AZERTY they type something else
        // into the field, and the card opens all the same.
        scanner_types(&card)?;
        text_until(&driver, By::Id("card-id"), WAIT, |t| t == card)
            .await
            .context("the US scanner's keys did not open the card")?;
        let shown_name = driver.find(By::Css(".card h3")).await?.text().await?;
        ensure!(
            shown_name.contains(&name),
            "the card shows {shown_name:?}, not {name}"
        );
        Ok(())
    })
    .await
}
