//! A problem the service answered: `application/problem+json`, decoded into data.

use std::fmt;

use jiff::Timestamp;
use reqwest::header::HeaderMap;
use serde::Deserialize;
use serde_json::Value;

use crate::code::{ErrorCode, ProblemClass};
use crate::money::Money;
use crate::retry_after::RetryAfter;

/// One refused field of a `validation_failed` answer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct FieldError {
    /// The field concerned.
    #[serde(default)]
    pub param: Option<String>,
    /// A code for the refusal (its values are not fixed by the spec, so kept as text).
    #[serde(default)]
    pub code: Option<String>,
    /// A human explanation.
    #[serde(default)]
    pub message: Option<String>,
}

/// A refusal or failure the service reported, with every member the spec names.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Problem {
    /// The HTTP status of the answer (authoritative over the body's `status`).
    pub status: u16,
    /// The stable code to branch on.
    pub code: ErrorCode,
    /// A short human title; never branch on it.
    pub title: Option<String>,
    /// What happened, for people; never branch on it.
    pub detail: Option<String>,
    /// The field or parameter concerned.
    pub param: Option<String>,
    /// The request id, from the body (a replayed refusal keeps its first one) or
    /// else the `Request-Id` header. Quote it when reporting a failure.
    pub request_id: Option<String>,
    /// The problem's `type` URL.
    pub type_url: Option<String>,
    /// The refused fields, on `validation_failed`.
    pub errors: Vec<FieldError>,
    /// The gift card's balance, on a gift-card `insufficient_balance`.
    pub balance: Option<Money>,
    /// When the card's last visit was, on `recent_visit`.
    pub last_visit_at: Option<Timestamp>,
    /// How long the service asked to wait before retrying (`Retry-After`).
    pub retry_after: Option<RetryAfter>,
    /// Whether the answer was a replay of a stored refusal (`Idempotent-Replayed`).
    pub replayed: bool,
}

#[derive(Deserialize)]
struct Wire {
    code: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    detail: Option<String>,
    #[serde(default)]
    param: Option<String>,
    #[serde(default)]
    request_id: Option<String>,
    #[serde(default, rename = "type")]
    type_url: Option<String>,
    // Extras are read leniently: a malformed extra must not hide the code.
    #[serde(default)]
    errors: Option<Value>,
    #[serde(default)]
    balance: Option<Value>,
    #[serde(default)]
    last_visit_at: Option<Value>,
}

impl Problem {
    /// Decodes a non-2xx answer's body; None when it is not a problem object with a
    /// `code` (for example an HTML page from a proxy).
    pub(crate) fn from_answer(status: u16, headers: &HeaderMap, body: &[u8]) -> Option<Self> {
        let wire: Wire = serde_json::from_slice(body).ok()?;
        let header_request_id = headers
            .get("request-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        Some(Problem {
            status,
            code: ErrorCode::parse(&wire.code),
            title: wire.title,
            detail: wire.detail,
            param: wire.param,
            request_id: wire.request_id.or(header_request_id),
            type_url: wire.type_url,
            errors: wire
                .errors
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default(),
            balance: wire.balance.and_then(|v| serde_json::from_value(v).ok()),
            last_visit_at: wire
                .last_visit_at
                .and_then(|v| serde_json::from_value(v).ok()),
            retry_after: headers
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(RetryAfter::parse),
            replayed: crate::response::replayed(headers),
        })
    }

    /// What the problem means by its HTTP status; the way to handle an unknown code.
    pub fn class(&self) -> ProblemClass {
        ProblemClass::of_status(self.status)
    }

    /// Whether the code is `code`.
    pub fn is(&self, code: &ErrorCode) -> bool {
        &self.code == code
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status, self.code)?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " (request {id})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;
    use rust_decimal::Decimal;
    use std::time::Duration;

    fn decode(status: u16, headers: HeaderMap, body: &str) -> Option<Problem> {
        Problem::from_answer(status, &headers, body.as_bytes())
    }

    #[test]
    fn a_gift_card_insufficient_balance_carries_the_balance() {
        let problem = decode(
            409,
            HeaderMap::new(),
            r#"{"type":"https://x/developers/errors#insufficient_balance","title":"Insufficient balance",
               "status":409,"detail":"Only 7.50 EUR left.","code":"insufficient_balance",
               "param":"amount_minor","request_id":"req_1",
               "balance":{"amount":"7.50","amount_minor":750,"currency":"EUR"}}"#,
        )
        .unwrap();
        assert_eq!(problem.code, ErrorCode::InsufficientBalance);
        assert_eq!(problem.param.as_deref(), Some("amount_minor"));
        assert_eq!(problem.request_id.as_deref(), Some("req_1"));
        let balance = problem.balance.unwrap();
        assert_eq!(balance.amount, Decimal::new(750, 2));
        assert_eq!(balance.amount_minor.get(), 750);
    }

    #[test]
    fn a_validation_failure_lists_its_fields_and_a_recent_visit_its_time() {
        let problem = decode(
            422,
            HeaderMap::new(),
            r#"{"code":"validation_failed","errors":[{"param":"email","code":"invalid_value","message":"bad"}]}"#,
        )
        .unwrap();
        assert_eq!(problem.errors.len(), 1);
        assert_eq!(problem.errors[0].param.as_deref(), Some("email"));

        let problem = decode(
            409,
            HeaderMap::new(),
            r#"{"code":"recent_visit","last_visit_at":"2026-11-22T09:15:00.000Z"}"#,
        )
        .unwrap();
        assert_eq!(
            problem.last_visit_at.unwrap().to_string(),
            "2026-11-22T09:15:00Z"
        );
    }

    #[test]
    fn an_unknown_code_is_kept_and_handled_by_status() {
        let problem = decode(503, HeaderMap::new(), r#"{"code":"maintenance_window"}"#).unwrap();
        assert_eq!(
            problem.code,
            ErrorCode::Unknown("maintenance_window".into())
        );
        assert_eq!(problem.class(), ProblemClass::Server);
    }

    #[test]
    fn retry_after_and_the_header_request_id_are_read() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("7"));
        headers.insert("request-id", HeaderValue::from_static("req_h"));
        let problem = decode(429, headers, r#"{"code":"rate_limited"}"#).unwrap();
        assert_eq!(
            problem.retry_after,
            Some(RetryAfter::Delay(Duration::from_secs(7)))
        );
        assert_eq!(problem.request_id.as_deref(), Some("req_h"));
    }

    #[test]
    fn malformed_extras_do_not_hide_the_code() {
        let problem = decode(
            409,
            HeaderMap::new(),
            r#"{"code":"insufficient_balance","balance":"lots","errors":7,"last_visit_at":"yesterday"}"#,
        )
        .unwrap();
        assert_eq!(problem.code, ErrorCode::InsufficientBalance);
        assert!(problem.balance.is_none() && problem.errors.is_empty());
        assert!(problem.last_visit_at.is_none());
    }

    #[test]
    fn a_body_that_is_not_a_problem_is_not_decoded() {
        assert!(decode(502, HeaderMap::new(), "<html>Bad gateway</html>").is_none());
        assert!(decode(404, HeaderMap::new(), r#"{"message":"no route"}"#).is_none());
    }
}
