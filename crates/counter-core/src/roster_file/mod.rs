//! The same people on the shop's other tills: the owner exports the roster to a file
//! signed with an Ed25519 key made on this till, and another till imports it once its
//! own owner has agreed to trust that key (trust on first use). The file carries each
//! person's PIN hash and badge digest, never a PIN. A file changed by one byte, or
//! signed by another key than the one trusted, is refused and changes nothing; a file
//! no newer than the last one imported is refused too (an old file cannot bring back
//! someone removed). Importing a newer file disables, on this till, whoever its owner
//! removed; their past writes keep their name.
//!
//! The file is JSON: the roster's own JSON as a string (`signed`, verified byte for
//! byte: no canonical form to agree on), the signer's public key and the signature.

use std::io::Write as _;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::people::{RosterError, RosterFailure};
use crate::roles::Role;

/// What the file says it is.
const FORMAT: &str = "loyalty-counter roster 1";

/// The largest file read (a roster of thousands of people is far smaller).
pub const LARGEST_FILE: u64 = 1 << 20;

/// The file, beside the till's database, that keeps the owner's signing key.
const KEY_FILE: &str = "roster-key";

for_the_ui! {
/// Why a roster file was refused: nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RosterFileError {
    /// Not a roster file of this app (or cut short).
    #[error("this is not a roster file of Loyalty Counter")]
    Unreadable,
    /// Its signature does not match what it says: changed since it was signed.
    #[error("this roster file was changed after it was signed")]
    Altered,
    /// This till trusts no owner's key yet: its owner must agree to trust this one.
    #[error("this till does not trust the key {fingerprint} yet")]
    NotTrusted {
        /// The key's fingerprint, to compare with the one the exporting till shows.
        fingerprint: String,
        /// The till that made it.
        till: String,
        /// How many people it carries.
        people: u32,
    },
    /// Signed by another key than the one this till trusts.
    #[error("signed by the key {fingerprint}, not the key {trusted} this till trusts")]
    OtherKey {
        /// The file's key.
        fingerprint: String,
        /// The key this till trusts.
        trusted: String,
    },
    /// This till already has this roster, or a newer one.
    #[error("this till already has this roster or a newer one")]
    NotNewer,
}
}

for_the_ui! {
/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterImported {
    /// The key it was signed with.
    pub fingerprint: String,
    /// The till that made it.
    pub till: String,
    /// People new on this till.
    pub added: Vec<String>,
    /// People already here, brought up to date.
    pub updated: Vec<String>,
    /// People the owner removed: disabled here.
    pub revoked: Vec<String>,
}
}

for_the_ui! {
/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterExported {
    /// The key it was signed with: the other till's owner compares it before trusting.
    pub fingerprint: String,
    /// How many people it carries.
    pub people: u32,
}
}

