//! The one error type of the client: a transport failure, or a problem the service
//! answered.

use std::fmt;

use crate::code::ErrorCode;
use crate::problem::Problem;
use crate::retry_after::RetryAfter;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No usable answer came back: the connection, the HTTP exchange or the body failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The service answered with a problem (a non-2xx `application/problem+json`).
    #[error("{0}")]
    Problem(Box<Problem>),
}

impl Error {
    /// The problem, when the service answered one.
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            Error::Problem(problem) => Some(problem),
            Error::Transport(_) => None,
        }
    }

    /// The problem's code, when the service answered one.
    pub fn code(&self) -> Option<&ErrorCode> {
        self.problem().map(|p| &p.code)
    }

    /// The transport failure's kind, when no usable answer came back.
    pub fn transport_kind(&self) -> Option<TransportKind> {
        match self {
            Error::Transport(err) => Some(err.kind),
            Error::Problem(_) => None,
        }
    }

    /// The request id to quote, when an answer carried one.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Problem(p) => p.request_id.as_deref(),
            Error::Transport(t) => t.request_id.as_deref(),
        }
    }

    /// The wait the service asked for (`Retry-After`), when it asked.
    pub fn retry_after(&self) -> Option<RetryAfter> {
        self.problem().and_then(|p| p.retry_after)
    }
}

impl From<Problem> for Error {
    fn from(problem: Problem) -> Self {
        Error::Problem(Box::new(problem))
    }
}

/// What went wrong below the API's own answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TransportKind {
    /// No connection could be made (refused, unreachable, DNS). Nothing was sent.
    Connect,
    /// The TLS handshake failed (certificate, protocol). Nothing was sent.
    Tls,
    /// No complete answer within the client's timeout.
    Timeout,
    /// The connection closed before an answer came. The request may have been done.
    ConnectionClosed,
    /// The answer was not valid HTTP.
    Protocol,
    /// The answer's body ended before its announced length.
    BodyCutShort,
    /// The answer's content type is not JSON.
    NotJson,
    /// The body is not valid JSON (garbage, or JSON that ends early).
    InvalidJson,
    /// The body is JSON but not the shape this endpoint answers.
    UnexpectedShape,
    /// Anything else from the HTTP layer (for example a redirect loop).
    Other,
}

impl TransportKind {
    /// Whether the service may have received and done the request, so that only a
    /// retry with the same Idempotency-Key can tell what happened.
    pub fn request_may_have_arrived(self) -> bool {
        !matches!(self, TransportKind::Connect | TransportKind::Tls)
    }

    fn describe(self) -> &'static str {
        match self {
            TransportKind::Connect => "could not connect",
            TransportKind::Tls => "TLS failed",
            TransportKind::Timeout => "timed out",
            TransportKind::ConnectionClosed => "connection closed before an answer",
            TransportKind::Protocol => "answer is not valid HTTP",
            TransportKind::BodyCutShort => "answer body cut short",
            TransportKind::NotJson => "answer is not JSON",
            TransportKind::InvalidJson => "answer body is not valid JSON",
            TransportKind::UnexpectedShape => "answer is not the expected object",
            TransportKind::Other => "HTTP failure",
        }
    }
}

impl fmt::Display for TransportKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A failure of the exchange itself, with what is known of the answer.
#[derive(Debug, thiserror::Error)]
#[error("{kind}{}: {detail}", status.map(|s| format!(" (HTTP {s})")).unwrap_or_default())]
pub struct TransportError {
    /// What went wrong.
    pub kind: TransportKind,
    /// The answer's HTTP status, when one came.
    pub status: Option<u16>,
    /// The answer's `Request-Id` header, when one came.
    pub request_id: Option<String>,
    /// A human description.
    pub detail: String,
    #[source]
    source: Option<BoxError>,
}

impl TransportError {
    pub(crate) fn new(kind: TransportKind, detail: impl Into<String>) -> Self {
        Self {
            kind,
            status: None,
            request_id: None,
            detail: detail.into(),
            source: None,
        }
    }

    pub(crate) fn with_source(mut self, source: impl Into<BoxError>) -> Self {
        self.source = Some(source.into());
        self
    }

    pub(crate) fn with_answer(mut self, status: u16, request_id: Option<String>) -> Self {
        self.status = Some(status);
        self.request_id = request_id;
        self
    }

    /// Classifies a reqwest failure. `reading_body` says whether the status line and
    /// headers had already arrived.
    pub(crate) fn from_reqwest(err: reqwest::Error, reading_body: bool) -> Self {
        let kind = classify(&err, reading_body);
        // reqwest's own text names the URL (never the key, which is only in a header).
        let detail = chain_text(&err);
        Self::new(kind, detail).with_source(err.without_url())
    }
}

fn classify(err: &reqwest::Error, reading_body: bool) -> TransportKind {
    if err.is_timeout() {
        return TransportKind::Timeout;
    }
    let hyper = find_source::<hyper::Error>(err);
    if hyper.is_some_and(|h| h.is_timeout()) {
        return TransportKind::Timeout;
    }
    if err.is_connect() {
        // rustls reports handshake and certificate failures as I/O errors of kind
        // InvalidData, which a plain TCP connect never produces.
        let invalid_data = find_source::<std::io::Error>(err).is_some_and(has_invalid_data);
        let text = chain_text(err).to_ascii_lowercase();
        if invalid_data || text.contains("tls") || text.contains("certificate") {
            return TransportKind::Tls;
        }
        return TransportKind::Connect;
    }
    if reading_body || err.is_body() || err.is_decode() {
        return TransportKind::BodyCutShort;
    }
    match hyper {
        Some(h) if h.is_parse() || h.is_parse_status() => TransportKind::Protocol,
        Some(h) if h.is_incomplete_message() || h.is_closed() || h.is_canceled() => {
            TransportKind::ConnectionClosed
        }
        Some(_) => TransportKind::ConnectionClosed,
        None if err.is_request() => {
            // An I/O error while sending or waiting (connection reset).
            if find_source::<std::io::Error>(err).is_some() {
                TransportKind::ConnectionClosed
            } else {
                TransportKind::Other
            }
        }
        None => TransportKind::Other,
    }
}

/// Whether an I/O error, or one it wraps (`get_ref`, which `source` skips), is of kind
/// InvalidData.
fn has_invalid_data(io: &std::io::Error) -> bool {
    let mut current = Some(io);
    while let Some(io) = current {
        if io.kind() == std::io::ErrorKind::InvalidData {
            return true;
        }
        current = io
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<std::io::Error>());
    }
    false
}

fn find_source<'a, E: std::error::Error + 'static>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a E> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(found) = e.downcast_ref::<E>() {
            return Some(found);
        }
        current = e.source();
    }
    None
}

fn chain_text(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut current = err.source();
    while let Some(e) = current {
        let part = e.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        current = e.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_connect_and_tls_failures_prove_nothing_was_done() {
        assert!(!TransportKind::Connect.request_may_have_arrived());
        assert!(!TransportKind::Tls.request_may_have_arrived());
        assert!(TransportKind::Timeout.request_may_have_arrived());
        assert!(TransportKind::ConnectionClosed.request_may_have_arrived());
    }

    #[test]
    fn a_transport_error_names_its_kind_and_status() {
        let err = TransportError::new(TransportKind::NotJson, "content type text/html")
            .with_answer(502, None);
        assert_eq!(
            err.to_string(),
            "answer is not JSON (HTTP 502): content type text/html"
        );
    }
}
