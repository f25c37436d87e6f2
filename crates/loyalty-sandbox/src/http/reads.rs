//! The read routes (scope `read`).

use axum::Json;
use axum::extract::State;

use super::auth::Caller;
use super::list::{FilterSpec, ListRequest};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::business::plan_name;
use crate::store::{customers, gift_cards, locations, passes, referrals, scans, webhooks};
use crate::views;
use crate::wire;

/// GET /v1/me: the key, its business, mode, plan, scopes and rate limits.
#[utoipa::path(get, path = "/v1/me", tag = "reads",
    responses((status = 200, description = "The key, its business, mode, plan, scopes and rate limits.", body = crate::wire::Key)))]
pub(crate) async fn me(caller: Caller) -> Json<wire::Key> {
    Json(wire::Key {
        object: "key".into(),
        business: wire::KeyBusiness {
            id: caller.business.id.clone(),
            name: caller.business.name.clone(),
        },
        key: wire::KeyId {
            id: caller.key_id,
            prefix: caller.prefix,
        },
        mode: caller.mode.as_str().to_owned(),
        plan_name: plan_name(&caller.business.plan),
        plan: caller.business.plan,
        rate_limits: caller.business.limits.into(),
        scopes: caller.scopes,
    })
}

const PASS_FILTERS: &[FilterSpec] = &[FilterSpec {
    name: "status",
    values: &["active", "archived"],
}];

/// GET /v1/passes (filter: `status`).
#[utoipa::path(get, path = "/v1/passes", tag = "reads",
    params(crate::http::list::PageParams, ("status" = Option<String>, Query, description = "`active` or `archived`.")),
    responses((status = 200, description = "Passes, active and archived.", body = crate::wire::PassList,
            links(("GetPass" = (operation_id = "get_pass", parameters(("id" = "$response.body#/data/0/id")))))),
        (status = 400, description = crate::http::list::LIST_CODES, body = crate::wire::Problem, content_type = "application/problem+json")))]
pub(crate) async fn list_passes(list: ListRequest) -> ApiResult<Json<wire::List<wire::Pass>>> {
    list.respond("passes", PASS_FILTERS, |params| {
        let filters = passes::Filters {
            status: params.filter("status"),
        };
        move |c, scope, page| passes::list(c, scope, &filters, page)
    })
    .await
}

/// GET /v1/passes/{id}.
#[utoipa::path(get, path = "/v1/passes/{id}", tag = "reads",
    params(("id" = String, Path, description = "A pass id.")),
    responses((status = 200, description = "The pass.", body = crate::wire::Pass)))]
pub(crate) async fn get_pass(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
) -> ApiResult<Json<wire::Pass>> {
    let scope = caller.scope();
    let found = {
        let id = id.clone();
        state
            .db()
            .read(move |c| passes::get(c, &scope, &id))
            .await?
    };
    found
        .map(|p| Json(wire::Pass::from(&p)))
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
#[utoipa::path(get, path = "/v1/customers", tag = "reads",
    params(crate::http::list::PageParams,
        ("email" = Option<String>, Query, description = "Exact email, case-insensitive."),
        ("pass_id" = Option<String>, Query, description = "Only this pass's customers.")),
    responses((status = 200, description = "Customers with their cards; deleted ones excluded.", body = crate::wire::CustomerList,
            links(("GetCustomer" = (operation_id = "get_customer", parameters(("id" = "$response.body#/data/0/id")))))),
        (status = 400, description = crate::http::list::LIST_CODES, body = crate::wire::Problem, content_type = "application/problem+json")))]
pub(crate) async fn list_customers(
    list: ListRequest,
) -> ApiResult<Json<wire::List<wire::Customer>>> {
    list.respond("customers", CUSTOMER_FILTERS, |params| {
        let filters = customers::Filters {
            email: params.filter("email"),
            pass_id: params.filter("pass_id"),
        };
        move |c, scope, page| customers::list(c, scope, &filters, page)
    })
    .await
}

/// GET /v1/customers/{id}: deleted customers answer 404 like unknown ones.
#[utoipa::path(get, path = "/v1/customers/{id}", tag = "reads",
    params(("id" = String, Path, description = "A customer id.")),
    responses((status = 200, description = "The customer (deleted ones are not found).", body = crate::wire::Customer)))]
pub(crate) async fn get_customer(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
) -> ApiResult<Json<wire::Customer>> {
    let scope = caller.scope();
    let found = {
        let id = id.clone();
        state
            .db()
            .read(move |c| customers::get(c, &scope, &id))
            .await?
    };
    found
        .map(|c| Json(wire::Customer::from(&c)))
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
#[utoipa::path(get, path = "/v1/scans", tag = "reads",
    params(crate::http::list::PageParams,
        ("customer_id" = Option<String>, Query, description = "Only this customer's scans."),
        ("kind" = Option<String>, Query, description = "`visit` or `points`.")),
    responses((status = 200, description = "Visits and points scans.", body = crate::wire::ScanList),
        (status = 400, description = crate::http::list::LIST_CODES, body = crate::wire::Problem, content_type = "application/problem+json")))]
