//! The till's people: the roster, kept in the till's SQLite. Each person has a name, a
//! role ([`Role`]), a PIN of their own ([`crate::pin`], with its own lockout) and,
//! when the owner made one, a badge: a code the scanner reads like a card
//! (`staff_…`, never a customer's card), kept here only as its SHA-256. A person the
//! owner disabled signs in no more, and their past writes keep their name: nobody is
//! ever deleted.

use jiff::Timestamp;
use rand::Rng;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::ids::PersonId;
use crate::pin::{self, PinFailure};
use crate::roles::Role;

/// The longest name.
pub const LONGEST_NAME: usize = 40;

for_the_ui! {
/// A person as the screens show them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// Their id.
    pub id: PersonId,
    /// Their name.
    pub name: String,
    /// Their role.
    pub role: Role,
    /// Disabled by the owner: they sign in no more.
    pub disabled: bool,
    /// They have a badge.
    pub badge: bool,
}
}

for_the_ui! {
/// Why a change of the roster was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RosterError {
    /// A name is 1 to 40 characters, not only spaces.
    #[error("a name is 1 to {longest} characters")]
    Name {
        /// The most characters.
        longest: u32,
    },
    /// Someone on the roster already has this name.
    #[error("someone is already called {name}")]
    NameTaken {
        /// The name.
        name: String,
    },
    /// No such person on the roster.
    #[error("no such person")]
    NoSuchPerson,
    /// The till would have no owner left to manage its people.
    #[error("the till keeps at least one owner who can sign in")]
    LastOwner,
}
}

/// Why a roster change failed.
#[derive(Debug, thiserror::Error)]
pub enum RosterFailure {
    /// Refused.
    #[error(transparent)]
    Refused(#[from] RosterError),
    /// The PIN was refused.
    #[error(transparent)]
    Pin(#[from] PinFailure),
    /// The till's database failed.
    #[error(transparent)]
    Db(#[from] rusqlite::Error),
}

for_the_ui! {
/// When the till locks itself: the owner's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LockPolicy {
    /// After this many minutes without a touch (1 to 240).
    pub idle_minutes: u32,
    /// After each gift-card payment.
    pub after_gift_card_payment: bool,
}
}

impl Default for LockPolicy {
    fn default() -> Self {
        Self {
            idle_minutes: 5,
            after_gift_card_payment: false,
        }
    }
}

impl LockPolicy {
    /// The longest idle time an owner may choose, in minutes.
    pub const LONGEST_IDLE: u32 = 240;

    /// The idle time before the till locks itself.
    pub fn idle(&self) -> std::time::Duration {
        std::time::Duration::from_secs(
            u64::from(self.idle_minutes.clamp(1, Self::LONGEST_IDLE)) * 60,
        )
    }
}

/// A name as kept: spaces around it dropped, 1 to [`LONGEST_NAME`] characters, no
/// control character.
pub fn name(given: &str) -> Result<String, RosterError> {
    let trimmed = given.trim();
    let count = trimmed.chars().count();
    if count == 0 || count > LONGEST_NAME || trimmed.chars().any(char::is_control) {
        return Err(RosterError::Name {
            longest: LONGEST_NAME as u32,
        });
    }
    Ok(trimmed.to_owned())
}

/// The first word of a name, for paper ("Served by Anna").
pub fn first_name(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or(name)
}

const COLUMNS: &str = "id, name, role, disabled, badge IS NOT NULL";

fn person(row: &rusqlite::Row<'_>) -> rusqlite::Result<Person> {
    let role: String = row.get(2)?;
    Ok(Person {
        id: PersonId(row.get(0)?),
        name: row.get(1)?,
        // The schema allows only the three roles.
        role: Role::parse(&role).unwrap_or(Role::Cashier),
        disabled: row.get(3)?,
        badge: row.get(4)?,
    })
}

/// Everyone on the roster, in the order they were added.
pub fn all(conn: &Connection) -> rusqlite::Result<Vec<Person>> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM people ORDER BY id"))?;
    statement.query_map([], person)?.collect()
}

/// One person.
pub fn get(conn: &Connection, id: PersonId) -> rusqlite::Result<Option<Person>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM people WHERE id = ?1"),
        [id.0],
        person,
    )
    .optional()
}

