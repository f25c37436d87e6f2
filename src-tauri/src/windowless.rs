//! What the app does from the command line, without a window or a display:
//! `loyalty-counter verify` checks the till's Z reports (reading the database, never
//! writing it, beside a running app if there is one); `--restore-snapshot WHEN` puts back
//! the till's data as a snapshot taken before an upgrade held them (the app closed).
//! Each opens the till's database with the key this computer keeps for it.

use std::path::PathBuf;

use counter_core::secrets::{KeyStore, SecretsConfig};

/// The app's data folder, as Tauri makes it on Linux: `$XDG_DATA_HOME` (else
/// `~/.local/share`) and the app's identifier.
fn data_dir(identifier: &str) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share"))
        })?;
    Some(base.join(identifier))
}

/// The shop's till (or the demo's) in the data folder of the app `identifier`, with
/// where its keys are kept: the demo's in its own folder.
fn till(identifier: &str, demo: bool) -> Result<(PathBuf, KeyStore), String> {
    let data = data_dir(identifier).ok_or("no home folder (HOME is not set)")?;
    let (till, secrets) = if demo {
        (data.join("demo/till"), SecretsConfig::FileOnly)
    } else {
        (data.join("till"), SecretsConfig::default())
    };
    if !till.join("till.db").exists() {
        return Err(format!("there is no till in {}", till.display()));
    }
    let keys = KeyStore::new(secrets, &till);
    Ok((till, keys))
}

/// Checks the Zs of the shop's till (or the demo's), prints what it found, and answers
/// the exit status: 0 when every Z agrees, 1 otherwise.
pub fn verify(identifier: &str, demo: bool) -> i32 {
    let (till, keys) = match till(identifier, demo) {
        Ok(found) => found,
        Err(why) => {
            eprintln!("verify: {why}");
            return 1;
        }
    };
    let database = till.join("till.db");
    let conn = match counter_core::db::open_till_read_only(&keys, &database) {
        Ok(conn) => conn,
        Err(error) => {
            eprintln!("verify: {error}");
            return 1;
        }
    };
    match counter_core::shifts::verify(&conn) {
        Ok(Ok(0)) => {
            println!("No shift was closed at this till yet: there is no Z report to check.");
            0
        }
        Ok(Ok(agree)) => {
            println!(
                "All {agree} Z reports agree with the till's records: their numbers, their \
                 chain of hashes and every figure."
            );
            0
        }
        Ok(Err(broken)) => {
            eprintln!("verify: {broken}. The Zs before it agree.");
            1
        }
        Err(error) => {
            eprintln!("verify: the till's records could not be read: {error}");
            1
        }
    }
}

/// Puts back the snapshot of the shop's till (or the demo's) taken at `when` (its stamp,
/// or the start of it), keeping the data as they are now as a snapshot too; answers the
/// exit status.
pub fn restore_snapshot(identifier: &str, demo: bool, when: &str) -> i32 {
    match restore(identifier, demo, when) {
        Ok(said) => {
            println!("{said}");
            0
        }
        Err(why) => {
            eprintln!("restore-snapshot: {why}");
            1
        }
    }
}

fn restore(identifier: &str, demo: bool, when: &str) -> Result<String, String> {
    use counter_core::db::snapshots;
    let (till, keys) = till(identifier, demo)?;
    let database = till.join("till.db");
    // Nothing else may have the file open: the app holds this lock while it runs.
    let _lock = counter_core::lock::OwnerLock::acquire(&till.join("till.lock")).map_err(|_| {
        "Loyalty Counter is running on this till: close it first, then put the snapshot back"
            .to_owned()
    })?;
    let snapshot = snapshots::find(&database, when).map_err(|e| e.to_string())?;
    let key = keys.database_key(&database).map_err(|e| e.to_string())?;
    let kept = snapshots::restore(&database, &key, &snapshot).map_err(|e| e.to_string())?;
    Ok(format!(
        "The till's data are back as they were at {} (schema {}). What they held until now \
         is kept as the snapshot {}: `loyalty-counter --restore-snapshot {}` puts it back. \
         Open the till with the version of the app that wrote that schema.",
        snapshot.taken,
        snapshot.schema,
        kept.path.display(),
        kept.taken
    ))
}
