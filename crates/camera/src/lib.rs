//! The till's camera, for tablets and tills without a wedge scanner: customers hold
//! their phone's wallet card up to it.
//!
//! Frames come through GStreamer ([`Camera`]): from a V4L2 device, or a video file or a
//! folder of still images played in a loop as if they were a camera ([`Source`]). Each
//! frame is read by zxing-cpp ([`Decoder`]) for the symbologies a wallet pass may
//! carry (QR, PDF417, Aztec, Code 128, Data Matrix), in the frame and in other views of
//! it (turned, enlarged, sharpened: [`Decoder::decode`]). zxing-cpp rather than rxing:
//! on the benchmark's frames (`make bench`) rxing read 56 % of them in 32 ms a frame
//! (median), zxing-cpp alone 84 % in 12 ms, and with the other views 98.5 % in 5 ms. A
//! code held in view is read once
//! ([`Seen`]). What is read goes to the caller as text, which takes the path of a
//! wedge scan.
//!
//! GStreamer rather than `nokhwa`: WebKitGTK, which the window needs anyway, already
//! brings its runtime, so the package needs nothing new; one pipeline reads devices,
//! video files and images alike; and its queues drop frames a slow decode cannot take.
//!
//! ```no_run
//! use counter_camera::{Camera, Sight, Source};
//!
//! let source = Source::parse("/dev/video0")?;
//! let camera = Camera::open(&source, |sight| {
//!     if let Sight::Code { code, .. } = sight {
//!         println!("{}", code.text);
//!     }
//! })?;
//! std::thread::sleep(std::time::Duration::from_secs(10));
//! drop(camera); // the device is released
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Layers
//!
//! Each module uses only its own layer or lower ones (`crates/layers` checks it in
//! `make lint`). Bottom to top:
//!
//! 0. `luma`, `seen`, `source`: a frame's brightness, a code held in view, where
//!    frames come from.
//! 1. `views`: other views of a frame (turned, enlarged, sharpened, halved).
//! 2. `decode`: a frame's barcode, read in the frame and its views.
//! 3. `capture`: the camera, its frames through GStreamer.

mod capture;
mod decode;
mod luma;
mod seen;
mod source;
mod views;

pub use capture::{Camera, CameraError, FoundCamera, Sight, cameras};
pub use decode::{Code, Decoder, Symbology, WALLET_SYMBOLOGIES};
pub use luma::Luma;
pub use seen::{REPEAT_WINDOW, Seen};
pub use source::{Source, SourceError};
