//! API keys: minted and revoked as the dashboard would.

use super::*;
use crate::wire::control;

pub(super) async fn create_key(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<control::ApiKey>> {
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
    Ok(Json(control::ApiKey {
        object: "api_key",
        id: minted.id,
        key: minted.key,
        prefix: minted.prefix,
    }))
}

pub(super) async fn revoke_key(
    State(state): State<AppState>,
    crate::http::Id(id): crate::http::Id,
    _: ControlBody,
) -> ApiResult<Json<control::Revoked>> {
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
    Ok(Json(control::Revoked { revoked: true }))
}
