//! What the till keeps is its user's alone: its folders 0700 and its files 0600,
//! whatever the umask, so that another user of the computer reads none of it (the
//! customers' names, the queue, the PIN hashes). Folders and files an earlier version
//! left readable are closed when the till opens them.

use std::io;
use std::path::Path;

/// From now on, whatever this process creates is its user's alone: the till's files,
/// the logs, and what the web view keeps beside them (its caches, its storage), whose
/// modes the app does not choose. The umask takes group and others out of every mode.
pub fn from_now_on() {
    #[cfg(unix)]
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
}

/// Creates `path` (and its parents) if missing and makes it the user's alone.
pub fn dir(path: &Path) -> io::Result<()> {
    std::fs::create_dir_all(path)?;
    restrict(path, 0o700)
}

/// Creates the empty file `path` if missing, the user's alone; closes an existing one
/// to the user. The file's other names (SQLite's `-wal`, `-shm`) follow it.
pub fn file(path: &Path) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    drop(options.open(path)?);
    restrict(path, 0o600)
}

/// Writes `bytes` to `path` (an export the person chose where to put), the user's
/// alone from its first byte: created 0600, or an earlier file closed before it is
/// overwritten.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.create(true).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    restrict(path, 0o600)?;
    file.set_len(0)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Closes `path` to the user, if it exists.
pub fn close_if_there(path: &Path) -> io::Result<()> {
    match restrict(path, 0o600) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

#[cfg(unix)]
fn restrict(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}
