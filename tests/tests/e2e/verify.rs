//! `loyalty-counter verify`: the till's Z reports checked by the app's own binary from
//! the command line, with no window nor display, on a till kept as the app keeps it
//! (encrypted, its key where the app finds it).

use std::process::Command;

use anyhow::{Result, ensure};
use counter_core::ids::PersonId;
use counter_core::shifts;
use loyalty_counter_e2e::{App, data_dir_in, open_till_db};

/// Runs `verify` in `home`: its exit status, and what it said.
fn verify(home: &std::path::Path) -> Result<(Option<i32>, String)> {
    let app = loyalty_counter_e2e::workspace_root().join("target/debug/loyalty-counter");
    let output = Command::new(app)
        .arg("verify")
        .env_clear()
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Ok((output.status.code(), said))
}

#[test]
fn verify_says_the_zs_agree_and_names_the_first_changed_by_hand() -> Result<()> {
    let home = App::fresh_home("verify")?;
    let till = data_dir_in(&home).join("till");
    {
        let mut db = open_till_db(&till)?;
        for hour in 9..12 {
            let now: jiff::Timestamp = format!("2026-11-29T{hour:02}:00:00Z").parse()?;
            let shift = shifts::open(&db, PersonId(1), now)?;
            shifts::close(
                &mut db,
                shift.id,
                "Owner",
                PersonId(1),
                now + jiff::SignedDuration::from_mins(30),
            )?;
        }
    }
    let (status, said) = verify(&home)?;
    ensure!(status == Some(0), "{status:?}: {said}");
    ensure!(said.contains("All 3 Z reports agree"), "{said}");

    open_till_db(&till)?.execute(
        "UPDATE shifts SET z = json_set(z, '$.closed_by', 'Mallory') WHERE z_number = 2",
        [],
    )?;
    let (status, said) = verify(&home)?;
    ensure!(status == Some(1), "{status:?}: {said}");
    ensure!(
        said.contains("Z 2: its content does not match its hash"),
        "{said}"
    );

    // No till at all: said in words, exit 1.
    let empty = App::empty_home("verify-nothing")?;
    let (status, said) = verify(&empty)?;
    ensure!(
        status == Some(1) && said.contains("there is no till"),
        "{status:?}: {said}"
    );
    Ok(())
}
