//! Problems as HTTP answers: `application/problem+json`, with Retry-After when the
//! problem gives one.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::error::{ApiError, Problem, SITE_URL};
use crate::request_id;

/// Builds the HTTP answer of a problem.
pub fn problem_response(problem: &Problem, request_id: &str) -> Response {
    let (status, body) = match serde_json::to_string(&problem.body(request_id)) {
        Ok(body) => (problem.status, body),
        Err(cause) => {
            tracing::error!(%request_id, %cause, code = %problem.code, "writing a problem");
            let body = format!(
                r#"{{"type":"{SITE_URL}/developers/errors#internal_error","title":"Internal error","status":500,"detail":"The server failed to answer. Quote the request_id when reporting it.","code":"internal_error","request_id":{}}}"#,
                Value::String(request_id.to_owned())
            );
            (StatusCode::INTERNAL_SERVER_ERROR, body)
        }
    };
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    if let Some(seconds) = problem.retry_after {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        problem_response(&self.problem(), &request_id::current())
    }
}
