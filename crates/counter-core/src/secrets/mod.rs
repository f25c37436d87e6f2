//! The API key: in the operating system's keychain (Secret Service) through
//! `keyring`, or, where no keychain answers, in a file only its owner can read, with
//! a visible warning. Never in the database, never in a log. The database's own key
//! is kept beside it ([`database`]).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use loyalty_api::ApiKey;
use serde::{Deserialize, Serialize};

mod database;

pub(crate) use database::is_in_clear;
pub use database::{DatabaseKey, DatabaseKeyError, DatabaseKeyStorage, holds_encrypted_data};

/// Where keys go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretsConfig {
    /// The keychain under this service name, else the fallback file.
    Keychain {
        /// The keychain's service name.
        service: String,
    },
    /// Only the fallback file (tests, or a till without a keychain by choice).
    FileOnly,
}

impl Default for SecretsConfig {
    fn default() -> Self {
        SecretsConfig::Keychain {
            service: "loyalty-counter".into(),
        }
    }
}

/// Where a key ended up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum KeyStorage {
    /// In the keychain.
    Keychain,
    /// In a file readable only by this user: the UI shows `warning`.
    File {
        /// The file.
        path: PathBuf,
        /// Why, for people.
        warning: String,
    },
}

/// Which API key an attempt was sent with, without the key: the first 16 hex digits
/// of its SHA-256. Idempotency-Keys are scoped to the API key that used them, so the
/// outbox records this with every attempt and never sends a write that may have
/// arrived under one key under another. A key has far too much entropy for this
/// prefix to reveal it.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KeyFingerprint(String);

impl KeyFingerprint {
    /// The fingerprint of `key`.
    pub fn of(key: &ApiKey) -> Self {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(key.expose_secret().as_bytes());
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        Self(hex)
    }

    /// As stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn from_stored(text: String) -> Self {
        Self(text)
    }
}

impl std::fmt::Debug for KeyFingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeyFingerprint({})", self.0)
    }
}

/// Which key the till keeps, as its settings record it (never the key itself).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum KeptKey {
    /// Not recorded (settings an earlier version wrote): the key found is used.
    #[default]
    Unrecorded,
    /// The key with this fingerprint ([`KeyFingerprint`]); any other found is stale.
    Key {
        /// Its fingerprint.
        fingerprint: String,
    },
    /// Forgotten by a manager: that key (when it was known) is never used again; a
    /// key put there since, another, is.
    Forgotten {
        /// The forgotten key's fingerprint (None when it could not be read).
        fingerprint: Option<String>,
    },
}

impl KeptKey {
    /// `key`, kept.
    pub fn of(key: &ApiKey) -> Self {
        KeptKey::Key {
            fingerprint: KeyFingerprint::of(key).as_str().to_owned(),
        }
    }
}

/// Why a key could not be kept or read.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    /// The fallback file could not be written or read.
    #[error("the API key file {path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The fallback file holds something that is not a key (garbage, another
    /// program's text): the till will not send it to the service.
    #[error("the API key file {path} does not hold a valid key")]
    NotAKeyInFile {
        /// The file.
        path: PathBuf,
    },
    /// The keychain's entry for this till holds something that is not a key.
    #[error("the keychain entry for this till does not hold a valid key")]
    NotAKeyInKeychain,
}

/// The key store of one till's data directory.
#[derive(Debug, Clone)]
pub struct KeyStore {
    config: SecretsConfig,
    dir: PathBuf,
    file: PathBuf,
    account: String,
}

impl KeyStore {
    /// A store for the till whose data lives in `data_dir`.
    pub fn new(config: SecretsConfig, data_dir: &Path) -> Self {
        Self {
            config,
            dir: data_dir.to_owned(),
            file: data_dir.join("api-key"),
            // One till's key apart from another's on the same desktop.
            account: format!("api-key:{}", data_dir.display()),
        }
    }

    fn entry(&self) -> Option<keyring::Entry> {
        match &self.config {
            SecretsConfig::Keychain { service } => keyring::Entry::new(service, &self.account)
                .map_err(|err| tracing::warn!(%err, "no keychain entry"))
                .ok(),
            SecretsConfig::FileOnly => None,
        }
    }

    /// Keeps `key`: in the keychain when one answers, else in the file.
    pub fn save(&self, key: &ApiKey) -> Result<KeyStorage, SecretsError> {
        if let Some(entry) = self.entry() {
            match entry.set_password(key.expose_secret()) {
                Ok(()) => {
                    self.remove_file()?;
                    return Ok(KeyStorage::Keychain);
                }
                Err(err) => {
                    tracing::warn!(%err, "the keychain refused the key; using a file");
                    // The key it held before must not outlive this one there.
                    let _ = entry.delete_credential();
                }
            }
        }
        self.write_file(key)?;
        Ok(KeyStorage::File {
            path: self.file.clone(),
            warning: format!(
                "No keychain answered, so the API key is kept in {}, readable only by this \
                 user account. Set up a keychain (Secret Service) to keep it safer.",
                self.file.display()
            ),
        })
    }

