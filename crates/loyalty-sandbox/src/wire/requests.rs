//! The request bodies of the writes, as OpenAPI schemas: exactly what the server
//! accepts where a schema can say it (a required text holds more than spaces, an
//! amount is exact in cents, a currency is one a gift card can be issued in, a scan's
//! `amount` goes with `points` only), so that a fuzzer's valid requests reach the
//! rules rather than bounce off validation. What no schema can say (an id that exists,
//! a time still ahead) the fuzzer's hooks supply (`fuzz/hooks.py`).
#![allow(dead_code)]

use utoipa::ToSchema;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};

/// POST /v1/customers.
#[derive(ToSchema)]
pub(crate) struct NewCustomer {
    #[schema(min_length = 1, max_length = 64, pattern = "\\S")]
    pass_id: String,
    #[schema(max_length = 200)]
    name: Option<String>,
    /// An email address.
    #[schema(max_length = 254, format = Email)]
    email: String,
    /// `apple` (default) or `google`.
    #[schema(pattern = "^(apple|google)$")]
    wallet: Option<String>,
    send_welcome: Option<bool>,
}

/// POST /v1/scans: a visit, points added or deducted, or a reward redeemed. Only a
/// points scan has an `amount`.
#[derive(ToSchema, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum NewScan {
    /// A visit.
    Visit {
        /// The card.
        #[schema(min_length = 1, max_length = 64, pattern = "\\S")]
        card_id: String,
        /// Record it although the card had a visit less than 15 minutes ago.
        confirm_repeat: Option<bool>,
        /// Extension: a location of the place.
        #[schema(max_length = 64)]
        location_id: Option<String>,
    },
    /// Points: added when positive, deducted when negative.
    Points {
        /// The card.
        #[schema(min_length = 1, max_length = 64, pattern = "\\S")]
        card_id: String,
        /// A non-zero whole number of points, at most a million either way.
        #[schema(schema_with = non_zero_points)]
        amount: i64,
        /// Extension: a location of the place.
        #[schema(max_length = 64)]
        location_id: Option<String>,
    },
    /// A reward redeemed.
    Redeem {
        /// The card.
        #[schema(min_length = 1, max_length = 64, pattern = "\\S")]
        card_id: String,
        /// Extension: a location of the place.
        #[schema(max_length = 64)]
        location_id: Option<String>,
    },
}

/// From 1 to a million points, or from -1 to minus a million.
fn non_zero_points() -> Schema {
    let points = |min: i64, max: i64| {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::Integer))
            .minimum(Some(min as f64))
            .maximum(Some(max as f64))
    };
    OneOfBuilder::new()
        .item(points(1, 1_000_000))
        .item(points(-1_000_000, -1))
        .into()
}

/// POST /v1/gift_cards.
#[derive(ToSchema)]
pub(crate) struct NewGiftCard {
    /// Major units, more than 0, at most 1000000, exact in the currency's minor unit
    /// (cents here; whole units for a currency without decimals such as JPY).
    #[schema(minimum = 0.01, maximum = 1000000, multiple_of = 0.01)]
    amount: f64,
    /// An ISO 4217 currency whose minor unit has at most two decimals.
    #[schema(schema_with = gift_card_currencies)]
    currency: String,
    /// A language tag such as `fr` or `pt-BR`; `en` by default.
    #[schema(pattern = "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$", max_length = 35)]
    locale: Option<String>,
    recipient: NewRecipient,
}

/// Every currency a gift card can be issued in, as the server decides it.
fn gift_card_currencies() -> Schema {
    let mut codes = Vec::new();
    for a in b'A'..=b'Z' {
        for b in b'A'..=b'Z' {
            for c in b'A'..=b'Z' {
                let code = String::from_utf8(vec![a, b, c]).unwrap_or_default();
                if crate::money::gift_card_exponent(&code).is_ok() {
                    codes.push(code);
                }
            }
        }
    }
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .enum_values(Some(codes))
        .into()
}

/// A gift card's recipient.
#[derive(ToSchema)]
pub(crate) struct NewRecipient {
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    name: String,
    #[schema(max_length = 254, format = Email)]
    email: String,
}

/// POST /v1/gift_cards/{id}/payments.
#[derive(ToSchema)]
pub(crate) struct NewPayment {
    /// Whole minor units, > 0.
    #[schema(minimum = 1, maximum = 9007199254740991_i64)]
    amount_minor: i64,
    /// The card's currency.
    #[schema(pattern = "^[A-Za-z]{3}$")]
    currency: String,
    /// The business's own ticket number: one line, no control characters.
    #[schema(max_length = 200, pattern = "^[^\\x00-\\x1F\\x7F-\\x9F]*$")]
    reference: Option<String>,
    /// Extension: a location of the place.
    #[schema(max_length = 64)]
    location_id: Option<String>,
}

/// A message, as previewed (POST /v1/broadcasts).
#[derive(ToSchema)]
pub(crate) struct BroadcastMessage {
    #[schema(min_length = 1, max_length = 64, pattern = "\\S")]
    pass_id: String,
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    title: String,
    #[schema(min_length = 1, max_length = 1000, pattern = "\\S")]
    body: String,
    /// `active` or `all`.
    #[schema(pattern = "^(active|all)$")]
    audience: String,
    /// When it goes out (future, at most 365 days ahead); null = at once.
    #[schema(format = DateTime)]
    scheduled_at: Option<String>,
    targeting: Option<Targeting>,
}

/// Conditions on the cards reached.
#[derive(ToSchema, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Targeting {
    /// Only cards with a scan in that many days.
    #[schema(minimum = 1, maximum = 366)]
    visited_within_days: Option<i64>,
    /// Only cards with (true) or without (false) a reward ready.
    has_reward: Option<bool>,
}

/// POST /v1/broadcasts/confirm: the previewed message and its token.
#[derive(ToSchema)]
pub(crate) struct BroadcastConfirm {
    #[schema(min_length = 1, max_length = 64, pattern = "\\S")]
    pass_id: String,
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    title: String,
    #[schema(min_length = 1, max_length = 1000, pattern = "\\S")]
    body: String,
    #[schema(pattern = "^(active|all)$")]
    audience: String,
    #[schema(format = DateTime)]
    scheduled_at: Option<String>,
    targeting: Option<Targeting>,
    /// The preview's token.
    #[schema(min_length = 1, pattern = "\\S")]
    confirmation_token: String,
}
