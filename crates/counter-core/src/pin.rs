//! The manager's PIN: set on first use (4 to 8 digits), kept as an Argon2id hash (never
//! the PIN), asked before a manager screen and before what can cost money. Five wrong
//! tries lock it for five minutes. The lock is stored with the moment it began, so a
//! restart does not lift it and a clock set back does not shorten it.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

/// Wrong tries before the PIN locks.
pub const MAX_TRIES: u32 = 5;

/// How long a lock lasts.
pub const LOCK: SignedDuration = SignedDuration::from_mins(5);

/// The fewest and most digits of a PIN.
pub const DIGITS: (usize, usize) = (4, 8);

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
    /// A manager entered the PIN on this till and has been at work within
    /// [`crate::MANAGER_IDLE`]: manager screens open without asking again.
    pub manager_here: bool,
    /// The fewest digits a PIN has.
    pub shortest: u32,
    /// The most digits a PIN has.
    pub longest: u32,
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

struct Row {
    hash: String,
    failures: u32,
    locked_at: Option<Timestamp>,
}

fn read(conn: &Connection) -> rusqlite::Result<Option<Row>> {
    conn.query_row(
        "SELECT hash, failures, locked_at FROM manager_pin WHERE id = 1",
        [],
        |r| {
            Ok(Row {
                hash: r.get(0)?,
                failures: r.get(1)?,
                locked_at: r.get::<_, Option<String>>(2)?.and_then(|t| t.parse().ok()),
            })
        },
    )
    .optional()
}

/// The lock in force at `now`, if any: it began at `locked_at` and lasts [`LOCK`]; a
/// clock now earlier than its start (set back) does not end it early.
fn lock_in_force(row: &Row, now: Timestamp) -> Option<Timestamp> {
    let locked_at = row.locked_at?;
    let until = locked_at + LOCK;
    (now < until).then_some(if now < locked_at { now + LOCK } else { until })
}

fn digits(pin: &str) -> Result<&str, PinError> {
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

fn hash(pin: &str) -> String {
    let salt = SaltString::encode_b64(uuid::Uuid::new_v4().as_bytes())
        .expect("16 random bytes make a salt");
    Argon2::default()
        .hash_password(pin.as_bytes(), &salt)
        .expect("Argon2id hashes any PIN")
        .to_string()
}

fn matches(pin: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(pin.as_bytes(), &parsed)
            .is_ok()
    })
}

/// Where the PIN stands at `now`.
pub fn status(conn: &Connection, now: Timestamp) -> rusqlite::Result<PinStatus> {
    Ok(match read(conn)? {
        None => PinStatus {
            set: false,
            tries_left: MAX_TRIES,
            locked_until: None,
            manager_here: false,
            shortest: DIGITS.0 as u32,
            longest: DIGITS.1 as u32,
        },
        Some(row) => {
            let locked = lock_in_force(&row, now);
            PinStatus {
                set: true,
                tries_left: if locked.is_some() {
                    0
                } else {
                    MAX_TRIES.saturating_sub(row.failures)
                },
                locked_until: locked.map(|t| t.to_string()),
                manager_here: false,
                shortest: DIGITS.0 as u32,
                longest: DIGITS.1 as u32,
            }
        }
    })
}

/// Sets the first PIN. Refused when one is set (changing it needs the old one).
pub fn set(conn: &Connection, pin: &str) -> Result<(), PinFailure> {
    let pin = digits(pin)?;
    let inserted = conn.execute(
        "INSERT INTO manager_pin (id, hash, failures) VALUES (1, ?1, 0) ON CONFLICT(id) DO NOTHING",
        [hash(pin)],
    )?;
    if inserted == 0 {
        return Err(PinError::AlreadySet.into());
    }
    Ok(())
}

