//! The counter's five-second undo (`POST /_sandbox/undo`).
//!
//! Undoes the card's last scan (visit, points or redeem) or the gift card's last
//! spend when it happened at most five seconds ago by the server's clock; after
//! that: 409 undo_window_passed; nothing to undo: 409 nothing_to_undo. The card is
//! put back exactly as it was, and `scan.voided` is recorded with the 2026-11 payload.
//! Its `kind`: a visit → `visit`; points → `visit` (the stamp of points); a redeem on
//! a visits pass → `redeem`, on a points pass → `claim_reward`; a spend → `gift_card_spend`.

use rusqlite::Connection;
use serde_json::json;

use crate::clock::format_ms;
use crate::error::{ApiError, ApiResult, Code};
use crate::store::effects::{self, EffectKind};
use crate::store::{Scope, customers, gift_cards, passes, scans};
use crate::views;
use crate::wire;

/// How long after a scan or spend the counter may undo it.
pub const UNDO_WINDOW_MS: i64 = 5_000;

fn check_window(at: i64, now_ms: i64) -> ApiResult<()> {
    if now_ms - at > UNDO_WINDOW_MS {
        return Err(ApiError::new(
            Code::UndoWindowPassed,
            "The undo window of five seconds has passed.",
        ));
    }
    Ok(())
}

/// Marks the payload when its customer is deleted.
fn deleted_members(
    conn: &Connection,
    customer_id: Option<&str>,
    payload: &mut wire::ScanVoided,
) -> ApiResult<()> {
    if let Some(id) = customer_id
        && let Some(at) = customers::deleted_at(conn, id)?
    {
        payload.customer_deleted = Some(true);
        payload.customer_deleted_at = Some(format_ms(at));
    }
    Ok(())
}

/// Undoes the last scan of a loyalty card; answers the card after the undo.
pub(crate) fn card(conn: &Connection, card_id: &str, now_ms: i64) -> ApiResult<wire::Card> {
    let Some(mut card) = customers::get_card_any(conn, card_id)? else {
        return Err(ApiError::not_found("card", card_id).param("card_id"));
    };
    let Some(last) = scans::last_for_card(conn, card_id)? else {
        return Err(ApiError::new(
            Code::NothingToUndo,
            "The card has no scan to undo.",
        ));
    };
    check_window(last.created_at, now_ms)?;
    let scope = Scope {
        business_id: card.business_id.clone(),
        place: card.place,
    };
    let points_pass = passes::get(conn, &scope, &card.pass_id)?
        .map(|p| p.is_points())
        .unwrap_or(false);
    card.counters = last.card_before;
    customers::save_counters(conn, &card.id, &card.counters)?;
    scans::void(conn, &last.id, now_ms)?;
    let kind = match (last.kind.as_str(), points_pass) {
        ("redeem", true) => "claim_reward",
        ("redeem", false) => "redeem",
        _ => "visit",
    };
    let new_value = if points_pass {
        card.counters.points
    } else {
        card.counters.visits
    };
    let mut payload = wire::ScanVoided {
        receipt_id: last.id.clone(),
        kind,
        pass_id: Some(last.pass_id.clone()),
        customer_id: Some(last.customer_id.clone()),
        customer_pass_id: Some(card.id.clone()),
        gift_card_id: None,
        new_value: Some(new_value),
        rewards_available: Some(card.counters.rewards_available),
        balance: None,
        scanned_at: format_ms(last.created_at),
        timestamp: format_ms(now_ms),
        customer_deleted: None,
        customer_deleted_at: None,
    };
    deleted_members(conn, Some(&last.customer_id), &mut payload)?;
    effects::record(
        conn,
        &scope,
        EffectKind::WalletUpdate,
        json!({ "card_id": card.id, "wallet": card.wallet }),
        now_ms,
    )?;
    effects::event(conn, &scope, "scan.voided", &payload, now_ms)?;
    Ok(wire::Card::from(&card))
}

/// Undoes the last spend of a gift card; answers the gift card after the undo.
pub(crate) fn gift_card(
    conn: &Connection,
    gift_card_id: &str,
    now_ms: i64,
) -> ApiResult<wire::GiftCard> {
    let Some(mut card) = gift_cards::get_any(conn, gift_card_id)? else {
        return Err(ApiError::not_found("gift card", gift_card_id).param("gift_card_id"));
    };
    let Some(last) = gift_cards::spends(conn, gift_card_id)?.pop() else {
        return Err(ApiError::new(
            Code::NothingToUndo,
            "The gift card has no spend to undo.",
        ));
    };
    check_window(last.created_at, now_ms)?;
    card.balance_minor += last.amount_minor;
    if card.status == "depleted" {
        card.status = "active".into();
        card.depleted_at = None;
    }
    gift_cards::save_state(conn, &card)?;
    gift_cards::void_transaction(conn, &last.id, now_ms)?;
    let scope = Scope {
        business_id: card.business_id.clone(),
        place: card.place,
    };
    let balance: f64 = card.money(card.balance_minor).parse().unwrap_or(0.0);
    let mut payload = wire::ScanVoided {
        receipt_id: last.id.clone(),
        kind: "gift_card_spend",
        pass_id: card.pass_id.clone(),
        customer_id: card.customer_id.clone(),
        customer_pass_id: None,
        gift_card_id: Some(card.id.clone()),
        new_value: None,
        rewards_available: None,
        balance: Some(balance),
        scanned_at: format_ms(last.created_at),
        timestamp: format_ms(now_ms),
        customer_deleted: None,
        customer_deleted_at: None,
    };
    deleted_members(conn, card.customer_id.as_deref(), &mut payload)?;
    effects::record(
        conn,
        &scope,
        EffectKind::WalletUpdate,
        json!({ "gift_card_id": card.id }),
        now_ms,
    )?;
    effects::event(conn, &scope, "scan.voided", &payload, now_ms)?;
    let (txs, more) = gift_cards::transactions(conn, &card.id, gift_cards::TRANSACTIONS_SHOWN)?;
    Ok(views::gift_card(&card, Some((&txs, more))))
}
