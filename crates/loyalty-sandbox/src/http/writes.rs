//! The write routes: validate the body, then run one action through the
//! idempotent pipeline of [`super::write`].
//!
//! Body rules (the spec leaves them open):
//!
//! - **POST /v1/customers**: `pass_id` (required), `email` (required, an address,
//!   at most 254 characters), `name` (optional, at most 200), `wallet` (`apple` or
//!   `google`, default `apple`), `send_welcome` (boolean, default false).
//! - **POST /v1/scans**: `card_id` and `kind` (`visit`, `points`, `redeem`) required;
//!   `amount` is required for `points` (a non-zero whole number from -1000000 to
//!   1000000) and refused for the other kinds; `confirm_repeat` boolean, default
//!   false; `location_id` optional (extension: a location of the place).
//! - **POST /v1/gift_cards**: `amount` (a number > 0 in major units, exact in the
//!   currency's minor unit, at most 1000000), `currency` (an ISO 4217 code with a
//!   minor unit of at most two decimals: BHD, KWD, ... are refused, see
//!   [`crate::money`]), `locale` (optional, `en` by default; a language tag such as `fr` or
//!   `pt-BR`), `recipient` (`name` and `email`, both required).
//! - **POST /v1/gift_cards/{id}/payments**: `amount_minor` (a whole number > 0),
//!   `currency` (three letters), `reference` (optional, at most 200 characters, no
//!   control characters),
//!   `location_id` (optional, extension).

use axum::extract::State;
use axum::response::Response;

use super::auth::Caller;
use super::body::Fields;
use super::write::{self, WriteInput};
use crate::actions::customers::{self, Enrolment};
use crate::actions::gift_cards::{self, Issue, Payment};
use crate::actions::scans::{self, ScanInput};
use crate::money;
use crate::rules::scan::{ScanKind, ScanRequest};
use crate::state::AppState;

/// Largest points amount of one scan.
pub const MAX_POINTS: i64 = 1_000_000;

/// POST /v1/customers.
#[utoipa::path(post, path = "/v1/customers", tag = "writes", request_body = crate::wire::NewCustomer,
    responses((status = 200, description = "The customer with their new card.", body = crate::wire::Customer,
            links(("GetCustomer" = (operation_id = "get_customer", parameters(("id" = "$response.body#/id")))))),
        (status = 403, description = "customer_limit_reached, and the common 403 codes.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 404, description = "not_found (the pass; `param` pass_id).", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 409, description = "customer_exists (also `customer_id`), idempotency_in_progress.", body = crate::wire::Problem, content_type = "application/problem+json")))]
pub async fn create_customer(
    State(state): State<AppState>,
    caller: Caller,
    input: WriteInput,
) -> Response {
    write::run(&state, caller, input, |conn, ctx, body| {
        let mut f = Fields::new(body);
        let pass_id = f.string("pass_id", true, 64);
        let name = f.string("name", false, 200);
        let email = f.email("email", true);
        let wallet = f.choice("wallet", false, &["apple", "google"]);
        let send_welcome = f.boolean("send_welcome");
        f.finish()?;
        let enrolment = Enrolment {
            pass_id: pass_id.unwrap_or_default(),
            name,
            email: email.unwrap_or_default(),
            wallet: wallet.unwrap_or_else(|| "apple".into()),
            send_welcome: send_welcome.unwrap_or(false),
        };
        customers::enrol(conn, &ctx.scope, &ctx.business, &enrolment, ctx.now_ms)
    })
    .await
}

/// POST /v1/scans.
#[utoipa::path(post, path = "/v1/scans", tag = "writes", request_body = crate::wire::NewScan,
    responses((status = 200, description = "What the scan did, and the card after it.", body = crate::wire::ScanResult),
        (status = 404, description = "not_found (the card or the location).", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 409, description = "card_not_active, insufficient_balance, no_reward_available, scan_refused, recent_visit (also `last_visit_at`), idempotency_in_progress.", body = crate::wire::Problem, content_type = "application/problem+json")))]
