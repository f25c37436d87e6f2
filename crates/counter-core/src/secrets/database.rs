//! The key that opens the till's database (SQLCipher): 32 random bytes made by the
//! till the first time it opens, kept where the API key is and never beside the
//! database in clear. In order:
//!
//! 1. the keychain (Secret Service), as the API key;
//! 2. where no keychain answers (a kiosk's session): sealed by `systemd-creds` to this
//!    computer, to its TPM where there is one, else to the host's own key (readable by
//!    root alone), in `database-key.cred`: a copy of the folder does not open;
//! 3. where neither can: a file only its user reads, `database-key`, with a warning in
//!    the log. The database then stands no better than its folder against a copy.
//!
//! The key is never made again for a database that already holds encrypted data:
//! without its key such a file is left exactly as it is ([`DatabaseKeyError::Missing`]).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rand::RngCore as _;
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::{KeyStore, SecretsConfig};

/// The name the sealed key is bound to: `systemd-creds` refuses to unseal it as any
/// other credential.
const CREDENTIAL_NAME: &str = "loyalty-counter-database";

/// The database's key: given to SQLCipher as a raw key (`x'…'`), so no passphrase is
/// derived from it at each open. Wiped from memory when dropped; never printed.
#[derive(Clone)]
pub struct DatabaseKey(Zeroizing<[u8; 32]>);

impl DatabaseKey {
    fn random() -> Self {
        let mut bytes = Zeroizing::new([0u8; 32]);
        rand::rng().fill_bytes(bytes.as_mut());
        Self(bytes)
    }

    /// A fixed key, for tests that make their own database.
    #[doc(hidden)]
    pub fn for_tests() -> Self {
        Self(Zeroizing::new([0x5a; 32]))
    }

    /// Another key each time, for tests of a key that does not open a file.
    #[doc(hidden)]
    pub fn random_for_tests() -> Self {
        Self::random()
    }

    fn hex(&self) -> Zeroizing<String> {
        use std::fmt::Write as _;
        let mut text = Zeroizing::new(String::with_capacity(64));
        for byte in self.0.iter() {
            let _ = write!(text, "{byte:02x}");
        }
        text
    }

    fn from_hex(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut bytes = Zeroizing::new([0u8; 32]);
        for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
            *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        Some(Self(bytes))
    }

    /// As SQLCipher takes a raw key: `x'<64 hex digits>'`.
    pub(crate) fn as_sqlcipher_key(&self) -> Zeroizing<String> {
        Zeroizing::new(format!("x'{}'", self.hex().as_str()))
    }
}

impl std::fmt::Debug for DatabaseKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatabaseKey(..)")
    }
}

/// Where the database's key is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DatabaseKeyStorage {
    /// In the keychain.
    Keychain,
    /// Sealed to this computer by `systemd-creds`.
    Sealed,
    /// In a file only this user reads: a copy of the folder opens the database.
    File,
}

/// Why the database's key could not be read or kept.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseKeyError {
    /// The database holds encrypted data and this computer no longer gives its key.
    #[error(
        "the till's data is encrypted and the key that opens it is not on this computer \
         ({why}); nothing was changed"
    )]
    Missing {
        /// What was looked at, for people.
        why: String,
    },
    /// A kept key could not be read back (its sealed file refused, a file that holds
    /// something else): the database is left as it is.
    #[error("the key of the till's data could not be read: {0}; nothing was changed")]
    Unreadable(String),
    /// No place would keep a new key.
    #[error("the key of the till's data could not be kept on this computer: {0}")]
    NotKept(String),
}

/// The first 16 bytes of an SQLite file in clear. An encrypted file begins with its
/// random salt instead.
const CLEAR_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Whether the file at `path` holds data that only its key opens: neither missing,
/// empty, nor an SQLite file in clear.
pub fn holds_encrypted_data(path: &Path) -> bool {
    use std::io::Read as _;
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut header = [0u8; 16];
    match file.read_exact(&mut header) {
        Ok(()) => &header != CLEAR_HEADER,
        // Shorter than a header: nothing written yet.
        Err(_) => false,
    }
}

pub(crate) fn is_in_clear(path: &Path) -> bool {
    use std::io::Read as _;
    let mut header = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut header))
        .is_ok_and(|()| &header == CLEAR_HEADER)
}

