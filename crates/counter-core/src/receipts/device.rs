//! Where the printer is, and talking to it: its state asked with real-time status
//! requests, then a job's bytes sent only while it can print.
//!
//! A printer keeps what it receives while it cannot print and prints it later, so a
//! job is never sent while the printer says it cannot print, and never sent again by
//! itself once any of its bytes left: only a job none of whose bytes left goes again;
//! one cut off halfway may have printed, and a person says whether to print it again.

use std::io::{self, Read as _, Write as _};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::escpos::{self, STATUS, Status};
use crate::error::PrinterAddressError;

for_the_ui! {
/// Where the printer is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PrinterAddress {
    /// On the network, its raw port (9100 as a rule).
    Network {
        /// Its name or IP address.
        host: String,
        /// Its port.
        port: u16,
    },
    /// A printer's device of this computer: USB (`/dev/usb/lp0`) or parallel
    /// (`/dev/lp0`).
    Device {
        /// The device's path.
        path: String,
    },
    /// A serial line, chosen as such (`/dev/ttyUSB0`, `/dev/ttyACM0`, `/dev/ttyS0`,
    /// Bluetooth's `/dev/rfcomm0`): set to raw mode when opened.
    Serial {
        /// The line's path.
        path: String,
    },
}
}

/// The devices a receipt printer appears as, each followed by its number.
const PRINTER_DEVICES: [&str; 2] = ["/dev/usb/lp", "/dev/lp"];
/// The serial lines one may be on, each followed by its number.
const SERIAL_LINES: [&str; 4] = ["/dev/ttyUSB", "/dev/ttyACM", "/dev/ttyS", "/dev/rfcomm"];

/// `path` trimmed, when it is one of `families` followed by a number.
fn in_family(path: &str, families: &[&str]) -> Option<String> {
    let path = path.trim();
    families
        .iter()
        .any(|family| {
            path.strip_prefix(family).is_some_and(|n| {
                !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit())
            })
        })
        .then(|| path.to_owned())
}

impl PrinterAddress {
    /// The address, checked: a host name or IP address, a port; a printer's device, a
    /// USB printer (`/dev/usb/lp0`) or a parallel port (`/dev/lp0`); or a serial line
    /// chosen as such (`/dev/ttyUSB0`, `/dev/ttyACM0`, `/dev/ttyS0`, `/dev/rfcomm0`);
    /// never another file under `/dev/` (a disk, `/dev/fd/N`, `/dev/shm/…`).
    pub fn checked(self) -> Result<Self, PrinterAddressError> {
        match self {
            PrinterAddress::Network { host, port } => {
                let host = host.trim().to_owned();
                let fine = !host.is_empty()
                    && host.len() <= 253
                    && host.chars().all(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')
                    });
                if !fine {
                    return Err(PrinterAddressError::NotAHost {
                        given: crate::error::shown(&host),
                    });
                }
                if port == 0 {
                    return Err(PrinterAddressError::NoPort);
                }
                Ok(PrinterAddress::Network { host, port })
            }
            PrinterAddress::Device { path } => in_family(&path, &PRINTER_DEVICES)
                .map(|path| PrinterAddress::Device { path })
                .ok_or_else(|| PrinterAddressError::NotADevice {
                    given: crate::error::shown(path.trim()),
                }),
            PrinterAddress::Serial { path } => in_family(&path, &SERIAL_LINES)
                .map(|path| PrinterAddress::Serial { path })
                .ok_or_else(|| PrinterAddressError::NotASerialLine {
                    given: crate::error::shown(path.trim()),
                }),
        }
    }
}

for_the_ui! {
/// What the printer said of itself at the last ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrinterState {
    /// No printer is set up at this till.
    NotSetUp,
    /// Not asked yet.
    Unknown,
    /// It can print.
    Ready,
    /// It can print; its paper is nearly out.
    PaperNearEnd,
    /// Out of paper.
    PaperOut,
    /// Its cover is open.
    CoverOpen,
    /// Offline for another reason (an error, a cutter jammed).
    Error,
    /// It cannot be reached (off, unplugged, another address).
    Unreachable,
    /// It was reached but answers no status request: off, or not an ESC/POS printer.
    NoAnswer,
}
}

