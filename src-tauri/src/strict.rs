//! An argument the page sends as an object, read strictly: serde ignores a field its
//! type does not have, and reads a missing `Option` field as none, so a call with a
//! field misspelt could turn something off (`set_customer_display({display: {a:
//! null}})` read as "no monitor"). [`Strict`] reads the argument as its type, writes it
//! back, and refuses the call unless both have the same fields at every depth: no
//! field the type lacks, none it has left out (`null` is said, not implied).

use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `T`, read from an object with exactly its fields.
#[derive(Debug)]
pub struct Strict<T>(pub T);

impl<'de, T: DeserializeOwned + Serialize> Deserialize<'de> for Strict<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let given = Value::deserialize(deserializer)?;
        let read = T::deserialize(&given).map_err(D::Error::custom)?;
        let again = serde_json::to_value(&read).map_err(D::Error::custom)?;
        same_fields(&given, &again, "").map_err(D::Error::custom)?;
        Ok(Strict(read))
    }
}

/// Whether `given` and `read` have the same fields at every depth; else which differs,
/// by its path (`address.host`).
fn same_fields(given: &Value, read: &Value, at: &str) -> Result<(), String> {
    match (given, read) {
        (Value::Object(given), Value::Object(read)) => {
            if let Some(extra) = given.keys().find(|name| !read.contains_key(*name)) {
                return Err(format!("unknown field `{at}{extra}`"));
            }
            if let Some(missing) = read.keys().find(|name| !given.contains_key(*name)) {
                return Err(format!("missing field `{at}{missing}`"));
            }
            given.iter().try_for_each(|(name, value)| {
                same_fields(value, &read[name], &format!("{at}{name}."))
            })
        }
        (Value::Array(given), Value::Array(read)) => given
            .iter()
            .zip(read)
            .enumerate()
            .try_for_each(|(n, (given, read))| same_fields(given, read, &format!("{at}{n}."))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Display {
        monitor: Option<String>,
        keys: Vec<Key>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Key {
        code: u8,
    }

    fn read(value: Value) -> Result<Display, String> {
        serde_json::from_value::<Strict<Display>>(value)
            .map(|s| s.0)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn only_an_object_with_exactly_its_fields_is_read() {
        assert_eq!(
            read(json!({"monitor": null, "keys": [{"code": 1}]})),
            Ok(Display {
                monitor: None,
                keys: vec![Key { code: 1 }]
            })
        );
        assert_eq!(
            read(json!({"a": null, "monitor": "HDMI-1", "keys": []})),
            Err("unknown field `a`".into())
        );
        assert_eq!(
            read(json!({"keys": []})),
            Err("missing field `monitor`".into())
        );
        assert_eq!(
            read(json!({"monitor": null, "keys": [{"code": 1, "shift": true}]})),
            Err("unknown field `keys.0.shift`".into())
        );
    }

    /// The case that showed it: serde alone reads `{a: null}` as a display on no
    /// monitor, which turns the customer's screen on.
    #[test]
    fn a_customer_display_with_a_field_it_lacks_is_refused() {
        use counter_core::CustomerDisplay;
        let sent = json!({"a": null});
        let lax: Option<CustomerDisplay> = serde_json::from_value(sent.clone()).unwrap();
        assert!(lax.is_some_and(|d| d.monitor.is_none()));
        let strict = serde_json::from_value::<Strict<Option<CustomerDisplay>>>(sent);
        assert!(
            strict
                .unwrap_err()
                .to_string()
                .contains("unknown field `a`")
        );
        let off = serde_json::from_value::<Strict<Option<CustomerDisplay>>>(json!(null));
        assert!(off.unwrap().0.is_none());
    }
}
