//! What a till leaves on the disk, read as another user of the computer, or whoever
//! carries off a copy of it, would read it: after the end-to-end suite (its demo
//! sessions included), every app data folder it left is walked.
//!
//! - A folder or file that group or others may read (or enter) is a problem.
//! - Every file's bytes (databases, WAL, logs, exports, print jobs, the web view's own
//!   files) are searched for a whole gift-card id (`gc_` and its 24 characters) and for
//!   a customer's email address. The till's database is encrypted, so the writes still waiting
//!   hold theirs only there, unreadable without its key; a till database in clear is a
//!   problem of its own.
//! - Each till's database opens with the key the app keeps for it.
//!
//! One file is the service's, not the till's: the built-in demo's local server keeps
//! its made-up business in `demo/sandbox.db`, as the service keeps a shop's.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

/// What one walk found.
#[derive(Debug, Default)]
pub struct Findings {
    /// Each problem, in words.
    pub problems: Vec<String>,
    /// Files read.
    pub files: usize,
    /// Till databases opened with their key.
    pub tills: usize,
}

/// Walks the app data folder `data` (its tills, the demo's, the logs, the web view's
/// files).
pub fn check(data: &Path, found: &mut Findings) -> std::io::Result<()> {
    let service = data.join("demo/sandbox.db");
    let mut stack = vec![data.to_owned()];
    while let Some(dir) = stack.pop() {
        readable_by_others(&dir, found)?;
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            let meta = std::fs::symlink_metadata(&path)?;
            if meta.is_dir() {
                stack.push(path);
                continue;
            }
            if !meta.is_file() {
                continue;
            }
            readable_by_others(&path, found)?;
            if path
                .as_os_str()
                .to_string_lossy()
                .starts_with(&*service.to_string_lossy())
            {
                continue;
            }
            found.files += 1;
            let bytes = std::fs::read(&path)?;
            if let Some(id) = whole_gift_card_id(&bytes) {
                found
                    .problems
                    .push(format!("{}: a whole gift-card id, {id}", path.display()));
            }
            if let Some(email) = email_address(&bytes) {
                found
                    .problems
                    .push(format!("{}: an email address, {email}", path.display()));
            }
            if path.file_name().is_some_and(|name| name == "till.db") {
                till_database(&path, found);
            }
        }
    }
    Ok(())
}

fn readable_by_others(path: &Path, found: &mut Findings) -> std::io::Result<()> {
    let mode = std::fs::symlink_metadata(path)?.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        found.problems.push(format!(
            "{}: mode {mode:o}, open to group or others",
            path.display()
        ));
    }
    Ok(())
}

fn till_database(path: &Path, found: &mut Findings) {
    let till = path.parent().unwrap_or(Path::new("."));
    if std::fs::metadata(path).is_ok_and(|meta| meta.len() == 0) {
        return;
    }
    if !counter_core::db::holds_encrypted_data(path) {
        found
            .problems
            .push(format!("{}: a till's database in clear", path.display()));
        return;
    }
    match counter_core::db::open_till_read_only(&crate::till_keys(till), path) {
        Ok(_) => found.tills += 1,
        Err(error) => found.problems.push(format!(
            "{}: does not open with its key: {error}",
            path.display()
        )),
    }
}

/// The first whole gift-card id in `bytes`: `gc_` and 24 letters or digits, not
/// inside a longer word.
fn whole_gift_card_id(bytes: &[u8]) -> Option<String> {
    const LENGTH: usize = 3 + 24;
    let word = |b: &u8| b.is_ascii_alphanumeric();
    bytes.windows(LENGTH).enumerate().find_map(|(at, window)| {
        let fits = window.starts_with(b"gc_")
            && window[3..].iter().all(word)
            && (at == 0 || !word(&bytes[at - 1]) && bytes[at - 1] != b'_')
            && bytes.get(at + LENGTH).is_none_or(|b| !word(b));
        fits.then(|| String::from_utf8_lossy(window).into_owned())
    })
}