/// Whether anyone is on the roster (else the till asks for the owner's first PIN).
pub fn anyone(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row("SELECT EXISTS (SELECT 1 FROM people)", [], |r| r.get(0))
}

fn name_free(conn: &Connection, name: &str, but: Option<PersonId>) -> Result<(), RosterFailure> {
    let taken: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM people WHERE lower(name) = lower(?1) AND id IS NOT ?2)",
        params![name, but.map(|p| p.0)],
        |r| r.get(0),
    )?;
    if taken {
        return Err(RosterError::NameTaken {
            name: name.to_owned(),
        }
        .into());
    }
    Ok(())
}

/// Adds a person with their first PIN.
pub fn add(
    conn: &Connection,
    given_name: &str,
    role: Role,
    first_pin: &str,
    now: Timestamp,
) -> Result<PersonId, RosterFailure> {
    let name = name(given_name)?;
    let first_pin = pin::digits(first_pin).map_err(PinFailure::from)?;
    name_free(conn, &name, None)?;
    conn.execute(
        "INSERT INTO people (name, role, hash, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![name, role.as_str(), pin::hash(first_pin), now.to_string()],
    )?;
    Ok(PersonId(conn.last_insert_rowid()))
}

/// What the owner changes of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum PersonChange {
    /// A new name.
    Rename {
        /// The name.
        name: String,
    },
    /// Another role.
    Role {
        /// The role.
        role: Role,
    },
    /// Disabled (true) or enabled again.
    Disabled {
        /// Whether disabled.
        disabled: bool,
    },
}

/// Changes a person. The till keeps at least one owner who can sign in.
pub fn change(conn: &Connection, id: PersonId, change: &PersonChange) -> Result<(), RosterFailure> {
    let found = get(conn, id)?.ok_or(RosterError::NoSuchPerson)?;
    match change {
        PersonChange::Rename { name: given } => {
            let name = name(given)?;
            name_free(conn, &name, Some(id))?;
            conn.execute(
                "UPDATE people SET name = ?1 WHERE id = ?2",
                params![name, id.0],
            )?;
        }
        PersonChange::Role { role } => {
            if found.role == Role::Owner && *role != Role::Owner {
                last_owner_stays(conn, id)?;
            }
            conn.execute(
                "UPDATE people SET role = ?1 WHERE id = ?2",
                params![role.as_str(), id.0],
            )?;
        }
        PersonChange::Disabled { disabled } => {
            if *disabled && found.role == Role::Owner {
                last_owner_stays(conn, id)?;
            }
            conn.execute(
                "UPDATE people SET disabled = ?1 WHERE id = ?2",
                params![disabled, id.0],
            )?;
        }
    }
    Ok(())
}

fn last_owner_stays(conn: &Connection, leaving: PersonId) -> Result<(), RosterFailure> {
    let others: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM people
                        WHERE role = 'owner' AND disabled = 0 AND id != ?1)",
        [leaving.0],
        |r| r.get(0),
    )?;
    if others {
        Ok(())
    } else {
        Err(RosterError::LastOwner.into())
    }
}

/// Everyone's whole line (their PIN's hash and badge's digest too), to carry to
/// another till of this app ([`put_rows`]).
pub(crate) fn rows(conn: &Connection) -> rusqlite::Result<Vec<Vec<rusqlite::types::Value>>> {
    let mut statement = conn.prepare(&format!("SELECT {WHOLE} FROM people ORDER BY id"))?;
    let width = statement.column_count();
    statement
        .query_map([], |r| (0..width).map(|i| r.get(i)).collect())?
        .collect()
}

