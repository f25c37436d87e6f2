//! Snapshots of the till's database, taken before it is migrated to a newer schema: a
//! shop that must go back to the earlier version of the app puts one back
//! (`loyalty-counter --restore-snapshot <when>`). Each is a `VACUUM INTO` copy (whole,
//! consistent, encrypted with the database's own key), in `snapshots/` beside the
//! database, named by when it was taken and the schema it holds. The last two are kept.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use rusqlite::Connection;

use super::OpenError;
use crate::secrets::DatabaseKey;

/// How many snapshots are kept.
pub const KEPT: usize = 2;

/// A snapshot on the disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Its file.
    pub path: PathBuf,
    /// When it was taken, as its name says it (`2026-11-29T09-30-00Z`): what a person
    /// gives `--restore-snapshot`.
    pub taken: String,
    /// The schema version it holds.
    pub schema: u32,
}

/// The folder of the snapshots of the database at `database`.
pub fn folder(database: &Path) -> PathBuf {
    database
        .parent()
        .unwrap_or(Path::new("."))
        .join("snapshots")
}

/// The snapshots of the database at `database`, oldest first.
pub fn list(database: &Path) -> std::io::Result<Vec<Snapshot>> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(folder(database)) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(err) => return Err(err),
    };
    for entry in entries {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // till-<taken>-schema<N>.db
        let Some((taken, schema)) = name
            .strip_prefix("till-")
            .and_then(|rest| rest.strip_suffix(".db"))
            .and_then(|rest| rest.rsplit_once("-schema"))
        else {
            continue;
        };
        if let Ok(schema) = schema.parse() {
            found.push(Snapshot {
                taken: taken.to_owned(),
                schema,
                path: path.clone(),
            });
        }
    }
    found.sort_by(|a, b| a.taken.cmp(&b.taken).then(a.schema.cmp(&b.schema)));
    Ok(found)
}

fn stamp(now: Timestamp) -> String {
    now.strftime("%Y-%m-%dT%H-%M-%SZ").to_string()
}

/// Takes a snapshot of `conn`'s database (at `database`, holding schema `schema`) and
/// removes all but the last [`KEPT`]. Answers it.
pub(crate) fn take(
    conn: &Connection,
    database: &Path,
    schema: u32,
    now: Timestamp,
) -> Result<Snapshot, OpenError> {
    let folder = folder(database);
    crate::private::dir(&folder).map_err(OpenError::Private)?;
    let taken = stamp(now);
    let path = folder.join(format!("till-{taken}-schema{schema}.db"));
    let text = path
        .to_str()
        .ok_or_else(|| OpenError::Private(std::io::Error::other("a path that is not text")))?;
    // One taken the same second is the same. VACUUM INTO writes into an empty file: made
    // first, the user's alone, it keeps its mode; renamed once whole.
    if !path.exists() {
        let partial = folder.join(format!("till-{taken}-schema{schema}.partial"));
        let _ = std::fs::remove_file(&partial);
        crate::private::file(&partial).map_err(OpenError::Private)?;
        conn.execute("VACUUM INTO ?1", [partial.to_str().unwrap_or(text)])?;
        std::fs::rename(&partial, &path).map_err(OpenError::Private)?;
    }
    let snapshots = list(database).map_err(OpenError::Private)?;
    for old in snapshots.iter().rev().skip(KEPT) {
        std::fs::remove_file(&old.path).map_err(OpenError::Private)?;
    }
    tracing::info!(path = %path.display(), schema, "a snapshot of the till's data before its migration");
    Ok(Snapshot {
        path,
        taken,
        schema,
    })
}

