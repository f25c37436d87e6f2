//! After the run: no API key text in any file of the run (databases with their
//! `-wal` and `-shm`, logs, captured output), except the till's own key file, which
//! must be readable by its owner only.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// What the scan found.
#[derive(Debug, Default)]
pub struct Scan {
    pub lines: Vec<String>,
    pub problems: u64,
}

pub fn scan(dir: &Path, keys: &[String]) -> anyhow::Result<Scan> {
    let mut out = Scan::default();
    let key_file = dir.join("till").join("api-key");
    let mut files = 0;
    let mut stack = vec![dir.to_owned()];
    while let Some(path) = stack.pop() {
        for entry in std::fs::read_dir(&path)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                stack.push(path);
                continue;
            }
            if path == key_file {
                let mode = entry.metadata()?.permissions().mode() & 0o777;
                if mode != 0o600 {
                    out.problems += 1;
                    out.lines.push(format!(
                        "KEY FILE {} has mode {mode:o}, not 600",
                        path.display()
                    ));
                }
                continue;
            }
            files += 1;
            let bytes = std::fs::read(&path)?;
            for (n, key) in keys.iter().enumerate() {
                if contains(&bytes, key.as_bytes()) {
                    out.problems += 1;
                    // Which key by its place, never its text.
                    out.lines
                        .push(format!("KEY LEAK: key #{} is in {}", n + 1, path.display()));
                }
            }
        }
    }
    out.lines.push(format!(
        "key scan: {files} files searched for {} keys, {} problems; key file {}",
        keys.len(),
        out.problems,
        if key_file.exists() {
            "0600 checked"
        } else {
            "absent"
        }
    ));
    Ok(out)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "outbox-soak-scan-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        std::fs::create_dir_all(dir.join("till")).unwrap();
        dir
    }

    #[test]
    fn a_key_in_any_file_but_the_key_file_is_a_leak() {
        let dir = dir();
        let key = "lc_live_secret123".to_owned();
        std::fs::write(dir.join("till").join("api-key"), &key).unwrap();
        std::fs::set_permissions(
            dir.join("till").join("api-key"),
            std::fs::Permissions::from_mode(0o600),
        )
        .unwrap();
        std::fs::write(dir.join("log"), "nothing here").unwrap();
        assert_eq!(scan(&dir, std::slice::from_ref(&key)).unwrap().problems, 0);
        std::fs::write(dir.join("till").join("till.db-wal"), format!("x{key}x")).unwrap();
        assert_eq!(scan(&dir, std::slice::from_ref(&key)).unwrap().problems, 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_key_file_others_can_read_is_a_problem() {
        let dir = dir();
        let file = dir.join("till").join("api-key");
        std::fs::write(&file, "lc_live_x").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(scan(&dir, &["lc_live_x".to_owned()]).unwrap().problems, 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
