//! Recording a counter scan.

use rusqlite::Connection;
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::ids;
use crate::rules::scan::{self, CardRules, ScanKind, ScanRequest};
use crate::store::effects::{self, EffectKind};
use crate::store::scans::NewScan;
use crate::store::{Scope, customers, locations, passes, scans as scan_rows};
use crate::wire;

/// A validated scan request with its target.
#[derive(Debug, Clone)]
pub struct ScanInput {
    /// Card scanned.
    pub card_id: String,
    /// The rule request.
    pub request: ScanRequest,
    /// Where (an extension; must be a location of the place).
    pub location_id: Option<String>,
}

/// Records a scan by the card's rules: `scan_result`, or a refusal that records nothing.
pub(crate) fn record(
    conn: &Connection,
    scope: &Scope,
    input: &ScanInput,
    now_ms: i64,
) -> ApiResult<wire::ScanResult> {
    let Some(card) = customers::get_card(conn, scope, &input.card_id)? else {
        return Err(ApiError::not_found("card", &input.card_id).param("card_id"));
    };
    if let Some(location_id) = &input.location_id
        && !locations::exists(conn, scope, location_id)?
    {
        return Err(ApiError::not_found("location", location_id).param("location_id"));
    }
    let pass = passes::get(conn, scope, &card.pass_id)?
        .ok_or_else(|| ApiError::internal(format!("card {} has no pass", card.id)))?;
    let rules = CardRules {
        points: pass.is_points(),
        goal: pass.spec.goal,
    };
    let outcome = scan::apply(&card.status, card.counters, rules, input.request, now_ms)?;
    customers::save_counters(conn, &card.id, &outcome.after)?;
    let scan_id = ids::new_id("scan");
    let points_change = outcome.points_added - outcome.points_deducted;
    let amount = match input.request.kind {
        ScanKind::Points => format!("{}.00", input.request.amount),
        _ => "0.00".to_owned(),
    };
    scan_rows::insert(
        conn,
        scope,
        &NewScan {
            id: &scan_id,
            pass_id: &card.pass_id,
            card_id: &card.id,
            customer_id: &card.customer_id,
            kind: input.request.kind.as_str(),
            amount,
            points: points_change,
            visits_added: outcome.visits_added,
            reward_earned: outcome.reward_earned,
            location_id: input.location_id.as_deref(),
            card_before: card.counters,
            created_at: now_ms,
        },
    )?;
    let mut after = card.clone();
    after.counters = outcome.after;
    let result = wire::ScanResult {
        object: "scan_result".into(),
        id: scan_id.clone(),
        kind: input.request.kind.as_str().to_owned(),
        card_id: card.id.clone(),
        customer_id: card.customer_id.clone(),
        visits_added: outcome.visits_added,
        points_added: outcome.points_added,
        points_deducted: outcome.points_deducted,
        reward_earned: outcome.reward_earned,
        card: wire::Card::from(&after),
    };
    effects::record(
        conn,
        scope,
        EffectKind::WalletUpdate,
        json!({ "card_id": card.id, "wallet": card.wallet }),
        now_ms,
    )?;
    effects::event(
        conn,
        scope,
        "scan.recorded",
        &wire::EventData { object: &result },
        now_ms,
    )?;
    Ok(result)
}
