//! Ids and random texts.
//!
//! Ids are `<prefix>_` followed by 24 base62 characters from the thread's
//! cryptographic generator, so they are unguessable and never collide in practice.

use rand::Rng;

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` random base62 characters.
pub fn base62(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| BASE62[rng.random_range(0..BASE62.len())] as char)
        .collect()
}

/// A new id with `prefix`: `cus_3kTq...`.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", base62(24))
}

/// `len` random bytes.
pub fn random_bytes(len: usize) -> Vec<u8> {
    let mut rng = rand::rng();
    (0..len).map(|_| rng.random::<u8>()).collect()
}