    /// The kept key, from the keychain or the file.
    pub fn load(&self) -> Result<Option<(ApiKey, KeyStorage)>, SecretsError> {
        if let Some(found) = self.read_keychain()? {
            return Ok(Some(found));
        }
        self.read_file()
    }

    /// The key the settings say is kept ([`KeptKey`]): a key replaced or forgotten
    /// that a keychain or a file still holds (a keychain that refused to forget it, a
    /// file left when the keychain took the next one) is never used again, and is
    /// removed where it can be.
    pub fn load_kept(&self, kept: &KeptKey) -> Result<Option<(ApiKey, KeyStorage)>, SecretsError> {
        let expected = match kept {
            // Kept by a version that did not record which key: the one found.
            KeptKey::Unrecorded => return self.load(),
            KeptKey::Forgotten { fingerprint } => {
                let found = self.load()?;
                let forgotten = |key: &ApiKey| {
                    fingerprint
                        .as_deref()
                        .is_some_and(|fp| KeyFingerprint::of(key).as_str() == fp)
                };
                return match found {
                    Some((key, _)) if forgotten(&key) => {
                        tracing::warn!("a key forgotten at this till was still kept; removing it");
                        self.delete()?;
                        Ok(None)
                    }
                    other => Ok(other),
                };
            }
            KeptKey::Key { fingerprint } => fingerprint,
        };
        let is_kept = |key: &ApiKey| KeyFingerprint::of(key).as_str() == expected;
        if let Some((key, storage)) = self.read_keychain()? {
            if is_kept(&key) {
                return Ok(Some((key, storage)));
            }
            tracing::warn!("the keychain holds a key this till replaced; removing it");
            if let Some(entry) = self.entry() {
                let _ = entry.delete_credential();
            }
        }
        match self.read_file()? {
            Some((key, storage)) if is_kept(&key) => Ok(Some((key, storage))),
            Some(_) => {
                tracing::warn!("the key file holds a key this till replaced; removing it");
                self.remove_file()?;
                Ok(None)
            }
            None => Ok(None),
        }
    }

    fn read_keychain(&self) -> Result<Option<(ApiKey, KeyStorage)>, SecretsError> {
        if let Some(entry) = self.entry() {
            match entry.get_password() {
                Ok(secret) => {
                    let key = ApiKey::new(secret).map_err(|_| SecretsError::NotAKeyInKeychain)?;
                    return Ok(Some((key, KeyStorage::Keychain)));
                }
                Err(keyring::Error::NoEntry) => {}
                // Bytes that are not even text: an entry, but not one of ours.
                Err(keyring::Error::BadEncoding(_)) => return Err(SecretsError::NotAKeyInKeychain),
                Err(err) => tracing::warn!(%err, "the keychain did not answer; trying the file"),
            }
        }
        Ok(None)
    }

    fn read_file(&self) -> Result<Option<(ApiKey, KeyStorage)>, SecretsError> {
        let not_a_key = || SecretsError::NotAKeyInFile {
            path: self.file.clone(),
        };
        match std::fs::read(&self.file) {
            Ok(bytes) => Ok(Some((
                String::from_utf8(bytes)
                    .ok()
                    .and_then(|secret| ApiKey::new(secret).ok())
                    .ok_or_else(not_a_key)?,
                KeyStorage::File {
                    path: self.file.clone(),
                    warning: format!(
                        "The API key is kept in {}, not in a keychain.",
                        self.file.display()
                    ),
                },
            ))),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(SecretsError::File {
                path: self.file.clone(),
                source,
            }),
        }
    }

    /// Forgets the key everywhere.
    pub fn delete(&self) -> Result<(), SecretsError> {
        if let Some(entry) = self.entry() {
            let _ = entry.delete_credential();
        }
        self.remove_file()
    }

    fn remove_file(&self) -> Result<(), SecretsError> {
        match std::fs::remove_file(&self.file) {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(SecretsError::File {
                path: self.file.clone(),
                source,
            }),
        }
    }