/// Puts lines [`rows`] read into this till's roster, in one transaction.
pub(crate) fn put_rows(
    conn: &Connection,
    rows: &[Vec<rusqlite::types::Value>],
) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    let marks = vec!["?"; WHOLE.split(',').count()].join(", ");
    for row in rows {
        tx.execute(
            &format!("INSERT INTO people ({WHOLE}) VALUES ({marks})"),
            rusqlite::params_from_iter(row),
        )?;
    }
    tx.commit()
}

/// Every column of a person's line, as [`rows`] carries them.
const WHOLE: &str = "id, name, role, hash, failures, locks, lock_ms, lock_served_ms, lock_boot, \
    lock_uptime_ms, locked_at, badge, disabled, created_at, uid, signer";

/// A payment's number at this till, with the till's name: what its `reference` starts
/// with, so the business tells its tills apart in the service's ledger ("Counter 2 #17").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    /// The till's name.
    pub till: String,
    /// The payment's number at this till, from 1.
    pub number: i64,
}

impl std::fmt::Display for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} #{}", self.till, self.number)
    }
}

/// Numbers the next payment of this till, once: a number a payment then refused leaves
/// unused (the ledger may skip a number, never repeat one).
pub fn next_ticket(conn: &Connection) -> rusqlite::Result<Ticket> {
    conn.query_row(
        "UPDATE till SET tickets = tickets + 1 WHERE id = 1 RETURNING name, tickets",
        [],
        |r| {
            Ok(Ticket {
                till: r.get(0)?,
                number: r.get(1)?,
            })
        },
    )
}

/// The letters a badge's code is made of (no 0/o, 1/l/i: read aloud or typed, none is
/// taken for another).
const BADGE_LETTERS: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";

/// Makes `id` a new badge and answers its code; an earlier badge opens nothing from now
/// on. Only its SHA-256 is kept.
pub fn make_badge(conn: &Connection, id: PersonId) -> Result<String, RosterFailure> {
    get(conn, id)?.ok_or(RosterError::NoSuchPerson)?;
    let mut rng = rand::rng();
    let tail: String = (0..24)
        .map(|_| char::from(BADGE_LETTERS[rng.random_range(0..BADGE_LETTERS.len())]))
        .collect();
    let code = format!("staff_{tail}");
    conn.execute(
        "UPDATE people SET badge = ?1 WHERE id = ?2",
        params![badge_digest(&code), id.0],
    )?;
    Ok(code)
}

