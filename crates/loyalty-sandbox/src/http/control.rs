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
use serde_json::{Value, json};

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
        .route_layer(middleware::from_fn_with_state(state, only_when_on))
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

fn pass_spec(f: &mut Fields<'_>, defaults: NewPass) -> NewPass {
    let name = f.string("name", false, 200);
    let loyalty_type = f.choice("loyalty_type", false, &["visits", "points"]);
    let goal = positive(f, "goal");
    let reward_title = f.string("reward_title", false, 200);
    let locale = f.string("locale", false, 35);
    let status = f.choice("status", false, &["active", "archived"]);
    NewPass {
        name: name.unwrap_or(defaults.name),
        loyalty_type: loyalty_type.unwrap_or(defaults.loyalty_type),
        goal: goal.unwrap_or(defaults.goal),
        reward_title: reward_title.unwrap_or(defaults.reward_title),
        locale: locale.unwrap_or(defaults.locale),
        status: status.unwrap_or(defaults.status),
    }
}

async fn create_business(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let name = f.string("name", false, 200);
    let plan = f.choice("plan", false, &PLANS);
    let time_zone = f.string("time_zone", false, 64);
    if let Some(tz) = &time_zone
        && jiff::tz::db().get(tz).is_err()
    {
        f.refuse("time_zone", "invalid_value", "Not an IANA time zone.");
    }
    let customer_limit = non_negative(&mut f, "customer_limit", false);
    let monthly_messages = non_negative(&mut f, "monthly_messages", false);
    let pass = match map.get("pass") {
        None => Some(NewPass::default_visits()),
        Some(Value::Null) => None,
        Some(Value::Object(_)) => {
            f.object("pass", true, |p| pass_spec(p, NewPass::default_visits()))
        }
        Some(_) => {
            f.refuse("pass", "invalid_type", "Expected an object or null.");
            None
        }
    };
    bad(f)?;
    let nb = setup::NewBusiness {
        name: name.unwrap_or_else(|| "Business".into()),
        plan: plan.unwrap_or_else(|| "enterprise".into()),
        time_zone: time_zone.unwrap_or_else(|| "UTC".into()),
        customer_limit: customer_limit.unwrap_or(10_000),
        monthly_messages: monthly_messages.unwrap_or(100),
        pass,
        is_demo: false,
    };
    let clock = state.clock().clone();
    let created = state
        .db()
        .write(move |tx| setup::create_business(tx, &nb, clock.now_ms()))
        .await?;
    Ok(Json(
        created
            .business
            .to_json(created.pass_id, Some(created.sandbox_pass_id)),
    ))
}

async fn update_business(
    State(state): State<AppState>,
    super::Id(id): super::Id,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let plan = f.choice("plan", false, &PLANS);
    let customer_limit = non_negative(&mut f, "customer_limit", false);
    let monthly_messages = non_negative(&mut f, "monthly_messages", false);
    let limits = f.object("rate_limits", false, |r| {
        (
            bounded(r, "requests_per_business", MAX_QUOTA),
            bounded(r, "requests_per_key", MAX_QUOTA),
            bounded(r, "window_seconds", MAX_WINDOW_SECONDS),
            bounded(r, "writes_per_key", MAX_QUOTA),
        )
    });
    bad(f)?;
    let answer = state
        .db()
        .write(move |tx| {
            let Some(mut b) = business::get(tx, &id)? else {
                return Err(ApiError::not_found("business", &id));
            };
            if let Some(plan) = plan {
                b.plan = plan;
            }
            if let Some(v) = customer_limit {
                b.customer_limit = v;
            }
            if let Some(v) = monthly_messages {
                b.monthly_messages = v;
            }
            if let Some((per_business, per_key, window, writes)) = limits {
                let l = &mut b.limits;
                l.requests_per_business =
                    per_business.map_or(l.requests_per_business, |v| v as u64);
                l.requests_per_key = per_key.map_or(l.requests_per_key, |v| v as u64);
                l.window_seconds = window.map_or(l.window_seconds, |v| v as u64);
                l.writes_per_key = writes.map_or(l.writes_per_key, |v| v as u64);
            }
            business::update(tx, &b)?;
            let (live, sandbox) = business::main_pass_ids(tx, &b.id)?;
            Ok(b.to_json(live, sandbox))
        })
        .await?;
    Ok(Json(answer))
}

