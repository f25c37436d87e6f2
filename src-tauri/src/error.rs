//! The error every command returns to the UI.

use serde::Serialize;
use ts_rs::TS;

/// An error as it crosses the IPC boundary: the UI branches on `code` and shows its own
/// words for it; `message` is the English fallback. When the service refused, `code` is
/// the API's problem code and the details a person may want ("one click away") come
/// along. Nothing in it is ever secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, thiserror::Error)]
#[ts(export, export_to = "../../ui/src/lib/ipc/bindings/")]
#[error("{code}: {message}")]
pub struct CommandError {
    /// A stable, machine-readable code: an API problem code such as `invalid_api_key`,
    /// or one of the app's own such as `service_unreachable`.
    pub code: String,
    /// A sentence for people, safe to show.
    pub message: String,
    /// The HTTP status of the service's refusal, when it refused.
    pub status: Option<u16>,
    /// The service's own explanation, when it gave one.
    pub detail: Option<String>,
    /// The service's Request-Id, to quote to support.
    pub request_id: Option<String>,
}

impl CommandError {
    /// An error of the app's own, with the given code and message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            status: None,
            detail: None,
            request_id: None,
        }
    }
}

impl From<counter_core::Error> for CommandError {
    fn from(error: counter_core::Error) -> Self {
        let problem = match &error {
            counter_core::Error::Api(api) => api.problem(),
            _ => None,
        };
        match problem {
            Some(problem) => Self {
                code: problem.code.as_str().to_owned(),
                message: error.to_string(),
                status: Some(problem.status),
                detail: problem.detail.clone(),
                request_id: problem.request_id.clone(),
            },
            None => {
                if matches!(
                    error,
                    counter_core::Error::Db(_) | counter_core::Error::Open(_)
                ) {
                    tracing::error!(%error, "the till's storage failed");
                }
                Self::new(error.code(), error.to_string())
            }
        }
    }
}

impl From<crate::demo::DemoError> for CommandError {
    fn from(error: crate::demo::DemoError) -> Self {
        tracing::error!(%error, "the demo did not start");
        Self::new("demo_failed", error.to_string())
    }
}
