//! Opening the till's SQLite file: encrypted (SQLCipher), WAL, durable commits, and
//! forward migrations by `PRAGMA user_version`.

use std::path::Path;

use rusqlite::Connection;

use crate::secrets::{DatabaseKey, DatabaseKeyError, KeyStore, is_in_clear};

pub use crate::secrets::holds_encrypted_data;
pub(crate) use encryption::unlock;

mod encryption;
mod migrations;
pub mod snapshots;

#[doc(hidden)]
pub use encryption::encrypt_in_place;
#[cfg(test)]
pub(crate) use migrations::at_schema;
pub use migrations::{SCHEMA_VERSION, earlier_schema, migrate};

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// SQLite refused.
    #[error("opening the till's database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file was written by a newer version of the app.
    #[error("the till's database has schema version {found}, newer than this app's {known}")]
    TooNew {
        /// The version in the file.
        found: u32,
        /// The newest version this build knows.
        known: u32,
    },
    /// Opened for reading only, the file is at another version than this build's.
    #[error("the till's database has schema version {found}, not this app's {known}")]
    OtherVersion {
        /// The version in the file.
        found: u32,
        /// The version this build knows.
        known: u32,
    },
    /// The file could not be made the till's user's alone.
    #[error("keeping the till's database to its user: {0}")]
    Private(std::io::Error),
    /// Its key is missing, unreadable, or could not be kept.
    #[error(transparent)]
    Key(#[from] DatabaseKeyError),
    /// A migration failed: the file is left at the schema it had.
    #[error(
        "the till's data could not be brought from schema {from} to {to} ({source}); they \
         were left as they were{snapshot}"
    )]
    Migration {
        /// The schema the file holds.
        from: u32,
        /// This build's.
        to: u32,
        /// What failed.
        source: Box<OpenError>,
        /// Where the snapshot taken before is, for people (", and a snapshot...").
        snapshot: String,
    },
    /// The key this computer keeps does not open the file (another till's file put in
    /// its place, or a damaged one).
    #[error(
        "the till's data cannot be read with the key this computer keeps for it (another \
         till's file, or a damaged one); nothing was changed"
    )]
    WrongKey,
}

/// Opens the till's database at `path` with the key `keys` keep for it (made now for a
/// new till, or one an earlier version kept in clear): see [`open`].
pub fn open_till(keys: &KeyStore, path: &Path) -> Result<Connection, OpenError> {
    let key = keys.database_key(path)?;
    open(path, &key)
}

/// Opens the till's database at `path` for reading only, with the key `keys` keep: see
/// [`open_read_only`]. Never makes a key.
pub fn open_till_read_only(keys: &KeyStore, path: &Path) -> Result<Connection, OpenError> {
    if is_in_clear(path) {
        return open_read_only(path, None);
    }
    let key = keys.database_key(path)?;
    open_read_only(path, Some(&key))
}

/// The file beside `path` SQLite (or the till) names with `suffix` (`-wal`, `-shm`).
pub(crate) fn beside(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

/// Removes the files beside `path` named with `suffixes`, those there.
pub(crate) fn remove_beside(path: &Path, suffixes: &[&str]) -> Result<(), OpenError> {
    for suffix in suffixes {
        match std::fs::remove_file(beside(path, suffix)) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                return Err(OpenError::Private(err));
            }
            _ => {}
        }
    }
    Ok(())
}

/// An instant as the till's tables keep it: fixed width (milliseconds, Z), so that
/// text order is time order.
pub(crate) fn ts(t: jiff::Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// The database at `path` opened with the tests' key, as the till opens its own.
#[cfg(test)]
pub(crate) fn open_for_tests(path: &Path) -> Connection {
    open(path, &DatabaseKey::for_tests()).expect("a test's database opens")
}

/// A new till database in a folder of its own, opened with the tests' key.
#[cfg(test)]
pub(crate) fn new_for_tests() -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let conn = open_for_tests(&dir.path().join("till.db"));
    (dir, conn)
}

