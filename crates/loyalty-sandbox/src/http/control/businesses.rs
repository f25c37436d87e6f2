//! Businesses and their passes, as the dashboard would make them.

use super::*;
use crate::views;
use crate::wire;

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

pub(super) async fn create_business(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<wire::control::Business>> {
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
    let plain_ids = f.boolean("plain_ids");
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
        plain_ids: plain_ids.unwrap_or(false),
    };
    let clock = state.clock().clone();
    let created = state
        .db()
        .write(move |tx| setup::create_business(tx, &nb, clock.now_ms()))
        .await?;
    Ok(Json(views::business(
        &created.business,
        created.pass_id,
        Some(created.sandbox_pass_id),
    )))
}

pub(super) async fn update_business(
    State(state): State<AppState>,
    crate::http::Id(id): crate::http::Id,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<wire::control::Business>> {
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
            Ok(views::business(&b, live, sandbox))
        })
        .await?;
    Ok(Json(answer))
}

pub(super) async fn create_pass(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<wire::Pass>> {
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
    Ok(Json(wire::Pass::from(&pass)))
}
