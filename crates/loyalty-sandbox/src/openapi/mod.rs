//! The OpenAPI 3.1 document of the API, generated with `utoipa` from the code and
//! served without authentication at `{root}/v1/openapi.json` (server `/`) and
//! `{root}/sandbox/v1/openapi.json` (server `/sandbox`).
//!
//! Every handler carries its own `#[utoipa::path]` (in `http::reads`, `http::writes`,
//! `http::stats`, `http::broadcasts`); the document lists them. What every
//! operation shares is added by one modifier (`Shared`) in one place: the bearer security
//! scheme, the `Idempotency-Key` header on every POST, and the problem answers
//! every route may give (401, 403, 429, 500, 503; 400 and 404 with their codes;
//! 409 and 422 on writes). The integration test `openapi` checks that every route
//! of the router is in the document, and the fuzzer (`fuzz/run.sh`) checks every
//! answer against it.

use std::sync::OnceLock;

use axum::Extension;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::path::{Operation, Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::response::{Response as OaResponse, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::server::Server;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Required};
use utoipa::{Modify, OpenApi};

use crate::store::Place;

/// GET /v1/openapi.json: this document.
#[utoipa::path(get, path = "/v1/openapi.json", tag = "document", security(()),
    responses((status = 200, description = "The OpenAPI 3.1 document of the API.", body = Object)))]
#[allow(dead_code)]
fn openapi_json() {}

/// The document's definition.
#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "Loyalty Card and Gift Card Business API",
        version = "1",
        description = "Version 1 of the API, as served by loyalty-sandbox. Every error is application/problem+json with a stable `code`."
    ),
    paths(
        crate::http::reads::me, crate::http::reads::list_passes, crate::http::reads::get_pass,
        crate::http::reads::list_customers, crate::http::writes::create_customer,
        crate::http::reads::get_customer, crate::http::reads::list_scans,
        crate::http::writes::create_scan, crate::http::reads::list_locations,
        crate::http::reads::list_referrals, crate::http::reads::list_gift_cards,
        crate::http::writes::issue_gift_card, crate::http::reads::get_gift_card,
        crate::http::writes::pay_gift_card, crate::http::reads::list_webhook_endpoints,
        crate::http::stats::get_stats,
        crate::http::broadcasts::preview, crate::http::broadcasts::confirm,
        crate::http::broadcasts::cancel, openapi_json,
    ),
    components(schemas(crate::wire::Problem)),
    modifiers(&Shared),
    security(("bearer" = [])),
)]
pub struct ApiDoc;

/// Adds what every operation shares (see the module's documentation).
#[derive(Debug)]
struct Shared;

fn problem(description: &str) -> RefOr<OaResponse> {
    RefOr::T(
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/problem+json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("Problem")))
                    .build(),
            )
            .build(),
    )
}

fn idempotency_key() -> Parameter {
    ParameterBuilder::new()
        .name("Idempotency-Key")
        .parameter_in(ParameterIn::Header)
        .required(Required::True)
        .description(Some(
            "1 to 255 visible ASCII characters, unique per write (a UUID is recommended); \
             remembered 24 hours per API key.",
        ))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(255))
                .pattern(Some("^[!-~]+$")),
        ))
        .build()
}

fn string_header(description: &str) -> Header {
    HeaderBuilder::new()
        .schema(ObjectBuilder::new().schema_type(Type::String))
        .description(Some(description))
        .build()
}

/// The headers every answer carries (and Retry-After on 429 and 503).
fn add_headers(status: &str, response: &mut RefOr<OaResponse>) {
    let RefOr::T(response) = response else {
        return;
    };
    let headers = &mut response.headers;
    headers.insert(
        "Request-Id".into(),
        string_header("The request's id (`req_...`); quote it when reporting a problem."),
    );
    headers.insert(
        "RateLimit-Policy".into(),
        string_header("The key's quotas, e.g. `\"key\";q=600;w=60, \"writes\";q=120;w=60`."),
    );
    headers.insert(
        "RateLimit".into(),
        string_header("What remains of the key's window, e.g. `\"key\";r=599;t=60`."),
    );
    if status == "429" || status == "503" {
        headers.insert(
            "Retry-After".into(),
            HeaderBuilder::new()
                .schema(
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .minimum(Some(0)),
                )
                .description(Some("Seconds to wait before retrying."))
                .build(),
        );
    }
}

