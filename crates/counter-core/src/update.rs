//! Updates: the app's binary replaced under it (a package upgraded by apt, while the
//! till runs), and the moment the till may restart into it: between customers.
//!
//! [`Installed`] watches the file the app was started from. A package manager writes
//! the new file beside the old one and renames it into place, so the path names another
//! file at once and whole; a file copied over in place is taken only once it has
//! stopped changing between two looks. What the till is doing when an update waits is
//! [`Counter::restart_moment`](crate::Counter::restart_moment)'s to judge, with what the
//! page says of itself ([`PageAtRest`]).

use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How long nobody may have touched the till before it restarts into an update.
pub const UNTOUCHED_BEFORE_RESTART: Duration = Duration::from_secs(5);

/// Which file a path names, and whether it changed: its device, inode, size and
/// modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
}

impl FileId {
    fn of(path: &Path) -> std::io::Result<(Self, bool)> {
        let meta = std::fs::metadata(path)?;
        let id = Self {
            device: meta.dev(),
            inode: meta.ino(),
            size: meta.size(),
            modified_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        };
        let executable = meta.is_file() && meta.mode() & 0o111 != 0;
        Ok((id, executable))
    }
}

/// The app's binary on the disk, as it was when the app started.
#[derive(Debug)]
pub struct Installed {
    path: PathBuf,
    started_from: FileId,
    /// The other file seen at the path at the last look, not yet taken.
    changing: Option<FileId>,
}

/// What a look at the binary found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The file the app started from (or none: a package being removed is no update).
    Same,
    /// Another file, still changing or not executable: looked at again next time.
    Changing,
    /// Another file, whole: the app may restart into it.
    Replaced,
}

impl Installed {
    /// The binary at `path`, as it is now.
    pub fn at(path: PathBuf) -> std::io::Result<Self> {
        let (started_from, _) = FileId::of(&path)?;
        Ok(Self {
            path,
            started_from,
            changing: None,
        })
    }

    /// Its path: what the app restarts.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Looks at the path again.
    pub fn look(&mut self) -> Look {
        let Ok((now, executable)) = FileId::of(&self.path) else {
            self.changing = None;
            return Look::Same;
        };
        if now == self.started_from {
            self.changing = None;
            return Look::Same;
        }
        let settled = self.changing == Some(now) && executable;
        self.changing = Some(now);
        if settled {
            Look::Replaced
        } else {
            Look::Changing
        }
    }
}

for_the_ui! {
/// What the page says of itself when the till asks whether it may restart now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageAtRest {
    /// A customer's card, gift card or details are open on the screen.
    pub customer_open: bool,
    /// A dialog is open (a PIN pad, a confirmation, a form).
    pub dialog_open: bool,
    /// A field holds something typed and not yet used.
    pub typing: bool,
    /// Milliseconds since the page was last touched (a key, a click, a tap).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub untouched_ms: u64,
}
}

for_the_ui! {
/// Why the till does not restart into a waiting update yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Busy {
    /// A customer's card is open at the counter (or a gift card, a customer's details,
    /// their balance on the customer's screen).
    CardOpen,
    /// A write is being sent to the service.
    Sending,
    /// A dialog is open.
    Dialog,
    /// Something typed waits in a field.
    Typing,
    /// Someone touched the till within [`UNTOUCHED_BEFORE_RESTART`].
    Touched,
}
}

/// Whether the till may restart now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// Between customers: restart.
    Now,
    /// Not yet, and why.
    Later(Busy),
}

/// The page's part of the rule: no customer's card open, no dialog, nothing typed,
/// untouched for a while.
pub(crate) fn page_moment(page: PageAtRest) -> Moment {
    if page.customer_open {
        Moment::Later(Busy::CardOpen)
    } else if page.dialog_open {
        Moment::Later(Busy::Dialog)
    } else if page.typing {
        Moment::Later(Busy::Typing)
    } else if u128::from(page.untouched_ms) < UNTOUCHED_BEFORE_RESTART.as_millis() {
        Moment::Later(Busy::Touched)
    } else {
        Moment::Now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("update-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn executable(path: &Path, body: &[u8]) {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::write(path, body).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_binary_renamed_into_place_is_taken_at_the_second_look() {
        let dir = scratch("renamed");
        let bin = dir.join("loyalty-counter");
        executable(&bin, b"old");
        let mut installed = Installed::at(bin.clone()).unwrap();
        assert_eq!(installed.look(), Look::Same);

        // As dpkg does: the new file beside, then renamed over the old one.
        let new = dir.join("loyalty-counter.dpkg-new");
        executable(&new, b"the new version");
        std::fs::rename(&new, &bin).unwrap();
        assert_eq!(installed.look(), Look::Changing);
        assert_eq!(installed.look(), Look::Replaced);
        assert_eq!(installed.path(), bin);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_still_changing_or_not_executable_or_gone_is_not_taken() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = scratch("changing");
        let bin = dir.join("loyalty-counter");
        executable(&bin, b"old");
        let mut installed = Installed::at(bin.clone()).unwrap();

        // Written in place, a piece at a time: each look sees another size.
        for part in 1..4 {
            std::fs::write(&bin, "x".repeat(part * 10)).unwrap();
            assert_eq!(installed.look(), Look::Changing, "part {part}");
        }
        // Whole, but not executable (yet).
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(installed.look(), Look::Changing);
        assert_eq!(installed.look(), Look::Changing);
        // Removed (the package removed, not upgraded): nothing to restart into.
        std::fs::remove_file(&bin).unwrap();
        assert_eq!(installed.look(), Look::Same);
        assert_eq!(installed.look(), Look::Same);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_page_is_at_rest_when_nothing_is_open_typed_or_touched() {
        let rest = PageAtRest {
            customer_open: false,
            dialog_open: false,
            typing: false,
            untouched_ms: 5_000,
        };
        assert_eq!(page_moment(rest), Moment::Now);
        assert_eq!(
            page_moment(PageAtRest {
                customer_open: true,
                ..rest
            }),
            Moment::Later(Busy::CardOpen)
        );
        assert_eq!(
            page_moment(PageAtRest {
                dialog_open: true,
                ..rest
            }),
            Moment::Later(Busy::Dialog)
        );
        assert_eq!(
            page_moment(PageAtRest {
                typing: true,
                ..rest
            }),
            Moment::Later(Busy::Typing)
        );
        assert_eq!(
            page_moment(PageAtRest {
                untouched_ms: 4_999,
                ..rest
            }),
            Moment::Later(Busy::Touched)
        );
    }
}
