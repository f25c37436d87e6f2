//! API key texts: how they look, how they are made, how they are stored.
//!
//! A key is `lc_live_` or `lc_test_` followed by 32 base62 characters (about 190 bits).
//! Only its SHA-256 is stored; a lookup finds the row by hash and then compares the
//! hashes again in constant time. The visible `prefix` is the first 12 characters.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::ids;

/// Where a key works: live keys on `/v1`, test keys on `/sandbox/v1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `lc_live_...`, the live place.
    Live,
    /// `lc_test_...`, the sandbox place.
    Test,
}

impl Mode {
    /// `live` or `test`, as `GET /v1/me` reports it.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Live => "live",
            Mode::Test => "test",
        }
    }

    /// Parses `live` or `test`.
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "live" => Some(Mode::Live),
            "test" => Some(Mode::Test),
            _ => None,
        }
    }
}

/// Length of the random part of a key.
const SECRET_LEN: usize = 32;
/// Length of the prefix shown for a key.
pub const PREFIX_LEN: usize = 12;

/// What a bearer token looks like, before any lookup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bearer {
    /// Shaped like one of our API keys.
    ApiKey(Mode),
    /// An OAuth access token (`lco_...` or a JWT): not accepted yet.
    OAuth,
    /// Anything else.
    Unknown,
}

/// Classifies a bearer token by its shape.
pub fn classify(token: &str) -> Bearer {
    let well_formed =
        |rest: &str| rest.len() == SECRET_LEN && rest.bytes().all(|b| b.is_ascii_alphanumeric());
    if let Some(rest) = token.strip_prefix("lc_live_") {
        if well_formed(rest) {
            return Bearer::ApiKey(Mode::Live);
        }
        return Bearer::Unknown;
    }
    if let Some(rest) = token.strip_prefix("lc_test_") {
        if well_formed(rest) {
            return Bearer::ApiKey(Mode::Test);
        }
        return Bearer::Unknown;
    }
    let jwt_like = token.starts_with("eyJ") && token.matches('.').count() == 2;
    if token.starts_with("lco_") || jwt_like {
        return Bearer::OAuth;
    }
    Bearer::Unknown
}

/// A new secret key text for `mode`.
pub fn generate(mode: Mode) -> String {
    let prefix = match mode {
        Mode::Live => "lc_live_",
        Mode::Test => "lc_test_",
    };
    format!("{prefix}{}", ids::base62(SECRET_LEN))
}

/// The visible start of a key.
pub fn prefix(key: &str) -> String {
    key.chars().take(PREFIX_LEN).collect()
}

/// SHA-256 of the key text: the only form stored.
pub fn hash(key: &str) -> Vec<u8> {
    Sha256::digest(key.as_bytes()).to_vec()
}

/// Compares two hashes in constant time.
pub fn hashes_match(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

/// The scopes of the API, as the spec's table names them.
pub const ALL_SCOPES: [&str; 6] = [
    "read",
    "customers:write",
    "scans:write",
    "gift_cards:write",
    "gift_cards:spend",
    "broadcasts:send",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_are_recognised_by_their_mode() {
        assert_eq!(classify(&generate(Mode::Live)), Bearer::ApiKey(Mode::Live));
        assert_eq!(classify(&generate(Mode::Test)), Bearer::ApiKey(Mode::Test));
    }

    #[test]
    fn oauth_looking_tokens_are_told_apart_from_unknown_ones() {
        assert_eq!(classify("lco_abc"), Bearer::OAuth);
        assert_eq!(classify("eyJhbGciOi.eyJzdWIi.sig"), Bearer::OAuth);
        assert_eq!(classify("sk_live_123"), Bearer::Unknown);
        assert_eq!(classify("lc_live_short"), Bearer::Unknown);
    }

    #[test]
    fn only_the_hash_of_a_key_is_compared() {
        let key = generate(Mode::Test);
        assert!(hashes_match(&hash(&key), &hash(&key)));
        assert!(!hashes_match(&hash(&key), &hash(&generate(Mode::Test))));
        assert_eq!(prefix(&key).len(), PREFIX_LEN);
        assert!(prefix(&key).starts_with("lc_test_"));
    }
}
