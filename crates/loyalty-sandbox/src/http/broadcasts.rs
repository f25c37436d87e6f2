//! The message routes (scope `broadcasts:send`): preview, confirm, cancel.
//!
//! Body rules (the spec leaves them open), the same for the preview and the confirm:
//!
//! - `pass_id` (required), `title` (required, at most 100 characters), `body`
//!   (required, at most 1000), `audience` (required: `active` = holders of an active
//!   card on the pass; `all` = every customer of the pass, people without an active
//!   card reached by email).
//! - `scheduled_at` (optional, a timestamp with a zone; null or absent = at once).
//!   A preview refuses a time that is not in the future or more than 365 days
//!   ahead (422 validation_failed, `out_of_range`); a confirm only compares it with
//!   the preview (as an instant: `...Z` and `+00:00` spellings are the same), and
//!   one whose time has passed meanwhile goes out at once.
//! - `targeting` (optional object or null): `visited_within_days` (1 to 366: only
//!   cards with a visit or points scan in that many days) and `has_reward` (boolean:
//!   only cards with, or without, a reward ready). Any other member is refused
//!   (`invalid_value`): an ignored condition would widen the audience. With a
//!   targeting, people without an active card are never reached.
//! - The confirm adds `confirmation_token` (required).
//!
//! The cancel takes `{}` (members are ignored).

use axum::extract::State;
use axum::response::Response;
use serde_json::Value;

use super::auth::Caller;
use super::body::Fields;
use super::write::{self, WriteInput};
use crate::actions::broadcasts::{self, Message, Principal};
use crate::clock::parse_ms;
use crate::state::AppState;
use crate::store::broadcasts::Targeting;

/// Longest title.
pub const MAX_TITLE: usize = 100;
/// Longest body.
pub const MAX_BODY_TEXT: usize = 1000;
/// The audience values.
pub const AUDIENCES: [&str; 2] = ["active", "all"];
/// How far ahead a message may be scheduled.
pub const MAX_SCHEDULE_DAYS: i64 = 365;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn targeting(f: &mut Fields<'_>, body: &serde_json::Map<String, Value>) -> Targeting {
    match body.get("targeting") {
        None | Some(Value::Null) => Targeting::default(),
        Some(Value::Object(inner)) => {
            for name in inner.keys() {
                if name != "visited_within_days" && name != "has_reward" {
                    f.refuse(
                        &format!("targeting.{name}"),
                        "invalid_value",
                        "Targeting accepts visited_within_days and has_reward only.",
                    );
                }
            }
            f.object("targeting", false, |t| {
                let days = t.integer("visited_within_days", false);
                if days.is_some_and(|d| !(1..=366).contains(&d)) {
                    t.refuse("visited_within_days", "out_of_range", "From 1 to 366.");
                }
                Targeting {
                    visited_within_days: days.filter(|d| (1..=366).contains(d)),
                    has_reward: t.boolean("has_reward"),
                }
            })
            .unwrap_or_default()
        }
        Some(_) => {
            f.refuse("targeting", "invalid_type", "Expected an object or null.");
            Targeting::default()
        }
    }
}

/// Reads the message fields; `preview_now` checks the schedule against the clock.
fn message(
    f: &mut Fields<'_>,
    body: &serde_json::Map<String, Value>,
    preview_now: Option<i64>,
) -> Message {
    let pass_id = f.string("pass_id", true, 64);
    let title = f.string("title", true, MAX_TITLE);
    let text = f.string("body", true, MAX_BODY_TEXT);
    let audience = f.choice("audience", true, &AUDIENCES);
    let scheduled_at = match body.get("scheduled_at") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => match parse_ms(s) {
            Some(ms) => Some(ms),
            None => {
                f.refuse(
                    "scheduled_at",
                    "invalid_value",
                    "Expected an ISO 8601 timestamp with a zone.",
                );
                None
            }
        },
        Some(_) => {
            f.refuse(
                "scheduled_at",
                "invalid_type",
                "Expected a timestamp or null.",
            );
            None
        }
    };
    if let (Some(at), Some(now)) = (scheduled_at, preview_now)
        && (at <= now || at > now + MAX_SCHEDULE_DAYS * DAY_MS)
    {
        f.refuse(
            "scheduled_at",
            "out_of_range",
            format!(
                "A message is scheduled in the future, at most {MAX_SCHEDULE_DAYS} days ahead."
            ),
        );
    }
    let targeting = targeting(f, body);
    Message {
        pass_id: pass_id.unwrap_or_default(),
        title: title.unwrap_or_default(),
        body: text.unwrap_or_default(),
        audience: audience.unwrap_or_default(),
        targeting,
        scheduled_at,
    }
}

