//! Why an amount, a payment's reference or an offline payment is refused.

use loyalty_api::Currency;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

for_the_ui! {
/// Why a typed amount is refused, before anything is stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AmountError {
    /// Nothing typed.
    #[error("Type an amount.")]
    Empty,
    /// Not a decimal number.
    #[error("{text:?} is not an amount; type it like 12.50")]
    NotANumber {
        /// What was typed.
        text: String,
    },
    /// More decimals than the currency has.
    #[error("{currency} amounts have at most {decimals} decimals")]
    TooManyDecimals {
        /// The card's currency.
        currency: String,
        /// Its decimals.
        decimals: u32,
    },
    /// Zero.
    #[error("The amount must be more than zero.")]
    Zero,
    /// Below zero.
    #[error("The amount cannot be negative.")]
    Negative,
    /// More minor units than any amount can carry exactly (the service's JSON numbers
    /// and this till's arithmetic). Ordinary amounts of every currency, including
    /// those without decimals, are far below it.
    #[error("{amount} {currency} is more than any amount the till accepts ({max})")]
    TooLarge {
        /// What was typed.
        amount: String,
        /// The currency.
        currency: String,
        /// The largest accepted.
        max: String,
    },
    /// More than the card holds (cached balance, less payments still queued).
    #[error("The card holds {available} {currency}; {amount} is more than that.")]
    OverBalance {
        /// What was typed.
        amount: String,
        /// What the card can still give.
        available: String,
        /// The currency.
        currency: String,
    },
}
}

for_the_ui! {
/// Why a payment's reference is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReferenceError {
    /// Longer than the service takes.
    #[error("a payment's reference has at most {max} characters")]
    TooLong {
        /// The most characters.
        max: usize,
    },
    /// A tab, a line break or another control character (a scanner's stray Enter).
    #[error("a payment's reference cannot hold control characters")]
    ControlCharacter,
}
}

for_the_ui! {
/// Why the policy does not allow an offline payment: data, which the screens put in
/// the cashier's words (the English here is for logs).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PolicyRefusal {
    /// This till takes no payment while the service cannot be reached.
    #[error("the service cannot be reached and payments are not taken offline at this till")]
    NotAllowed,
    /// More than one offline payment may take.
    #[error("offline, one payment may take at most {cap} {currency}")]
    OverPaymentCap {
        /// The cap.
        #[serde(with = "loyalty_api::decimal_string")]
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        cap: Decimal,
        /// Its currency.
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        currency: Currency,
    },
    /// More than payments at risk may total.
    #[error(
        "offline, queued payments may total at most {cap} {currency}; {queued} {currency} is already queued"
    )]
    OverTotalCap {
        /// The cap.
        #[serde(with = "loyalty_api::decimal_string")]
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        cap: Decimal,
        /// What is already at risk.
        #[serde(with = "loyalty_api::decimal_string")]
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        queued: Decimal,
        /// Their currency.
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        currency: Currency,
    },
    /// The card's balance was read too long ago to be trusted.
    #[error(
        "offline, the card's balance must have been read in the last {max_minutes} minutes; it was read {age_minutes} minutes ago"
    )]
    BalanceTooOld {
        /// The policy's limit.
        max_minutes: u32,
        /// How old the balance is.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        age_minutes: i64,
    },
}
}