/// The reader's page cache, in KiB: see [`open_read_only`].
pub const READER_CACHE_KIB: i64 = 64 * 1024;

/// The WAL's size, in pages of 4 KiB, past which a commit checkpoints (40 MB, where
/// SQLite's default is 1,000 pages): see [`open`].
pub const WAL_PAGES_AT_MOST: i64 = 10_000;

/// Opens (creating and migrating) the database at `path`, encrypted with `key`; a file
/// an earlier version kept in clear is encrypted first ([`encrypt_in_place`]).
///
/// WAL lets readers go on while the outbox commits; `synchronous=FULL` makes every
/// commit durable before it returns, which is what "stored before the first attempt"
/// means after a power cut.
pub fn open(path: &Path, key: &DatabaseKey) -> Result<Connection, OpenError> {
    open_with(path, Some(key))
}

/// Opens the database at `path` as [`open`] does, but in clear: for `make bench`, which
/// measures what encryption costs ([`crate::config::AtRest::InClearForMeasures`]).
#[doc(hidden)]
pub fn open_in_clear(path: &Path) -> Result<Connection, OpenError> {
    open_with(path, None)
}

/// [`open`], or in clear without a key.
pub(crate) fn open_with(path: &Path, key: Option<&DatabaseKey>) -> Result<Connection, OpenError> {
    if let Some(key) = key
        && is_in_clear(path)
    {
        encrypt_in_place(path, key)?;
    }
    // The user's alone, the WAL and its index too (SQLite gives them the file's mode;
    // those an earlier version left readable are closed here).
    crate::private::file(path).map_err(OpenError::Private)?;
    for other in ["-wal", "-shm"] {
        crate::private::close_if_there(&beside(path, other)).map_err(OpenError::Private)?;
    }
    let mut conn = Connection::open(path)?;
    if let Some(key) = key {
        unlock(&conn, key)?;
    }
    configure(&conn)?;
    // Before a migration, a snapshot of the file as it is (an encrypted till's is
    // encrypted with its key): the earlier version of the app can be given it back.
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let snapshot = if (1..SCHEMA_VERSION).contains(&found) {
        Some(snapshots::take(&conn, path, found, jiff::Timestamp::now())?)
    } else {
        None
    };
    // Migrations run before foreign keys are enforced, as SQLite asks of a table
    // rebuilt (migration 8), and end with a check of every reference.
    migrate(&mut conn).map_err(|error| match (&error, snapshot) {
        (OpenError::TooNew { .. }, _) | (_, None) => error,
        (_, Some(snapshot)) => OpenError::Migration {
            from: found,
            to: SCHEMA_VERSION,
            source: Box::new(error),
            snapshot: format!(
                ". A snapshot taken just before is kept as {}: `loyalty-counter \
                 --restore-snapshot {}` puts it back",
                snapshot.path.display(),
                snapshot.taken
            ),
        },
    })?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// How the till's connections write: see [`open`]. Apart, so that a test sees what it
/// does to a file in clear (encrypted, every page of the file looks random anyway).
fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // Every statement the outbox and the cache run again and again stays parsed.
    conn.set_prepared_statement_cache_capacity(64);
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    // What is deleted is overwritten, not left in free pages for a copied file to give
    // away (as Android, Chromium and Firefox set it).
    conn.pragma_update(None, "secure_delete", "ON")?;
    // No checkpoint inside a commit a cashier waits on: copying the WAL into the file
    // (and syncing it) took such a write from a few milliseconds to over a hundred. The
    // till's checkpointer does it, every few seconds on a connection of its own
    // ([`checkpoint`]). Writes that never pause (a sync of a million customers) would
    // outrun it and the WAL would grow without end: past 40 MB, a commit checkpoints.
    conn.pragma_update(None, "wal_autocheckpoint", WAL_PAGES_AT_MOST)?;
    Ok(())
}