/// Why an export or an import failed.
#[derive(Debug, thiserror::Error)]
pub enum RosterFileFailure {
    /// The file was refused.
    #[error(transparent)]
    Refused(#[from] RosterFileError),
    /// The roster it would leave was refused (no owner left, a name taken).
    #[error(transparent)]
    Roster(#[from] RosterFailure),
    /// The key or the file could not be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The till's database failed.
    #[error(transparent)]
    Db(#[from] rusqlite::Error),
}

impl From<RosterError> for RosterFileFailure {
    fn from(refused: RosterError) -> Self {
        RosterFileFailure::Roster(refused.into())
    }
}

/// The file as written.
#[derive(Serialize, Deserialize)]
struct Envelope {
    format: String,
    /// The roster's JSON ([`Signed`]), exactly as signed.
    signed: String,
    /// The signer's public key (base64).
    key: String,
    /// The signature of `signed` (base64).
    signature: String,
}

/// What the owner signs.
#[derive(Serialize, Deserialize)]
struct Signed {
    format: String,
    /// The till that made it.
    till: String,
    made_at: Timestamp,
    /// Grows with each file this key signs: a file no newer than the last imported is
    /// refused.
    sequence: i64,
    people: Vec<Line>,
}

/// A person as the file carries them.
#[derive(Serialize, Deserialize)]
struct Line {
    uid: String,
    name: String,
    role: Role,
    /// Their PIN's Argon2id hash.
    hash: String,
    /// Their badge's SHA-256.
    badge: Option<String>,
    disabled: bool,
}

/// A key's fingerprint as people compare it: the first 16 bytes of its SHA-256, in
/// groups of four hexadecimal digits.
pub fn fingerprint(key: &VerifyingKey) -> String {
    let digest = Sha256::digest(key.as_bytes());
    digest[..16]
        .chunks(2)
        .map(|pair| format!("{:02X}{:02X}", pair[0], pair[1]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// This till's signing key, made on first use and kept in `data_dir`, readable by the
/// till's user alone.
pub fn owner_key(data_dir: &Path) -> std::io::Result<SigningKey> {
    let path = data_dir.join(KEY_FILE);
    match std::fs::read(&path) {
        Ok(bytes) => {
            let seed: [u8; 32] = bytes.try_into().map_err(|_| {
                std::io::Error::other(format!("{} is not a signing key", path.display()))
            })?;
            Ok(SigningKey::from_bytes(&seed))
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let seed: [u8; 32] = rand::random();
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options.open(&path)?;
            file.write_all(&seed)?;
            file.sync_all()?;
            Ok(SigningKey::from_bytes(&seed))
        }
        Err(err) => Err(err),
    }
}

/// The roster, whole, signed with `key`: the file's bytes.
pub fn export(
    conn: &Connection,
    key: &SigningKey,
    now: Timestamp,
) -> Result<(Vec<u8>, RosterExported), RosterFileFailure> {
    let tx = conn.unchecked_transaction()?;
    // Later than every file this till signed before, whatever the clock did since.
    let (till, sequence): (String, i64) = tx.query_row(
        "UPDATE till SET rosters_signed = max(rosters_signed + 1, ?1) WHERE id = 1
         RETURNING name, rosters_signed",
        [now.as_millisecond()],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let people = {
        let mut statement =
            tx.prepare("SELECT uid, name, role, hash, badge, disabled FROM people ORDER BY id")?;
        statement
            .query_map([], |r| {
                let role: String = r.get(2)?;
                Ok(Line {
                    uid: r.get(0)?,
                    name: r.get(1)?,
                    role: Role::parse(&role).unwrap_or(Role::Cashier),
                    hash: r.get(3)?,
                    badge: r.get(4)?,
                    disabled: r.get(5)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?
    };
    tx.commit()?;
    let exported = RosterExported {
        fingerprint: fingerprint(&key.verifying_key()),
        people: people.len() as u32,
    };
    let signed = serde_json::to_string(&Signed {
        format: FORMAT.to_owned(),
        till,
        made_at: now,
        sequence,
        people,
    })
    .map_err(std::io::Error::other)?;
    let envelope = Envelope {
        format: FORMAT.to_owned(),
        signature: BASE64.encode(key.sign(signed.as_bytes()).to_bytes()),
        key: BASE64.encode(key.verifying_key().as_bytes()),
        signed,
    };
    let bytes = serde_json::to_vec_pretty(&envelope).map_err(std::io::Error::other)?;
    Ok((bytes, exported))
}

/// Reads and checks a file: its roster and its key, when the signature holds.
fn verified(bytes: &[u8]) -> Result<(Signed, VerifyingKey), RosterFileError> {
    let envelope: Envelope =
        serde_json::from_slice(bytes).map_err(|_| RosterFileError::Unreadable)?;
    if envelope.format != FORMAT {
        return Err(RosterFileError::Unreadable);
    }
    let key: [u8; 32] = BASE64
        .decode(&envelope.key)
        .ok()
        .and_then(|k| k.try_into().ok())
        .ok_or(RosterFileError::Unreadable)?;
    // A key that is no point of the curve cannot have signed anything.
    let key = VerifyingKey::from_bytes(&key).map_err(|_| RosterFileError::Altered)?;
    let signature: [u8; 64] = BASE64
        .decode(&envelope.signature)
        .ok()
        .and_then(|s| s.try_into().ok())
        .ok_or(RosterFileError::Unreadable)?;
    key.verify_strict(
        envelope.signed.as_bytes(),
        &Signature::from_bytes(&signature),
    )
    .map_err(|_| RosterFileError::Altered)?;
    let signed: Signed =
        serde_json::from_str(&envelope.signed).map_err(|_| RosterFileError::Unreadable)?;
    if signed.format != FORMAT {
        return Err(RosterFileError::Unreadable);
    }
    Ok((signed, key))
}

/// Imports a roster file into this till, in one transaction: all of it or nothing.
/// `trust` is the fingerprint the owner agreed to trust, when this till trusts no key
/// yet.
pub fn import(
    conn: &Connection,
    bytes: &[u8],
    trust: Option<&str>,
    now: Timestamp,
) -> Result<RosterImported, RosterFileFailure> {
    let (signed, key) = verified(bytes)?;
    let fingerprint = fingerprint(&key);
    let key_text = BASE64.encode(key.as_bytes());
    let tx = conn.unchecked_transaction()?;
    let trusted: Option<(String, i64)> = tx
        .query_row(
            "SELECT key, sequence FROM roster_signer WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match trusted {
        None if trust == Some(fingerprint.as_str()) => {}
        None => {
            return Err(RosterFileError::NotTrusted {
                fingerprint,
                till: signed.till,
                people: signed.people.len() as u32,
            }
            .into());
        }
        Some((trusted, _)) if trusted != key_text => {
            let trusted = BASE64
                .decode(&trusted)
                .ok()
                .and_then(|k| <[u8; 32]>::try_from(k).ok())
                .and_then(|k| VerifyingKey::from_bytes(&k).ok())
                .map_or_else(String::new, |k| self::fingerprint(&k));
            return Err(RosterFileError::OtherKey {
                fingerprint,
                trusted,
            }
            .into());
        }
        Some((_, last)) if signed.sequence <= last => {
            return Err(RosterFileError::NotNewer.into());
        }
        Some(_) => {}
    }
    let mut imported = RosterImported {
        fingerprint,
        till: signed.till.clone(),
        added: Vec::new(),
        updated: Vec::new(),
        revoked: Vec::new(),
    };
    for line in &signed.people {
        let name = crate::people::name(&line.name)?;
        // The same person: by their id, else someone made here under the same name
        // (the other till's "Owner" is this one's).
        let found: Option<(i64, bool)> = tx
            .query_row(
                "SELECT id, disabled FROM people WHERE uid = ?1
                 UNION ALL
                 SELECT id, disabled FROM people WHERE lower(name) = lower(?2) AND signer IS NULL
                 LIMIT 1",
                params![line.uid, name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let here = found.map(|(id, _)| id);
        let taken: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM people WHERE lower(name) = lower(?1) AND id IS NOT ?2)",
            params![name, here],
            |r| r.get(0),
        )?;
        if taken {
            return Err(RosterError::NameTaken { name }.into());
        }
        match found {
            Some((id, was_disabled)) => {
                // A new PIN starts with no wrong tries, as one the owner resets here.
                tx.execute(
                    "UPDATE people SET failures = 0, locks = 0, lock_ms = NULL,
                         lock_served_ms = 0, lock_boot = NULL, lock_uptime_ms = NULL,
                         locked_at = NULL
                     WHERE id = ?1 AND hash <> ?2",
                    params![id, line.hash],
                )?;
                tx.execute(
                    "UPDATE people SET name = ?2, role = ?3, hash = ?4, badge = ?5,
                         disabled = ?6, uid = ?7, signer = ?8
                     WHERE id = ?1",
                    params![
                        id,
                        name,
                        line.role.as_str(),
                        line.hash,
                        line.badge,
                        line.disabled,
                        line.uid,
                        key_text
                    ],
                )?;
                if line.disabled && !was_disabled {
                    imported.revoked.push(name);
                } else {
                    imported.updated.push(name);
                }
            }
            None => {
                tx.execute(
                    "INSERT INTO people (name, role, hash, badge, disabled, created_at, uid, signer)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![
                        name,
                        line.role.as_str(),
                        line.hash,
                        line.badge,
                        line.disabled,
                        now.to_string(),
                        line.uid,
                        key_text
                    ],
                )?;
                imported.added.push(name);
            }
        }
    }
    // Whoever an earlier file of this key brought and this one no longer carries.
    let uids = serde_json::to_string(
        &signed
            .people
            .iter()
            .map(|l| l.uid.as_str())
            .collect::<Vec<_>>(),
    )
    .map_err(std::io::Error::other)?;
    let mut revoke = tx.prepare(
        "UPDATE people SET disabled = 1
         WHERE signer = ?1 AND disabled = 0 AND uid NOT IN (SELECT value FROM json_each(?2))
         RETURNING name",
    )?;
    for name in revoke.query_map(params![key_text, uids], |r| r.get(0))? {
        imported.revoked.push(name?);
    }
    drop(revoke);
    let owner_left: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM people WHERE role = 'owner' AND disabled = 0)",
        [],
        |r| r.get(0),
    )?;
    if !owner_left {
        return Err(RosterError::LastOwner.into());
    }
    tx.execute(
        "INSERT INTO roster_signer (id, key, trusted_at, sequence) VALUES (1, ?1, ?2, ?3)
         ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence",
        params![key_text, now.to_string(), signed.sequence],
    )?;
    tx.commit()?;
    Ok(imported)
}

#[cfg(test)]
mod tests;
