//! The HTTP face: routes, extractors, and the middleware every answer passes.
//!
//! Layout: `auth` (the [`auth::Caller`] extractor: credentials, key state, place,
//! plan, scope, rate limit), `body` (JSON bodies and field validation), `number`
//! (a JSON number's exact value, read from its text), `list` (query parameters,
//! cursors, list answers), `problem` (an error as its problem+json answer), `write`
//! (the idempotent write pipeline), and one module per route group: `reads`,
//! `writes`, `control`.
//! Part 2 added `broadcasts` (messages) and `stats` beside them, and
//! `/v1/openapi.json`, whose handler the crate root passes in: the document sits
//! above the routes it describes (`crate::openapi`), so the routes cannot name it.

pub mod auth;
pub mod body;
pub mod broadcasts;
pub mod control;
pub mod list;
pub mod number;
pub mod problem;
pub mod reads;
pub mod stats;
pub mod write;
pub mod writes;

use std::sync::{Arc, Mutex};

use axum::Extension;
use axum::Router;
use axum::extract::{Request, State};
use axum::handler::Handler;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use self::problem::problem_response;
use crate::error::{ApiError, Code, Problem};
use crate::faults::FaultAction;
use crate::ratelimit::Report;
use crate::request_id;
use crate::state::AppState;
use crate::store::Place;

/// Where the rate-limit report of a request is left for the outer middleware.
#[derive(Debug, Clone, Default)]
pub struct ReportSlot(pub Arc<Mutex<Option<Report>>>);

/// Marks a request whose connection is dropped once its write is committed.
#[derive(Debug, Clone, Copy)]
pub struct DropAfterCommit;

/// Marks a request to be held before it is handled.
#[derive(Debug, Clone, Copy)]
pub struct Delay(pub u64);

/// The panic payload that closes a connection without an answer.
#[derive(Debug)]
pub struct DroppedConnection;

fn v1<H, T>(place: Place, document: H) -> Router<AppState>
where
    H: Handler<T, AppState>,
    T: 'static,
{
    Router::new()
        .route("/me", get(reads::me))
        .route("/passes", get(reads::list_passes))
        .route("/passes/{id}", get(reads::get_pass))
        .route(
            "/customers",
            get(reads::list_customers).post(writes::create_customer),
        )
        .route("/customers/{id}", get(reads::get_customer))
        .route("/scans", get(reads::list_scans).post(writes::create_scan))
        .route("/locations", get(reads::list_locations))
        .route("/referrals", get(reads::list_referrals))
        .route(
            "/gift_cards",
            get(reads::list_gift_cards).post(writes::issue_gift_card),
        )
        .route("/gift_cards/{id}", get(reads::get_gift_card))
        .route("/gift_cards/{id}/payments", post(writes::pay_gift_card))
        .route("/webhook_endpoints", get(reads::list_webhook_endpoints))
        .route("/stats", get(stats::get_stats))
        .route("/openapi.json", get(document))
        .route("/broadcasts", post(broadcasts::preview))
        .route("/broadcasts/confirm", post(broadcasts::confirm))
        .route("/broadcasts/{id}/cancel", post(broadcasts::cancel))
        .layer(Extension(place))
}

/// The whole API: live routes under `/v1`, the sandbox under `/sandbox/v1`, the
/// control routes under `/_sandbox` (answering 404 unless the state has them on).
/// `document` answers `GET /v1/openapi.json` in both places.
///
/// No CORS layer is ever added: keys belong on servers, so no answer carries an
/// `Access-Control-*` header and an `OPTIONS` preflight is answered 405.
pub fn app<H, T>(state: AppState, document: H) -> Router
where
    H: Handler<T, AppState>,
    T: 'static,
{
    Router::new()
        .nest("/v1", v1(Place::Live, document.clone()))
        .nest("/sandbox/v1", v1(Place::Sandbox, document))
        .nest("/_sandbox", control::routes(state.clone()))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(state.clone(), every_answer))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(Code::NotFound, "No such route.")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        Code::MethodNotAllowed,
        "This route does not answer that method.",
    )
}

