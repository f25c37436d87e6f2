//! A fake thermal receipt printer for tests of printing.
//!
//! [`FakePrinter`] listens on a loopback TCP port, like a network printer's raw port
//! 9100. It records the bytes it receives, answers ESC/POS real-time status requests
//! (`DLE EOT n`) from a [`Condition`] the test sets, and [`decode`]s what it printed into
//! [`Receipt`]s the test can check: lines with their style and alignment, barcodes and
//! QR codes with their data, cuts, text read through the selected code page.
//!
//! It behaves like a real Epson-compatible printer: what it receives while it cannot
//! print (paper out, cover open) waits in its buffer and is printed when it can print
//! again, so a job sent twice is printed twice.
//!
//! ```
//! use std::io::Write;
//! use std::net::TcpStream;
//! use std::time::Duration;
//!
//! use fake_printer::{Align, FakePrinter};
//!
//! let printer = FakePrinter::start()?;
//! let mut till = TcpStream::connect(printer.addr())?;
//! // ESC @, PC858, centred "Café", "3,50 €" bold, then a full cut.
//! till.write_all(b"\x1b@\x1bt\x13\x1ba\x01Caf\x82\n\x1ba\x00\x1bE\x013,50 \xd5\n\x1dVA\x00")?;
//!
//! let paper = printer.wait_for_receipts(1, Duration::from_secs(5))?;
//! assert_eq!(paper.len(), 1);
//! assert_eq!(paper[0].text(), ["Café", "3,50 €"]);
//! assert_eq!(paper[0].lines[0].align, Align::Center);
//! assert!(paper[0].lines[1].bold);
//! assert!(paper[0].cut);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Layers
//!
//! Each module uses only its own layer or lower ones (`crates/layers` checks it in
//! `make lint`). Bottom to top:
//!
//! 0. `status`, `receipt`, `pages`, `camera`: leaves (the printer's state, a receipt
//!    decoded, paper pages, a printed code seen as a camera would).
//! 1. `decode`: the ESC/POS bytes it received, decoded.
//! 2. `server`: the loopback port and what it answers.

mod camera;
mod decode;
mod pages;
mod receipt;
mod server;
mod status;

pub use camera::read_drawn_qr;
pub use decode::decode;
pub use receipt::{Align, Barcode, BarcodeKind, DecodeError, Line, Receipt};
pub use server::FakePrinter;
pub use status::Condition;