fn place_field(f: &mut Fields<'_>) -> Option<Place> {
    f.choice("place", true, &["live", "sandbox"])
        .and_then(|p| Place::parse(&p))
}

async fn create_pass(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let business_id = f.string("business_id", true, 64);
    let place = place_field(&mut f);
    let spec = pass_spec(
        &mut f,
        NewPass {
            name: "Loyalty Card".into(),
            reward_title: "Free reward".into(),
            ..NewPass::default_visits()
        },
    );
    bad(f)?;
    let (business_id, place) = (
        business_id.unwrap_or_default(),
        place.unwrap_or(Place::Live),
    );
    let clock = state.clock().clone();
    let pass = state
        .db()
        .write(move |tx| {
            if business::get(tx, &business_id)?.is_none() {
                return Err(ApiError::not_found("business", &business_id).param("business_id"));
            }
            passes::insert(
                tx,
                &ids::new_id("pass"),
                &business_id,
                place,
                &spec,
                clock.now_ms(),
            )
        })
        .await?;
    Ok(Json(pass.to_json()))
}

async fn create_key(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let business_id = f.string("business_id", true, 64);
    let mode = f
        .choice("mode", true, &["live", "test"])
        .and_then(|m| Mode::parse(&m));
    let scopes: Vec<String> = match map.get("scopes") {
        None | Some(Value::Null) => ALL_SCOPES.iter().map(|s| s.to_string()).collect(),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item.as_str() {
                    Some(s) if ALL_SCOPES.contains(&s) => out.push(s.to_owned()),
                    _ => f.refuse(
                        "scopes",
                        "invalid_value",
                        format!("Scopes are among: {}.", ALL_SCOPES.join(", ")),
                    ),
                }
            }
            out
        }
        Some(_) => {
            f.refuse(
                "scopes",
                "invalid_type",
                "Expected an array of scope names.",
            );
            Vec::new()
        }
    };
    let expires_at = match map.get("expires_at") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => match parse_ms(s) {
            Some(ms) => Some(ms),
            None => {
                f.refuse(
                    "expires_at",
                    "invalid_value",
                    "Expected an ISO 8601 timestamp with a zone.",
                );
                None
            }
        },
        Some(_) => {
            f.refuse(
                "expires_at",
                "invalid_type",
                "Expected a timestamp or null.",
            );
            None
        }
    };
    bad(f)?;
    let (business_id, mode) = (business_id.unwrap_or_default(), mode.unwrap_or(Mode::Test));
    let clock = state.clock().clone();
    let minted = state
        .db()
        .write(move |tx| {
            setup::mint_key(tx, &business_id, mode, &scopes, expires_at, clock.now_ms())
        })
        .await?;
    Ok(Json(
        json!({"object": "api_key", "id": minted.id, "key": minted.key, "prefix": minted.prefix}),
    ))
}

async fn revoke_key(
    State(state): State<AppState>,
    super::Id(id): super::Id,
    _: ControlBody,
) -> ApiResult<Json<Value>> {
    let clock = state.clock().clone();
    let found = {
        let id = id.clone();
        state
            .db()
            .write(move |tx| {
                let now = clock.now_ms();
                let found = keys::revoke(tx, &id, now)?;
                // The key's scheduled messages are cancelled with it (same commit).
                crate::store::broadcasts::cancel_scheduled_by_key(tx, &id, now)?;
                Ok(found)
            })
            .await?
    };
    if !found {
        return Err(ApiError::not_found("key", &id));
    }
    Ok(Json(json!({"revoked": true})))
}

