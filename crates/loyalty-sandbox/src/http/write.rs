//! The idempotent write pipeline every POST of the API goes through.
//!
//! After the [`Caller`] passed authentication and rate limiting:
//!
//! 1. `Idempotency-Key` missing → 400 idempotency_key_required; present but not 1 to
//!    255 visible ASCII characters → 422 validation_failed with param
//!    `Idempotency-Key` (code `invalid_value`).
//! 2. The request's fingerprint is SHA-256 of the method, the API path (without the
//!    `/sandbox` prefix) and the body's canonical JSON ([`canonical_text`]: keys
//!    sorted, so key order does not matter; numbers by their exact value). A body
//!    refused as not JSON (a wrong `Content-Type` included) is hashed as its raw
//!    bytes under another tag, so it never matches a JSON request.
//! 3. The (API key, Idempotency-Key) pair is marked in progress in memory; a second
//!    request meeting the mark answers 409 idempotency_in_progress, Retry-After: 1.
//! 4. In one `BEGIN IMMEDIATE` transaction: a stored answer younger than 24 hours
//!    (server clock) is replayed with `Idempotent-Replayed: true` when the fingerprint
//!    matches, else 422 idempotency_key_reused; otherwise the body is validated and
//!    the action runs inside a savepoint, and its answer is stored, and the
//!    transaction commits: the write and its stored answer are one commit.
//!
//! Stored and replayed: successes and refusals with a stable business code (404,
//! 409, 422 currency_mismatch, ...), a replayed problem keeping its first
//! `request_id`. Not stored, so the same key may be retried: 401, 403, 429, 400
//! idempotency_key_required, 409 idempotency_in_progress, 422 validation_failed,
//! 5xx, and answers injected by `/_sandbox/faults`. A replay's own `Request-Id`
//! header is the new request's id.

use std::time::Duration;

use axum::body::{Bytes, to_bytes};
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rusqlite::Connection;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::Delay;
use super::auth::Caller;
use super::body::{JsonObject, MAX_BODY, canonical_text, parse_object};
use super::problem::problem_response;
use crate::error::{ApiError, ApiResult, Code, FieldError, Problem};
use crate::faults::api_path;
use crate::request_id;
use crate::state::AppState;
use crate::store::Scope;
use crate::store::business::Business;
use crate::store::idempotency::{self, StoredAnswer};

/// The raw parts of a write request.
#[derive(Debug)]
pub struct WriteInput {
    headers: HeaderMap,
    path: String,
    bytes: Bytes,
    delay: Option<u64>,
}

impl FromRequest<AppState> for WriteInput {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &AppState) -> Result<Self, ApiError> {
        let (parts, body) = req.into_parts();
        let bytes = to_bytes(body, MAX_BODY).await.map_err(|_| {
            ApiError::validation(vec![FieldError {
                param: "body".into(),
                code: "too_long",
                message: format!("The body may be at most {MAX_BODY} bytes."),
            }])
        })?;
        Ok(WriteInput {
            path: api_path(parts.uri.path()).to_owned(),
            delay: parts.extensions.get::<Delay>().map(|d| d.0),
            headers: parts.headers,
            bytes,
        })
    }
}

/// What an action gets besides the body.
#[derive(Debug, Clone)]
pub struct OpCtx {
    /// Business and place.
    pub scope: Scope,
    /// The business (limits, plan).
    pub business: Business,
    /// The server's time for this write.
    pub now_ms: i64,
}

/// Longest Idempotency-Key.
pub const MAX_IDEMPOTENCY_KEY: usize = 255;

/// Checks an Idempotency-Key: 1 to 255 visible ASCII characters.
pub fn valid_idempotency_key(key: &[u8]) -> bool {
    !key.is_empty() && key.len() <= MAX_IDEMPOTENCY_KEY && key.iter().all(|b| b.is_ascii_graphic())
}

fn storable(problem: &Problem) -> bool {
    let status = problem.status.as_u16();
    let not_stored_status = matches!(status, 401 | 403 | 429) || status >= 500;
    !not_stored_status
        && !matches!(
            problem.code.as_str(),
            "idempotency_key_required" | "idempotency_in_progress" | "validation_failed"
        )
}

enum Outcome {
    Replay(StoredAnswer),
    Answer(StatusCode, String),
    Refused(Problem),
}

/// Runs one idempotent write: `op` validates the body and acts, inside the
/// transaction that also stores its answer.
pub async fn run<F, A>(state: &AppState, caller: Caller, input: WriteInput, op: F) -> Response
where
    F: FnOnce(&Connection, &OpCtx, &JsonObject) -> ApiResult<A> + Send + 'static,
    A: Serialize,
{
    match pipeline(state, caller, input, op).await {
        Ok(response) => response,
        Err(err) => err.into_response(),
    }
}

