//! The read routes (scope `read`).

use axum::Json;
use axum::extract::State;
use axum::http::Uri;
use serde_json::{Value, json};

use super::auth::Caller;
use super::list::{FilterSpec, ListParams};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::business::plan_name;
use crate::store::{customers, gift_cards, locations, passes, referrals, scans, webhooks};

/// GET /v1/me: the key, its business, mode, plan, scopes and rate limits.
pub async fn me(caller: Caller) -> Json<Value> {
    Json(json!({
        "object": "key",
        "business": {"id": caller.business.id, "name": caller.business.name},
        "key": {"id": caller.key_id, "prefix": caller.prefix},
        "mode": caller.mode.as_str(),
        "plan": caller.business.plan,
        "plan_name": plan_name(&caller.business.plan),
        "rate_limits": caller.business.limits.to_json(),
        "scopes": caller.scopes,
    }))
}

const PASS_FILTERS: &[FilterSpec] = &[FilterSpec {
    name: "status",
    values: &["active", "archived"],
}];

/// GET /v1/passes (filter: `status`).
pub async fn list_passes(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let params = ListParams::parse(&state, &caller, &uri, "passes", PASS_FILTERS)?;
    let filters = passes::Filters {
        status: params.filter("status"),
    };
    let (scope, page) = (caller.scope(), params.page.clone());
    let page = state
        .db()
        .read(move |c| passes::list(c, &scope, &filters, &page))
        .await?;
    Ok(Json(params.answer(&state, page, passes::Pass::to_json)))
}

/// GET /v1/passes/{id}.
pub async fn get_pass(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
) -> ApiResult<Json<Value>> {
    let scope = caller.scope();
    let found = {
        let id = id.clone();
        state
            .db()
            .read(move |c| passes::get(c, &scope, &id))
            .await?
    };
    found
        .map(|p| Json(p.to_json()))
        .ok_or_else(|| ApiError::not_found("pass", &id))
}

const CUSTOMER_FILTERS: &[FilterSpec] = &[
    FilterSpec {
        name: "email",
        values: &[],
    },
    FilterSpec {
        name: "pass_id",
        values: &[],
    },
];

/// GET /v1/customers (filters: `email`, exact and case-insensitive; `pass_id`).
pub async fn list_customers(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let params = ListParams::parse(&state, &caller, &uri, "customers", CUSTOMER_FILTERS)?;
    let filters = customers::Filters {
        email: params.filter("email"),
        pass_id: params.filter("pass_id"),
    };
    let (scope, page) = (caller.scope(), params.page.clone());
    let page = state
        .db()
        .read(move |c| customers::list(c, &scope, &filters, &page))
        .await?;
    Ok(Json(params.answer(
        &state,
        page,
        customers::Customer::to_json,
    )))
}

/// GET /v1/customers/{id}: deleted customers answer 404 like unknown ones.
pub async fn get_customer(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
) -> ApiResult<Json<Value>> {
    let scope = caller.scope();
    let found = {
        let id = id.clone();
        state
            .db()
            .read(move |c| customers::get(c, &scope, &id))
            .await?
    };
    found
        .map(|c| Json(c.to_json()))
        .ok_or_else(|| ApiError::not_found("customer", &id))
}

const SCAN_FILTERS: &[FilterSpec] = &[
    FilterSpec {
        name: "customer_id",
        values: &[],
    },
    FilterSpec {
        name: "kind",
        values: &["visit", "points"],
    },
];

/// GET /v1/scans (filters: `customer_id`, `kind`).
pub async fn list_scans(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let params = ListParams::parse(&state, &caller, &uri, "scans", SCAN_FILTERS)?;
    let filters = scans::Filters {
        customer_id: params.filter("customer_id"),
        kind: params.filter("kind"),
    };
    let (scope, page) = (caller.scope(), params.page.clone());
    let page = state
        .db()
        .read(move |c| scans::list(c, &scope, &filters, &page))
        .await?;
    Ok(Json(params.answer(
        &state,
        page,
        scans::ScanRecord::to_json,
    )))
}

/// GET /v1/locations.
pub async fn list_locations(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let params = ListParams::parse(&state, &caller, &uri, "locations", &[])?;
    let (scope, page) = (caller.scope(), params.page.clone());
    let page = state
        .db()
        .read(move |c| locations::list(c, &scope, &page))
        .await?;
    Ok(Json(params.answer(
        &state,
        page,
        locations::Location::to_json,
    )))
}

/// GET /v1/referrals.
pub async fn list_referrals(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let params = ListParams::parse(&state, &caller, &uri, "referrals", &[])?;
    let (scope, page) = (caller.scope(), params.page.clone());
    let page = state
        .db()
        .read(move |c| referrals::list(c, &scope, &page))
        .await?;
    Ok(Json(params.answer(
        &state,
        page,
        referrals::Referral::to_json,
    )))
}

const GIFT_CARD_FILTERS: &[FilterSpec] = &[FilterSpec {
    name: "status",
    values: &["issued", "active", "depleted", "cancelled"],
}];

/// GET /v1/gift_cards (filter: `status`).
pub async fn list_gift_cards(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let params = ListParams::parse(&state, &caller, &uri, "gift_cards", GIFT_CARD_FILTERS)?;
    let filters = gift_cards::Filters {
        status: params.filter("status"),
    };
    let (scope, page) = (caller.scope(), params.page.clone());
    let page = state
        .db()
        .read(move |c| gift_cards::list(c, &scope, &filters, &page))
        .await?;
    Ok(Json(params.answer(&state, page, |g| g.to_json(None))))
}

/// GET /v1/gift_cards/{id}: with the newest 20 ledger entries and `transactions_has_more`.
pub async fn get_gift_card(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
) -> ApiResult<Json<Value>> {
    let scope = caller.scope();
    let found = {
        let id = id.clone();
        state
            .db()
            .read(move |c| {
                let Some(card) = gift_cards::get(c, &scope, &id)? else {
                    return Ok(None);
                };
                let (txs, more) =
                    gift_cards::transactions(c, &card.id, gift_cards::TRANSACTIONS_SHOWN)?;
                Ok(Some(card.to_json(Some((&txs, more)))))
            })
            .await?
    };
    found
        .map(Json)
        .ok_or_else(|| ApiError::not_found("gift card", &id))
}

/// GET /v1/webhook_endpoints: the business's endpoints, no secrets, urls without query.
pub async fn list_webhook_endpoints(
    State(state): State<AppState>,
    caller: Caller,
    uri: Uri,
) -> ApiResult<Json<Value>> {
    let params = ListParams::parse(&state, &caller, &uri, "webhook_endpoints", &[])?;
    let (business, page) = (caller.business.id.clone(), params.page.clone());
    let page = state
        .db()
        .read(move |c| webhooks::list(c, &business, &page))
        .await?;
    Ok(Json(params.answer(
        &state,
        page,
        webhooks::Endpoint::to_json,
    )))
}
