//! The error every command returns to the UI.

use serde::Serialize;
use ts_rs::TS;

/// An error as it crosses the IPC boundary: the UI branches on `code` and shows
/// `message`; it never parses the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, thiserror::Error)]
#[ts(export, export_to = "../../ui/src/lib/ipc/bindings/")]
#[error("{code}: {message}")]
pub struct CommandError {
    /// A stable, machine-readable code, such as `app_dir_unavailable`.
    pub code: String,
    /// A sentence for people, safe to show: it never contains a secret.
    pub message: String,
}

impl CommandError {
    /// An error with the given code and message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
        }
    }
}