async fn advance_clock(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let seconds = non_negative(&mut f, "advance_seconds", true);
    bad(f)?;
    let Some(now) = state.clock().advance(seconds.unwrap_or(0)) else {
        return Err(ApiError::invalid_request(
            "advance_seconds would move the clock past the year 9999.",
        )
        .param("advance_seconds"));
    };
    // Everything that was waiting for this time happens before the answer, so a
    // test that moved the clock sees scheduled messages and due webhook retries done.
    crate::worker::tick(&state).await?;
    Ok(Json(json!({"now": format_ts(now)})))
}

async fn claim_gift_card(
    State(state): State<AppState>,
    super::Id(id): super::Id,
    _: ControlBody,
) -> ApiResult<Json<Value>> {
    gift_card_change(&state, id, |card, now| match card.status.as_str() {
        "issued" => {
            card.status = "active".into();
            card.claimed_at = Some(now);
            Ok(())
        }
        "active" => Ok(()),
        "cancelled" => Err(ApiError::new(
            Code::GiftCardCancelled,
            "The gift card is cancelled.",
        )),
        _ => Err(ApiError::new(
            Code::GiftCardDepleted,
            "The gift card is used up.",
        )),
    })
    .await
}

async fn cancel_gift_card(
    State(state): State<AppState>,
    super::Id(id): super::Id,
    _: ControlBody,
) -> ApiResult<Json<Value>> {
    gift_card_change(&state, id, |card, now| match card.status.as_str() {
        "issued" | "active" => {
            card.status = "cancelled".into();
            card.cancelled_at = Some(now);
            Ok(())
        }
        "cancelled" => Ok(()),
        _ => Err(ApiError::new(
            Code::GiftCardDepleted,
            "A used-up gift card is not cancelled.",
        )),
    })
    .await
}

async fn gift_card_change(
    state: &AppState,
    id: String,
    change: impl FnOnce(&mut gift_cards::GiftCard, i64) -> ApiResult<()> + Send + 'static,
) -> ApiResult<Json<Value>> {
    let clock = state.clock().clone();
    let answer = state
        .db()
        .write(move |tx| {
            let Some(mut card) = gift_cards::get_any(tx, &id)? else {
                return Err(ApiError::not_found("gift card", &id));
            };
            change(&mut card, clock.now_ms())?;
            gift_cards::save_state(tx, &card)?;
            let (txs, more) =
                gift_cards::transactions(tx, &card.id, gift_cards::TRANSACTIONS_SHOWN)?;
            Ok(card.to_json(Some((&txs, more))))
        })
        .await?;
    Ok(Json(answer))
}

async fn gift_card_transactions(
    State(state): State<AppState>,
    super::Id(id): super::Id,
) -> ApiResult<Json<Value>> {
    let answer = state
        .db()
        .read(move |c| {
            let Some(card) = gift_cards::get_any(c, &id)? else {
                return Err(ApiError::not_found("gift card", &id));
            };
            let (txs, _) = gift_cards::transactions(c, &card.id, usize::MAX)?;
            let rendered = card.to_json(Some((&txs, false)));
            Ok(json!({
                "object": "list",
                "data": rendered["transactions"],
                "has_more": false,
                "next_cursor": null,
                "gift_card": card.to_json(None),
            }))
        })
        .await?;
    Ok(Json(answer))
}

async fn set_card_status(
    State(state): State<AppState>,
    super::Id(id): super::Id,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let status = f.choice("status", true, &["deleted", "replaced"]);
    bad(f)?;
    let status = status.unwrap_or_default();
    let answer = state
        .db()
        .write(move |tx| {
            let Some(mut card) = customers::get_card_any(tx, &id)? else {
                return Err(ApiError::not_found("card", &id));
            };
            customers::set_card_status(tx, &card.id, &status)?;
            card.status = status;
            Ok(card.to_json())
        })
        .await?;
    Ok(Json(answer))
}