fn add_shared(op: &mut Operation, write: bool, public: bool) {
    let responses = &mut op.responses.responses;
    let mut add = |status: &str, description: &str| {
        responses
            .entry(status.to_owned())
            .or_insert_with(|| problem(description));
    };
    add("500", "internal_error.");
    if public {
        for (status, response) in op.responses.responses.iter_mut() {
            add_headers(status, response);
        }
        return;
    }
    add(
        "401",
        "authentication_required, invalid_api_key, api_key_revoked, api_key_expired, not_supported_yet.",
    );
    add(
        "403",
        "plan_required, key_mode_mismatch, insufficient_scope, forbidden.",
    );
    add("404", "not_found.");
    add("429", "rate_limited (with Retry-After).");
    add(
        "503",
        "service_unavailable, rate_limiter_unavailable (with Retry-After).",
    );
    if write {
        add("400", "idempotency_key_required (`param` Idempotency-Key).");
        add("409", "idempotency_in_progress (with Retry-After).");
        add(
            "422",
            "validation_failed (`errors` lists each field), idempotency_key_reused.",
        );
        op.parameters
            .get_or_insert_with(Vec::new)
            .insert(0, idempotency_key());
    }
    for (status, response) in op.responses.responses.iter_mut() {
        add_headers(status, response);
    }
}

impl Modify for Shared {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An API key: lc_live_... on {root}/v1, lc_test_... on {root}/sandbox/v1.",
                    ))
                    .build(),
            ),
        );
        for item in openapi.paths.paths.values_mut() {
            if let Some(op) = item.get.as_mut() {
                let public = op
                    .security
                    .as_ref()
                    .is_some_and(|s| s.iter().all(|r| *r == SecurityRequirement::default()));
                add_shared(op, false, public);
            }
            if let Some(op) = item.post.as_mut() {
                add_shared(op, true, false);
            }
        }
    }
}

/// The document for a place, as JSON text (built once per place).
pub fn document(place: Place) -> &'static str {
    static LIVE: OnceLock<String> = OnceLock::new();
    static SANDBOX: OnceLock<String> = OnceLock::new();
    let (cell, server) = match place {
        Place::Live => (&LIVE, "/"),
        Place::Sandbox => (&SANDBOX, "/sandbox"),
    };
    cell.get_or_init(|| {
        let mut doc = ApiDoc::openapi();
        doc.servers = Some(vec![Server::new(server)]);
        // The document is built from the code alone, so it either always serializes or
        // never does: a failure is a bug, found by the first test that asks for it.
        let mut value = serde_json::to_value(&doc).expect("the OpenAPI document serializes");
        spell_links(&mut value);
        value.to_string()
    })
}

/// Names a Link object's fields as OpenAPI spells them (`operationId`, `operationRef`,
/// `requestBody`): utoipa 5 writes them in snake case, which readers of the document
/// (schemathesis among them) do not know.
fn spell_links(doc: &mut serde_json::Value) {
    let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) else {
        return;
    };
    let links = paths
        .values_mut()
        .filter_map(|item| item.as_object_mut())
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("responses")?.as_object_mut())
        .flat_map(|responses| responses.values_mut())
        .filter_map(|response| response.get_mut("links")?.as_object_mut())
        .flat_map(|links| links.values_mut())
        .filter_map(|link| link.as_object_mut());
    for link in links {
        for (from, to) in [
            ("operation_id", "operationId"),
            ("operation_ref", "operationRef"),
            ("request_body", "requestBody"),
        ] {
            if let Some(value) = link.remove(from) {
                link.insert(to.to_owned(), value);
            }
        }
    }
}

/// GET /v1/openapi.json (and under /sandbox), without authentication.
pub async fn serve(Extension(place): Extension<Place>) -> Response {
    let mut response = document(place).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