impl PrinterState {
    /// Whether a job may be sent now.
    pub fn can_print(self) -> bool {
        matches!(self, PrinterState::Ready | PrinterState::PaperNearEnd)
    }

    fn of(status: Status) -> Self {
        if status.cover_open {
            PrinterState::CoverOpen
        } else if status.paper_out {
            PrinterState::PaperOut
        } else if status.offline || status.error {
            PrinterState::Error
        } else if status.paper_near_end {
            PrinterState::PaperNearEnd
        } else {
            PrinterState::Ready
        }
    }
}

/// How long the printer has to accept a connection, and to answer each status request.
const CONNECT_WAIT: Duration = Duration::from_secs(2);
const ANSWER_WAIT: Duration = Duration::from_millis(800);
/// How long a job's bytes may take to be written.
const WRITE_WAIT: Duration = Duration::from_secs(10);

/// What became of a job sent to the printer.
#[derive(Debug)]
pub(crate) enum Sent {
    /// Every byte reached the printer, which said this of itself before (ready, or its
    /// paper nearly out).
    Printed(PrinterState),
    /// Not sent: the printer said it cannot print now.
    NotNow(PrinterState),
    /// Not one of the job's bytes left (the printer could not be reached, or the
    /// connection failed first): the job goes again.
    Failed(PrinterState, String),
    /// Some of the job's bytes left, then the connection failed or the time ran out:
    /// the receipt may have printed, so it never goes again by itself.
    Unsure(String),
}

/// How often a device that is not ready yet is tried again.
const DEVICE_POLL: Duration = Duration::from_millis(10);

/// A connection to the printer. A device is opened non-blocking and tried again while
/// it is not ready, on no thread of its own: a device that never answers costs nothing
/// once its time runs out, and dropping the link closes it.
enum Link {
    Network(tokio::net::TcpStream),
    Device(std::fs::File),
}

impl Link {
    async fn open(address: &PrinterAddress) -> Result<Link, String> {
        match address {
            PrinterAddress::Network { host, port } => {
                let connect = tokio::net::TcpStream::connect((host.as_str(), *port));
                match tokio::time::timeout(CONNECT_WAIT, connect).await {
                    Ok(Ok(stream)) => {
                        stream.set_nodelay(true).ok();
                        Ok(Link::Network(stream))
                    }
                    Ok(Err(err)) => Err(err.to_string()),
                    Err(_) => Err("no answer in time".to_owned()),
                }
            }
            PrinterAddress::Device { path } | PrinterAddress::Serial { path } => open_device(path)
                .map(Link::Device)
                .map_err(|err| err.to_string()),
        }
    }

    /// Writes every byte of `bytes`, counting in `sent` those that left.
    async fn write_all(&mut self, bytes: &[u8], sent: &mut usize) -> io::Result<()> {
        while *sent < bytes.len() {
            let rest = &bytes[*sent..];
            let written = match self {
                Link::Network(stream) => stream.write(rest).await,
                Link::Device(file) => loop {
                    match file.write(rest) {
                        Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                            tokio::time::sleep(DEVICE_POLL).await;
                        }
                        Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                        other => break other,
                    }
                },
            }?;
            if written == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            *sent += written;
        }
        if let Link::Network(stream) = self {
            stream.flush().await?;
        }
        Ok(())
    }

    /// Reads one byte, waiting for it.
    async fn read_byte(&mut self) -> io::Result<u8> {
        match self {
            Link::Network(stream) => stream.read_u8().await,
            Link::Device(file) => {
                let mut byte = [0u8];
                loop {
                    match file.read(&mut byte) {
                        Ok(1) => return Ok(byte[0]),
                        // Nothing yet (a line with nothing to read says so either way).
                        Ok(_) => tokio::time::sleep(DEVICE_POLL).await,
                        Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                            tokio::time::sleep(DEVICE_POLL).await;
                        }
                        Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                        Err(err) => return Err(err),
                    }
                }
            }
        }
    }

    /// Says goodbye; what it answers does not matter.
    async fn finish(mut self) {
        if let Link::Network(stream) = &mut self {
            let _ = stream.shutdown().await;
        }
    }
}

