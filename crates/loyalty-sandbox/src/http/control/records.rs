//! What the service did outside its answers (effects, events) and the webhook
//! endpoints the dashboard registers.

use super::*;
use crate::views;
use crate::wire;

#[derive(Debug, serde::Deserialize)]
pub(super) struct BusinessQuery {
    pub(super) business_id: Option<String>,
}

/// Every row `read` gives for the business of the query, each shown by `show`.
async fn business_rows<R: 'static, W: Send + 'static>(
    state: &AppState,
    query: Result<Query<BusinessQuery>, axum::extract::rejection::QueryRejection>,
    read: fn(&rusqlite::Connection, &str) -> ApiResult<Vec<R>>,
    show: fn(R) -> ApiResult<W>,
) -> ApiResult<Json<wire::List<W>>> {
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
            read(c, &business_id)?.into_iter().map(show).collect()
        })
        .await?;
    Ok(Json(wire::List {
        object: "list",
        data,
        has_more: false,
        next_cursor: None,
    }))
}

pub(super) async fn list_effects(
    State(state): State<AppState>,
    query: Result<Query<BusinessQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<wire::List<wire::control::Effect>>> {
    business_rows(&state, query, effects::list, views::effect).await
}

pub(super) async fn list_events(
    State(state): State<AppState>,
    query: Result<Query<BusinessQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<wire::List<wire::control::Event>>> {
    business_rows(&state, query, effects::events, views::event).await
}

pub(super) async fn create_webhook_endpoint(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<wire::control::WebhookEndpointCreated>> {
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
            let mut shown = wire::WebhookEndpoint::from(&endpoint);
            shown.url = endpoint.url;
            Ok(wire::control::WebhookEndpointCreated {
                endpoint: shown,
                secret: endpoint.secret,
            })
        })
        .await?;
    Ok(Json(answer))
}
