//! Enrolling a customer, as the pass's join form does.

use rusqlite::Connection;
use serde_json::json;

use crate::error::{ApiError, ApiResult, Code};
use crate::ids;
use crate::rules::scan::CardCounters;
use crate::store::customers::{self, Card, NewCustomer};
use crate::store::effects::{self, EffectKind};
use crate::store::{
    Scope,
    business::{self, Business},
    passes,
};
use crate::wire;

/// Customers a sandbox holds at most.
pub const SANDBOX_CUSTOMER_LIMIT: i64 = 500;

/// A validated enrolment.
#[derive(Debug, Clone)]
pub struct Enrolment {
    /// Pass to join.
    pub pass_id: String,
    /// Name.
    pub name: Option<String>,
    /// Email (required: it is what makes a customer unique on a pass).
    pub email: String,
    /// `apple` or `google`.
    pub wallet: String,
    /// Send the welcome email.
    pub send_welcome: bool,
}

/// Enrols a customer with a new active card.
///
/// Order of checks: the pass (404 not_found, param pass_id), the email already on
/// the pass (409 customer_exists, detail gives the id), the customer allowance
/// (403 customer_limit_reached: the plan's `customer_limit` live, 500 in the sandbox).
pub(crate) fn enrol(
    conn: &Connection,
    scope: &Scope,
    business: &Business,
    e: &Enrolment,
    now_ms: i64,
) -> ApiResult<wire::Customer> {
    let Some(pass) = passes::get(conn, scope, &e.pass_id)? else {
        return Err(ApiError::not_found("pass", &e.pass_id).param("pass_id"));
    };
    if let Some(existing) = customers::find_by_email(conn, &pass.id, &e.email)? {
        return Err(ApiError::new(
            Code::CustomerExists,
            format!("This email is already enrolled on this pass as customer {existing}."),
        )
        .param("email")
        .extra(|x| x.customer_id = Some(existing)));
    }
    let limit = if scope.place.is_test() {
        SANDBOX_CUSTOMER_LIMIT
    } else {
        business.customer_limit
    };
    if customers::count(conn, scope)? >= limit {
        return Err(ApiError::new(
            Code::CustomerLimitReached,
            format!("The customer allowance of {limit} is used; nothing was created."),
        ));
    }
    let customer_id = ids::new_id("cus");
    customers::insert(
        conn,
        scope,
        &NewCustomer {
            id: &customer_id,
            pass_id: &pass.id,
            name: e.name.as_deref(),
            email: Some(&e.email),
            phone: None,
            created_at: now_ms,
        },
    )?;
    let card = Card {
        id: business::new_card_id(conn, &scope.business_id, "card")?,
        customer_id: customer_id.clone(),
        business_id: scope.business_id.clone(),
        place: scope.place,
        pass_id: pass.id.clone(),
        wallet: e.wallet.clone(),
        status: "active".into(),
        counters: CardCounters::default(),
        created_at: now_ms,
    };
    customers::insert_card(conn, &card)?;
    let customer = customers::get(conn, scope, &customer_id)?
        .ok_or_else(|| ApiError::internal("customer vanished inside its own transaction"))?;
    let body = wire::Customer::from(&customer);
    effects::record(
        conn,
        scope,
        EffectKind::TeamNotice,
        json!({
            "message": format!("New customer on {}: {}", pass.spec.name, e.name.as_deref().unwrap_or(&e.email)),
            "customer_id": customer_id,
        }),
        now_ms,
    )?;
    if e.send_welcome {
        effects::record(
            conn,
            scope,
            EffectKind::Email,
            json!({
                "to": e.email,
                "template": "welcome",
                "locale": pass.spec.locale,
                "customer_id": customer_id,
            }),
            now_ms,
        )?;
    }
    effects::event(
        conn,
        scope,
        "customer.created",
        &wire::EventData { object: &body },
        now_ms,
    )?;
    Ok(body)
}