/// Opens a printer's device for reading and writing without blocking, once its name
/// leads to a device (not a file put in its place); a serial line is set to raw mode,
/// so every byte passes as it is (no echo, no line editing, no end of line changed).
/// Only a line chosen as a serial line gets here as one, but for a line an earlier
/// version kept as a device.
fn open_device(path: &str) -> io::Result<std::fs::File> {
    use rustix::fs::{FileType, Mode, OFlags};
    let flags = OFlags::RDWR | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let device = rustix::fs::open(path, flags, Mode::empty())?;
    let kind = FileType::from_raw_mode(rustix::fs::fstat(&device)?.st_mode);
    if kind != FileType::CharacterDevice {
        return Err(io::Error::other(format!("{path} is not a device")));
    }
    if rustix::termios::isatty(&device) {
        let mut modes = rustix::termios::tcgetattr(&device)?;
        modes.make_raw();
        rustix::termios::tcsetattr(&device, rustix::termios::OptionalActions::Now, &modes)?;
    }
    Ok(device.into())
}

/// Asks the printer's state on `link`.
async fn ask(link: &mut Link) -> PrinterState {
    let mut answers = [0u8; 3];
    for (answer, request) in answers.iter_mut().zip(STATUS) {
        let asked = async {
            link.write_all(&escpos::status_request(request), &mut 0)
                .await?;
            link.read_byte().await
        };
        match tokio::time::timeout(ANSWER_WAIT, asked).await {
            Ok(Ok(byte)) => *answer = byte,
            Ok(Err(_)) => return PrinterState::Unreachable,
            Err(_) => return PrinterState::NoAnswer,
        }
    }
    escpos::read_status(answers).map_or(PrinterState::NoAnswer, PrinterState::of)
}

/// The printer's state now.
pub(crate) async fn state(address: &PrinterAddress) -> PrinterState {
    match Link::open(address).await {
        Ok(mut link) => {
            let state = ask(&mut link).await;
            link.finish().await;
            state
        }
        Err(_) => PrinterState::Unreachable,
    }
}