fn badge_digest(code: &str) -> String {
    let digest = Sha256::digest(code.to_ascii_lowercase().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whose badge `code` is, when it is one this till made and its person may sign in.
pub fn by_badge(conn: &Connection, code: &str) -> rusqlite::Result<Option<Person>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM people WHERE badge = ?1 AND disabled = 0"),
        [badge_digest(code)],
        person,
    )
    .optional()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn till() -> (tempfile::TempDir, Connection) {
        crate::db::new_for_tests()
    }

    fn now() -> Timestamp {
        "2026-11-28T09:00:00Z".parse().unwrap()
    }

    #[test]
    fn the_first_pin_is_the_owners_seat_and_people_are_added_with_their_own() {
        let (_dir, conn) = till();
        assert!(!anyone(&conn).unwrap());
        let owner = pin::set(&conn, "2468", now()).unwrap();
        let anna = add(&conn, "  Anna Berg ", Role::Cashier, "1357", now()).unwrap();
        let people = all(&conn).unwrap();
        assert_eq!(
            people
                .iter()
                .map(|p| (p.name.as_str(), p.role))
                .collect::<Vec<_>>(),
            [("Owner", Role::Owner), ("Anna Berg", Role::Cashier)]
        );
        assert_eq!(first_name(&people[1].name), "Anna");
        assert!(matches!(
            add(&conn, "anna berg", Role::Manager, "1111", now()),
            Err(RosterFailure::Refused(RosterError::NameTaken { .. }))
        ));
        for bad in ["", "   ", &"x".repeat(41), "a\u{7}b"] {
            assert!(matches!(
                add(&conn, bad, Role::Cashier, "1111", now()),
                Err(RosterFailure::Refused(RosterError::Name { .. }))
            ));
        }
        assert!(matches!(
            add(&conn, "Ben", Role::Cashier, "12", now()),
            Err(RosterFailure::Pin(_))
        ));
        assert_eq!(all(&conn).unwrap().len(), 2, "nothing refused was kept");
        assert!(matches!(
            change(&conn, owner, &PersonChange::Disabled { disabled: true }),
            Err(RosterFailure::Refused(RosterError::LastOwner))
        ));
        assert!(matches!(
            change(
                &conn,
                owner,
                &PersonChange::Role {
                    role: Role::Manager
                }
            ),
            Err(RosterFailure::Refused(RosterError::LastOwner))
        ));
        change(&conn, anna, &PersonChange::Disabled { disabled: true }).unwrap();
        assert!(get(&conn, anna).unwrap().unwrap().disabled);
    }

    #[test]
    fn the_managers_pin_of_an_earlier_version_becomes_the_owners_seat_lock_and_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        {
            let earlier = crate::db::at_schema(&path, 12);
            earlier
                .execute(
                    "INSERT INTO manager_pin (id, hash, failures, locks) VALUES (1, ?1, 3, 2)",
                    [pin::hash("2468")],
                )
                .unwrap();
        }
        let conn = crate::db::open_for_tests(&path);
        let people = all(&conn).unwrap();
        assert_eq!(people.len(), 1);
        assert_eq!(
            (people[0].id, people[0].name.as_str(), people[0].role),
            (PersonId(1), "Owner", Role::Owner)
        );
        let clock = crate::clock::ManualClock::new(now());
        use crate::clock::Clock;
        let status = pin::status(&conn, PersonId(1), clock.now(), &clock.uptime()).unwrap();
        assert_eq!(
            status.tries_left,
            pin::MAX_TRIES - 3,
            "its wrong tries came along"
        );
        pin::check(&conn, PersonId(1), "2468", clock.now(), &clock.uptime()).unwrap();
        let till: (String, String) = conn
            .query_row("SELECT till_id, name FROM till", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(till.0.len(), 32, "a till id of its own");
        assert_eq!(till.1, "Counter 1");
    }

    #[test]
    fn a_till_without_a_pin_comes_along_with_no_one_on_its_roster() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        drop(crate::db::at_schema(&path, 12));
        let conn = crate::db::open_for_tests(&path);
        assert!(!anyone(&conn).unwrap());
    }

    #[test]
    fn a_badge_is_kept_as_its_digest_and_a_new_one_replaces_it() {
        let (_dir, conn) = till();
        pin::set(&conn, "2468", now()).unwrap();
        let anna = add(&conn, "Anna", Role::Cashier, "1357", now()).unwrap();
        let first = make_badge(&conn, anna).unwrap();
        assert!(first.starts_with("staff_") && first.len() == 30, "{first}");
        assert_eq!(by_badge(&conn, &first).unwrap().unwrap().id, anna);
        let kept: String = conn
            .query_row("SELECT badge FROM people WHERE id = ?1", [anna.0], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(!kept.contains(&first[6..]), "only a digest is kept");
        let second = make_badge(&conn, anna).unwrap();
        assert_eq!(by_badge(&conn, &first).unwrap(), None);
        assert_eq!(by_badge(&conn, &second).unwrap().unwrap().id, anna);
        change(&conn, anna, &PersonChange::Disabled { disabled: true }).unwrap();
        assert_eq!(by_badge(&conn, &second).unwrap(), None, "disabled");
    }
}