/// The outermost middleware: request id, injected faults, the headers every answer
/// carries, and problems in place of any bare 404/405 from routing.
async fn every_answer(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let id = request_id::new();
    request_id::scope(id.clone(), async move {
        let path = req.uri().path().to_owned();
        let slot = ReportSlot::default();
        req.extensions_mut().insert(slot.clone());
        let is_api = path.starts_with("/v1") || path.starts_with("/sandbox/v1");
        let mut dropping = false;
        let mut response = match is_api
            .then(|| state.faults().take(req.method(), &path))
            .flatten()
        {
            Some(FaultAction::Answer { status, code }) => injected(status, &code, &id),
            other => {
                match other {
                    Some(FaultAction::DropAfterCommit) => {
                        dropping = true;
                        req.extensions_mut().insert(DropAfterCommit);
                    }
                    // A write holds after its Idempotency-Key is marked in progress
                    // (write.rs); anything else holds here, before it is handled.
                    Some(FaultAction::Delay(ms)) if req.method() == axum::http::Method::POST => {
                        req.extensions_mut().insert(Delay(ms));
                    }
                    Some(FaultAction::Delay(ms)) => {
                        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
                    }
                    _ => {}
                }
                next.run(req).await
            }
        };
        if dropping {
            // The write is committed; close the connection with no answer. Unwinding
            // the connection's task drops its socket without writing a byte, and
            // resume_unwind does not run the panic hook (nothing is printed).
            tracing::info!(request_id = %id, "fault: dropping the connection after commit");
            std::panic::resume_unwind(Box::new(DroppedConnection));
        }
        if !is_problem_or_success(&response) {
            response = as_problem(response.status()).into_response();
        }
        let report = slot
            .0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .unwrap_or_else(|| Report::unauthenticated(state.clock().now_ms()));
        let limited = response.status() == StatusCode::TOO_MANY_REQUESTS;
        let headers = response.headers_mut();
        headers.insert(HeaderName::from_static("request-id"), header_value(&id));
        // The server's own clock (moved by POST /_sandbox/clock), as clients read it to
        // check theirs; hyper would otherwise stamp the machine's time.
        headers.insert(header::DATE, header_value(&http_date(state.clock().now())));
        headers.insert(
            HeaderName::from_static("ratelimit-policy"),
            header_value(&report.policy_header()),
        );
        headers.insert(
            HeaderName::from_static("ratelimit"),
            header_value(&report.limit_header()),
        );
        if limited && !headers.contains_key(header::RETRY_AFTER) {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(report.reset));
        }
        response
    })
    .await
}

/// An IMF-fixdate (RFC 9110), such as `Sun, 22 Nov 2026 14:03:00 GMT`.
fn http_date(now: jiff::Timestamp) -> String {
    now.strftime("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

fn is_problem_or_success(response: &Response) -> bool {
    let status = response.status();
    !(status.is_client_error() || status.is_server_error())
        || response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes() == b"application/problem+json")
}

/// The problem that replaces an error answer some layer made without one (a bare
/// 404/405 from routing, a plain-text rejection of an extractor such as axum's 413):
/// every error is problem+json, so this is the one place that guarantees it.
fn as_problem(status: StatusCode) -> ApiError {
    match status {
        StatusCode::NOT_FOUND => ApiError::new(Code::NotFound, "No such route."),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::new(
            Code::MethodNotAllowed,
            "This route does not answer that method.",
        ),
        s if s.is_server_error() => ApiError::internal(format!("a layer answered {s} bare")),
        s => match ApiError::invalid_request(format!(
            "The request was refused ({}).",
            s.canonical_reason().unwrap_or("client error")
        )) {
            ApiError::Refused(mut p) => {
                p.status = s;
                ApiError::Refused(p)
            }
            internal => internal,
        },
    }
}

fn header_value(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static("invalid"))
}

/// The answer of a `status` + `code` fault: that problem, nothing done.
fn injected(status: u16, code: &str, request_id: &str) -> Response {
    let known = Code::from_text(code);
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let problem = Problem {
        status,
        code: code.to_owned(),
        title: known
            .map(|c| c.title().to_owned())
            .unwrap_or_else(|| code.replace('_', " ")),
        detail: "Injected by /_sandbox/faults; nothing was done.".into(),
        param: None,
        extra: Default::default(),
        retry_after: matches!(status.as_u16(), 429 | 503).then_some(1),
    };
    problem_response(&problem, request_id)
}

/// The `{id}` of a route; an id that cannot be read answers 404 like an unknown one
/// (never axum's plain-text rejection).
#[derive(Debug, Clone)]
pub struct Id(pub String);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Id {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(id)| Id(id))
            .map_err(|_| ApiError::new(Code::NotFound, "No such id."))
    }
}
