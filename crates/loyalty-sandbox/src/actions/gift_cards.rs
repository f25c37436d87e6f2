//! Issuing gift cards and taking payments from them.

use rusqlite::Connection;
use serde_json::json;

use crate::error::{ApiError, ApiResult, Code};
use crate::ids;
use crate::rules::payment::{self, Purse};
use crate::store::effects::{self, EffectKind};
use crate::store::gift_cards::{self, GiftCard, Transaction};
use crate::store::{Scope, business, customers, locations, passes};
use crate::views;
use crate::wire;

/// A validated issue request.
#[derive(Debug, Clone)]
pub struct Issue {
    /// Amount in minor units of `currency`.
    pub amount_minor: i64,
    /// ISO 4217 code, uppercase.
    pub currency: String,
    /// Its minor-unit exponent.
    pub exponent: u32,
    /// Language of the email.
    pub locale: String,
    /// Recipient's name.
    pub recipient_name: String,
    /// Recipient's email.
    pub recipient_email: String,
}

/// Issues a gift card (status `issued`) and emails the recipient.
///
/// The card takes its look from the place's main pass (its oldest active one);
/// without one: 409 pass_required. When the recipient's email belongs to a customer
/// of that pass, the card is linked to them (`customer_id`).
pub(crate) fn issue(
    conn: &Connection,
    scope: &Scope,
    req: &Issue,
    now_ms: i64,
) -> ApiResult<wire::GiftCard> {
    let Some(pass) = passes::main_pass(conn, scope)? else {
        return Err(ApiError::new(
            Code::PassRequired,
            "The business has no active pass to give the gift card its look.",
        ));
    };
    let customer_id = customers::find_by_email(conn, &pass.id, &req.recipient_email)?;
    let card = GiftCard {
        id: business::new_card_id(conn, &scope.business_id, "gc")?,
        business_id: scope.business_id.clone(),
        place: scope.place,
        pass_id: Some(pass.id.clone()),
        template_id: format!("tmpl_{}", pass.id.trim_start_matches("pass_")),
        currency: req.currency.clone(),
        exponent: req.exponent,
        initial_minor: req.amount_minor,
        balance_minor: req.amount_minor,
        status: "issued".into(),
        recipient_name: Some(req.recipient_name.clone()),
        recipient_email: Some(req.recipient_email.clone()),
        customer_id,
        customer_deleted: false,
        locale: req.locale.clone(),
        created_at: now_ms,
        claimed_at: None,
        depleted_at: None,
        cancelled_at: None,
    };
    gift_cards::insert(conn, &card)?;
    gift_cards::insert_transaction(
        conn,
        &card.id,
        &Transaction {
            id: ids::new_id("gctx"),
            kind: "issue".into(),
            amount_minor: req.amount_minor,
            balance_after_minor: req.amount_minor,
            reference: None,
            location_id: None,
            created_at: now_ms,
        },
    )?;
    let sent = effects::record(
        conn,
        scope,
        EffectKind::Email,
        json!({
            "to": req.recipient_email,
            "template": "gift_card_issued",
            "locale": req.locale,
            "gift_card_id": card.id,
        }),
        now_ms,
    )?;
    let mut body = views::gift_card(&card, None);
    body.email = Some(wire::EmailOutcome {
        sent,
        reason: (!sent).then(|| "sandbox".to_owned()),
    });
    Ok(body)
}

/// A validated payment request.
#[derive(Debug, Clone)]
pub struct Payment {
    /// Gift card.
    pub gift_card_id: String,
    /// Amount in minor units.
    pub amount_minor: i64,
    /// Currency as sent.
    pub currency: String,
    /// The business's ticket number.
    pub reference: Option<String>,
    /// Where (an extension; must be a location of the place).
    pub location_id: Option<String>,
}

/// Takes a payment from a gift card. Runs inside the write transaction, which
/// SQLite serializes (`BEGIN IMMEDIATE`), so the balance read here is the one the
/// update writes over: two payments can never take more than the card holds.
pub(crate) fn pay(
    conn: &Connection,
    scope: &Scope,
    req: &Payment,
    now_ms: i64,
) -> ApiResult<wire::GiftCardPayment> {
    let Some(mut card) = gift_cards::get(conn, scope, &req.gift_card_id)? else {
        return Err(ApiError::not_found("gift card", &req.gift_card_id));
    };
    if let Some(location_id) = &req.location_id
        && !locations::exists(conn, scope, location_id)?
    {
        return Err(ApiError::not_found("location", location_id).param("location_id"));
    }
    let outcome = payment::take(
        Purse {
            status: &card.status,
            currency: &card.currency,
            exponent: card.exponent,
            balance_minor: card.balance_minor,
        },
        req.amount_minor,
        &req.currency,
    )?;
    card.balance_minor = outcome.balance_after;
    if outcome.depleted {
        card.status = "depleted".into();
        card.depleted_at = Some(now_ms);
    }
    gift_cards::save_state(conn, &card)?;
    let tx_id = ids::new_id("gctx");
    gift_cards::insert_transaction(
        conn,
        &card.id,
        &Transaction {
            id: tx_id.clone(),
            kind: "spend".into(),
            amount_minor: req.amount_minor,
            balance_after_minor: outcome.balance_after,
            reference: req.reference.clone(),
            location_id: req.location_id.clone(),
            created_at: now_ms,
        },
    )?;
    let body = wire::GiftCardPayment {
        object: "gift_card_payment".into(),
        id: tx_id.clone(),
        gift_card_id: card.id.clone(),
        amount: card.money(req.amount_minor),
        amount_minor: req.amount_minor,
        currency: card.currency.clone(),
        balance_after: card.money(outcome.balance_after),
        reference: req.reference.clone(),
        location_id: req.location_id.clone(),
        test: scope.place.is_test(),
        gift_card: views::gift_card(&card, None),
    };
    if let Some(to) = &card.recipient_email {
        effects::record(
            conn,
            scope,
            EffectKind::Email,
            json!({
                "to": to,
                "template": "gift_card_receipt",
                "locale": card.locale,
                "gift_card_id": card.id,
            }),
            now_ms,
        )?;
    }
    effects::record(
        conn,
        scope,
        EffectKind::WalletUpdate,
        json!({ "gift_card_id": card.id }),
        now_ms,
    )?;
    effects::event(
        conn,
        scope,
        "gift_card.spent",
        &wire::EventData { object: &body },
        now_ms,
    )?;
    Ok(body)
}
