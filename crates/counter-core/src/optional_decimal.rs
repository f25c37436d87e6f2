//! Serde for an optional decimal kept as text (`"12.50"` or null), exactly: the
//! offline policy's caps and a payment's amount as stored.

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serializer};

pub(crate) fn serialize<S: Serializer>(
    amount: &Option<Decimal>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match amount {
        Some(amount) => serializer.serialize_str(&amount.to_string()),
        None => serializer.serialize_none(),
    }
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Decimal>, D::Error> {
    Option::<String>::deserialize(deserializer)?
        .map(|text| text.parse::<Decimal>().map_err(serde::de::Error::custom))
        .transpose()
}
