//! Each person's PIN (4 to 8 digits), kept as an Argon2id hash (never the PIN) on their
//! line of the roster ([`crate::people`]): asked to sign in, and for a manager's approval.
//! The first PIN is the owner's, set on the till's first start.
//!
//! A PIN that cannot be guessed in a week: five wrong tries in a row lock it for five
//! minutes, and each further lock lasts twice as long as the one before, up to a day
//! ([`lock_length`]); only a right PIN starts the count again. A lock is measured on the
//! computer's uptime ([`Uptime`]), never on the wall clock: setting the clock forward or
//! back neither ends nor shortens it, and a restart of the app does not lift it. After a
//! restart of the computer, the time since it started counts; what passed between the
//! lock's last count and the restart does not.
//!
//! The hash uses OWASP's recommended Argon2id parameters ([`HASH_PARAMS`]); a hash made
//! with weaker ones is made again at the next right PIN.

use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::clock::Uptime;
use crate::ids::PersonId;

/// Wrong tries before the PIN locks.
pub const MAX_TRIES: u32 = 5;

/// How long the first lock lasts.
pub const LOCK: Duration = Duration::from_secs(5 * 60);

/// The longest a lock lasts.
pub const LONGEST_LOCK: Duration = Duration::from_secs(24 * 60 * 60);

/// The fewest and most digits of a PIN.
pub const DIGITS: (usize, usize) = (4, 8);

/// Argon2id with 19 MiB of memory, two passes and one lane: the OWASP Password Storage
/// Cheat Sheet's recommended minimum (m=19456 KiB, t=2, p=1).
pub const HASH_PARAMS: (u32, u32, u32) = (19 * 1024, 2, 1);

/// How long the `n`th lock in a row lasts (the first is [`LOCK`]): twice the one
/// before, at most [`LONGEST_LOCK`].
pub fn lock_length(n: u32) -> Duration {
    let doublings = n.saturating_sub(1).min(16);
    (LOCK * 2u32.pow(doublings)).min(LONGEST_LOCK)
}

for_the_ui! {
/// Where the PIN stands, for the screen that asks for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinStatus {
    /// A PIN was set (else the first manager to come sets it).
    pub set: bool,
    /// Wrong tries left before the lock.
    pub tries_left: u32,
    /// Locked until then (RFC 3339), when locked.
    pub locked_until: Option<String>,
    /// A manager entered the PIN for a visit to the manager's screens and has been at
    /// work within the idle time: manager screens open without asking again.
    pub manager_here: bool,
    /// Who may give it now (their name is tapped first when there are several).
    pub approvers: Vec<Approver>,
    /// The fewest digits a PIN has.
    pub shortest: u32,
    /// The most digits a PIN has.
    pub longest: u32,
}
}

for_the_ui! {
/// A person who may give the PIN asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approver {
    /// Who.
    pub id: PersonId,
    /// Their name.
    pub name: String,
}
}

for_the_ui! {
/// Why a PIN was refused, as data the screen words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PinError {
    /// Not 4 to 8 digits.
    #[error("a PIN is {min} to {max} digits")]
    NotDigits {
        /// The fewest digits.
        min: u32,
        /// The most digits.
        max: u32,
    },
    /// No PIN is set yet.
    #[error("no PIN is set yet")]
    NotSet,
    /// A PIN is already set: only changing it (with the old one) replaces it.
    #[error("a PIN is already set")]
    AlreadySet,
    /// Only a manager may do this: the PIN is asked first.
    #[error("the manager's PIN is needed first")]
    ManagerOnly,
    /// The person was disabled by the owner: they sign in no more.
    #[error("this person may no longer sign in")]
    Disabled,
    /// A badge the till does not know, or a disabled person's.
    #[error("this badge opens nothing here")]
    UnknownBadge,
    /// The person whose PIN was typed may not approve this action.
    #[error("this person may not approve it")]
    MayNotApprove,
    /// Wrong.
    #[error("wrong PIN; {tries_left} tries left")]
    Wrong {
        /// Tries left before the lock.
        tries_left: u32,
    },
    /// Too many wrong tries.
    #[error("too many wrong tries; locked until {until}")]
    Locked {
        /// When it opens again (RFC 3339).
        until: String,
    },
}
}

