//! The error every command returns to the UI.

use counter_core::{ErrorCode, ErrorData};
use serde::Serialize;
use ts_rs::TS;

use counter_core::views::RefusalView;

/// An error as it crosses the IPC boundary, as data: the app's own code and what it
/// carries (amounts, limits, names), or the service's refusal with its HTTP status.
/// The UI words each in the cashier's language; `message` is English for the details
/// and the logs, never the sentence. Nothing in it is ever secret.
#[derive(Debug, Clone, Serialize, TS, thiserror::Error)]
#[ts(export)]
#[error("{code:?}: {message}")]
pub struct CommandError {
    /// What went wrong, from the app's one list of codes.
    pub code: ErrorCode,
    /// What the error carries for its words, when it carries something.
    pub data: Option<Box<ErrorData>>,
    /// The service's refusal (`code` is then `service_refused`): its problem code, its
    /// HTTP status, its explanation and Request-Id.
    pub problem: Option<Box<RefusalView>>,
    /// An English sentence, for the details and the logs.
    pub message: String,
}

impl CommandError {
    /// An error of the shell's own, with no data.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            data: None,
            problem: None,
            message: message.into(),
        }
    }
}

impl From<counter_core::Error> for CommandError {
    fn from(error: counter_core::Error) -> Self {
        if matches!(
            error,
            counter_core::Error::Db(_) | counter_core::Error::Open(_)
        ) {
            tracing::error!(%error, "the till's storage failed");
        }
        let problem = match &error {
            counter_core::Error::Api(api) => {
                api.problem().map(|p| Box::new(RefusalView::of_problem(p)))
            }
            _ => None,
        };
        Self {
            code: error.code(),
            data: error.data().map(Box::new),
            problem,
            message: error.to_string(),
        }
    }
}

impl From<crate::demo::DemoError> for CommandError {
    fn from(error: crate::demo::DemoError) -> Self {
        tracing::error!(%error, "the demo did not start");
        Self::new(ErrorCode::DemoFailed, error.to_string())
    }
}
