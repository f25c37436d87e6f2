//! The control routes under `/_sandbox` (only with `--control`; else 404).
//!
//! JSON in and out, no authentication. Ids are the API's ids, of any business.
//! A bad body answers 400 invalid_request (with an `errors` list); an unknown id
//! 404 not_found. A request that changes state must say `Content-Type:
//! application/json` ([`json_only`]), so no web page can steer the server.
//! Extensions beyond the contract: `DELETE /_sandbox/faults` (disarm all),
//! `delay_ms` on faults, `GET /_sandbox/events?business_id=` (the recorded events,
//! oldest first) and `GET /_sandbox/gift_cards/{id}/transactions` (every ledger
//! entry, for checks that need more than the 20 the API shows).

use axum::body::to_bytes;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::{Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, patch, post};
use axum::{Json, Router};
use base64::Engine;
use serde_json::Value;

use super::body::{Fields, JsonObject, NotAnObject, is_json};
use crate::actions::customers::SANDBOX_CUSTOMER_LIMIT;
use crate::actions::{demo, setup, undo};
use crate::clock::{format_ts, parse_ms};
use crate::error::{ApiError, ApiResult, Code, FieldError};
use crate::faults::FaultAction;
use crate::ids;
use crate::keys::{ALL_SCOPES, Mode};
use crate::state::AppState;
use crate::store::passes::NewPass;
use crate::store::webhooks::Endpoint;
use crate::store::{
    Place, Scope, business, customers, effects, gift_cards, keys, passes, webhooks,
};

mod api_keys;
mod businesses;
mod cards;
mod records;
mod server;

use api_keys::{create_key, revoke_key};
use businesses::{create_business, create_pass, update_business};
use cards::{
    cancel_gift_card, claim_gift_card, delete_customer, gift_card_transactions, set_card_status,
    undo_last,
};
use records::{create_webhook_endpoint, list_effects, list_events};
use server::{advance_clock, arm_fault, clear_faults, seed};

/// The control routes (mounted under `/_sandbox`).
pub fn routes(state: AppState) -> Router<AppState> {
    Router::new()
        .route("/businesses", post(create_business))
        .route("/businesses/{id}", patch(update_business))
        .route("/passes", post(create_pass))
        .route("/keys", post(create_key))
        .route("/keys/{id}/revoke", post(revoke_key))
        .route("/clock", post(advance_clock))
        .route("/gift_cards/{id}/claim", post(claim_gift_card))
        .route("/gift_cards/{id}/cancel", post(cancel_gift_card))
        .route("/gift_cards/{id}/transactions", get(gift_card_transactions))
        .route("/cards/{id}/status", post(set_card_status))
        .route("/customers/{id}", delete(delete_customer))
        .route("/undo", post(undo_last))
        .route("/webhook_endpoints", post(create_webhook_endpoint))
        .route("/effects", get(list_effects))
        .route("/events", get(list_events))
        .route("/seed", post(seed))
        .route("/faults", post(arm_fault).delete(clear_faults))
        .route_layer(middleware::from_fn(json_only))
        .route_layer(middleware::from_fn(loopback_host_only))
        .route_layer(middleware::from_fn_with_state(state, only_when_on))
}

/// Refuses a control request addressed to any host but this computer's loopback
/// (`127.0.0.1`, `localhost`, `[::1]`, any port): 403 forbidden, before anything is
/// read or done.
///
/// The server listens on loopback only, but a web page can still reach it by DNS
/// rebinding: its own name made to resolve to 127.0.0.1, so the browser treats the
/// server as the page's own origin and sends (and reads) whatever it likes. Such a
/// request names the page's host in `Host`; a request without `Host` (HTTP/1.0) comes
/// from no browser and passes.
async fn loopback_host_only(req: Request, next: Next) -> Response {
    let host = match req.headers().get(header::HOST) {
        None => return next.run(req).await,
        Some(value) => value.to_str().unwrap_or(""),
    };
    if is_loopback_host(host) {
        next.run(req).await
    } else {
        ApiError::new(
            Code::Forbidden,
            "Control routes answer only requests addressed to this computer's loopback address.",
        )
        .into_response()
    }
}

/// Whether a `Host` header names the loopback interface (with or without a port).
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or("", |(inside, _)| inside),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

async fn only_when_on(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if state.control() {
        next.run(req).await
    } else {
        ApiError::new(Code::NotFound, "No such route.").into_response()
    }
}

