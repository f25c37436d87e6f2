//! Why a printer's address or a camera is refused.

use serde::{Deserialize, Serialize};

for_the_ui! {
/// Why a printer's address was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PrinterAddressError {
    /// No host given, or one with spaces, slashes or other characters no host has.
    #[error("{given:?} is not a printer's host name or address")]
    NotAHost {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// Port 0.
    #[error("a printer's port is from 1 to 65535")]
    NoPort,
    /// Not a printer's device (`/dev/usb/lp0`, `/dev/lp0`).
    #[error("{given:?} is not a printer's device")]
    NotADevice {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// Not a serial line (`/dev/ttyUSB0`, `/dev/ttyACM0`, `/dev/ttyS0`, `/dev/rfcomm0`).
    #[error("{given:?} is not a serial line")]
    NotASerialLine {
        /// What was given (cut to 64 characters).
        given: String,
    },
}
}

/// Why a camera cannot be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CameraError {
    /// Not a V4L2 camera's device.
    #[error("{given:?} is not a camera device (expected /dev/video followed by a number)")]
    NotACamera {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// The camera could not be opened or stopped working.
    #[error("the camera failed")]
    Failed,
}
