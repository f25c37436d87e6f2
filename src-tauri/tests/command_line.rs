//! The built binary's command line, as a Linux user meets it: `--help` and `--version`
//! print and exit 0 with no display at all, and a bad option says what is wrong and
//! exits 2 before any window.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_loyalty-counter"))
        .args(args)
        // No display and no session bus: a window could not open, so none is tried.
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .output()
        .expect("the binary runs")
}

#[test]
fn help_and_version_print_and_exit_0_without_a_display() {
    let help = run(&["--help"]);
    assert_eq!(help.status.code(), Some(0), "{help:?}");
    let text = String::from_utf8_lossy(&help.stdout);
    for option in [
        "--demo",
        "--kiosk",
        "--kiosk-idle <SECONDS>",
        "--help",
        "--version",
    ] {
        assert!(
            text.contains(option),
            "--help does not document {option}: {text}"
        );
    }
    let version = run(&["--version"]);
    assert_eq!(version.status.code(), Some(0), "{version:?}");
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("loyalty-counter {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_bad_value_or_an_unknown_option_says_what_and_exits_2_before_any_window() {
    for (args, says) in [
        (
            &["--kiosk-idle=abc"][..],
            "invalid value 'abc' for '--kiosk-idle <SECONDS>'",
        ),
        (&["--frobnicate"][..], "unexpected argument '--frobnicate'"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(says), "{args:?}: {said}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
