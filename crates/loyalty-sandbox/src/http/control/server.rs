//! The server itself: its clock, generated data, and injected faults.

use super::*;
use crate::wire::control;

pub(super) async fn advance_clock(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<control::ClockNow>> {
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
    Ok(Json(control::ClockNow {
        now: format_ts(now),
    }))
}

pub(super) async fn seed(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<control::Seeded>> {
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
    Ok(Json(control::Seeded {
        customers: added.customers,
        cards: added.cards,
        scans: added.scans,
    }))
}

pub(super) async fn arm_fault(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<control::Armed>> {
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
    Ok(Json(control::Armed { armed: count }))
}

pub(super) async fn clear_faults(State(state): State<AppState>) -> Json<control::Armed> {
    state.faults().clear();
    Json(control::Armed { armed: 0 })
}
