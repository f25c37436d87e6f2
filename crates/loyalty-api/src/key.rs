//! The API key: a secret that never prints.

use std::fmt;

use reqwest::header::HeaderValue;

use crate::macros::string_enum;

string_enum!(
    /// Where a key works: live keys on the live base URL, test keys on the sandbox.
    KeyMode {
        /// A live key (`lc_live_...`).
        Live => "live",
        /// A test key (`lc_test_...`), for the sandbox only.
        Test => "test",
    }
);

/// A secret API key. `Debug` and `Display` show only its mode, never its text, so it
/// can sit in structs that are logged.
#[derive(Clone)]
pub struct ApiKey(String);

/// Why a text is not usable as an API key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidApiKey {
    /// The text is empty (after trimming spaces).
    #[error("the API key is empty")]
    Empty,
    /// The text holds characters that cannot go in an HTTP header.
    #[error("the API key holds characters that are not visible ASCII")]
    NotVisibleAscii,
}

impl ApiKey {
    /// Takes the key text (spaces around it, as pasted, are removed).
    ///
    /// Only the shape an HTTP header needs is checked; whether the service knows the
    /// key is its answer to tell (401 invalid_api_key).
    pub fn new(secret: impl Into<String>) -> Result<Self, InvalidApiKey> {
        let secret = secret.into();
        let trimmed = secret.trim();
        if trimmed.is_empty() {
            return Err(InvalidApiKey::Empty);
        }
        if !trimmed.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(InvalidApiKey::NotVisibleAscii);
        }
        Ok(Self(trimmed.to_owned()))
    }

    /// The key's mode, read from its prefix (`lc_test_` or `lc_live_`); None for
    /// another shape (for example an OAuth token).
    pub fn mode(&self) -> Option<KeyMode> {
        if self.0.starts_with("lc_test_") {
            Some(KeyMode::Test)
        } else if self.0.starts_with("lc_live_") {
            Some(KeyMode::Live)
        } else {
            None
        }
    }

    /// The secret text, for storing it in a keychain. Never log it.
    pub fn expose_secret(&self) -> &str {
        &self.0
    }

    /// The `Authorization` header value, marked sensitive so HTTP layers never log it.
    pub(crate) fn authorization(&self) -> HeaderValue {
        let mut value = HeaderValue::from_str(&format!("Bearer {}", self.0))
            .expect("a visible-ASCII key is a valid header value");
        value.set_sensitive(true);
        value
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({self})")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mode() {
            Some(KeyMode::Test) => f.write_str("lc_test_[redacted]"),
            Some(KeyMode::Live) => f.write_str("lc_live_[redacted]"),
            _ => f.write_str("[redacted]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "lc_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

    #[test]
    fn a_key_never_shows_its_secret_in_debug_or_display() {
        let key = ApiKey::new(SECRET).unwrap();
        let shown = format!("{key} {key:?} {:?}", Some(&key));
        assert!(!shown.contains("ABCDEF"), "{shown}");
        assert!(shown.contains("lc_test_[redacted]"));
    }

    #[test]
    fn the_mode_comes_from_the_prefix() {
        assert_eq!(ApiKey::new(SECRET).unwrap().mode(), Some(KeyMode::Test));
        assert_eq!(
            ApiKey::new("lc_live_x").unwrap().mode(),
            Some(KeyMode::Live)
        );
        assert_eq!(ApiKey::new("lco_token").unwrap().mode(), None);
    }

    #[test]
    fn a_pasted_key_is_trimmed_and_empty_or_odd_text_is_refused() {
        assert_eq!(
            ApiKey::new(format!("  {SECRET}\n"))
                .unwrap()
                .expose_secret(),
            SECRET
        );
        assert_eq!(ApiKey::new("  ").unwrap_err(), InvalidApiKey::Empty);
        assert_eq!(
            ApiKey::new("lc_test_a b").unwrap_err(),
            InvalidApiKey::NotVisibleAscii
        );
        assert_eq!(
            ApiKey::new("lc_test_é").unwrap_err(),
            InvalidApiKey::NotVisibleAscii
        );
    }

    #[test]
    fn the_authorization_header_is_marked_sensitive() {
        let value = ApiKey::new(SECRET).unwrap().authorization();
        assert!(value.is_sensitive());
        assert_eq!(value.to_str().unwrap(), format!("Bearer {SECRET}"));
    }
}
