//! Opening the till's SQLite file: WAL, durable commits, and forward migrations by
//! `PRAGMA user_version`.

use std::path::Path;

use rusqlite::Connection;

mod migrations;

#[cfg(test)]
pub(crate) use migrations::at_schema;
pub use migrations::{SCHEMA_VERSION, migrate};

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
}

/// The WAL's size, in pages of 4 KiB, past which a commit checkpoints (40 MB, where
/// SQLite's default is 1,000 pages): see [`open`].
pub const WAL_PAGES_AT_MOST: i64 = 10_000;

/// Opens (creating and migrating) the database at `path`.
///
/// WAL lets readers go on while the outbox commits; `synchronous=FULL` makes every
/// commit durable before it returns, which is what "stored before the first attempt"
/// means after a power cut.
pub fn open(path: &Path) -> Result<Connection, OpenError> {
    // The user's alone, the WAL and its index too (SQLite gives them the file's mode;
    // those an earlier version left readable are closed here).
    crate::private::file(path).map_err(OpenError::Private)?;
    for other in ["-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(other);
        crate::private::close_if_there(Path::new(&name)).map_err(OpenError::Private)?;
    }
    let mut conn = Connection::open(path)?;
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
    // Migrations run before foreign keys are enforced, as SQLite asks of a table
    // rebuilt (migration 8), and end with a check of every reference.
    migrate(&mut conn)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// Opens the database at `path` for reading only, as a window does while another copy
/// of the app owns the till: no migration, no write. A file at another version than
/// this build's is refused (its columns may differ).
pub fn open_read_only(path: &Path) -> Result<Connection, OpenError> {
    use rusqlite::OpenFlags;
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
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
        let conn = open(&dir.path().join("till.db")).unwrap();
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
            let conn = open(&path).unwrap();
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
        let conn = open(&path).unwrap();
        for name in ["till.db", "till.db-wal", "till.db-shm"] {
            assert_eq!(mode(name), 0o600, "{name} once opened again");
        }
        let secret = "Ada Lovelace ada@example.com +44 20 7946 0000";
        conn.execute("INSERT INTO secrets (text) VALUES (?1)", [secret])
            .unwrap();
        checkpoint(&conn).unwrap();
        conn.execute("DELETE FROM secrets", []).unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "a deleted row is still in the file"
        );
    }

    #[test]
    fn a_cache_write_is_not_synced_and_full_sync_comes_back_whatever_happened() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = open(&dir.path().join("till.db")).unwrap();
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
        let conn = open(&path).unwrap();
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
        let checkpointer = open(&path).unwrap();
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
        drop(open(&path).unwrap());
        assert!(open(&path).is_ok());
    }

    #[test]
    fn a_file_opened_for_reading_reads_and_refuses_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        let owner = open(&path).unwrap();
        let reader = open_read_only(&path).unwrap();
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