pub(crate) async fn list_scans(list: ListRequest) -> ApiResult<Json<wire::List<wire::Scan>>> {
    list.respond("scans", SCAN_FILTERS, |params| {
        let filters = scans::Filters {
            customer_id: params.filter("customer_id"),
            kind: params.filter("kind"),
        };
        move |c, scope, page| scans::list(c, scope, &filters, page)
    })
    .await
}

/// GET /v1/locations.
#[utoipa::path(get, path = "/v1/locations", tag = "reads",
    params(crate::http::list::PageParams),
    responses((status = 200, description = "Locations, inactive ones included.", body = crate::wire::LocationList),
        (status = 400, description = crate::http::list::LIST_CODES, body = crate::wire::Problem, content_type = "application/problem+json")))]
pub(crate) async fn list_locations(
    list: ListRequest,
) -> ApiResult<Json<wire::List<wire::Location>>> {
    list.respond("locations", &[], |_| locations::list).await
}

/// GET /v1/referrals.
#[utoipa::path(get, path = "/v1/referrals", tag = "reads",
    params(crate::http::list::PageParams),
    responses((status = 200, description = "Referrals.", body = crate::wire::ReferralList),
        (status = 400, description = crate::http::list::LIST_CODES, body = crate::wire::Problem, content_type = "application/problem+json")))]
pub(crate) async fn list_referrals(
    list: ListRequest,
) -> ApiResult<Json<wire::List<wire::Referral>>> {
    list.respond("referrals", &[], |_| referrals::list).await
}

const GIFT_CARD_FILTERS: &[FilterSpec] = &[FilterSpec {
    name: "status",
    values: &["issued", "active", "depleted", "cancelled"],
}];

/// GET /v1/gift_cards (filter: `status`).
#[utoipa::path(get, path = "/v1/gift_cards", tag = "reads",
    params(crate::http::list::PageParams, ("status" = Option<String>, Query, description = "`issued`, `active`, `depleted` or `cancelled`.")),
    responses((status = 200, description = "Gift cards, test cards flagged.", body = crate::wire::GiftCardList,
            links(("GetGiftCard" = (operation_id = "get_gift_card", parameters(("id" = "$response.body#/data/0/id")))),
                ("PayGiftCard" = (operation_id = "pay_gift_card", parameters(("id" = "$response.body#/data/0/id")))))),
        (status = 400, description = crate::http::list::LIST_CODES, body = crate::wire::Problem, content_type = "application/problem+json")))]
pub(crate) async fn list_gift_cards(
    list: ListRequest,
) -> ApiResult<Json<wire::List<wire::GiftCard>>> {
    list.respond("gift_cards", GIFT_CARD_FILTERS, |params| {
        let filters = gift_cards::Filters {
            status: params.filter("status"),
        };
        move |c, scope, page| gift_cards::list(c, scope, &filters, page)
    })
    .await
}

/// GET /v1/gift_cards/{id}: with the newest 20 ledger entries and `transactions_has_more`.
#[utoipa::path(get, path = "/v1/gift_cards/{id}", tag = "reads",
    params(("id" = String, Path, description = "A gift card id.")),
    responses((status = 200, description = "The gift card with its newest 20 ledger entries.", body = crate::wire::GiftCard)))]
pub(crate) async fn get_gift_card(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
) -> ApiResult<Json<wire::GiftCard>> {
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
                Ok(Some(views::gift_card(&card, Some((&txs, more)))))
            })
            .await?
    };
    found
        .map(Json)
        .ok_or_else(|| ApiError::not_found("gift card", &id))
}

/// GET /v1/webhook_endpoints: the business's endpoints, no secrets, urls without query.
#[utoipa::path(get, path = "/v1/webhook_endpoints", tag = "reads",
    params(crate::http::list::PageParams),
    responses((status = 200, description = "The business's webhook endpoints.", body = crate::wire::WebhookEndpointList),
        (status = 400, description = crate::http::list::LIST_CODES, body = crate::wire::Problem, content_type = "application/problem+json")))]
pub(crate) async fn list_webhook_endpoints(
    list: ListRequest,
) -> ApiResult<Json<wire::List<wire::WebhookEndpoint>>> {
    // Endpoints belong to the business, not to a place.
    list.respond("webhook_endpoints", &[], |_| {
        |c, scope, page| webhooks::list(c, &scope.business_id, page)
    })
    .await
}
