//! Opaque, signed list cursors.
//!
//! A cursor is base64url (no padding) of `created_at ms (8 bytes, big endian) | id |
//! HMAC-SHA256 tag (32 bytes)`. The tag covers the list's name, the business, the
//! place, the canonical filter text and the position, under a secret stored in the
//! database (so cursors survive a restart). Any change to the cursor, or its use on
//! another list, business, place or filter set, fails verification: 400 invalid_cursor.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

const TAG_LEN: usize = 32;

/// Where a page ended: the last item's `created_at` and id (lists are newest first,
/// ties broken by id descending).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// created_at of the last item, ms since the epoch.
    pub created_ms: i64,
    /// id of the last item.
    pub id: String,
}

/// What a cursor is bound to.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The list (`customers`, `scans`, ...).
    pub list: &'a str,
    /// The business id.
    pub business: &'a str,
    /// `live` or `sandbox`.
    pub place: &'a str,
    /// The canonical filter text (`email=a@b.c&kind=visit`, sorted).
    pub filters: &'a str,
}

fn tag(secret: &[u8], binding: Binding<'_>, payload: &[u8]) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes keys of any length");
    for part in [
        binding.list,
        binding.business,
        binding.place,
        binding.filters,
    ] {
        mac.update(&(part.len() as u64).to_be_bytes());
        mac.update(part.as_bytes());
    }
    mac.update(payload);
    mac
}

/// Signs a position for a binding.
pub fn encode(secret: &[u8], binding: Binding<'_>, position: &Position) -> String {
    let mut payload = position.created_ms.to_be_bytes().to_vec();
    payload.extend_from_slice(position.id.as_bytes());
    let sig = tag(secret, binding, &payload).finalize().into_bytes();
    payload.extend_from_slice(&sig);
    URL_SAFE_NO_PAD.encode(payload)
}

/// Verifies a cursor for a binding and returns its position, or None if it was not
/// issued for exactly this binding or was altered.
pub fn decode(secret: &[u8], binding: Binding<'_>, cursor: &str) -> Option<Position> {
    let raw = URL_SAFE_NO_PAD.decode(cursor.as_bytes()).ok()?;
    if raw.len() < 8 + TAG_LEN {
        return None;
    }
    let (payload, sig) = raw.split_at(raw.len() - TAG_LEN);
    // verify_slice compares in constant time.
    tag(secret, binding, payload).verify_slice(sig).ok()?;
    let created_ms = i64::from_be_bytes(payload[..8].try_into().ok()?);
    let id = String::from_utf8(payload[8..].to_vec()).ok()?;
    Some(Position { created_ms, id })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"secret-of-this-database";

    fn binding<'a>(list: &'a str, filters: &'a str) -> Binding<'a> {
        Binding {
            list,
            business: "biz_1",
            place: "live",
            filters,
        }
    }

    #[test]
    fn a_cursor_round_trips_on_its_own_list() {
        let pos = Position {
            created_ms: 1_795_338_900_000,
            id: "cus_abc".into(),
        };
        let c = encode(SECRET, binding("customers", ""), &pos);
        assert_eq!(decode(SECRET, binding("customers", ""), &c), Some(pos));
    }

    #[test]
    fn a_cursor_is_refused_on_another_list_filter_business_or_place() {
        let pos = Position {
            created_ms: 5,
            id: "cus_abc".into(),
        };
        let c = encode(SECRET, binding("customers", ""), &pos);
        assert_eq!(decode(SECRET, binding("scans", ""), &c), None);
        assert_eq!(
            decode(SECRET, binding("customers", "email=a@b.c"), &c),
            None
        );
        let other_biz = Binding {
            business: "biz_2",
            ..binding("customers", "")
        };
        assert_eq!(decode(SECRET, other_biz, &c), None);
        let sandbox = Binding {
            place: "sandbox",
            ..binding("customers", "")
        };
        assert_eq!(decode(SECRET, sandbox, &c), None);
    }

    #[test]
    fn an_altered_cursor_is_refused() {
        let pos = Position {
            created_ms: 5,
            id: "cus_abc".into(),
        };
        let c = encode(SECRET, binding("customers", ""), &pos);
        let mut bytes = URL_SAFE_NO_PAD.decode(&c).unwrap();
        bytes[3] ^= 1;
        let altered = URL_SAFE_NO_PAD.encode(bytes);
        assert_eq!(decode(SECRET, binding("customers", ""), &altered), None);
        assert_eq!(
            decode(SECRET, binding("customers", ""), "not a cursor"),
            None
        );
        assert_eq!(decode(SECRET, binding("customers", ""), ""), None);
    }
}