/// Removes the snapshots of `database` taken before `before` (all of them with None):
/// what the till forgets, its snapshots forget too. Answers how many went.
pub fn remove(database: &Path, before: Option<Timestamp>) -> std::io::Result<usize> {
    let cut = before.map(stamp);
    let mut removed = 0;
    for snapshot in list(database)? {
        // Stamps of one fixed width: text order is time order.
        if cut.as_ref().is_none_or(|cut| snapshot.taken < *cut) {
            std::fs::remove_file(&snapshot.path)?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Why a snapshot could not be put back.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// No snapshot, or more than one, was taken then.
    #[error("no single snapshot was taken at {asked}: the snapshots kept are {kept}")]
    NotOne {
        /// What was asked.
        asked: String,
        /// Those there are, for people.
        kept: String,
    },
    /// The files could not be read or written.
    #[error("putting the snapshot back: {0}")]
    Io(#[from] std::io::Error),
    /// SQLite refused.
    #[error("putting the snapshot back: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// The one snapshot of `database` taken at `asked` (its full stamp, or the start of
/// it: a day, a minute).
pub fn find(database: &Path, asked: &str) -> Result<Snapshot, RestoreError> {
    let snapshots = list(database)?;
    let matching: Vec<&Snapshot> = snapshots
        .iter()
        .filter(|s| !asked.is_empty() && s.taken.starts_with(asked))
        .collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        _ => Err(RestoreError::NotOne {
            asked: asked.to_owned(),
            kept: if snapshots.is_empty() {
                "none".to_owned()
            } else {
                snapshots
                    .iter()
                    .map(|s| format!("{} (schema {})", s.taken, s.schema))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        }),
    }
}

/// Puts `snapshot` back as the database at `database`, opened with `key`; nothing may
/// have it open (the caller holds the till's lock). The database as it is now is kept
/// as a snapshot first, so that putting one back can itself be undone. Answers that
/// snapshot.
pub fn restore(
    database: &Path,
    key: &DatabaseKey,
    snapshot: &Snapshot,
) -> Result<Snapshot, OpenError> {
    // Copied aside first: the snapshot of the data as they are now may prune it.
    let restoring = super::beside(database, "-restoring");
    crate::private::file(&restoring).map_err(OpenError::Private)?;
    std::fs::copy(&snapshot.path, &restoring).map_err(OpenError::Private)?;
    std::fs::File::open(&restoring)
        .and_then(|file| file.sync_all())
        .map_err(OpenError::Private)?;
    let kept = {
        let current = Connection::open(database)?;
        super::unlock(&current, key)?;
        let schema: u32 = current.pragma_query_value(None, "user_version", |r| r.get(0))?;
        // Everything of the WAL into the file, and so into the snapshot.
        current.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        take(&current, database, schema, Timestamp::now())?
    };
    super::remove_beside(database, &["-wal", "-shm"])?;
    std::fs::rename(&restoring, database).map_err(OpenError::Private)?;
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{SCHEMA_VERSION, at_schema, holds_encrypted_data, open};

    fn key() -> DatabaseKey {
        DatabaseKey::for_tests()
    }

    fn version(conn: &Connection) -> u32 {
        conn.pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap()
    }

    fn marker(conn: &Connection) -> Option<String> {
        conn.query_row(
            "SELECT value FROM settings WHERE name = 'marker'",
            [],
            |r| r.get(0),
        )
        .ok()
    }

    /// An earlier version's file, migrated: a snapshot of it as it was (encrypted with
    /// its key) is kept; a migration that fails leaves the file at its schema and says
    /// where the snapshot is; putting a snapshot back gives the earlier data back, and
    /// keeps the later ones as a snapshot too.
    #[test]
    fn a_migration_keeps_a_snapshot_a_failed_one_changes_nothing_and_a_snapshot_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        {
            let earlier = at_schema(&path, 14);
            earlier
                .execute(
                    "INSERT INTO settings (name, value) VALUES ('marker', 'schema 14')",
                    [],
                )
                .unwrap();
        }
        let conn = open(&path, &key()).unwrap();
        assert_eq!(version(&conn), SCHEMA_VERSION);
        conn.execute(
            "UPDATE settings SET value = 'upgraded' WHERE name = 'marker'",
            [],
        )
        .unwrap();
        drop(conn);
        let snapshots = list(&path).unwrap();
        assert_eq!(snapshots.len(), 1, "{snapshots:?}");
        assert_eq!(snapshots[0].schema, 14);
        assert!(
            holds_encrypted_data(&snapshots[0].path),
            "encrypted, as the till"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&snapshots[0].path), 0o600);
            assert_eq!(mode(&folder(&path)), 0o700);
        }
        let kept = Connection::open(&snapshots[0].path).unwrap();
        crate::db::unlock(&kept, &key()).unwrap();
        assert_eq!(
            (version(&kept), marker(&kept)),
            (14, Some("schema 14".into()))
        );
        drop(kept);

        // A migration that fails (a table in the way) leaves the file as it was.
        {
            let conn = open(&path, &key()).unwrap();
            // As if migration 16 had never run: it fails on the table it finds.
            conn.pragma_update(None, "user_version", SCHEMA_VERSION - 1)
                .unwrap();
        }
        let error = open(&path, &key()).unwrap_err();
        let words = error.to_string();
        assert!(
            matches!(error, OpenError::Migration { from, .. } if from == SCHEMA_VERSION - 1),
            "{error:?}"
        );
        assert!(
            words.contains("left as they were") && words.contains("--restore-snapshot"),
            "{words}"
        );
        {
            let conn = Connection::open(&path).unwrap();
            crate::db::unlock(&conn, &key()).unwrap();
            assert_eq!(version(&conn), SCHEMA_VERSION - 1, "not half-way");
            conn.pragma_update(None, "user_version", SCHEMA_VERSION)
                .unwrap();
        }
        // One more taken later: the last two are kept, the schema-14 one is gone.
        {
            let conn = Connection::open(&path).unwrap();
            crate::db::unlock(&conn, &key()).unwrap();
            let later = Timestamp::now() + jiff::SignedDuration::from_hours(1);
            take(&conn, &path, SCHEMA_VERSION, later).unwrap();
        }
        let kept = list(&path).unwrap();
        assert_eq!(kept.len(), KEPT, "{kept:?}");
        assert!(kept.iter().all(|s| s.schema != 14), "{kept:?}");

        // The one taken at the failed migration comes back.
        let back = find(&path, &kept[0].taken).unwrap();
        assert_eq!(back.schema, SCHEMA_VERSION - 1);
        let later = restore(&path, &key(), &back).unwrap();
        let conn = Connection::open(&path).unwrap();
        crate::db::unlock(&conn, &key()).unwrap();
        assert_eq!(version(&conn), back.schema);
        assert_eq!(marker(&conn).as_deref(), Some("upgraded"));
        assert!(later.path.exists());
        assert!(matches!(
            find(&path, "1999"),
            Err(RestoreError::NotOne { .. })
        ));

        // What the till forgets, its snapshots forget: past a date, or all of them.
        let yesterday = Timestamp::now() - jiff::SignedDuration::from_hours(24);
        assert_eq!(remove(&path, Some(yesterday)).unwrap(), 0);
        let there = list(&path).unwrap().len();
        assert!(there > 0);
        assert_eq!(remove(&path, None).unwrap(), there);
        assert_eq!(list(&path).unwrap(), []);
    }
}