/// Storage failed, or the PIN was refused.
#[derive(Debug, thiserror::Error)]
pub enum PinFailure {
    /// Refused.
    #[error(transparent)]
    Refused(#[from] PinError),
    /// The till's database failed.
    #[error(transparent)]
    Db(#[from] rusqlite::Error),
}

/// A lock as stored: its length, and how much of it was served, counted on the uptime
/// of one boot.
#[derive(Debug, Clone)]
struct Lock {
    length: Duration,
    /// Served before `counted_at` (on earlier boots).
    served: Duration,
    boot: String,
    counted_at: Duration,
}

impl Lock {
    /// What is left of it at `uptime`: none once served. On another boot than the one
    /// it was counted on, only the time since that boot began is taken as served (what
    /// passed between the last count and the restart is not known).
    fn left(&self, uptime: &Uptime) -> Option<Duration> {
        let since = if uptime.boot == self.boot {
            uptime.since_boot.saturating_sub(self.counted_at)
        } else {
            uptime.since_boot
        };
        let left = self.length.saturating_sub(self.served + since);
        (!left.is_zero()).then_some(left)
    }
}

struct Row {
    disabled: bool,
    hash: String,
    failures: u32,
    locks: u32,
    lock: Option<Lock>,
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn from_ms(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

fn read(conn: &Connection, person: PersonId) -> rusqlite::Result<Option<Row>> {
    conn.query_row(
        "SELECT hash, failures, locks, lock_ms, lock_served_ms, lock_boot, lock_uptime_ms,
                locked_at, disabled
         FROM people WHERE id = ?1",
        [person.0],
        |r| {
            let length: Option<i64> = r.get(3)?;
            let boot: Option<String> = r.get(5)?;
            let counted_at: Option<i64> = r.get(6)?;
            // A lock an earlier version began (it kept only the wall time): served anew.
            let legacy = r.get::<_, Option<String>>(7)?.is_some();
            let lock = match (length, boot, counted_at) {
                (Some(length), Some(boot), Some(counted_at)) => Some(Lock {
                    length: from_ms(length),
                    served: from_ms(r.get(4)?),
                    boot,
                    counted_at: from_ms(counted_at),
                }),
                _ if legacy => Some(Lock {
                    length: LOCK,
                    served: Duration::ZERO,
                    boot: String::new(),
                    counted_at: Duration::ZERO,
                }),
                _ => None,
            };
            Ok(Row {
                disabled: r.get(8)?,
                hash: r.get(0)?,
                failures: r.get(1)?,
                locks: r.get(2)?,
                lock,
            })
        },
    )
    .optional()
}

/// When a lock with `left` to go ends, told on the wall clock now (for people).
fn until(now: Timestamp, left: Duration) -> String {
    now.saturating_add(SignedDuration::try_from(left).unwrap_or(SignedDuration::MAX))
        .map(|t| t.to_string())
        .unwrap_or_default()
}

pub(crate) fn digits(pin: &str) -> Result<&str, PinError> {
    let (min, max) = DIGITS;
    if (min..=max).contains(&pin.len()) && pin.bytes().all(|b| b.is_ascii_digit()) {
        Ok(pin)
    } else {
        Err(PinError::NotDigits {
            min: min as u32,
            max: max as u32,
        })
    }
}

fn hasher() -> Argon2<'static> {
    let (m, t, p) = HASH_PARAMS;
    Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(m, t, p, None).expect("OWASP's parameters are valid"),
    )
}

pub(crate) fn hash(pin: &str) -> String {
    let salt = SaltString::encode_b64(uuid::Uuid::new_v4().as_bytes())
        .expect("16 random bytes make a salt");
    hasher()
        .hash_password(pin.as_bytes(), &salt)
        .expect("Argon2id hashes any PIN")
        .to_string()
}

pub(crate) fn matches(pin: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|parsed| {
        // The parameters the hash was made with are in it.
        Argon2::default()
            .verify_password(pin.as_bytes(), &parsed)
            .is_ok()
    })
}

/// Whether `stored` was made with weaker parameters than [`HASH_PARAMS`], or not with
/// Argon2id.
fn weaker_than_now(stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return true;
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return true;
    };
    let (m, t, p) = HASH_PARAMS;
    parsed.algorithm.as_str() != "argon2id"
        || params.m_cost() < m
        || params.t_cost() < t
        || params.p_cost() < p
}

/// Where `person`'s PIN stands at `now` (not set: no such person).
pub fn status(
    conn: &Connection,
    person: PersonId,
    now: Timestamp,
    uptime: &Uptime,
) -> rusqlite::Result<PinStatus> {
    let (set, tries_left, locked_until) = match read(conn, person)? {
        None => (false, MAX_TRIES, None),
        Some(row) => match row.lock.as_ref().and_then(|lock| lock.left(uptime)) {
            Some(left) => (true, 0, Some(until(now, left))),
            None => (true, MAX_TRIES.saturating_sub(row.failures), None),
        },
    };
    Ok(PinStatus {
        set,
        tries_left,
        locked_until,
        manager_here: false,
        approvers: Vec::new(),
        shortest: DIGITS.0 as u32,
        longest: DIGITS.1 as u32,
    })
}