/// Opens the database at `path` for reading only, as a window does while another copy
/// of the app owns the till: no migration, no write. A file at another version than
/// this build's is refused (its columns may differ). `key` is None for a file in clear
/// (an earlier version owns it).
pub fn open_read_only(path: &Path, key: Option<&DatabaseKey>) -> Result<Connection, OpenError> {
    use rusqlite::OpenFlags;
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    if let Some(key) = key {
        unlock(&conn, key)?;
    }
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // The counter's searches read here: the pages they touch stay decrypted in SQLite's
    // own cache (up to this much) rather than read and decrypted again from the
    // system's at each letter typed.
    conn.pragma_update(None, "cache_size", -READER_CACHE_KIB)?;
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found != SCHEMA_VERSION {
        return Err(OpenError::OtherVersion {
            found,
            known: SCHEMA_VERSION,
        });
    }
    Ok(conn)
}

/// Copies what the WAL holds into the database file, as far as no reader needs the WAL
/// (SQLite's PASSIVE checkpoint: it never waits for the writer, nor makes it wait). Run
/// every few seconds by the till on a connection of its own; answers the WAL's frames
/// and how many of them are now in the file.
pub fn checkpoint(conn: &Connection) -> rusqlite::Result<(i64, i64)> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((r.get(1)?, r.get(2)?))
    })
}

/// After something was forgotten: everything the WAL holds goes into the database file
/// (whose freed pages `secure_delete` zeroes) and the WAL is cut to nothing, so the
/// forgotten rows are on the disk nowhere. Best effort: a reader in the middle of a
/// read keeps its frames until the next checkpoint.
pub(crate) fn truncate_wal(conn: &Connection) -> rusqlite::Result<()> {
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
}