/// Refuses a control request that changes state without saying its body is JSON:
/// 400 invalid_request, `param` `Content-Type` (item code
/// `unsupported_content_type`), before anything is read or done.
///
/// A web page can make a browser POST to another origin without asking first (a
/// "simple" request: a form, `fetch` in no-cors mode, `sendBeacon`) only with the
/// content type `text/plain`, `application/x-www-form-urlencoded` or
/// `multipart/form-data`, or none at all; it cannot read the answer, but the request
/// is made. The demo server embedded in the till listens on loopback with its control
/// routes on, so without this check any page the till's machine opened could move
/// its clock or revoke its keys with a JSON text sent as one of those. So every
/// method but GET and HEAD must say `application/json` (or `application/*+json`),
/// even with an empty `{}` body. A DELETE without a `Content-Type` passes: the
/// contract gives it no body, and a browser asks before sending any DELETE to
/// another origin, which this server never allows (no CORS header; `OPTIONS`
/// answers 405).
async fn json_only(req: Request, next: Next) -> Response {
    let method = req.method();
    let reads = method == Method::GET || method == Method::HEAD;
    let bodiless_delete =
        method == Method::DELETE && !req.headers().contains_key(header::CONTENT_TYPE);
    if reads || bodiless_delete || is_json(req.headers()) {
        return next.run(req).await;
    }
    as_invalid_request(ApiError::validation(vec![FieldError {
        param: "Content-Type".into(),
        code: "unsupported_content_type",
        message:
            "Control requests that change state are JSON: send Content-Type: application/json."
                .into(),
    }]))
    .into_response()
}

/// Largest control body, in bytes: seed and fault bodies are a few hundred bytes.
pub const MAX_CONTROL_BODY: usize = 1024 * 1024;

/// A control route's body: empty means `{}`; anything but a JSON object, or a body
/// over [`MAX_CONTROL_BODY`], is refused with 400 invalid_request (never axum's
/// plain-text 413, which the `Bytes` extractor answered before).
#[derive(Debug)]
pub struct ControlBody(pub JsonObject);

impl<S: Send + Sync> FromRequest<S> for ControlBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, ApiError> {
        let bytes = to_bytes(req.into_body(), MAX_CONTROL_BODY)
            .await
            .map_err(|_| {
                ApiError::invalid_request(format!(
                    "The body may be at most {MAX_CONTROL_BODY} bytes."
                ))
                .param("body")
            })?;
        parse_control_body(&bytes).map(ControlBody)
    }
}

fn parse_control_body(bytes: &[u8]) -> ApiResult<JsonObject> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(JsonObject::empty());
    }
    JsonObject::parse(bytes).map_err(|err| match err {
        NotAnObject::NotAnObject => {
            ApiError::invalid_request("The body must be a JSON object.").param("body")
        }
        NotAnObject::InvalidJson(why) => {
            ApiError::invalid_request(format!("The body is not valid JSON: {why}.")).param("body")
        }
    })
}

/// A validation refusal as the control routes' 400 invalid_request (same `errors`).
fn as_invalid_request(err: ApiError) -> ApiError {
    match err {
        ApiError::Refused(mut p) => {
            p.status = Code::InvalidRequest.status();
            p.code = Code::InvalidRequest.as_str().into();
            p.title = Code::InvalidRequest.title().into();
            ApiError::Refused(p)
        }
        other => other,
    }
}

/// Turns a validation refusal into the control routes' 400.
fn bad(fields: Fields<'_>) -> ApiResult<()> {
    fields.finish().map_err(as_invalid_request)
}

fn non_negative(f: &mut Fields<'_>, field: &str, required: bool) -> Option<i64> {
    let v = f.integer(field, required)?;
    if v < 0 {
        f.refuse(field, "out_of_range", "Must be 0 or more.");
        return None;
    }
    Some(v)
}

fn positive(f: &mut Fields<'_>, field: &str) -> Option<i64> {
    let v = f.integer(field, false)?;
    if v < 1 {
        f.refuse(field, "out_of_range", "Must be 1 or more.");
        return None;
    }
    Some(v)
}

/// The plan names of `sandbox-control.md` ("Plans"); only `enterprise` has API access.
const PLANS: [&str; 3] = ["free", "pro", "enterprise"];

/// Largest rate-limit quota a control route accepts.
const MAX_QUOTA: i64 = 1_000_000_000;
/// Longest rate-limit window a control route accepts: one day. Bounded so the
/// limiter's millisecond arithmetic can never overflow (an `i64::MAX` window used to
/// crash the request that met it).
const MAX_WINDOW_SECONDS: i64 = 86_400;

/// An integer from 1 to `max`.
fn bounded(f: &mut Fields<'_>, field: &str, max: i64) -> Option<i64> {
    let v = f.integer(field, false)?;
    if !(1..=max).contains(&v) {
        f.refuse(field, "out_of_range", format!("Must be from 1 to {max}."));
        return None;
    }
    Some(v)
}

fn place_field(f: &mut Fields<'_>) -> Option<Place> {
    f.choice("place", true, &["live", "sandbox"])
        .and_then(|p| Place::parse(&p))
}

#[cfg(test)]
mod host_tests {
    use super::is_loopback_host;

    #[test]
    fn only_a_loopback_host_may_steer_the_server() {
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:3000",
            "LOCALHOST",
            "[::1]:80",
            "[::1]",
            "127.0.0.2:1",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.1.evil.example:80",
            "10.0.0.1:80",
            "[2001:db8::1]:80",
            "",
            "localhost.evil:80",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}
