//! What can be wrong with a till's own files when it opens, and what the till does
//! instead of refusing to start.
//!
//! A till that cannot read its key, its settings or own its data still opens: the
//! cashier must see the queue of writes it holds and be told what to put right. Each
//! kind says what is wrong; the UI says it in words and offers what to do.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::secrets::SecretsError;

/// Something wrong with the till's own files that a person must put right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Trouble {
    /// The key file cannot be read (permissions, not a file): the till has no key
    /// until one is given again, which replaces it.
    KeyFileUnreadable {
        /// The file.
        path: PathBuf,
    },
    /// The key file holds something that is not an API key.
    KeyFileNotAKey {
        /// The file.
        path: PathBuf,
    },
    /// The keychain's entry for this till holds something that is not an API key.
    KeychainNotAKey,
    /// These settings could not be read and are at their defaults until they are
    /// saved again ([`crate::Counter::reset_damaged_settings`]).
    SettingsDamaged {
        /// The settings' names, as stored.
        settings: Vec<String>,
    },
    /// Another copy of the app (or another program) owns this till's data: this one
    /// only reads its queue, and sends, changes and connects nothing.
    HeldElsewhere {
        /// The till's data folder.
        path: PathBuf,
    },
}

impl Trouble {
    /// The trouble a key that cannot be read is.
    pub(crate) fn of_key(error: &SecretsError) -> Self {
        match error {
            SecretsError::File { path, .. } => Trouble::KeyFileUnreadable { path: path.clone() },
            SecretsError::NotAKeyInFile { path } => Trouble::KeyFileNotAKey { path: path.clone() },
            SecretsError::NotAKeyInKeychain => Trouble::KeychainNotAKey,
        }
    }
}