/// Checks a PIN at `now`. A wrong one counts; the fifth in a row locks it for
/// [`LOCK`]. While locked, even the right PIN is refused.
pub fn check(conn: &Connection, pin: &str, now: Timestamp) -> Result<(), PinFailure> {
    let row = read(conn)?.ok_or(PinError::NotSet)?;
    if let Some(until) = lock_in_force(&row, now) {
        return Err(PinError::Locked {
            until: until.to_string(),
        }
        .into());
    }
    if digits(pin).is_ok() && matches(pin, &row.hash) {
        conn.execute(
            "UPDATE manager_pin SET failures = 0, locked_at = NULL WHERE id = 1",
            [],
        )?;
        return Ok(());
    }
    let failures = row.failures + 1;
    if failures >= MAX_TRIES {
        conn.execute(
            "UPDATE manager_pin SET failures = 0, locked_at = ?1 WHERE id = 1",
            [now.to_string()],
        )?;
        return Err(PinError::Locked {
            until: (now + LOCK).to_string(),
        }
        .into());
    }
    conn.execute(
        "UPDATE manager_pin SET failures = ?1 WHERE id = 1",
        params![failures],
    )?;
    Err(PinError::Wrong {
        tries_left: MAX_TRIES - failures,
    }
    .into())
}

/// Changes the PIN: the old one first (it counts as a try), then the new one.
pub fn change(conn: &Connection, old: &str, new: &str, now: Timestamp) -> Result<(), PinFailure> {
    let new = digits(new)?;
    check(conn, old, now)?;
    conn.execute("UPDATE manager_pin SET hash = ?1 WHERE id = 1", [hash(new)])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn till() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        crate::db::open(&path).unwrap();
        (dir, path)
    }

    fn at(minutes: i64) -> Timestamp {
        "2026-11-23T09:00:00Z".parse::<Timestamp>().unwrap() + SignedDuration::from_mins(minutes)
    }

    #[test]
    fn a_pin_is_four_to_eight_digits_and_kept_only_as_an_argon2id_hash() {
        let (_dir, path) = till();
        let conn = crate::db::open(&path).unwrap();
        for bad in ["", "123", "123456789", "12a4", " 1234", "１２３４"] {
            assert!(
                matches!(
                    set(&conn, bad),
                    Err(PinFailure::Refused(PinError::NotDigits { .. }))
                ),
                "{bad:?}"
            );
        }
        assert!(!status(&conn, at(0)).unwrap().set);
        set(&conn, "2468").unwrap();
        let stored: String = conn
            .query_row("SELECT hash FROM manager_pin", [], |r| r.get(0))
            .unwrap();
        assert!(
            stored.starts_with("$argon2id$") && !stored.contains("2468"),
            "{stored}"
        );
        assert!(matches!(
            set(&conn, "1357"),
            Err(PinFailure::Refused(PinError::AlreadySet))
        ));
        check(&conn, "2468", at(0)).unwrap();
    }

    #[test]
    fn five_wrong_tries_lock_it_for_five_minutes_across_a_restart_and_a_clock_set_back() {
        let (_dir, path) = till();
        let conn = crate::db::open(&path).unwrap();
        set(&conn, "2468").unwrap();
        for left in (1..MAX_TRIES).rev() {
            assert!(matches!(
                check(&conn, "0000", at(0)),
                Err(PinFailure::Refused(PinError::Wrong { tries_left })) if tries_left == left
            ));
        }
        assert!(matches!(
            check(&conn, "0000", at(1)),
            Err(PinFailure::Refused(PinError::Locked { .. }))
        ));
        // A restart: the lock is in the till's file.
        drop(conn);
        let conn = crate::db::open(&path).unwrap();
        assert!(matches!(
            check(&conn, "2468", at(3)),
            Err(PinFailure::Refused(PinError::Locked { .. }))
        ));
        assert_eq!(status(&conn, at(3)).unwrap().tries_left, 0);
        // The clock set back an hour: still locked, for five minutes from now.
        assert!(matches!(
            check(&conn, "2468", at(-60)),
            Err(PinFailure::Refused(PinError::Locked { .. }))
        ));
        // Five minutes after the lock began: the right PIN opens, and the count restarts.
        check(&conn, "2468", at(6)).unwrap();
        assert_eq!(status(&conn, at(6)).unwrap().tries_left, MAX_TRIES);
    }

    #[test]
    fn changing_the_pin_needs_the_old_one() {
        let (_dir, path) = till();
        let conn = crate::db::open(&path).unwrap();
        set(&conn, "2468").unwrap();
        assert!(matches!(
            change(&conn, "1111", "13579", at(0)),
            Err(PinFailure::Refused(PinError::Wrong { .. }))
        ));
        change(&conn, "2468", "13579", at(0)).unwrap();
        assert!(check(&conn, "2468", at(0)).is_err());
        check(&conn, "13579", at(0)).unwrap();
    }
}
