//! The businesses writes belong to (see [`crate::outbox::business`]).

use rusqlite::{Connection, OptionalExtension, params};

use crate::outbox::business::{Business, OwnerId, WaitingWrites};

/// The till's number of `business`, made on first use; its name kept up to date.
pub(crate) fn owner_of(conn: &Connection, business: &Business) -> rusqlite::Result<OwnerId> {
    conn.prepare_cached(
        "INSERT INTO owners (business_id, test_mode, service, business_name)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (business_id, test_mode, service)
         DO UPDATE SET business_name = excluded.business_name
         RETURNING id",
    )?
    .query_row(
        params![
            business.id,
            business.test_mode,
            business.service,
            business.name
        ],
        |r| r.get(0).map(OwnerId),
    )
}

/// The business behind `owner`.
pub(crate) fn business(conn: &Connection, owner: OwnerId) -> rusqlite::Result<Option<Business>> {
    conn.prepare_cached(
        "SELECT business_id, business_name, test_mode, service FROM owners WHERE id = ?1",
    )?
    .query_row([owner.0], |r| {
        Ok(Business {
            id: r.get(0)?,
            name: r.get(1)?,
            test_mode: r.get(2)?,
            service: r.get(3)?,
        })
    })
    .optional()
}

/// Writes stored without an owner (by an earlier version, or before the till ever
/// knew its business) become `owner`'s. Answers how many.
pub(crate) fn stamp_unowned(conn: &Connection, owner: OwnerId) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE outbox SET owner = ?1 WHERE owner IS NULL",
        [owner.0],
    )
}

/// The open writes that do not belong to `except` (all of them when None), by
/// business, most first.
pub(crate) fn waiting_elsewhere(
    conn: &Connection,
    except: Option<OwnerId>,
) -> rusqlite::Result<Vec<WaitingWrites>> {
    let mut stmt = conn.prepare_cached(
        "SELECT owner, COUNT(*) FROM outbox
         WHERE state IN ('queued', 'sending', 'needs_decision') AND (?1 IS NULL OR owner IS NOT ?1)
         GROUP BY owner ORDER BY COUNT(*) DESC, owner",
    )?;
    let groups: Vec<(Option<i64>, u32)> = stmt
        .query_map([except.map(|o| o.0)], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    groups
        .into_iter()
        .map(|(owner, count)| {
            Ok(WaitingWrites {
                business: match owner {
                    Some(owner) => business(conn, OwnerId(owner))?,
                    None => None,
                },
                count,
            })
        })
        .collect()
}