impl KeyStore {
    fn database_account(&self) -> String {
        format!("database-key:{}", self.dir.display())
    }

    fn sealed_file(&self) -> PathBuf {
        self.dir.join("database-key.cred")
    }

    fn database_key_file(&self) -> PathBuf {
        self.dir.join("database-key")
    }

    fn database_entry(&self) -> Option<keyring::Entry> {
        match &self.config {
            SecretsConfig::Keychain { service } => {
                keyring::Entry::new(service, &self.database_account())
                    .map_err(|err| tracing::warn!(%err, "no keychain entry for the database key"))
                    .ok()
            }
            SecretsConfig::FileOnly => None,
        }
    }

    /// The key of the database at `database`: the one this computer keeps for it; for a
    /// database that holds no encrypted data yet (new, or an earlier version's in clear,
    /// which [`crate::db::open`] converts), a new one, kept before it is used.
    pub fn database_key(&self, database: &Path) -> Result<DatabaseKey, DatabaseKeyError> {
        let mut looked = Vec::new();
        if let Some((key, _)) = self.kept_database_key(&mut looked)? {
            return Ok(key);
        }
        if holds_encrypted_data(database) {
            if looked.is_empty() {
                looked.push("no key was kept".to_owned());
            }
            return Err(DatabaseKeyError::Missing {
                why: looked.join("; "),
            });
        }
        let key = DatabaseKey::random();
        let storage = self.keep_database_key(&key)?;
        tracing::info!(?storage, "the till's data has a new key");
        Ok(key)
    }

    /// The kept key and where it is; `looked` gathers, for people, why a place gave none.
    fn kept_database_key(
        &self,
        looked: &mut Vec<String>,
    ) -> Result<Option<(DatabaseKey, DatabaseKeyStorage)>, DatabaseKeyError> {
        if let Some(entry) = self.database_entry() {
            match entry.get_password() {
                Ok(text) => {
                    let key = DatabaseKey::from_hex(&Zeroizing::new(text)).ok_or_else(|| {
                        DatabaseKeyError::Unreadable(
                            "the keychain's entry holds something else".into(),
                        )
                    })?;
                    return Ok(Some((key, DatabaseKeyStorage::Keychain)));
                }
                Err(keyring::Error::NoEntry) => {}
                Err(err) => looked.push(format!("the keychain did not answer: {err}")),
            }
        }
        let sealed = self.sealed_file();
        if sealed.exists() {
            let text = unseal(&sealed).map_err(|why| {
                DatabaseKeyError::Unreadable(format!(
                    "{} could not be unsealed: {why}",
                    sealed.display()
                ))
            })?;
            let key = DatabaseKey::from_hex(&text).ok_or_else(|| {
                DatabaseKeyError::Unreadable(format!("{} holds something else", sealed.display()))
            })?;
            return Ok(Some((key, DatabaseKeyStorage::Sealed)));
        }
        let file = self.database_key_file();
        match std::fs::read(&file) {
            Ok(bytes) => {
                let bytes = Zeroizing::new(bytes);
                let key = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(DatabaseKey::from_hex)
                    .ok_or_else(|| {
                        DatabaseKeyError::Unreadable(format!(
                            "{} holds something else",
                            file.display()
                        ))
                    })?;
                Ok(Some((key, DatabaseKeyStorage::File)))
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(DatabaseKeyError::Unreadable(format!(
                "{}: {err}",
                file.display()
            ))),
        }
    }

    /// Keeps a new key in the first place that takes it.
    fn keep_database_key(&self, key: &DatabaseKey) -> Result<DatabaseKeyStorage, DatabaseKeyError> {
        if let Some(entry) = self.database_entry() {
            match entry.set_password(&key.hex()) {
                Ok(()) => return Ok(DatabaseKeyStorage::Keychain),
                Err(err) => tracing::warn!(%err, "the keychain refused the database key"),
            }
        }
        match seal(key) {
            Ok(sealed) => {
                write_private(&self.sealed_file(), &sealed)
                    .map_err(|err| DatabaseKeyError::NotKept(err.to_string()))?;
                return Ok(DatabaseKeyStorage::Sealed);
            }
            Err(why) => tracing::info!(%why, "systemd-creds did not seal the database key"),
        }
        tracing::warn!(
            "neither a keychain nor systemd-creds keeps the key of the till's data: it is in \
             a file beside it, and a copy of the folder opens the data"
        );
        write_private(&self.database_key_file(), key.hex().as_bytes())
            .map_err(|err| DatabaseKeyError::NotKept(err.to_string()))?;
        Ok(DatabaseKeyStorage::File)
    }

    /// Where the database's key is kept, if it is.
    pub fn database_key_storage(&self) -> Option<DatabaseKeyStorage> {
        self.kept_database_key(&mut Vec::new())
            .ok()
            .flatten()
            .map(|(_, storage)| storage)
    }
}

/// Seals `key` to this computer: the TPM and the host's key where both are (`auto`),
/// else the TPM alone (a user who may not read the host's key).
fn seal(key: &DatabaseKey) -> Result<Vec<u8>, String> {
    let mut last = String::new();
    for with in ["auto", "tpm2"] {
        match systemd_creds(
            &[
                "encrypt",
                &format!("--name={CREDENTIAL_NAME}"),
                &format!("--with-key={with}"),
                "-",
                "-",
            ],
            key.hex().as_bytes(),
        ) {
            Ok(sealed) => return Ok(sealed.to_vec()),
            Err(why) => last = why,
        }
    }
    Err(last)
}

fn unseal(path: &Path) -> Result<Zeroizing<String>, String> {
    let path = path.to_str().ok_or("a path that is not text")?;
    let plain = systemd_creds(
        &["decrypt", &format!("--name={CREDENTIAL_NAME}"), path, "-"],
        &[],
    )?;
    String::from_utf8(plain.to_vec())
        .map(Zeroizing::new)
        .map_err(|_| "not text".to_owned())
}

/// Runs `systemd-creds` with `input` on its standard input; its output, or its words.
fn systemd_creds(args: &[&str], input: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    let mut child = Command::new("systemd-creds")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("systemd-creds: {err}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input)
            .map_err(|err| format!("systemd-creds: {err}"))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|err| format!("systemd-creds: {err}"))?;
    if output.status.success() {
        Ok(Zeroizing::new(output.stdout))
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_owned())
    }
}