pub async fn create_scan(
    State(state): State<AppState>,
    caller: Caller,
    input: WriteInput,
) -> Response {
    write::run(&state, caller, input, |conn, ctx, body| {
        let mut f = Fields::new(body);
        let card_id = f.string("card_id", true, 64);
        let kind = f
            .choice("kind", true, &["visit", "points", "redeem"])
            .and_then(|k| ScanKind::parse(&k));
        let confirm_repeat = f.boolean("confirm_repeat");
        let location_id = f.string("location_id", false, 64);
        let mut amount = 0;
        match kind {
            Some(ScanKind::Points) => match f.integer("amount", true) {
                Some(0) => f.refuse(
                    "amount",
                    "invalid_value",
                    "A points scan needs a non-zero amount.",
                ),
                // unsigned_abs: `abs` of i64::MIN overflowed and answered 500.
                Some(a) if a.unsigned_abs() > MAX_POINTS.unsigned_abs() => f.refuse(
                    "amount",
                    "out_of_range",
                    format!("At most {MAX_POINTS} points either way."),
                ),
                Some(a) => amount = a,
                None => {}
            },
            Some(_) if f.has("amount") => {
                f.refuse("amount", "invalid_value", "amount is only for kind points.");
            }
            _ => {}
        }
        f.finish()?;
        let input = ScanInput {
            card_id: card_id.unwrap_or_default(),
            request: ScanRequest {
                kind: kind.unwrap_or(ScanKind::Visit),
                amount,
                confirm_repeat: confirm_repeat.unwrap_or(false),
            },
            location_id,
        };
        scans::record(conn, &ctx.scope, &input, ctx.now_ms)
    })
    .await
}

fn valid_locale(text: &str) -> bool {
    let mut parts = text.split(['-', '_']);
    let lang = parts.next().unwrap_or("");
    (2..=3).contains(&lang.len())
        && lang.bytes().all(|b| b.is_ascii_alphabetic())
        && parts.all(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn currency_code(f: &mut Fields<'_>, field: &str) -> Option<String> {
    let code = f.string(field, true, 16)?;
    if code.len() == 3 && code.bytes().all(|b| b.is_ascii_alphabetic()) {
        Some(code.to_ascii_uppercase())
    } else {
        f.refuse(
            field,
            "invalid_value",
            "Expected a three-letter ISO 4217 currency code.",
        );
        None
    }
}

/// POST /v1/gift_cards.
#[utoipa::path(post, path = "/v1/gift_cards", tag = "writes", request_body = crate::wire::NewGiftCard,
    responses((status = 200, description = "The gift card, issued, with `email`.", body = crate::wire::GiftCard,
            links(("GetGiftCard" = (operation_id = "get_gift_card", parameters(("id" = "$response.body#/id")))),
                ("PayGiftCard" = (operation_id = "pay_gift_card", parameters(("id" = "$response.body#/id")))))),
        (status = 409, description = "pass_required, idempotency_in_progress.", body = crate::wire::Problem, content_type = "application/problem+json")))]