/// Runs `write` in one transaction that is not synced to the disk when it commits: for
/// the cache, which the service gives again. A crash of the app loses nothing (the OS
/// has the WAL); a power cut may lose the last of these, never a write of the outbox,
/// whose commits sync the WAL and everything in it before them.
pub(crate) fn cache_write<T>(
    conn: &mut Connection,
    write: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    let written = conn.transaction().and_then(|tx| {
        let value = write(&tx)?;
        tx.commit()?;
        Ok(value)
    });
    // Back to FULL whatever happened: the next write may be the outbox's.
    let restored = conn.pragma_update(None, "synchronous", "FULL");
    let value = written?;
    restored?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_is_migrated_to_the_current_version_in_wal_mode() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(&dir.path().join("till.db"), &DatabaseKey::for_tests()).unwrap();
        let version: u32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let sync: i64 = conn
            .pragma_query_value(None, "synchronous", |r| r.get(0))
            .unwrap();
        assert_eq!(sync, 2, "FULL");
    }

    /// Another user of the computer reads nothing of the till's file, its WAL or its
    /// index, even those an earlier version left readable; what is deleted is
    /// overwritten in the file, not left in its free pages.
    #[cfg(unix)]
    #[test]
    fn the_file_and_its_wal_are_the_users_alone_and_deleted_rows_leave_no_trace() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        let mode = |name: &str| {
            std::fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        {
            let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
            conn.execute_batch("CREATE TABLE secrets (text TEXT)")
                .unwrap();
            for name in ["till.db", "till.db-wal", "till.db-shm"] {
                assert_eq!(mode(name), 0o600, "{name}");
            }
        }
        // As an earlier version left them: readable by all.
        for name in ["till.db", "till.db-wal", "till.db-shm"] {
            let file = dir.path().join(name);
            if file.exists() {
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
            }
        }
        let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
        for name in ["till.db", "till.db-wal", "till.db-shm"] {
            assert_eq!(mode(name), 0o600, "{name} once opened again");
        }
        drop(conn);
        // What is deleted leaves nothing in the file's free pages: seen in a file in
        // clear, set as the till's are, where a trace would show.
        let path = dir.path().join("clear.db");
        let conn = Connection::open(&path).unwrap();
        configure(&conn).unwrap();
        conn.execute_batch("CREATE TABLE secrets (text TEXT)")
            .unwrap();
        let secret = "Ada Lovelace ada@example.com +44 20 7946 0000";
        conn.execute("INSERT INTO secrets (text) VALUES (?1)", [secret])
            .unwrap();
        checkpoint(&conn).unwrap();
        assert!(holds(&path, secret), "in clear, the row is seen");
        conn.execute("DELETE FROM secrets", []).unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "a deleted row is still in the file"
        );
    }

    fn holds(path: &Path, needle: &str) -> bool {
        std::fs::read(path)
            .unwrap_or_default()
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
    }

    const CUSTOMER: &str = "Ada Lovelace ada@example.com";

    /// The file and its WAL, read as bytes, hold no customer; another key opens
    /// nothing and changes nothing; nor does SQLite without a key.
    #[test]
    fn the_file_and_its_wal_hold_nothing_in_clear_and_open_only_with_their_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
        conn.execute_batch("CREATE TABLE notes (text TEXT)")
            .unwrap();
        conn.execute("INSERT INTO notes (text) VALUES (?1)", [CUSTOMER])
            .unwrap();
        assert!(holds_encrypted_data(&path));
        assert!(
            std::fs::metadata(beside(&path, "-wal")).unwrap().len() > 0,
            "the row is in the WAL"
        );
        for file in [path.clone(), beside(&path, "-wal")] {
            assert!(
                !holds(&file, CUSTOMER),
                "{} holds a customer",
                file.display()
            );
        }
        checkpoint(&conn).unwrap();
        assert!(!holds(&path, CUSTOMER));
        drop(conn);

        let before = std::fs::read(&path).unwrap();
        let other = DatabaseKey::random_for_tests();
        assert!(matches!(open(&path, &other), Err(OpenError::WrongKey)));
        assert!(matches!(
            open_read_only(&path, Some(&other)),
            Err(OpenError::WrongKey)
        ));
        let bare = Connection::open(&path).unwrap();
        assert!(
            bare.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r
                .get::<_, i64>(0))
                .is_err(),
            "SQLite without the key reads nothing"
        );
        drop(bare);
        assert_eq!(std::fs::read(&path).unwrap(), before, "nothing was changed");
        let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
        let text: String = conn
            .query_row("SELECT text FROM notes", [], |r| r.get(0))
            .unwrap();
        assert_eq!(text, CUSTOMER);
    }

    /// An earlier version's file in clear, as a crash left it (a write in its WAL
    /// alone), is encrypted at the next start with everything it held.
    #[test]
    fn a_file_kept_in_clear_is_encrypted_in_place_its_wal_included() {
        let dir = tempfile::tempdir().unwrap();
        let earlier = dir.path().join("earlier.db");
        let path = dir.path().join("till.db");
        {
            let conn = migrations::at_schema(&earlier, SCHEMA_VERSION as usize);
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
            conn.execute(
                "INSERT INTO settings (name, value) VALUES ('customer', ?1)",
                [CUSTOMER],
            )
            .unwrap();
            // Copied while the earlier app runs: as a kill leaves the files.
            std::fs::copy(&earlier, &path).unwrap();
            std::fs::copy(beside(&earlier, "-wal"), beside(&path, "-wal")).unwrap();
        }
        assert!(holds(&beside(&path, "-wal"), CUSTOMER));
        assert!(!holds_encrypted_data(&path));

        let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
        let kept: String = conn
            .query_row(
                "SELECT value FROM settings WHERE name = 'customer'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(kept, CUSTOMER, "the WAL's write came along");
        let version: u32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        drop(conn);
        assert!(holds_encrypted_data(&path));
        for file in [path.clone(), beside(&path, "-wal")] {
            assert!(
                !holds(&file, CUSTOMER),
                "{} holds a customer",
                file.display()
            );
        }
        assert!(!beside(&path, "-encrypting").exists());
    }

    /// Without the key this computer kept, an encrypted till is left exactly as it is,
    /// and says so; no new key is made over it.
    #[test]
    fn without_its_key_an_encrypted_till_is_left_as_it_was_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let keys = KeyStore::new(crate::secrets::SecretsConfig::FileOnly, dir.path());
        let path = dir.path().join("till.db");
        drop(open_till(&keys, &path).unwrap());
        assert!(keys.database_key_storage().is_some());
        for kept in ["database-key.cred", "database-key"] {
            let _ = std::fs::remove_file(dir.path().join(kept));
        }
        let before = std::fs::read(&path).unwrap();
        let error = open_till(&keys, &path).unwrap_err();
        assert!(
            matches!(error, OpenError::Key(DatabaseKeyError::Missing { .. })),
            "{error:?}"
        );
        let words = error.to_string();
        assert!(
            words.contains("not on this computer") && words.contains("nothing was changed"),
            "{words}"
        );
        assert!(matches!(
            open_till_read_only(&keys, &path),
            Err(OpenError::Key(DatabaseKeyError::Missing { .. }))
        ));
        assert_eq!(std::fs::read(&path).unwrap(), before);
        assert_eq!(keys.database_key_storage(), None, "no key made over it");
    }

    #[test]
    fn a_cache_write_is_not_synced_and_full_sync_comes_back_whatever_happened() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = open(&dir.path().join("till.db"), &DatabaseKey::for_tests()).unwrap();
        let synchronous = |conn: &Connection| -> i64 {
            conn.pragma_query_value(None, "synchronous", |r| r.get(0))
                .unwrap()
        };
        let seen = cache_write(&mut conn, |tx| {
            tx.query_row("PRAGMA synchronous", [], |r| r.get::<_, i64>(0))
        })
        .unwrap();
        assert_eq!(seen, 1, "NORMAL inside the cache's write");
        assert_eq!(synchronous(&conn), 2, "FULL again after it");
        let failed = cache_write(&mut conn, |tx| {
            tx.execute("INSERT INTO no_such_table VALUES (1)", [])
        });
        assert!(failed.is_err());
        assert_eq!(synchronous(&conn), 2, "FULL again after a failed one");
    }

    #[test]
    fn commits_leave_the_wal_to_the_checkpointer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
        let every: i64 = conn
            .pragma_query_value(None, "wal_autocheckpoint", |r| r.get(0))
            .unwrap();
        assert_eq!(
            every, WAL_PAGES_AT_MOST,
            "no commit a cashier waits on checkpoints"
        );
        for n in 0..50 {
            conn.execute(
                "INSERT INTO settings (name, value) VALUES ('bench', ?1)
                 ON CONFLICT(name) DO UPDATE SET value = ?1",
                [n],
            )
            .unwrap();
        }
        let checkpointer = open(&path, &DatabaseKey::for_tests()).unwrap();
        let (frames, copied) = checkpoint(&checkpointer).unwrap();
        assert!(frames > 0, "the commits are in the WAL");
        assert_eq!(
            copied, frames,
            "and all of them are in the file after a checkpoint"
        );
    }

    #[test]
    fn reopening_a_migrated_file_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        drop(open(&path, &DatabaseKey::for_tests()).unwrap());
        assert!(open(&path, &DatabaseKey::for_tests()).is_ok());
    }

    #[test]
    fn a_file_opened_for_reading_reads_and_refuses_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        let owner = open(&path, &DatabaseKey::for_tests()).unwrap();
        let reader = open_read_only(&path, Some(&DatabaseKey::for_tests())).unwrap();
        let count: i64 = reader
            .query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))
            .unwrap();
        assert_eq!(count, 0);
        assert!(
            reader
                .execute("INSERT INTO settings (name, value) VALUES ('x', 'y')", [])
                .is_err()
        );
        drop(owner);
    }
}