async fn delete_customer(
    State(state): State<AppState>,
    super::Id(id): super::Id,
) -> ApiResult<Json<Value>> {
    let clock = state.clock().clone();
    let found = {
        let id = id.clone();
        state
            .db()
            .write(move |tx| customers::delete(tx, &id, clock.now_ms()))
            .await?
    };
    match found {
        Some(_) => Ok(Json(json!({"deleted": true}))),
        None => Err(ApiError::not_found("customer", &id)),
    }
}

async fn undo_last(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let card_id = f.string("card_id", false, 64);
    let gift_card_id = f.string("gift_card_id", false, 64);
    if card_id.is_some() == gift_card_id.is_some() {
        f.refuse(
            "card_id",
            "required",
            "Send exactly one of card_id and gift_card_id.",
        );
    }
    bad(f)?;
    let clock = state.clock().clone();
    let answer = state
        .db()
        .write(move |tx| {
            let now = clock.now_ms();
            match (card_id, gift_card_id) {
                (Some(card_id), _) => undo::card(tx, &card_id, now),
                (_, Some(gift_card_id)) => undo::gift_card(tx, &gift_card_id, now),
                _ => Err(ApiError::invalid_request("Send card_id or gift_card_id.")),
            }
        })
        .await?;
    Ok(Json(answer))
}

async fn create_webhook_endpoint(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let business_id = f.string("business_id", true, 64);
    let url = f.string("url", true, 2048);
    if let Some(u) = &url
        && !(u.starts_with("http://") || u.starts_with("https://"))
    {
        f.refuse("url", "invalid_value", "Expected an http or https URL.");
    }
    let events: Vec<String> = match map.get("events") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        Some(_) => {
            f.refuse(
                "events",
                "invalid_type",
                "Expected an array of event names.",
            );
            Vec::new()
        }
    };
    let format = f.string("format", false, 16);
    let test_events = f.boolean("test_events");
    bad(f)?;
    let business_id = business_id.unwrap_or_default();
    let secret = format!(
        "whsec_{}",
        base64::engine::general_purpose::STANDARD.encode(ids::random_bytes(24))
    );
    let endpoint = Endpoint {
        id: ids::new_id("we"),
        url: url.unwrap_or_default(),
        secret: secret.clone(),
        events,
        format: format.unwrap_or_else(|| "v2".into()),
        test_events: test_events.unwrap_or(false),
        status: "active".into(),
        consecutive_failures: 0,
        failing_since: None,
        last_success_at: None,
        paused_at: None,
        paused_reason: None,
        last_delivery: None,
        created_at: state.clock().now_ms(),
    };
    let answer = state
        .db()
        .write(move |tx| {
            if business::get(tx, &business_id)?.is_none() {
                return Err(ApiError::not_found("business", &business_id).param("business_id"));
            }
            webhooks::insert(tx, &business_id, &endpoint)?;
            let mut v = endpoint.to_json();
            v["url"] = json!(endpoint.url);
            v["secret"] = json!(endpoint.secret);
            Ok(v)
        })
        .await?;
    Ok(Json(answer))
}

#[derive(Debug, serde::Deserialize)]
struct BusinessQuery {
    business_id: Option<String>,
}

async fn business_rows(
    state: &AppState,
    query: Result<Query<BusinessQuery>, axum::extract::rejection::QueryRejection>,
    read: fn(&rusqlite::Connection, &str) -> ApiResult<Vec<Value>>,
) -> ApiResult<Json<Value>> {
    let business_id = match query {
        Ok(Query(BusinessQuery {
            business_id: Some(id),
        })) if !id.is_empty() => id,
        _ => {
            return Err(
                ApiError::invalid_request("Give business_id in the query.").param("business_id")
            );
        }
    };
    let data = state
        .db()
        .read(move |c| {
            if business::get(c, &business_id)?.is_none() {
                return Err(ApiError::not_found("business", &business_id));
            }
            read(c, &business_id)
        })
        .await?;
    Ok(Json(
        json!({"object": "list", "data": data, "has_more": false, "next_cursor": null}),
    ))
}

