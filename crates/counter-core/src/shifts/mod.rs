//! Shifts and their reports. A shift belongs to the till: opened by a person signed in,
//! worked by any number of people, closed by a manager. Every write belongs to the
//! shift that was open when it was stored (the outbox's INSERT reads it, in the same
//! statement), whenever the service answers it. A shift lives in the till's database
//! beside the outbox: restarts, a kill and the clock moving leave it as it was.
//!
//! At the close, the till seals a Z report: its lines (every write of the shift, where
//! it stood), its figures ([`report::Report`], the computation an X report makes at any
//! time), its number (per till, without gaps), and the SHA-256 of all that and of the
//! previous Z's hash. [`verify`] recomputes the chain and every figure from the till's
//! own records. A write confirmed after its shift closed is that shift's, "settled
//! after the close" ([`addenda`]): the sealed Z never changes.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::db::ts;
use crate::ids::PersonId;
use crate::outbox::{ItemState, OutboxItem};

pub mod check;
pub mod csv;
pub mod report;

use report::{Column, Figure, Line, Report};

/// A shift, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shift {
    /// Its number among the till's shifts.
    pub id: i64,
    /// When it opened.
    pub opened_at: Timestamp,
    /// Who opened it.
    pub opened_by: PersonId,
    /// When it closed (None: open).
    pub closed_at: Option<Timestamp>,
    /// Its Z's number, once closed.
    pub z_number: Option<u32>,
}

/// A sealed Z report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Z {
    /// Its number: per till, from 1, without gaps.
    pub number: u32,
    /// The till's id.
    pub till: String,
    /// The till's name when it closed.
    pub till_name: String,
    /// The shift.
    pub shift: i64,
    /// When the shift opened, and who opened it.
    pub opened_at: Timestamp,
    /// Who opened it.
    pub opened_by: String,
    /// When it closed.
    pub closed_at: Timestamp,
    /// Who closed it.
    pub closed_by: String,
    /// Every write of the shift, where it stood at the close.
    pub lines: Vec<Line>,
    /// Their figures.
    pub report: Report,
    /// The previous Z's hash (None for the first).
    pub previous_hash: Option<String>,
}

impl Z {
    /// The SHA-256 of its content (the previous hash included), as hex.
    pub fn hash(&self) -> String {
        let content = serde_json::to_vec(self).expect("a Z serializes");
        Sha256::digest(&content)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// A Z as stored, with its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SealedZ {
    /// The report.
    pub z: Z,
    /// Its hash as stored.
    pub hash: String,
}

fn shift_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Shift> {
    let parse = |text: Option<String>| text.and_then(|t| t.parse::<Timestamp>().ok());
    Ok(Shift {
        id: row.get(0)?,
        opened_at: parse(row.get(1)?).unwrap_or(Timestamp::UNIX_EPOCH),
        opened_by: PersonId(row.get(2)?),
        closed_at: parse(row.get(3)?),
        z_number: row.get(4)?,
    })
}

const SHIFT: &str = "SELECT id, opened_at, opened_by, closed_at, z_number FROM shifts";

/// The open shift, if there is one.
pub fn open_shift(conn: &Connection) -> rusqlite::Result<Option<Shift>> {
    conn.query_row(&format!("{SHIFT} WHERE closed_at IS NULL"), [], shift_of)
        .optional()
}

/// A shift by its id.
pub fn shift(conn: &Connection, id: i64) -> rusqlite::Result<Option<Shift>> {
    conn.query_row(&format!("{SHIFT} WHERE id = ?1"), [id], shift_of)
        .optional()
}

/// Whether a shift was opened at `since` or after.
pub fn opened_since(conn: &Connection, since: Timestamp) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM shifts WHERE opened_at >= ?1)",
        [ts(since)],
        |r| r.get(0),
    )
}

/// The number of the last Z sealed.
pub fn last_z(conn: &Connection) -> rusqlite::Result<Option<u32>> {
    conn.query_row("SELECT MAX(z_number) FROM shifts", [], |r| r.get(0))
}

/// Opens a shift for `person` at `now`; a shift already open stays the one (a second
/// press opens nothing more). Answers the open shift.
pub fn open(conn: &Connection, person: PersonId, now: Timestamp) -> rusqlite::Result<Shift> {
    conn.execute(
        "INSERT INTO shifts (opened_at, opened_by)
         SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM shifts WHERE closed_at IS NULL)",
        params![ts(now), person.0],
    )?;
    Ok(open_shift(conn)?.expect("a shift is open"))
}

/// The writes of shift `id`, oldest first.
pub fn items_of(conn: &Connection, id: i64) -> rusqlite::Result<Vec<OutboxItem>> {
    crate::outbox::store::in_shift(conn, id)
}

