//! One copy of the app at a time, for each user and data folder: the first copy holds a
//! name in Linux's abstract socket namespace, and a later copy that reaches it asks it to
//! show its window, then ends. The kernel frees the name when the first copy ends,
//! however it ends, so no file left behind can keep a till from starting. (This replaced
//! `tauri-plugin-single-instance`, whose D-Bus client was 1 MB of the binary.)

use std::hash::Hasher as _;
use std::io;
use std::os::linux::net::SocketAddrExt as _;
use std::os::unix::fs::MetadataExt as _;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};

/// What starting found.
#[derive(Debug)]
pub enum Claim {
    /// This is the first copy: it answers later ones with [`answer`].
    First(UnixListener),
    /// A copy was running and has been asked to show its window.
    HandedOver,
}

/// Claims the name, or hands over to the copy that holds it.
pub fn claim() -> io::Result<Claim> {
    let address = SocketAddr::from_abstract_name(name()?.as_bytes())?;
    match UnixListener::bind_addr(&address) {
        Ok(listener) => Ok(Claim::First(listener)),
        // The connection is the knock: nothing is said on it (the first copy may close
        // it before a word would arrive).
        Err(error) if error.kind() == io::ErrorKind::AddrInUse => {
            UnixStream::connect_addr(&address)?;
            Ok(Claim::HandedOver)
        }
        Err(error) => Err(error),
    }
}

/// On a thread of its own, calls `show` each time a later copy knocks.
pub fn answer(listener: UnixListener, show: impl Fn() + Send + 'static) -> io::Result<()> {
    std::thread::Builder::new()
        .name("single-instance".into())
        .spawn(move || {
            for knock in listener.incoming() {
                match knock {
                    Ok(_) => show(),
                    Err(error) => tracing::warn!(%error, "a later copy could not knock"),
                }
            }
        })?;
    Ok(())
}

/// The user's id and a hash of their data folder (`XDG_DATA_HOME`, else `HOME`): one
/// name per till data, as the data folder is.
fn name() -> io::Result<String> {
    let uid = std::fs::metadata("/proc/self")?.uid();
    let data_home = std::env::var_os("XDG_DATA_HOME")
        .or_else(|| std::env::var_os("HOME"))
        .unwrap_or_default();
    let mut hash = std::hash::DefaultHasher::new();
    hash.write(data_home.as_encoded_bytes());
    Ok(format!(
        "app.loyaltycounter.desktop/{uid}/{:016x}",
        hash.finish()
    ))
}
