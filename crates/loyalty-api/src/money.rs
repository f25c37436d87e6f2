//! Exact money: decimal amounts, whole minor units, currency codes.
//!
//! Amounts are `rust_decimal::Decimal`, never floats. The API writes them as decimal
//! strings with two decimals (`"12.50"`); the few request fields the spec types as a
//! number (a gift card's `amount`, a scan's `amount`) are written as JSON numbers
//! from the decimal's own digits, so no float rounding can creep in.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A whole number of a currency's minor units (cents for EUR; for a sessions-type gift
/// card, sessions).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct MinorUnits(pub i64);

impl MinorUnits {
    /// Wraps a count of minor units.
    pub const fn new(units: i64) -> Self {
        Self(units)
    }

    /// The count.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for MinorUnits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A currency code as the API writes it (`EUR`). Codes read from answers are kept as
/// sent; codes a caller builds are checked to be three ASCII letters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Currency(String);

/// A text that is not a three-letter currency code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a three-letter currency code")]
pub struct InvalidCurrency(pub String);

impl Currency {
    /// Checks and wraps a code; lowercase is raised (`eur` becomes `EUR`).
    pub fn new(code: &str) -> Result<Self, InvalidCurrency> {
        if code.len() == 3 && code.bytes().all(|b| b.is_ascii_alphabetic()) {
            Ok(Self(code.to_ascii_uppercase()))
        } else {
            Err(InvalidCurrency(code.to_owned()))
        }
    }

    /// The code's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An amount with its minor units and currency, as a refused gift-card payment's
/// `balance` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Money {
    /// The amount in major units.
    #[serde(with = "decimal_string")]
    pub amount: Decimal,
    /// The same amount in minor units.
    pub amount_minor: MinorUnits,
    /// The currency.
    pub currency: Currency,
}

/// Serde for money strings: read `"12.50"` (a JSON number is accepted too), written
/// with at least two decimals.
pub mod decimal_string {
    use super::*;

    /// The wire text of an amount: at least two decimals, more only when it has them.
    pub fn to_text(amount: &Decimal) -> String {
        let mut amount = *amount;
        if amount.scale() < 2 {
            amount.rescale(2);
        }
        amount.to_string()
    }

    /// Writes an amount as a money string.
    pub fn serialize<S: Serializer>(amount: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&to_text(amount))
    }

    /// Reads a money string.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Text(String),
            Number(serde_json::Number),
        }
        let text = match Wire::deserialize(deserializer)? {
            Wire::Text(text) => text,
            Wire::Number(number) => number.to_string(),
        };
        text.parse::<Decimal>()
            .or_else(|_| Decimal::from_scientific(&text))
            .map_err(|_| serde::de::Error::custom(format!("{text:?} is not a decimal amount")))
    }
}

/// Serde for request fields the spec types as a JSON number: the decimal's digits are
/// written verbatim (`12.5`), never through `f64`.
pub mod decimal_number {
    use super::*;

    /// Writes an amount as an exact JSON number.
    pub fn serialize<S: Serializer>(amount: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
        let raw = serde_json::value::RawValue::from_string(amount.normalize().to_string())
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }

    /// Writes an optional amount; used with `skip_serializing_if = "Option::is_none"`.
    pub fn serialize_option<S: Serializer>(
        amount: &Option<Decimal>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match amount {
            Some(amount) => serialize(amount, serializer),
            None => serializer.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Amount {
        #[serde(with = "decimal_string")]
        amount: Decimal,
    }

    #[derive(Serialize)]
    struct Number {
        #[serde(serialize_with = "decimal_number::serialize")]
        amount: Decimal,
    }

    fn dec(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    #[test]
    fn a_money_string_round_trips_exactly_with_two_decimals() {
        for text in ["12.50", "0.00", "1000000.00", "0.10", "-3.25", "1.250"] {
            let json = format!("{{\"amount\":\"{text}\"}}");
            let read: Amount = serde_json::from_str(&json).unwrap();
            assert_eq!(read.amount, dec(text));
            assert_eq!(serde_json::to_string(&read).unwrap(), json);
        }
    }

    #[test]
    fn amounts_built_in_code_are_written_with_two_decimals() {
        let text = |d: &str| serde_json::to_string(&Amount { amount: dec(d) }).unwrap();
        assert_eq!(text("50"), r#"{"amount":"50.00"}"#);
        assert_eq!(text("0.1"), r#"{"amount":"0.10"}"#);
        assert_eq!(text("2.005"), r#"{"amount":"2.005"}"#);
    }

    #[test]
    fn a_money_string_that_is_not_a_number_is_refused() {
        assert!(serde_json::from_str::<Amount>(r#"{"amount":"twelve"}"#).is_err());
        let lenient: Amount = serde_json::from_str(r#"{"amount":12.5}"#).unwrap();
        assert_eq!(lenient.amount, dec("12.5"));
    }

    #[test]
    fn a_number_field_is_written_from_the_decimal_digits_not_a_float() {
        let text = |d: &str| serde_json::to_string(&Number { amount: dec(d) }).unwrap();
        assert_eq!(text("50"), r#"{"amount":50}"#);
        assert_eq!(text("12.50"), r#"{"amount":12.5}"#);
        assert_eq!(text("0.1"), r#"{"amount":0.1}"#);
        assert_eq!(text("-3"), r#"{"amount":-3}"#);
        // 0.1 + 0.2 in floats is 0.30000000000000004; the decimal stays exact.
        assert_eq!(
            serde_json::to_string(&Number {
                amount: dec("0.1") + dec("0.2")
            })
            .unwrap(),
            r#"{"amount":0.3}"#
        );
    }

    #[test]
    fn a_currency_code_is_three_letters_raised_to_uppercase() {
        assert_eq!(Currency::new("eur").unwrap().as_str(), "EUR");
        assert!(Currency::new("EURO").is_err());
        assert!(Currency::new("E1R").is_err());
    }

    #[test]
    fn a_balance_reads_amount_minor_units_and_currency() {
        let money: Money = serde_json::from_str(
            r#"{"amount":"7.50","amount_minor":750,"currency":"EUR","extra":1}"#,
        )
        .unwrap();
        assert_eq!(money.amount, dec("7.50"));
        assert_eq!(money.amount_minor, MinorUnits(750));
        assert_eq!(money.currency.as_str(), "EUR");
    }
}
