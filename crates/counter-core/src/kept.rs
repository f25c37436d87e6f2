//! What the till keeps of a gift card's id once no write needs it whole. The id is the
//! card's money (whoever reads it pays with it), so a closed write and a gift card the
//! till read keep its last four characters, what a person reads, and a keyed hash
//! (HMAC-SHA-256 under a key of this till's own) that a scanned card is matched
//! against: neither gives the id back from a copied file.

use hmac::{Hmac, Mac};
use rusqlite::Connection;
use sha2::Sha256;

/// The key of this till's card hashes (random, made by the schema's migration 15).
#[derive(Clone)]
pub(crate) struct CardKey(String);

impl CardKey {
    /// This till's key.
    pub(crate) fn of(conn: &Connection) -> rusqlite::Result<Self> {
        conn.prepare_cached("SELECT card_key FROM till WHERE id = 1")?
            .query_row([], |row| row.get(0))
            .map(CardKey)
    }

    /// The hash a scanned card `id` is matched against (64 hex digits).
    pub(crate) fn hash(&self, id: &str) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.0.as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(id.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

/// What stands for a gift card's id once it is not kept whole: `****` and its last
/// four characters (what the screens and receipts show of it anyway).
pub(crate) fn shown(id: &str) -> String {
    format!("****{}", crate::receipts::last_four(id))
}

/// Whether `id` is already what stands for an id ([`shown`]).
pub(crate) fn is_shown(id: &str) -> bool {
    id.starts_with("****")
}
