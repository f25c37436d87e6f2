//! The till's database encrypted: the key given to a connection, and a file an earlier
//! version kept in clear encrypted in place.

use std::path::Path;

use rusqlite::Connection;

use super::{OpenError, beside, remove_beside};
use crate::secrets::DatabaseKey;

/// Gives `conn` its key, then reads the file's first page: a key that does not open it
/// is [`OpenError::WrongKey`], before anything is written.
pub(crate) fn unlock(conn: &Connection, key: &DatabaseKey) -> Result<(), OpenError> {
    conn.pragma_update(None, "key", key.as_sqlcipher_key().as_str())?;
    // SQLCipher's own log (to stderr, from the first key on) would say in its words
    // what the till says in its own: a key that does not open the file.
    conn.pragma_update(None, "cipher_log_level", "NONE")?;
    match conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
        r.get::<_, i64>(0)
    }) {
        Ok(_) => Ok(()),
        Err(rusqlite::Error::SqliteFailure(error, _))
            if error.code == rusqlite::ErrorCode::NotADatabase =>
        {
            Err(OpenError::WrongKey)
        }
        Err(error) => Err(error.into()),
    }
}

/// Encrypts, in place, a database an earlier version kept in clear: everything it holds
/// (its WAL's too) is exported into an encrypted file beside it, which then takes its
/// name. Killed at any point, the till finds either the file in clear, whole, or the
/// encrypted one, whole; never half of each.
pub fn encrypt_in_place(path: &Path, key: &DatabaseKey) -> Result<(), OpenError> {
    let encrypting = beside(path, "-encrypting");
    remove_beside(path, &["-encrypting", "-encrypting-journal"])?;
    crate::private::file(&encrypting).map_err(OpenError::Private)?;
    {
        let clear = Connection::open(path)?;
        clear.busy_timeout(std::time::Duration::from_secs(5))?;
        // Everything in the file itself: the WAL may then go without losing a write.
        clear.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        let target = encrypting
            .to_str()
            .ok_or_else(|| OpenError::Private(std::io::Error::other("a path that is not text")))?;
        clear.execute(
            "ATTACH DATABASE ?1 AS encrypted KEY ?2",
            rusqlite::params![target, key.as_sqlcipher_key().as_str()],
        )?;
        clear.query_row("SELECT sqlcipher_export('encrypted')", [], |_| Ok(()))?;
        let version: u32 = clear.pragma_query_value(None, "user_version", |r| r.get(0))?;
        clear.pragma_update(Some("encrypted"), "user_version", version)?;
        clear.execute("DETACH DATABASE encrypted", [])?;
    }
    std::fs::File::open(&encrypting)
        .and_then(|file| file.sync_all())
        .map_err(OpenError::Private)?;
    // The clear file's WAL and index must not meet the encrypted file.
    remove_beside(path, &["-wal", "-shm"])?;
    std::fs::rename(&encrypting, path).map_err(OpenError::Private)?;
    if let Some(dir) = path.parent() {
        std::fs::File::open(dir)
            .and_then(|dir| dir.sync_all())
            .map_err(OpenError::Private)?;
    }
    tracing::info!(path = %path.display(), "the till's data, kept in clear by an earlier version, is encrypted");
    Ok(())
}
