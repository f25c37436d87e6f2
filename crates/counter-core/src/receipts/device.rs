//! Where the printer is, and talking to it: its state asked with real-time status
//! requests, then a job's bytes sent only while it can print.
//!
//! A printer keeps what it receives while it cannot print and prints it later, so a
//! job is never sent while the printer says it cannot print, and never sent again once
//! all its bytes were written: only a job whose connection failed before its last byte
//! goes again.

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
    /// A local device, `/dev/usb/lp0`.
    Device {
        /// The device's path.
        path: String,
    },
}
}

/// The devices a receipt printer appears as, each followed by its number.
const PRINTER_DEVICES: [&str; 6] = [
    "/dev/usb/lp",
    "/dev/lp",
    "/dev/ttyUSB",
    "/dev/ttyACM",
    "/dev/ttyS",
    "/dev/rfcomm",
];

impl PrinterAddress {
    /// The address, checked: a host name or IP address, a port, or a printer's device:
    /// a USB printer (`/dev/usb/lp0`), a parallel port (`/dev/lp0`), a serial line
    /// (`/dev/ttyUSB0`, `/dev/ttyACM0`, `/dev/ttyS0`) or Bluetooth's (`/dev/rfcomm0`),
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
            PrinterAddress::Device { path } => {
                let path = path.trim().to_owned();
                let fine = PRINTER_DEVICES.iter().any(|family| {
                    path.strip_prefix(family).is_some_and(|n| {
                        !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit())
                    })
                });
                if !fine {
                    return Err(PrinterAddressError::NotADevice {
                        given: crate::error::shown(&path),
                    });
                }
                Ok(PrinterAddress::Device { path })
            }
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
    /// The connection failed before the last byte: the job goes again.
    Failed(PrinterState, String),
}

/// A connection to the printer, either kind.
trait Link: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send> Link for T {}

async fn open(address: &PrinterAddress) -> Result<Box<dyn Link>, String> {
    match address {
        PrinterAddress::Network { host, port } => {
            let connect = tokio::net::TcpStream::connect((host.as_str(), *port));
            match tokio::time::timeout(CONNECT_WAIT, connect).await {
                Ok(Ok(stream)) => {
                    stream.set_nodelay(true).ok();
                    Ok(Box::new(stream))
                }
                Ok(Err(err)) => Err(err.to_string()),
                Err(_) => Err("no answer in time".to_owned()),
            }
        }
        PrinterAddress::Device { path } => {
            let file = tokio::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .await
                .map_err(|err| err.to_string())?;
            // What the name leads to is a device, not a file put in its place.
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt as _;
                let kind = file.metadata().await.map_err(|err| err.to_string())?;
                if !kind.file_type().is_char_device() {
                    return Err(format!("{path} is not a device"));
                }
            }
            Ok(Box::new(file) as Box<dyn Link>)
        }
    }
}

/// Asks the printer's state on `link`.
async fn ask(link: &mut Box<dyn Link>) -> PrinterState {
    let mut answers = [0u8; 3];
    for (answer, request) in answers.iter_mut().zip(STATUS) {
        let asked = async {
            link.write_all(&escpos::status_request(request)).await?;
            link.flush().await?;
            link.read_u8().await
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
    match open(address).await {
        Ok(mut link) => ask(&mut link).await,
        Err(_) => PrinterState::Unreachable,
    }
}

/// Sends `bytes` when the printer says it can print, on the connection it said so on.
pub(crate) async fn print(address: &PrinterAddress, bytes: &[u8]) -> Sent {
    let mut link = match open(address).await {
        Ok(link) => link,
        Err(err) => return Sent::Failed(PrinterState::Unreachable, err),
    };
    let state = ask(&mut link).await;
    if !state.can_print() {
        return Sent::NotNow(state);
    }
    let written = async {
        link.write_all(bytes).await?;
        link.flush().await
    };
    match tokio::time::timeout(WRITE_WAIT, written).await {
        Ok(Ok(())) => {
            // Every byte is out: whatever the goodbye does, the job is the printer's.
            let _ = link.shutdown().await;
            Sent::Printed(state)
        }
        Ok(Err(err)) => Sent::Failed(PrinterState::Unreachable, err.to_string()),
        Err(_) => Sent::Failed(PrinterState::Unreachable, "writing timed out".to_owned()),
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
        for fine in [
            "/dev/usb/lp0",
            " /dev/lp1 ",
            "/dev/ttyUSB0",
            "/dev/ttyACM12",
            "/dev/ttyS3",
            "/dev/rfcomm0",
        ] {
            assert!(device(fine).checked().is_ok(), "{fine:?}");
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
}