/// The first customer's email address in `bytes`. Every customer the tests and the demo
/// make has an address at a domain kept for examples (RFC 2606: `example.com`, `.org`,
/// `.net`, or under `.example`): only such an address is looked for, so that the random
/// bytes of an encrypted page never read as one.
fn email_address(bytes: &[u8]) -> Option<String> {
    let local = |b: &u8| b.is_ascii_alphanumeric() || b"._%+-".contains(b);
    let domain = |b: &u8| b.is_ascii_alphanumeric() || b".-".contains(b);
    bytes.iter().enumerate().find_map(|(at, b)| {
        if *b != b'@' || at == 0 {
            return None;
        }
        let start = (0..at).rev().take_while(|&i| local(&bytes[i])).last()?;
        let end = (at + 1..bytes.len())
            .take_while(|&i| domain(&bytes[i]))
            .last()?;
        let host = String::from_utf8_lossy(&bytes[at + 1..=end]).to_ascii_lowercase();
        let kept_for_examples = ["example.com", "example.org", "example.net"]
            .iter()
            .any(|d| host == *d || host.ends_with(&format!(".{d}")))
            || host.ends_with(".example");
        kept_for_examples.then(|| String::from_utf8_lossy(&bytes[start..=end]).into_owned())
    })
}

/// The app data folders under `root` (each test's home, or a home itself).
pub fn data_folders(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let own = crate::data_dir_in(root);
    if own.is_dir() {
        return Ok(vec![own]);
    }
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(root)? {
        let data = crate::data_dir_in(&entry?.path());
        if data.is_dir() {
            folders.push(data);
        }
    }
    folders.sort();
    Ok(folders)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_ids_and_emails_are_found_and_their_masks_are_not() {
        let id = "gc_0123456789abcdefghijABCD";
        assert_eq!(whole_gift_card_id(id.as_bytes()).as_deref(), Some(id));
        assert_eq!(
            whole_gift_card_id(format!("{{\"id\":\"{id}\"}}").as_bytes()).as_deref(),
            Some(id)
        );
        for masked in [
            "****ABCD",
            "gc_****ABCD",
            "gc_0123456789abcdefghijABC",
            "gc_0123456789abcdefghijABCDE",
            "xgc_0123456789abcdefghijABCD",
        ] {
            assert_eq!(whole_gift_card_id(masked.as_bytes()), None, "{masked}");
        }
        assert_eq!(
            email_address(b"to: ada.l+till@example.com, then").as_deref(),
            Some("ada.l+till@example.com")
        );
        assert_eq!(
            email_address(br#""ben@shop.demo.example""#).as_deref(),
            Some("ben@shop.demo.example")
        );
        for none in [
            "@example.com",
            "ada@",
            "ada@localhost",
            "k@T.ADU",
            "x @ example.com",
        ] {
            assert_eq!(email_address(none.as_bytes()), None, "{none}");
        }
    }

    #[test]
    fn a_folder_open_to_others_a_till_in_clear_and_an_id_in_a_log_are_problems() {
        let home = tempfile::tempdir().unwrap();
        let data = crate::data_dir_in(home.path());
        let till = data.join("till");
        counter_core::private::dir(&data).unwrap();
        counter_core::private::dir(&till).unwrap();
        let mut found = Findings::default();
        check(&data, &mut found).unwrap();
        assert_eq!(found.problems, Vec::<String>::new());

        std::fs::create_dir(data.join("logs")).unwrap();
        std::fs::set_permissions(data.join("logs"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        counter_core::private::write(
            &data.join("logs/app.log"),
            b"paid from gc_0123456789abcdefghijABCD for ada@example.com",
        )
        .unwrap();
        let clear = rusqlite::Connection::open(till.join("till.db")).unwrap();
        clear.execute_batch("CREATE TABLE t (x)").unwrap();
        drop(clear);
        std::fs::set_permissions(till.join("till.db"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        let mut found = Findings::default();
        check(&data, &mut found).unwrap();
        let problems = found.problems.join("\n");
        assert_eq!(found.problems.len(), 4, "{problems}");
        for words in [
            "mode 755",
            "a whole gift-card id",
            "an email address",
            "in clear",
        ] {
            assert!(problems.contains(words), "{words}: {problems}");
        }
    }
}