/// Writes `bytes` to `path`, the user's alone, beside then renamed: a crash never
/// leaves half a key.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = path.with_extension("tmp");
    crate::private::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_64_hex_digits_and_nothing_else_reads_as_one() {
        let key = DatabaseKey::random();
        let again = DatabaseKey::from_hex(&key.hex()).unwrap();
        assert_eq!(*key.0, *again.0);
        assert_eq!(key.as_sqlcipher_key().len(), 67);
        assert_eq!(format!("{key:?}"), "DatabaseKey(..)");
        for text in ["", "zz", &"g".repeat(64), &"a".repeat(63), &"a".repeat(65)] {
            assert!(DatabaseKey::from_hex(text).is_none(), "{text}");
        }
    }

    #[test]
    fn a_key_is_made_once_and_found_again_and_a_file_holding_garbage_is_no_key() {
        let dir = tempfile::tempdir().unwrap();
        let keys = KeyStore::new(SecretsConfig::FileOnly, dir.path());
        let database = dir.path().join("till.db");
        let first = keys.database_key(&database).unwrap();
        let storage = keys.database_key_storage().unwrap();
        // Sealed where systemd-creds can (root, or a TPM), else the file.
        assert_ne!(storage, DatabaseKeyStorage::Keychain);
        let again = keys.database_key(&database).unwrap();
        assert_eq!(*first.0, *again.0);
        let kept = match storage {
            DatabaseKeyStorage::Sealed => dir.path().join("database-key.cred"),
            _ => dir.path().join("database-key"),
        };
        let bytes = std::fs::read(&kept).unwrap();
        assert!(
            !bytes.windows(64).any(|w| w == first.hex().as_bytes())
                || storage == DatabaseKeyStorage::File,
            "a sealed key is not in clear"
        );
        std::fs::write(&kept, b"not a key").unwrap();
        assert!(matches!(
            keys.database_key(&database),
            Err(DatabaseKeyError::Unreadable(_))
        ));
    }
}
