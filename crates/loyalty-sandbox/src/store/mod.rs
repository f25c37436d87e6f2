//! Storage: SQLite through rusqlite, one module per resource.
//!
//! All SQL of the server lives under this module; routes call these functions and
//! never write SQL. One [`Connection`] sits behind a mutex and is used from
//! `spawn_blocking`, which makes SQLite the single writer: every write runs in a
//! `BEGIN IMMEDIATE` transaction, so two payments on one gift card are serialized
//! and each sees the balance the other left. A file database runs in WAL mode with
//! `synchronous=FULL`, so an answered write is on disk before its answer leaves.
//!
//! The schema is versioned with `PRAGMA user_version`; [`schema::migrate`] brings
//! any older database forward, so part 2 adds its tables as version 2.

pub mod broadcasts;
pub mod business;
pub mod customers;
pub mod deliveries;
pub mod effects;
pub mod gift_cards;
pub mod idempotency;
pub mod keys;
pub mod list;
pub mod locations;
pub mod passes;
pub mod referrals;
pub mod scans;
pub mod schema;
pub mod stats;
pub mod webhooks;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::error::{ApiError, ApiResult};

/// Which data a request reads and writes: the business's live data or its sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// `{root}/v1`, live keys.
    Live,
    /// `{root}/sandbox/v1`, test keys.
    Sandbox,
}

impl Place {
    /// `live` or `sandbox`, as stored and as the control routes name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Place::Live => "live",
            Place::Sandbox => "sandbox",
        }
    }

    /// Parses `live` or `sandbox`.
    pub fn parse(text: &str) -> Option<Place> {
        match text {
            "live" => Some(Place::Live),
            "sandbox" => Some(Place::Sandbox),
            _ => None,
        }
    }

    /// Objects made in the sandbox carry `test: true`.
    pub fn is_test(self) -> bool {
        self == Place::Sandbox
    }
}

/// The business and place a request works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The business id.
    pub business_id: String,
    /// Live or sandbox.
    pub place: Place,
}

/// Errors opening the database.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// SQLite refused.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database was written by a newer version of this server.
    #[error("database schema version {0} is newer than this server knows ({1})")]
    TooNew(i64, i64),
    /// The thread that checkpoints the file did not start.
    #[error("the checkpoint thread did not start: {0}")]
    Thread(#[from] std::io::Error),
}

/// Every two seconds while the database is open, what its WAL holds copied into the file
/// (a PASSIVE checkpoint: it never waits for the connection's writes, nor makes them
/// wait), on a connection and a thread of its own.
fn checkpoint_while_open(
    path: &Path,
    open: std::sync::Weak<Mutex<Connection>>,
) -> Result<(), OpenError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(5))?;
    std::thread::Builder::new()
        .name("sandbox-checkpoint".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(2));
                if open.strong_count() == 0 {
                    return;
                }
                if let Err(error) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                {
                    tracing::warn!(%error, "the database could not take in its WAL");
                }
            }
        })?;
    Ok(())
}

/// The database: one connection, serialized by a mutex.
#[derive(Debug, Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
    cursor_secret: Arc<Vec<u8>>,
}

impl Db {
    /// Opens (and creates or migrates) the database at `path`, or an in-memory one.
    pub fn open(path: Option<&Path>) -> Result<Db, OpenError> {
        let conn = match path {
            Some(p) => {
                let conn = Connection::open_with_flags(
                    p,
                    OpenFlags::SQLITE_OPEN_READ_WRITE
                        | OpenFlags::SQLITE_OPEN_CREATE
                        | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                conn.pragma_update(None, "journal_mode", "WAL")?;
                conn.pragma_update(None, "synchronous", "FULL")?;
                // No checkpoint inside an answered write (one took a write from a few
                // milliseconds to over a hundred): a thread of its own does them. Past
                // 40 MB of WAL (writes that never pause outrun it), a commit does.
                conn.pragma_update(None, "wal_autocheckpoint", 10_000)?;
                conn
            }
            None => Connection::open_in_memory()?,
        };
        conn.busy_timeout(Duration::from_secs(5))?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.set_prepared_statement_cache_capacity(128);
        let mut conn = conn;
        schema::migrate(&mut conn)?;
        let cursor_secret = schema::cursor_secret(&conn)?;
        let conn = Arc::new(Mutex::new(conn));
        if let Some(path) = path {
            checkpoint_while_open(path, Arc::downgrade(&conn))?;
        }
        Ok(Db {
            conn,
            cursor_secret: Arc::new(cursor_secret),
        })
    }

    /// The secret that signs list cursors (stored in the database).
    pub fn cursor_secret(&self) -> &[u8] {
        &self.cursor_secret
    }

    /// Runs `f` on the connection, on a blocking thread.
    pub async fn read<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let guard = conn.lock().unwrap_or_else(|poison| poison.into_inner());
            f(&guard)
        })
        .await
        .map_err(ApiError::internal)?
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction, committed when `f` returns Ok.
    pub async fn write<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&rusqlite::Transaction<'_>) -> ApiResult<T> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = conn.lock().unwrap_or_else(|poison| poison.into_inner());
            write_now(&mut guard, f)
        })
        .await
        .map_err(ApiError::internal)?
    }

    /// Runs `f` on the connection on the current thread (start-up and tools).
    pub fn blocking<T>(&self, f: impl FnOnce(&mut Connection) -> ApiResult<T>) -> ApiResult<T> {
        let mut guard = self
            .conn
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        f(&mut guard)
    }
}

/// Runs `f` in one immediate transaction on `conn`, committing when it returns Ok.
pub fn write_now<T>(
    conn: &mut Connection,
    f: impl FnOnce(&rusqlite::Transaction<'_>) -> ApiResult<T>,
) -> ApiResult<T> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let out = f(&tx)?;
    tx.commit()?;
    Ok(out)
}

/// Reads a JSON array of strings stored as text.
pub fn json_strings(text: &str) -> Vec<String> {
    serde_json::from_str(text).unwrap_or_default()
}
