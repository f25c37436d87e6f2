//! A successful answer and what its headers said.

use std::ops::Deref;

use jiff::Timestamp;
use reqwest::header::HeaderMap;

use crate::rate_limit::RateLimit;

/// A decoded 2xx answer with its `Request-Id`, replay flag, rate-limit state and
/// server clock.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Response<T> {
    /// The decoded body.
    pub data: T,
    /// The HTTP status (200 or 201). Named apart from the models' own `status`
    /// fields, which `Deref` reaches as `response.status`.
    pub http_status: u16,
    /// The `Request-Id` header; quote it when reporting a problem.
    pub request_id: Option<String>,
    /// True when `Idempotent-Replayed: true`: this is the stored first answer of an
    /// earlier request with the same Idempotency-Key, and the write was not done again.
    pub replayed: bool,
    /// The parsed `RateLimit` and `RateLimit-Policy` headers, when usable.
    pub rate_limit: Option<RateLimit>,
    /// The server's clock (`Date` header), so a till can compare its own clock with it.
    pub date: Option<Timestamp>,
}

impl<T> Response<T> {
    pub(crate) fn from_parts(data: T, status: u16, headers: &HeaderMap) -> Self {
        Self {
            data,
            http_status: status,
            request_id: request_id(headers),
            replayed: replayed(headers),
            rate_limit: RateLimit::from_headers(headers),
            date: headers
                .get("date")
                .and_then(|v| v.to_str().ok())
                .and_then(|t| {
                    jiff::fmt::rfc2822::DateTimeParser::new()
                        .parse_timestamp(t)
                        .ok()
                }),
        }
    }

    /// The body, dropping the headers.
    pub fn into_data(self) -> T {
        self.data
    }

    /// The same answer with its body changed by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Response<U> {
        Response {
            data: f(self.data),
            http_status: self.http_status,
            request_id: self.request_id,
            replayed: self.replayed,
            rate_limit: self.rate_limit,
            date: self.date,
        }
    }
}

impl<T> Deref for Response<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.data
    }
}

pub(crate) fn request_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get("request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

pub(crate) fn replayed(headers: &HeaderMap) -> bool {
    headers
        .get("idempotent-replayed")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn the_headers_of_an_answer_are_read() {
        let mut headers = HeaderMap::new();
        headers.insert("request-id", HeaderValue::from_static("req_42"));
        headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
        headers.insert(
            "date",
            HeaderValue::from_static("Sun, 22 Nov 2026 09:15:00 GMT"),
        );
        headers.insert("ratelimit", HeaderValue::from_static(r#""key";r=5;t=9"#));
        let response = Response::from_parts((), 200, &headers);
        assert_eq!(response.request_id.as_deref(), Some("req_42"));
        assert!(response.replayed);
        assert_eq!(response.date.unwrap().to_string(), "2026-11-22T09:15:00Z");
        assert_eq!(response.rate_limit.unwrap().remaining(), Some(5));
    }

    #[test]
    fn an_answer_without_those_headers_is_not_a_replay() {
        let response = Response::from_parts(1, 201, &HeaderMap::new());
        assert!(!response.replayed);
        assert!(response.request_id.is_none() && response.date.is_none());
        assert!(response.rate_limit.is_none());
        assert_eq!(*response.map(|n| n + 1), 2);
    }
}
