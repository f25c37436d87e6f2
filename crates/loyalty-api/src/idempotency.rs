//! The Idempotency-Key every write carries.

use std::fmt;

use reqwest::header::HeaderValue;

/// The key that makes a write happen once: 1 to 255 visible ASCII characters.
///
/// The client never invents one. The caller creates it *before* the first attempt
/// (an outbox stores it with the write) and passes the same key on every retry, which
/// is what lets the service answer a retry with the first answer instead of doing the
/// write twice.
#[derive(Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct IdempotencyKey(String);

/// Why a text is not a valid Idempotency-Key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidIdempotencyKey {
    /// The text is empty.
    #[error("an Idempotency-Key must not be empty")]
    Empty,
    /// The text is longer than 255 characters.
    #[error("an Idempotency-Key holds at most 255 characters, this one {0}")]
    TooLong(usize),
    /// The text holds a space, a control character or a non-ASCII character.
    #[error("an Idempotency-Key holds only visible ASCII characters")]
    NotVisibleAscii,
}

impl IdempotencyKey {
    /// The longest key the service accepts.
    pub const MAX_LEN: usize = 255;

    /// Checks and wraps a key text.
    pub fn new(key: impl Into<String>) -> Result<Self, InvalidIdempotencyKey> {
        let key = key.into();
        if key.is_empty() {
            return Err(InvalidIdempotencyKey::Empty);
        }
        if key.len() > Self::MAX_LEN {
            return Err(InvalidIdempotencyKey::TooLong(key.len()));
        }
        if !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(InvalidIdempotencyKey::NotVisibleAscii);
        }
        Ok(Self(key))
    }

    /// A fresh random UUID v4 key, as the spec recommends. For callers (an outbox
    /// creating a write); the client itself never calls it.
    pub fn new_v4() -> Self {
        Self(uuid::Uuid::new_v4().to_string())
    }

    /// The key's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn header_value(&self) -> HeaderValue {
        HeaderValue::from_str(&self.0).expect("visible ASCII is a valid header value")
    }
}

impl fmt::Debug for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IdempotencyKey({:?})", self.0)
    }
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for IdempotencyKey {
    type Error = InvalidIdempotencyKey;

    fn try_from(key: String) -> Result<Self, Self::Error> {
        Self::new(key)
    }
}

impl std::str::FromStr for IdempotencyKey {
    type Err = InvalidIdempotencyKey;

    fn from_str(key: &str) -> Result<Self, Self::Err> {
        Self::new(key)
    }
}

impl From<IdempotencyKey> for String {
    fn from(key: IdempotencyKey) -> Self {
        key.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_of_1_to_255_visible_ascii_characters_is_accepted() {
        assert!(IdempotencyKey::new("a").is_ok());
        assert!(IdempotencyKey::new("x".repeat(255)).is_ok());
        assert!(IdempotencyKey::new("scan-2026-11-22T09:15:00Z#1~!").is_ok());
    }

    #[test]
    fn an_empty_long_or_invisible_key_is_refused() {
        assert_eq!(IdempotencyKey::new(""), Err(InvalidIdempotencyKey::Empty));
        assert_eq!(
            IdempotencyKey::new("x".repeat(256)),
            Err(InvalidIdempotencyKey::TooLong(256))
        );
        for bad in ["a b", "tab\t", "new\nline", "café", "\u{7f}"] {
            assert_eq!(
                IdempotencyKey::new(bad),
                Err(InvalidIdempotencyKey::NotVisibleAscii),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_v4_key_is_a_valid_uuid_and_differs_each_time() {
        let a = IdempotencyKey::new_v4();
        let b = IdempotencyKey::new_v4();
        assert_ne!(a, b);
        assert!(uuid::Uuid::parse_str(a.as_str()).is_ok());
    }

    #[test]
    fn a_stored_key_is_validated_when_read_back() {
        let key: IdempotencyKey = serde_json::from_str("\"k-1\"").unwrap();
        assert_eq!(key.as_str(), "k-1");
        assert!(serde_json::from_str::<IdempotencyKey>("\"\"").is_err());
    }
}
