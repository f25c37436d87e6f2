//! What happens to cards outside the API: a recipient opens a gift card, the
//! business cancels one, deletes or replaces a loyalty card, deletes a customer, or
//! the counter undoes its last scan or spend.

use super::*;
use crate::views;
use crate::wire::{self, control::Undone};

pub(super) async fn claim_gift_card(
    State(state): State<AppState>,
    crate::http::Id(id): crate::http::Id,
    _: ControlBody,
) -> ApiResult<Json<wire::GiftCard>> {
    gift_card_change(&state, id, |card, now| match card.status.as_str() {
        "issued" => {
            card.status = "active".into();
            card.claimed_at = Some(now);
            Ok(())
        }
        "active" => Ok(()),
        "cancelled" => Err(ApiError::new(
            Code::GiftCardCancelled,
            "The gift card is cancelled.",
        )),
        _ => Err(ApiError::new(
            Code::GiftCardDepleted,
            "The gift card is used up.",
        )),
    })
    .await
}

pub(super) async fn cancel_gift_card(
    State(state): State<AppState>,
    crate::http::Id(id): crate::http::Id,
    _: ControlBody,
) -> ApiResult<Json<wire::GiftCard>> {
    gift_card_change(&state, id, |card, now| match card.status.as_str() {
        "issued" | "active" => {
            card.status = "cancelled".into();
            card.cancelled_at = Some(now);
            Ok(())
        }
        "cancelled" => Ok(()),
        _ => Err(ApiError::new(
            Code::GiftCardDepleted,
            "A used-up gift card is not cancelled.",
        )),
    })
    .await
}

async fn gift_card_change(
    state: &AppState,
    id: String,
    change: impl FnOnce(&mut gift_cards::GiftCard, i64) -> ApiResult<()> + Send + 'static,
) -> ApiResult<Json<wire::GiftCard>> {
    let clock = state.clock().clone();
    let answer = state
        .db()
        .write(move |tx| {
            let Some(mut card) = gift_cards::get_any(tx, &id)? else {
                return Err(ApiError::not_found("gift card", &id));
            };
            change(&mut card, clock.now_ms())?;
            gift_cards::save_state(tx, &card)?;
            let (txs, more) =
                gift_cards::transactions(tx, &card.id, gift_cards::TRANSACTIONS_SHOWN)?;
            Ok(views::gift_card(&card, Some((&txs, more))))
        })
        .await?;
    Ok(Json(answer))
}

pub(super) async fn gift_card_transactions(
    State(state): State<AppState>,
    crate::http::Id(id): crate::http::Id,
) -> ApiResult<Json<wire::control::GiftCardLedger>> {
    let answer = state
        .db()
        .read(move |c| {
            let Some(card) = gift_cards::get_any(c, &id)? else {
                return Err(ApiError::not_found("gift card", &id));
            };
            let (txs, _) = gift_cards::transactions(c, &card.id, usize::MAX)?;
            let ledger = views::gift_card(&card, Some((&txs, false)));
            Ok(wire::control::GiftCardLedger {
                object: "list",
                data: ledger.transactions.unwrap_or_default(),
                has_more: false,
                next_cursor: None,
                gift_card: views::gift_card(&card, None),
            })
        })
        .await?;
    Ok(Json(answer))
}

pub(super) async fn set_card_status(
    State(state): State<AppState>,
    crate::http::Id(id): crate::http::Id,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<wire::Card>> {
    let mut f = Fields::new(&map);
    let status = f.choice("status", true, &["deleted", "replaced"]);
    bad(f)?;
    let status = status.unwrap_or_default();
    let answer = state
        .db()
        .write(move |tx| {
            let Some(mut card) = customers::get_card_any(tx, &id)? else {
                return Err(ApiError::not_found("card", &id));
            };
            customers::set_card_status(tx, &card.id, &status)?;
            card.status = status;
            Ok(wire::Card::from(&card))
        })
        .await?;
    Ok(Json(answer))
}

pub(super) async fn delete_customer(
    State(state): State<AppState>,
    crate::http::Id(id): crate::http::Id,
) -> ApiResult<Json<wire::control::Deleted>> {
    let clock = state.clock().clone();
    let found = {
        let id = id.clone();
        state
            .db()
            .write(move |tx| customers::delete(tx, &id, clock.now_ms()))
            .await?
    };
    match found {
        Some(_) => Ok(Json(wire::control::Deleted { deleted: true })),
        None => Err(ApiError::not_found("customer", &id)),
    }
}

pub(super) async fn undo_last(
    State(state): State<AppState>,
    ControlBody(map): ControlBody,
) -> ApiResult<Json<wire::control::Undone>> {
    let mut f = Fields::new(&map);
    let card_id = f.string("card_id", false, 64);
    let gift_card_id = f.string("gift_card_id", false, 64);
    if card_id.is_some() == gift_card_id.is_some() {
        f.refuse(
            "card_id",
            "required",
            "Send exactly one of card_id and gift_card_id.",
        );
    }
    bad(f)?;
    let clock = state.clock().clone();
    let answer = state
        .db()
        .write(move |tx| {
            let now = clock.now_ms();
            match (card_id, gift_card_id) {
                (Some(card_id), _) => undo::card(tx, &card_id, now).map(Undone::Card),
                (_, Some(gift_card_id)) => {
                    undo::gift_card(tx, &gift_card_id, now).map(Undone::GiftCard)
                }
                _ => Err(ApiError::invalid_request("Send card_id or gift_card_id.")),
            }
        })
        .await?;
    Ok(Json(answer))
}
