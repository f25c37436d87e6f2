//! Effects (what the service sent or changed outside its answers) and events.
//!
//! An effect is a row per email, wallet update or notice. In the sandbox nothing is
//! really sent: the effect is still recorded, with `sent: false` and
//! `reason: "sandbox"`. Events (`customer.created`, `scan.recorded`,
//! `gift_card.spent`, `scan.voided`) are rows a delivery worker reads; they are
//! written in the same transaction as the change they describe, so an event exists
//! exactly when its change does.

use rusqlite::{Connection, params};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::Scope;
use crate::error::ApiResult;
use crate::ids;

/// Kinds of effects, as `/_sandbox/effects` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectKind {
    /// An email to a customer or the owner.
    Email,
    /// An update pushed to a wallet card.
    WalletUpdate,
    /// A notice to the owner's team in the dashboard.
    TeamNotice,
    /// A notice to the owner.
    OwnerNotice,
    /// A message to one card holder (wallet, or email as the fallback).
    BroadcastDelivery,
    /// One attempt to post an event to a webhook endpoint. Test events really go
    /// to the endpoints that opted in, so this kind is sent in the sandbox too.
    WebhookDelivery,
}

impl EffectKind {
    fn as_str(self) -> &'static str {
        match self {
            EffectKind::Email => "email",
            EffectKind::WalletUpdate => "wallet_update",
            EffectKind::TeamNotice => "team_notice",
            EffectKind::OwnerNotice => "owner_notice",
            EffectKind::BroadcastDelivery => "broadcast_delivery",
            EffectKind::WebhookDelivery => "webhook_delivery",
        }
    }
}

/// Records an effect; `details` is an object merged into the item. Returns whether it
/// was (in the simulation) sent: true live, false in the sandbox.
pub fn record(
    conn: &Connection,
    scope: &Scope,
    kind: EffectKind,
    details: Value,
    now_ms: i64,
) -> ApiResult<bool> {
    let sent = !scope.place.is_test() || kind == EffectKind::WebhookDelivery;
    let mut details = match details {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    details.insert("sent".into(), json!(sent));
    details.insert(
        "reason".into(),
        if sent { Value::Null } else { json!("sandbox") },
    );
    conn.prepare_cached(
        "INSERT INTO effects (id, business_id, place, kind, at, details) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        ids::new_id("eff"),
        scope.business_id,
        scope.place.as_str(),
        kind.as_str(),
        now_ms,
        Value::Object(details).to_string()
    ])?;
    Ok(sent)
}

/// Records an event for later delivery; returns its id.
pub fn event(
    conn: &Connection,
    scope: &Scope,
    event_type: &str,
    data: &impl Serialize,
    now_ms: i64,
) -> ApiResult<String> {
    let id = ids::new_id("evt");
    conn.prepare_cached(
        "INSERT INTO events (id, business_id, place, type, livemode, data, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        id,
        scope.business_id,
        scope.place.as_str(),
        event_type,
        !scope.place.is_test(),
        serde_json::to_string(data)?,
        now_ms
    ])?;
    Ok(id)
}

/// A recorded effect.
#[derive(Debug, Clone)]
pub struct EffectRow {
    /// Id (`eff_...`).
    pub id: String,
    /// `live` or `sandbox`.
    pub place: String,
    /// Its [`EffectKind`], as text.
    pub kind: String,
    /// When, ms.
    pub at: i64,
    /// The details of its kind: a JSON object.
    pub details: String,
}

/// Every effect of a business (both places), oldest first.
pub fn list(conn: &Connection, business_id: &str) -> ApiResult<Vec<EffectRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, place, kind, at, details FROM effects WHERE business_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([business_id], |r| {
        Ok(EffectRow {
            id: r.get(0)?,
            place: r.get(1)?,
            kind: r.get(2)?,
            at: r.get(3)?,
            details: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A recorded event.
#[derive(Debug, Clone)]
pub struct EventRow {
    /// Id (`evt_...`).
    pub id: String,
    /// Its type (`customer.created`, ...).
    pub event_type: String,
    /// Whether it happened live.
    pub livemode: bool,
    /// Its data: JSON text.
    pub data: String,
    /// When, ms.
    pub created_at: i64,
}

/// Every event of a business, oldest first (for tests and the delivery worker).
pub fn events(conn: &Connection, business_id: &str) -> ApiResult<Vec<EventRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, type, livemode, data, created_at FROM events WHERE business_id = ?1 ORDER BY created_at, rowid",
    )?;
    let rows = stmt.query_map([business_id], |r| {
        Ok(EventRow {
            id: r.get(0)?,
            event_type: r.get(1)?,
            livemode: r.get(2)?,
            data: r.get(3)?,
            created_at: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