/// The X report of shift `id`: its writes where they stand now. Nothing closes.
pub fn x_report(conn: &Connection, id: i64) -> rusqlite::Result<(Vec<Line>, Report)> {
    let lines: Vec<Line> = items_of(conn, id)?.iter().map(Line::of).collect();
    let report = Report::of(&lines);
    Ok((lines, report))
}

/// Notes that an X report of shift `shift` counting `writes` was taken at `at` by
/// `by`; answers its number within the shift, from 1.
pub fn note_x(
    conn: &Connection,
    shift: i64,
    at: Timestamp,
    by: Option<PersonId>,
    writes: u64,
) -> rusqlite::Result<u32> {
    conn.execute(
        "INSERT INTO x_reports (shift, taken_at, taken_by, writes) VALUES (?1, ?2, ?3, ?4)",
        params![shift, ts(at), by.map(|p| p.0), writes as i64],
    )?;
    conn.query_row(
        "SELECT COUNT(*) FROM x_reports WHERE shift = ?1",
        [shift],
        |r| r.get(0),
    )
}

for_the_ui! {
/// An X report taken during a shift, as its history lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct XTaken {
    /// Its number within the shift, from 1.
    pub number: u32,
    /// When.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub at: Timestamp,
    /// Who took it.
    pub by: String,
    /// How many writes it counted.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub writes: u64,
}
}

/// The X reports taken during shift `shift`, the first first.
pub fn xs_taken(conn: &Connection, shift: i64) -> rusqlite::Result<Vec<XTaken>> {
    let mut statement = conn.prepare_cached(
        "SELECT x.taken_at, coalesce(p.name, ''), x.writes FROM x_reports x
         LEFT JOIN people p ON p.id = x.taken_by WHERE x.shift = ?1 ORDER BY x.id",
    )?;
    let rows = statement.query_map([shift], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })?;
    let mut taken = Vec::new();
    for (number, row) in (1..).zip(rows) {
        let (at, by, writes) = row?;
        taken.push(XTaken {
            number,
            at: at.parse().unwrap_or(Timestamp::UNIX_EPOCH),
            by,
            writes: writes as u64,
        });
    }
    Ok(taken)
}