async fn list_effects(
    State(state): State<AppState>,
    query: Result<Query<BusinessQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Value>> {
    business_rows(&state, query, effects::list).await
}

async fn list_events(
    State(state): State<AppState>,
    query: Result<Query<BusinessQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Value>> {
    business_rows(&state, query, effects::events).await
}

async fn seed(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let business_id = f.string("business_id", true, 64);
    let place = place_field(&mut f);
    let n_customers = non_negative(&mut f, "customers", false).unwrap_or(0);
    let n_scans = non_negative(&mut f, "scans", false).unwrap_or(0);
    let seed = f.integer("seed", false).unwrap_or(0);
    if n_customers > 100_000 || n_scans > 1_000_000 {
        f.refuse(
            "customers",
            "out_of_range",
            "At most 100000 customers and 1000000 scans at once.",
        );
    }
    bad(f)?;
    let scope = Scope {
        business_id: business_id.unwrap_or_default(),
        place: place.unwrap_or(Place::Live),
    };
    let clock = state.clock().clone();
    let added = state
        .db()
        .write(move |tx| {
            if business::get(tx, &scope.business_id)?.is_none() {
                return Err(
                    ApiError::not_found("business", &scope.business_id).param("business_id")
                );
            }
            if scope.place.is_test()
                && customers::count(tx, &scope)? + n_customers > SANDBOX_CUSTOMER_LIMIT
            {
                return Err(ApiError::invalid_request(format!(
                    "A sandbox holds at most {SANDBOX_CUSTOMER_LIMIT} customers."
                ))
                .param("customers"));
            }
            let Some(pass) = passes::main_pass(tx, &scope)? else {
                return Err(
                    ApiError::invalid_request("The place has no active pass to seed.")
                        .param("place"),
                );
            };
            let ninety_days = 90 * 24 * 60 * 60 * 1000;
            demo::generate(
                tx,
                &scope,
                &pass,
                n_customers as usize,
                n_scans as usize,
                ninety_days,
                ninety_days,
                seed as u64,
                clock.now_ms(),
            )
        })
        .await?;
    Ok(Json(
        json!({"customers": added.customers, "cards": added.cards, "scans": added.scans}),
    ))
}

async fn arm_fault(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<Value>> {
    let mut f = Fields::new(&map);
    let path = f.string("path", true, 512);
    if path.as_deref().is_some_and(|p| !p.starts_with('/')) {
        f.refuse("path", "invalid_value", "A route prefix such as /v1/scans.");
    }
    let count = positive(&mut f, "count").unwrap_or(1);
    let status = f.integer("status", false);
    let code = f.string("code", false, 64);
    let drop_after_commit = f.boolean("drop_after_commit").unwrap_or(false);
    let delay_ms = non_negative(&mut f, "delay_ms", false);
    let action = match (status, code, drop_after_commit, delay_ms) {
        (Some(status), Some(code), false, None) if (400..=599).contains(&status) => {
            Some(FaultAction::Answer {
                status: status as u16,
                code,
            })
        }
        (None, None, true, None) => Some(FaultAction::DropAfterCommit),
        (None, None, false, Some(ms)) => Some(FaultAction::Delay(ms as u64)),
        _ => {
            f.refuse(
                "status",
                "invalid_value",
                "Give either status (400-599) with code, or drop_after_commit: true, or delay_ms.",
            );
            None
        }
    };
    bad(f)?;
    if let (Some(path), Some(action)) = (path, action) {
        state.faults().arm(&path, count as u64, action);
    }
    Ok(Json(json!({"armed": count})))
}

async fn clear_faults(State(state): State<AppState>) -> Json<Value> {
    state.faults().clear();
    Json(json!({"armed": 0}))
}