/// Sends `bytes` when the printer says it can print, on the connection it said so on.
pub(crate) async fn print(address: &PrinterAddress, bytes: &[u8]) -> Sent {
    let mut link = match Link::open(address).await {
        Ok(link) => link,
        Err(err) => return Sent::Failed(PrinterState::Unreachable, err),
    };
    let state = ask(&mut link).await;
    if !state.can_print() {
        return Sent::NotNow(state);
    }
    let mut sent = 0;
    let written = tokio::time::timeout(WRITE_WAIT, link.write_all(bytes, &mut sent)).await;
    let failed = match written {
        Ok(Ok(())) => {
            // Every byte is out: whatever the goodbye does, the job is the printer's.
            link.finish().await;
            return Sent::Printed(state);
        }
        Ok(Err(err)) => err.to_string(),
        Err(_) => "writing timed out".to_owned(),
    };
    if sent == 0 {
        Sent::Failed(PrinterState::Unreachable, failed)
    } else {
        Sent::Unsure(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_a_host_and_port_or_a_device() {
        let network = |host: &str, port| PrinterAddress::Network {
            host: host.into(),
            port,
        };
        assert!(network(" 192.168.1.50 ", 9100).checked().is_ok());
        assert!(network("printer.local", 9100).checked().is_ok());
        assert!(matches!(
            network("", 9100).checked(),
            Err(PrinterAddressError::NotAHost { .. })
        ));
        assert!(matches!(
            network("a b/c", 9100).checked(),
            Err(PrinterAddressError::NotAHost { .. })
        ));
        assert_eq!(network("p", 0).checked(), Err(PrinterAddressError::NoPort));
        let device = |path: &str| PrinterAddress::Device { path: path.into() };
        let serial = |path: &str| PrinterAddress::Serial { path: path.into() };
        for fine in ["/dev/usb/lp0", " /dev/lp1 "] {
            assert!(device(fine).checked().is_ok(), "{fine:?}");
        }
        for line in [
            "/dev/ttyUSB0",
            "/dev/ttyACM12",
            "/dev/ttyS3",
            "/dev/rfcomm0",
        ] {
            assert!(serial(line).checked().is_ok(), "{line:?}");
            // A serial line only when chosen as such.
            assert!(
                matches!(
                    device(line).checked(),
                    Err(PrinterAddressError::NotADevice { .. })
                ),
                "{line:?}"
            );
        }
        for not_a_line in [
            "/dev/usb/lp0",
            "/dev/tty0",
            "/dev/tty",
            "/dev/sda",
            "/dev/ttyS",
        ] {
            assert!(
                matches!(
                    serial(not_a_line).checked(),
                    Err(PrinterAddressError::NotASerialLine { .. })
                ),
                "{not_a_line:?}"
            );
        }
        for bad in [
            "/etc/passwd",
            "/dev/../etc/passwd",
            "lp0",
            "/dev/lp\n0",
            "/dev/fd/3",
            "/dev/shm/printer",
            "/dev/sda",
            "/dev/usb/lp",
            "/dev/usb/lp0/../../sda",
            "/dev/lp0x",
            "/dev/ttyUSB0000",
        ] {
            assert!(
                matches!(
                    device(bad).checked(),
                    Err(PrinterAddressError::NotADevice { .. })
                ),
                "{bad:?}"
            );
        }
    }

    /// A pseudo-terminal's two ends: the printer holds the first, the till opens the
    /// second by its path.
    fn pseudo_terminal() -> (std::fs::File, PrinterAddress) {
        use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
        let printer = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("a pty");
        grantpt(&printer).expect("grantpt");
        unlockpt(&printer).expect("unlockpt");
        let path = ptsname(&printer, Vec::new()).expect("its name");
        let path = path.into_string().expect("a UTF-8 name");
        (printer.into(), PrinterAddress::Device { path })
    }

    /// What this process holds open on `path`.
    fn handles_on(path: &str) -> usize {
        std::fs::read_dir("/proc/self/fd")
            .expect("/proc/self/fd")
            .filter_map(|entry| std::fs::read_link(entry.ok()?.path()).ok())
            .filter(|target| target.to_str() == Some(path))
            .count()
    }

    /// This process's threads named `name`.
    fn threads_named(name: &str) -> usize {
        std::fs::read_dir("/proc/self/task")
            .expect("/proc/self/task")
            .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
            .filter(|comm| comm.trim_end() == name)
            .count()
    }

    /// A device that never answers a status request costs nothing once its time runs
    /// out: no thread waits on it and no handle stays open, ask after ask (each ask
    /// left one of each before, every 2 s while a receipt waited).
    #[test]
    fn a_device_that_never_answers_leaks_no_thread_and_no_handle() {
        const NAME: &str = "device-asks";
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_name(NAME)
            .build()
            .expect("a runtime");
        let (_silent, address) = pseudo_terminal();
        let PrinterAddress::Device { path } = address.clone() else {
            unreachable!("a device");
        };
        for _ in 0..8 {
            assert_eq!(runtime.block_on(state(&address)), PrinterState::NoAnswer);
        }
        assert_eq!(handles_on(&path), 0, "handles left open on {path}");
        assert_eq!(threads_named(NAME), 0, "threads left waiting");
    }

    /// A job whose bytes began to leave, then the printer went, may have printed: it is
    /// never a failure that goes again by itself. One that failed before its first
    /// byte is.
    #[test]
    fn a_job_cut_off_halfway_is_unsure_and_one_never_started_goes_again() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let (printer, address) = pseudo_terminal();
        // The printer says it is ready three times, takes a little of the job, and is
        // unplugged.
        let unplugged = std::thread::spawn(move || {
            let mut printer = printer;
            let mut request = [0u8; 3];
            for _ in 0..STATUS.len() {
                printer.read_exact(&mut request).expect("a status request");
                printer.write_all(&[0x12]).expect("an answer");
            }
            let mut some = vec![0u8; 1000];
            printer
                .read_exact(&mut some)
                .expect("the job's first bytes");
        });
        let job = vec![b'x'; 1 << 20];
        let sent = runtime.block_on(print(&address, &job));
        unplugged.join().expect("the printer's side");
        assert!(matches!(sent, Sent::Unsure(_)), "{sent:?}");

        // Nothing at the other end at all: nothing left, it goes again.
        let gone = PrinterAddress::Device {
            path: "/dev/null/none".to_owned(),
        };
        assert!(matches!(
            runtime.block_on(print(&gone, &job)),
            Sent::Failed(PrinterState::Unreachable, _)
        ));
    }
}