fn principal(caller: &Caller) -> Principal {
    Principal {
        key_id: caller.key_id.clone(),
        prefix: caller.prefix.clone(),
    }
}

/// POST /v1/broadcasts: previews a message, sends nothing.
#[utoipa::path(post, path = "/v1/broadcasts", tag = "broadcasts", request_body = crate::wire::BroadcastMessage,
    responses(
        (status = 200, description = "The preview and its confirmation token; nothing was sent.", body = crate::wire::BroadcastPreview),
        (status = 403, description = "broadcast_not_in_plan, broadcast_quota_reached, and the common 403 codes.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 404, description = "not_found (the pass; `param` pass_id).", body = crate::wire::Problem, content_type = "application/problem+json"),
    ))]
pub async fn preview(State(state): State<AppState>, caller: Caller, input: WriteInput) -> Response {
    let principal = principal(&caller);
    write::run(&state, caller, input, move |conn, ctx, body| {
        let mut f = Fields::new(body);
        let m = message(&mut f, body, Some(ctx.now_ms));
        f.finish()?;
        broadcasts::preview(conn, &ctx.scope, &ctx.business, &principal, &m, ctx.now_ms)
    })
    .await
}

/// POST /v1/broadcasts/confirm: sends (or schedules) a previewed message.
#[utoipa::path(post, path = "/v1/broadcasts/confirm", tag = "broadcasts", request_body = crate::wire::BroadcastConfirm,
    responses(
        (status = 200, description = "The message: `sending` (sent at once) or `scheduled`.", body = crate::wire::Broadcast,
            links(("CancelBroadcast" = (operation_id = "cancel", parameters(("id" = "$response.body#/id")))))),
        (status = 400, description = "confirmation_token_invalid, idempotency_key_required.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 403, description = "confirmation_principal_mismatch, confirmation_business_mismatch, broadcast_not_in_plan, broadcast_quota_reached, and the common 403 codes.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 404, description = "not_found (the pass).", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 409, description = "confirmation_token_used, confirmation_audience_changed, idempotency_in_progress.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 410, description = "confirmation_token_expired.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 422, description = "confirmation_payload_changed, validation_failed, idempotency_key_reused.", body = crate::wire::Problem, content_type = "application/problem+json"),
    ))]
pub async fn confirm(State(state): State<AppState>, caller: Caller, input: WriteInput) -> Response {
    let principal = principal(&caller);
    write::run(&state, caller, input, move |conn, ctx, body| {
        let mut f = Fields::new(body);
        let m = message(&mut f, body, None);
        let token = f.string("confirmation_token", true, 256);
        f.finish()?;
        broadcasts::confirm(
            conn,
            &ctx.scope,
            &ctx.business,
            &principal,
            &m,
            &token.unwrap_or_default(),
            ctx.now_ms,
        )
    })
    .await
}

/// POST /v1/broadcasts/{id}/cancel: cancels a scheduled message.
#[utoipa::path(post, path = "/v1/broadcasts/{id}/cancel", tag = "broadcasts", request_body = crate::wire::Empty,
    params(("id" = String, Path, description = "The id the confirm answered.")),
    responses(
        (status = 200, description = "The message, cancelled (again the same answer when it already was).", body = crate::wire::Broadcast),
        (status = 404, description = "not_found.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 409, description = "broadcast_already_sent, idempotency_in_progress.", body = crate::wire::Problem, content_type = "application/problem+json"),
    ))]
pub async fn cancel(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
    input: WriteInput,
) -> Response {
    write::run(&state, caller, input, move |conn, ctx, _body| {
        broadcasts::cancel(conn, &ctx.scope, &id, ctx.now_ms)
    })
    .await
}