/// Sets the first PIN, the owner's: the roster's first person, named "Owner" until
/// renamed. Refused once anyone is on the roster (changing a PIN needs the old one).
pub fn set(conn: &Connection, pin: &str, now: Timestamp) -> Result<PersonId, PinFailure> {
    let pin = digits(pin)?;
    let inserted = conn.execute(
        "INSERT INTO people (id, name, role, hash, created_at)
         SELECT 1, 'Owner', 'owner', ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM people)",
        params![hash(pin), now.to_string()],
    )?;
    if inserted == 0 {
        return Err(PinError::AlreadySet.into());
    }
    Ok(PersonId(1))
}

/// Checks a PIN. A wrong one counts; the fifth in a row locks it ([`lock_length`]).
/// While locked, even the right PIN is refused (and the lock's count is kept up to
/// date, so that a reboot costs it at most what was served since).
pub fn check(
    conn: &Connection,
    person: PersonId,
    pin: &str,
    now: Timestamp,
    uptime: &Uptime,
) -> Result<(), PinFailure> {
    let row = read(conn, person)?.ok_or(PinError::NotSet)?;
    if row.disabled {
        return Err(PinError::Disabled.into());
    }
    // What cannot be a PIN is no try at one: refused as it is, and not counted.
    digits(pin)?;
    if let Some(lock) = &row.lock
        && let Some(left) = lock.left(uptime)
    {
        conn.execute(
            "UPDATE people SET lock_ms = ?1, lock_served_ms = ?2, lock_boot = ?3,
                 lock_uptime_ms = ?4, locked_at = NULL
             WHERE id = ?5",
            params![
                ms(lock.length),
                ms(lock.length - left),
                uptime.boot,
                ms(uptime.since_boot),
                person.0
            ],
        )?;
        return Err(PinError::Locked {
            until: until(now, left),
        }
        .into());
    }
    if digits(pin).is_ok() && matches(pin, &row.hash) {
        conn.execute(
            "UPDATE people SET failures = 0, locks = 0, lock_ms = NULL, lock_served_ms = 0,
                 lock_boot = NULL, lock_uptime_ms = NULL, locked_at = NULL
             WHERE id = ?1",
            [person.0],
        )?;
        if weaker_than_now(&row.hash) {
            conn.execute(
                "UPDATE people SET hash = ?1 WHERE id = ?2",
                params![hash(pin), person.0],
            )?;
        }
        return Ok(());
    }
    let failures = row.failures + 1;
    if failures >= MAX_TRIES {
        let locks = row.locks.saturating_add(1);
        let length = lock_length(locks);
        conn.execute(
            "UPDATE people SET failures = 0, locks = ?1, lock_ms = ?2, lock_served_ms = 0,
                 lock_boot = ?3, lock_uptime_ms = ?4, locked_at = NULL
             WHERE id = ?5",
            params![
                locks,
                ms(length),
                uptime.boot,
                ms(uptime.since_boot),
                person.0
            ],
        )?;
        return Err(PinError::Locked {
            until: until(now, length),
        }
        .into());
    }
    conn.execute(
        "UPDATE people SET failures = ?1 WHERE id = ?2",
        params![failures, person.0],
    )?;
    Err(PinError::Wrong {
        tries_left: MAX_TRIES - failures,
    }
    .into())
}

/// Changes the PIN: the old one first (it counts as a try), then the new one.
pub fn change(
    conn: &Connection,
    person: PersonId,
    old: &str,
    new: &str,
    now: Timestamp,
    uptime: &Uptime,
) -> Result<(), PinFailure> {
    let new = digits(new)?;
    check(conn, person, old, now, uptime)?;
    replace(conn, person, new)
}

/// Gives `person` a new PIN (the owner's reset), their wrong tries and lock forgotten.
pub fn replace(conn: &Connection, person: PersonId, new: &str) -> Result<(), PinFailure> {
    let new = digits(new)?;
    conn.execute(
        "UPDATE people SET hash = ?1, failures = 0, locks = 0, lock_ms = NULL,
             lock_served_ms = 0, lock_boot = NULL, lock_uptime_ms = NULL, locked_at = NULL
         WHERE id = ?2",
        params![hash(new), person.0],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
