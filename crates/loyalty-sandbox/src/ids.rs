//! Ids and random texts.
//!
//! Ids are `<prefix>_` followed by 24 base62 characters: 9 that count up (the
//! microseconds of the system time at the first id, then one more per id, so ids
//! made later sort later, across restarts too) and 15 from the thread's
//! cryptographic generator (about 89 bits), so ids stay unguessable. Lists order
//! items by `created_at` and then by id, so items made in the same millisecond
//! still come newest first.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use rand::Rng;

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` random base62 characters.
pub fn base62(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| BASE62[rng.random_range(0..BASE62.len())] as char)
        .collect()
}

static LAST: Mutex<u64> = Mutex::new(0);

/// The next value of the id sequence: never smaller than the system time in µs.
fn next_sequence() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0);
    let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
    *last = (*last + 1).max(now);
    *last
}

/// `value` in `width` base62 digits (fixed width, so text order is number order).
fn base62_fixed(mut value: u64, width: usize) -> String {
    let mut digits = vec![b'0'; width];
    for slot in digits.iter_mut().rev() {
        *slot = BASE62[(value % 62) as usize];
        value /= 62;
    }
    String::from_utf8(digits).unwrap_or_default()
}

/// A new id with `prefix`: `cus_` and 24 characters; later ids sort later.
pub fn new_id(prefix: &str) -> String {
    format!(
        "{prefix}_{}{}",
        base62_fixed(next_sequence(), 9),
        base62(15)
    )
}

/// `len` random bytes.
pub fn random_bytes(len: usize) -> Vec<u8> {
    let mut rng = rand::rng();
    (0..len).map(|_| rng.random::<u8>()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_made_later_sort_later() {
        let ids: Vec<String> = (0..1000).map(|_| new_id("x")).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted);
        assert_eq!(ids[0].len(), 2 + 24);
    }
}