async fn pipeline<F, A>(
    state: &AppState,
    caller: Caller,
    input: WriteInput,
    op: F,
) -> ApiResult<Response>
where
    F: FnOnce(&Connection, &OpCtx, &JsonObject) -> ApiResult<A> + Send + 'static,
    A: Serialize,
{
    let Some(raw_key) = input.headers.get("idempotency-key") else {
        return Err(ApiError::new(
            Code::IdempotencyKeyRequired,
            "Every write needs an Idempotency-Key header (a UUID is recommended).",
        )
        .param("Idempotency-Key"));
    };
    if !valid_idempotency_key(raw_key.as_bytes()) {
        return Err(ApiError::validation(vec![FieldError {
            param: "Idempotency-Key".into(),
            code: "invalid_value",
            message: "The Idempotency-Key must be 1 to 255 visible ASCII characters.".into(),
        }]));
    }
    let idem_key = String::from_utf8_lossy(raw_key.as_bytes()).into_owned();
    let body = parse_object(&input.headers, &input.bytes);
    let mut hasher = Sha256::new();
    hasher.update(b"POST ");
    hasher.update(input.path.as_bytes());
    hasher.update(b"\n");
    // The tags keep a refused body's bytes from ever equalling a JSON body's
    // canonical text (a text/plain body that happened to be canonical JSON was
    // replayed as the JSON request it copied).
    match &body {
        Ok(object) => {
            hasher.update(b"json\n");
            hasher.update(canonical_text(object.text()).as_bytes());
        }
        Err(_) => {
            hasher.update(b"refused\n");
            hasher.update(&input.bytes);
        }
    }
    let fingerprint = hasher.finalize().to_vec();

    let Some(_in_flight) = state.begin_write(&caller.key_id, &idem_key) else {
        return Err(ApiError::new(
            Code::IdempotencyInProgress,
            "A request with this Idempotency-Key is still being processed.",
        )
        .param("Idempotency-Key")
        .retry_after(1));
    };
    if let Some(ms) = input.delay {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }

    let request_id = request_id::current();
    let clock = state.clock().clone();
    let ctx_scope = caller.scope();
    let business = caller.business.clone();
    let key_id = caller.key_id.clone();
    let outcome = state
        .db()
        .write(move |tx| {
            let now_ms = clock.now_ms();
            if let Some(stored) = idempotency::find(tx, &key_id, &idem_key, now_ms)? {
                if stored.fingerprint == fingerprint {
                    return Ok(Outcome::Replay(stored));
                }
                return Err(ApiError::new(
                    Code::IdempotencyKeyReused,
                    "This Idempotency-Key was already used by this API key for a different request.",
                )
                .param("Idempotency-Key"));
            }
            let body = body?;
            let ctx = OpCtx { scope: ctx_scope, business, now_ms };
            tx.execute_batch("SAVEPOINT op")?;
            match op(tx, &ctx, &body) {
                Ok(value) => {
                    // An answer that cannot be written is a 500: the transaction rolls
                    // back, and nothing is stored to replay.
                    let text = serde_json::to_string(&value)?;
                    tx.execute_batch("RELEASE op")?;
                    let answer = StoredAnswer {
                        fingerprint,
                        status: 200,
                        content_type: "application/json".into(),
                        body: text.clone(),
                    };
                    idempotency::save(tx, &key_id, &idem_key, &answer, now_ms)?;
                    Ok(Outcome::Answer(StatusCode::OK, text))
                }
                Err(ApiError::Internal(cause)) => Err(ApiError::Internal(cause)),
                Err(refusal) => {
                    tx.execute_batch("ROLLBACK TO op; RELEASE op")?;
                    let problem = refusal.problem();
                    if storable(&problem) {
                        let answer = StoredAnswer {
                            fingerprint,
                            status: problem.status.as_u16(),
                            content_type: "application/problem+json".into(),
                            body: serde_json::to_string(&problem.body(&request_id))?,
                        };
                        idempotency::save(tx, &key_id, &idem_key, &answer, now_ms)?;
                    }
                    Ok(Outcome::Refused(problem))
                }
            }
        })
        .await?;
    Ok(match outcome {
        Outcome::Replay(stored) => {
            let mut response = (
                StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK),
                stored.body,
            )
                .into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_str(&stored.content_type)
                    .unwrap_or(HeaderValue::from_static("application/json")),
            );
            headers.insert(
                HeaderName::from_static("idempotent-replayed"),
                HeaderValue::from_static("true"),
            );
            response
        }
        Outcome::Answer(status, text) => {
            let mut response = (status, text).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Outcome::Refused(problem) => problem_response(&problem, &request_id::current()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idempotency_keys_are_one_to_255_visible_ascii_characters() {
        assert!(valid_idempotency_key(b"a"));
        assert!(valid_idempotency_key(&[b'x'; 255]));
        assert!(!valid_idempotency_key(b""));
        assert!(!valid_idempotency_key(&[b'x'; 256]));
        assert!(!valid_idempotency_key(b"has space"));
        assert!(!valid_idempotency_key("é".as_bytes()));
    }

    fn canonical(text: &str) -> String {
        let raw: Box<serde_json::value::RawValue> = serde_json::from_str(text).unwrap();
        canonical_text(&raw)
    }

    #[test]
    fn a_bodys_canonical_text_ignores_key_order_and_spelling_but_keeps_every_digit() {
        assert_eq!(
            canonical(r#" {"b": 1e1, "a": {"y": [1, 2.50], "x": null, "s": "\u00e9"}} "#),
            r#"{"a":{"s":"é","x":null,"y":[1,2.5]},"b":10}"#
        );
        assert_eq!(canonical(r#"{"a": 1, "a": 2}"#), r#"{"a":2}"#);
        assert_ne!(
            canonical(r#"{"amount": 10}"#),
            canonical(r#"{"amount": 10.000000000000000001}"#)
        );
        assert_eq!(canonical(r#"{"amount": 1e400}"#), r#"{"amount":1e400}"#);
    }
}