/// Why a shift could not be closed.
#[derive(Debug, thiserror::Error)]
pub enum CloseError {
    /// SQLite refused.
    #[error(transparent)]
    Db(#[from] rusqlite::Error),
    /// No such shift.
    #[error("there is no shift {0}")]
    NoSuchShift(i64),
}

/// Closes shift `id` at `now` by `by` (a manager's name, checked above), sealing its
/// Z in the same transaction. Closing a shift already closed closes nothing and
/// answers its Z: a second press, or a close answered twice, closes once.
pub fn close(
    conn: &mut Connection,
    id: i64,
    by: &str,
    by_id: PersonId,
    now: Timestamp,
) -> Result<SealedZ, CloseError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let shift = shift(&tx, id)?.ok_or(CloseError::NoSuchShift(id))?;
    if let Some(number) = shift.z_number {
        drop(tx);
        return Ok(sealed(conn, number)?.expect("a closed shift has its Z"));
    }
    let (lines, report) = x_report(&tx, id)?;
    let previous: Option<(u32, String)> = tx
        .query_row(
            "SELECT z_number, z_hash FROM shifts WHERE z_number IS NOT NULL
             ORDER BY z_number DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let (till, till_name): (String, String) =
        tx.query_row("SELECT till_id, name FROM till WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
    let opened_by: String = tx
        .query_row(
            "SELECT name FROM people WHERE id = ?1",
            [shift.opened_by.0],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or_default();
    let z = Z {
        number: previous.as_ref().map_or(1, |(n, _)| n + 1),
        till,
        till_name,
        shift: id,
        opened_at: shift.opened_at,
        opened_by,
        closed_at: now,
        closed_by: by.to_owned(),
        lines,
        report,
        previous_hash: previous.map(|(_, hash)| hash),
    };
    let hash = z.hash();
    tx.execute(
        "UPDATE shifts SET closed_at = ?2, closed_by = ?3, z_number = ?4, z = ?5, z_hash = ?6
         WHERE id = ?1",
        params![
            id,
            ts(now),
            by_id.0,
            z.number,
            serde_json::to_string(&z).expect("a Z serializes"),
            hash
        ],
    )?;
    tx.commit()?;
    Ok(SealedZ { z, hash })
}

/// The Z numbered `number`, as stored.
pub fn sealed(conn: &Connection, number: u32) -> rusqlite::Result<Option<SealedZ>> {
    let stored: Option<(String, String)> = conn
        .query_row(
            "SELECT z, z_hash FROM shifts WHERE z_number = ?1",
            [number],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    stored
        .map(|(z, hash)| {
            let z = serde_json::from_str(&z).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(4, rusqlite::types::Type::Text, e.into())
            })?;
            Ok(SealedZ { z, hash })
        })
        .transpose()
}

/// The writes of a closed shift confirmed after its close, in the order they were
/// settled: its addenda, numbered from 1. The Z itself never changes.
pub fn addenda(conn: &Connection, z: &Z) -> rusqlite::Result<Vec<Line>> {
    let waiting: std::collections::BTreeSet<i64> = z
        .lines
        .iter()
        .filter(|line| matches!(line.column, Column::Waiting | Column::RefusedOrDecision))
        .map(|line| line.item)
        .collect();
    let mut settled: Vec<(Timestamp, Line)> = items_of(conn, z.shift)?
        .iter()
        .filter(|item| waiting.contains(&item.id.0) && item.state == ItemState::Done)
        .map(|item| (item.closed_at.unwrap_or(z.closed_at), Line::of(item)))
        .collect();
    settled.sort_by_key(|(at, line)| (*at, line.item));
    Ok(settled.into_iter().map(|(_, line)| line).collect())
}

/// What [`verify`] found wrong first.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Z {number}: {why}")]
pub struct Broken {
    /// The first Z that no longer agrees.
    pub number: u32,
    /// What disagrees, for people.
    pub why: String,
}

/// Recomputes every Z: the chain of hashes, each Z's figures from its lines, and its
/// lines from the till's own records (every write of the shift, each counted for what
/// it is, none that is not the shift's). Answers how many Zs agree, or the first that
/// does not.
pub fn verify(conn: &Connection) -> rusqlite::Result<Result<u32, Broken>> {
    let numbers: Vec<Option<u32>> = conn
        .prepare("SELECT z_number FROM shifts WHERE closed_at IS NOT NULL ORDER BY z_number")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut previous: Option<String> = None;
    for (at, number) in numbers.iter().enumerate() {
        let expected = at as u32 + 1;
        let broken = |why: String| {
            Ok(Err(Broken {
                number: expected,
                why,
            }))
        };
        if *number != Some(expected) {
            return broken(format!("missing: the Zs are numbered {numbers:?}"));
        }
        let sealed = match sealed(conn, expected) {
            Ok(Some(sealed)) => sealed,
            Ok(None) => return broken("missing".into()),
            Err(_) => return broken("its content cannot be read".into()),
        };
        let z = &sealed.z;
        if z.hash() != sealed.hash {
            return broken("its content does not match its hash".into());
        }
        if z.number != expected || z.previous_hash != previous {
            return broken("it does not follow the Z before it".into());
        }
        if Report::of(&z.lines) != z.report {
            return broken("its figures are not the sum of its writes".into());
        }
        if let Some(why) = disagreement(conn, z)? {
            return broken(why);
        }
        previous = Some(sealed.hash);
    }
    Ok(Ok(numbers.len() as u32))
}

/// How the till's records of `z`'s shift disagree with its lines, if they do.
fn disagreement(conn: &Connection, z: &Z) -> rusqlite::Result<Option<String>> {
    let items = items_of(conn, z.shift)?;
    if items.len() != z.lines.len() {
        return Ok(Some(format!(
            "it counts {} writes, the till holds {} of its shift",
            z.lines.len(),
            items.len()
        )));
    }
    for (item, line) in items.iter().zip(&z.lines) {
        if item.id.0 != line.item {
            return Ok(Some(format!(
                "write {} is not the one it counted ({})",
                item.id.0, line.item
            )));
        }
        if Figure::of(&item.write) != line.figure {
            return Ok(Some(format!(
                "write {} counts {:?} in the till, {:?} in the Z",
                item.id.0,
                Figure::of(&item.write),
                line.figure
            )));
        }
        let person = match &item.made_by {
            crate::outbox::MadeBy::Person { id, .. } => Some(id.0),
            _ => None,
        };
        if person != line.person_id {
            return Ok(Some(format!(
                "write {} was made by someone else than the Z says",
                item.id.0
            )));
        }
        // A write only moves forward: confirmed or refused at the close, it is still.
        let now = Column::of(item);
        let moved_back =
            matches!(line.column, Column::Confirmed | Column::Withdrawn) && now != line.column;
        if moved_back {
            return Ok(Some(format!(
                "write {} stood {:?} at the close and stands {now:?} now",
                item.id.0, line.column
            )));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