pub async fn issue_gift_card(
    State(state): State<AppState>,
    caller: Caller,
    input: WriteInput,
) -> Response {
    write::run(&state, caller, input, |conn, ctx, body| {
        let mut f = Fields::new(body);
        let amount = f.decimal("amount", true);
        let currency = currency_code(&mut f, "currency");
        let locale = f.string("locale", false, 35);
        if let Some(l) = &locale
            && !valid_locale(l) {
                f.refuse("locale", "invalid_value", "Expected a language tag such as en, fr or pt-BR.");
            }
        let recipient = f.object("recipient", true, |r| (r.string("name", true, 200), r.email("email", true)));
        let exponent = currency.as_deref().and_then(|c| match money::gift_card_exponent(c) {
            Ok(e) => Some(e),
            Err(money::CurrencyRefusal::NoMinorUnit) => {
                f.refuse("currency", "invalid_value", "Not an ISO 4217 currency with a minor unit.");
                None
            }
            Err(money::CurrencyRefusal::TooManyDecimals(e)) => {
                f.refuse(
                    "currency",
                    "invalid_value",
                    format!(
                        "{c} has {e} decimals in its minor unit; gift cards are issued only in currencies with at most {} (money amounts show two decimals).",
                        money::MAX_EXPONENT
                    ),
                );
                None
            }
        });
        let mut amount_minor = None;
        if let (Some(amount), Some(exponent)) = (amount, exponent) {
            if amount <= rust_decimal::Decimal::ZERO {
                f.refuse("amount", "out_of_range", "The amount must be greater than 0.");
            } else if amount > rust_decimal::Decimal::from(money::MAX_ISSUE_MAJOR) {
                f.refuse("amount", "out_of_range", format!("At most {}.", money::MAX_ISSUE_MAJOR));
            } else {
                match money::to_minor(amount, exponent) {
                    Some(minor) => amount_minor = Some(minor),
                    None => f.refuse(
                        "amount",
                        "invalid_value",
                        format!("The amount has more decimals than the currency's minor unit ({exponent})."),
                    ),
                }
            }
        }
        f.finish()?;
        let (Some(amount_minor), Some(currency), Some(exponent), Some((Some(name), Some(email)))) =
            (amount_minor, currency, exponent, recipient)
        else {
            return Err(crate::error::ApiError::internal("validated gift card fields missing"));
        };
        let issue = Issue {
            amount_minor,
            currency,
            exponent,
            locale: locale.unwrap_or_else(|| "en".into()),
            recipient_name: name,
            recipient_email: email,
        };
        gift_cards::issue(conn, &ctx.scope, &issue, ctx.now_ms)
    })
    .await
}

/// POST /v1/gift_cards/{id}/payments.
#[utoipa::path(post, path = "/v1/gift_cards/{id}/payments", tag = "writes", request_body = crate::wire::NewPayment,
    params(("id" = String, Path, description = "A gift card id.")),
    responses((status = 200, description = "The payment and the card after it.", body = crate::wire::GiftCardPayment),
        (status = 404, description = "not_found (the card or the location).", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 409, description = "insufficient_balance (also `balance`), gift_card_not_claimed, gift_card_cancelled, gift_card_depleted, idempotency_in_progress.", body = crate::wire::Problem, content_type = "application/problem+json"),
        (status = 422, description = "currency_mismatch, validation_failed, idempotency_key_reused.", body = crate::wire::Problem, content_type = "application/problem+json")))]
pub async fn pay_gift_card(
    State(state): State<AppState>,
    caller: Caller,
    super::Id(id): super::Id,
    input: WriteInput,
) -> Response {
    write::run(&state, caller, input, move |conn, ctx, body| {
        let mut f = Fields::new(body);
        let amount_minor = f.integer("amount_minor", true);
        if amount_minor.is_some_and(|a| a <= 0) {
            f.refuse(
                "amount_minor",
                "out_of_range",
                "The amount must be greater than 0.",
            );
        }
        let currency = currency_code(&mut f, "currency");
        let reference = f.string("reference", false, 200);
        if reference
            .as_deref()
            .is_some_and(|r| r.chars().any(char::is_control))
        {
            // A ticket number is one line of text: a tab or line break is a scanner's
            // stray key, never part of it.
            f.refuse(
                "reference",
                "invalid_value",
                "A reference cannot hold control characters.",
            );
        }
        let location_id = f.string("location_id", false, 64);
        f.finish()?;
        let payment = Payment {
            gift_card_id: id,
            amount_minor: amount_minor.unwrap_or_default(),
            currency: currency.unwrap_or_default(),
            reference,
            location_id,
        };
        gift_cards::pay(conn, &ctx.scope, &payment, ctx.now_ms)
    })
    .await
}
