//! One owner per outbox: a second process (or a second `Counter` in the same one)
//! gets a clear error instead of becoming a second sender.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// How long a lock found held may take to be let go before it is another owner's.
pub const HANDOVER: std::time::Duration = std::time::Duration::from_secs(1);

/// Holds the lock file beside the database; the lock goes with the value.
#[derive(Debug)]
pub struct OwnerLock {
    _file: File,
    path: PathBuf,
}

/// Why the outbox could not be owned.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process (or another open counter) owns this outbox.
    #[error("the till's data in {0} is already open in another window or process; close it first")]
    AlreadyOwned(PathBuf),
    /// The lock file could not be opened.
    #[error("cannot open the lock file {path}: {source}")]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl OwnerLock {
    /// Takes the exclusive lock on `path`, waiting [`HANDOVER`] at most: a lock found
    /// held that is let go within it (a copy closing, or a child process of this one
    /// between its fork and its exec, which holds a copy of every open file for that
    /// moment) is taken; one held longer is another owner's.
    pub fn acquire(path: &Path) -> Result<Self, LockError> {
        let deadline = std::time::Instant::now() + HANDOVER;
        loop {
            match Self::try_acquire(path) {
                Err(LockError::AlreadyOwned(_)) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                taken => return taken,
            }
        }
    }

    /// Takes the exclusive lock on `path`, without waiting.
    fn try_acquire(path: &Path) -> Result<Self, LockError> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|source| LockError::Io {
                path: path.to_owned(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => Ok(Self {
                _file: file,
                path: path.to_owned(),
            }),
            Err(TryLockError::WouldBlock) => Err(LockError::AlreadyOwned(
                path.parent().unwrap_or(path).to_owned(),
            )),
            Err(TryLockError::Error(source)) => Err(LockError::Io {
                path: path.to_owned(),
                source,
            }),
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_owner_is_refused_until_the_first_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.lock");
        let first = OwnerLock::acquire(&path).unwrap();
        assert!(matches!(
            OwnerLock::acquire(&path),
            Err(LockError::AlreadyOwned(_))
        ));
        drop(first);
        assert!(OwnerLock::acquire(&path).is_ok());
    }
}