    fn write_file(&self, key: &ApiKey) -> Result<(), SecretsError> {
        let fail = |source| SecretsError::File {
            path: self.file.clone(),
            source,
        };
        // Written beside, then renamed: a crash never leaves half a key.
        let temporary = self.file.with_extension("tmp");
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&temporary).map_err(fail)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The mode above only applies to a new file.
            file.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(fail)?;
        }
        file.write_all(key.expose_secret().as_bytes())
            .map_err(fail)?;
        file.sync_all().map_err(fail)?;
        std::fs::rename(&temporary, &self.file).map_err(fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "lc_test_0123456789abcdefghijklmnopqrstuv";

    #[test]
    fn without_a_keychain_the_key_goes_to_a_file_only_its_owner_can_read_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let store = KeyStore::new(SecretsConfig::FileOnly, dir.path());
        let storage = store.save(&ApiKey::new(SECRET).unwrap()).unwrap();
        let KeyStorage::File { path, warning } = storage else {
            panic!("expected the file fallback");
        };
        assert!(warning.contains("readable only by this user"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let (key, _) = store.load().unwrap().unwrap();
        assert_eq!(key.expose_secret(), SECRET);
        store.delete().unwrap();
        assert!(store.load().unwrap().is_none());
    }

    #[test]
    fn a_key_file_holding_garbage_or_unreadable_is_a_clear_error_not_a_key() {
        let dir = tempfile::tempdir().unwrap();
        let store = KeyStore::new(SecretsConfig::FileOnly, dir.path());
        std::fs::write(dir.path().join("api-key"), b"\xff\xfe not a key").unwrap();
        assert!(matches!(
            store.load(),
            Err(SecretsError::NotAKeyInFile { .. })
        ));
        std::fs::write(dir.path().join("api-key"), "  two words\n").unwrap();
        assert!(matches!(
            store.load(),
            Err(SecretsError::NotAKeyInFile { .. })
        ));
        // A directory where the file should be cannot be read as one.
        std::fs::remove_file(dir.path().join("api-key")).unwrap();
        std::fs::create_dir(dir.path().join("api-key")).unwrap();
        assert!(matches!(store.load(), Err(SecretsError::File { .. })));
    }

    #[test]
    fn a_keychain_entry_that_is_not_a_key_is_a_clear_error_and_a_new_key_replaces_it() {
        keychain::install();
        let dir = tempfile::tempdir().unwrap();
        let config = SecretsConfig::Keychain {
            service: "loyalty-counter-test-strange".into(),
        };
        let store = KeyStore::new(config, dir.path());
        let entry = store.entry().unwrap();
        entry.set_password("a note someone left").unwrap();
        assert!(matches!(store.load(), Err(SecretsError::NotAKeyInKeychain)));
        entry.set_secret(&[0xff, 0x00, 0xfe]).unwrap();
        assert!(matches!(store.load(), Err(SecretsError::NotAKeyInKeychain)));

        assert_eq!(
            store.save(&ApiKey::new(SECRET).unwrap()).unwrap(),
            KeyStorage::Keychain
        );
        let (key, storage) = store.load().unwrap().unwrap();
        assert_eq!(
            (key.expose_secret(), storage),
            (SECRET, KeyStorage::Keychain)
        );
    }

    /// A keychain in memory whose entries outlive the `Entry` values (keyring's own mock
    /// forgets a secret with its entry), shared by every test of this binary.
    mod keychain {
        use std::collections::HashMap;
        use std::sync::{Arc, Mutex, Once};

        use keyring::credential::{Credential, CredentialApi, CredentialBuilderApi};

        type Secrets = Arc<Mutex<HashMap<(String, String), Vec<u8>>>>;

        pub fn install() {
            static ONCE: Once = Once::new();
            ONCE.call_once(|| {
                keyring::set_default_credential_builder(Box::new(Builder(Secrets::default())));
            });
        }

        struct Builder(Secrets);

        impl CredentialBuilderApi for Builder {
            fn build(
                &self,
                _target: Option<&str>,
                service: &str,
                user: &str,
            ) -> keyring::Result<Box<Credential>> {
                Ok(Box::new(Entry {
                    secrets: self.0.clone(),
                    name: (service.to_owned(), user.to_owned()),
                }))
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }

        #[derive(Debug)]
        struct Entry {
            secrets: Secrets,
            name: (String, String),
        }

        impl CredentialApi for Entry {
            fn set_secret(&self, secret: &[u8]) -> keyring::Result<()> {
                let mut secrets = self.secrets.lock().unwrap();
                secrets.insert(self.name.clone(), secret.to_vec());
                Ok(())
            }

            fn get_secret(&self) -> keyring::Result<Vec<u8>> {
                let secrets = self.secrets.lock().unwrap();
                secrets
                    .get(&self.name)
                    .cloned()
                    .ok_or(keyring::Error::NoEntry)
            }

            fn delete_credential(&self) -> keyring::Result<()> {
                let mut secrets = self.secrets.lock().unwrap();
                secrets
                    .remove(&self.name)
                    .map(drop)
                    .ok_or(keyring::Error::NoEntry)
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    }
}
