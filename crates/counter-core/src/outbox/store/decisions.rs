//! What a person decides about an item, each checked and done in one statement or
//! transaction: send it again, withdraw it, or confirm a repeat visit.

use jiff::Timestamp;
use loyalty_api::IdempotencyKey;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{COLUMNS, Made, insert, item, ts};
use crate::ids::PersonId;
use crate::outbox::{ItemId, Resolution, Write};
use crate::secrets::KeyFingerprint;

/// A person chose to send an item that needs a decision again: back to `queued`, with
/// the moment and key of its first attempt that may have arrived kept as they were.
/// False when it no longer needs a decision.
pub(crate) fn approve_resend(conn: &Connection, id: ItemId) -> rusqlite::Result<bool> {
    // What it may have arrived under is the person's to weigh now; the next attempt that
    // may arrive records its own key and time (and ends the approval).
    let changed = conn.execute(
        "UPDATE outbox SET state = 'queued', reason = NULL, resend_approved = 1,
             arrived_key = NULL, arrived_service_at = NULL
         WHERE id = ?1 AND state = 'needs_decision'",
        [id.0],
    )?;
    Ok(changed == 1)
}

/// The key they may have arrived under is back: the items held for it go on.
pub(crate) fn release_for_key(conn: &Connection, key: &KeyFingerprint) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE outbox SET state = 'queued', reason = NULL
         WHERE state = 'needs_decision' AND arrived_key = ?1
           AND json_extract(reason, '$.kind') = 'sent_under_another_key'",
        [key.as_str()],
    )
}

/// A person withdraws an item: it becomes `refused`, with their note, if and only if
/// it still may be withdrawn, checked in the same statement that closes it: it needs
/// a decision, or it is queued and no attempt of it may have reached the service. An
/// item being sent is never withdrawn. False when it may not be.
pub(crate) fn discard(
    conn: &Connection,
    id: ItemId,
    note: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let resolution = Resolution::Discarded {
        note: note.to_owned(),
    };
    let changed = conn.execute(
        "UPDATE outbox SET state = 'refused', resolution = ?2, closed_at = COALESCE(closed_at, ?3)
         WHERE id = ?1 AND resolution IS NULL
           AND (state = 'needs_decision' OR (state = 'queued' AND may_have_arrived_at IS NULL))",
        params![
            id.0,
            serde_json::to_string(&resolution).expect("resolutions serialize"),
            ts(now)
        ],
    )?;
    Ok(changed == 1)
}

/// What confirming a repeat visit found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RepeatConfirmation {
    /// The replacement was stored now, and the first visit closed, in one transaction.
    Stored(ItemId),
    /// It was confirmed before: this is the replacement stored then.
    AlreadyConfirmed(ItemId),
    /// The item is not a visit refused as too recent.
    NotARecentVisit,
}

/// Confirms the repeat visit `first` in one transaction: stores `replacement` (a new
/// write with its own key) and closes `first` naming it. A second confirmation (a
/// double click, two screens, a restart) finds the first's resolution and stores
/// nothing: one extra visit, whatever happens.
pub(crate) fn confirm_repeat(
    conn: &mut Connection,
    first: ItemId,
    replacement: &Write,
    key: &IdempotencyKey,
    now: Timestamp,
    person: PersonId,
) -> rusqlite::Result<RepeatConfirmation> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let Some(found) = tx
        .query_row(
            &format!("SELECT {COLUMNS} FROM outbox WHERE id = ?1"),
            [first.0],
            item,
        )
        .optional()?
    else {
        return Ok(RepeatConfirmation::NotARecentVisit);
    };
    if let Some(Resolution::RepeatConfirmed { replacement }) = found.resolution {
        return Ok(RepeatConfirmation::AlreadyConfirmed(replacement));
    }
    if !found.is_unresolved_recent_visit() {
        return Ok(RepeatConfirmation::NotARecentVisit);
    }
    // The repeat visit belongs where the first did.
    let made = Made {
        owner: found.owner,
        kiosk: false,
        person: Some(person),
    };
    let id = insert(&tx, replacement, key, now, Some(first), made)?;
    tx.execute(
        "UPDATE outbox SET state = 'refused', resolution = ?2, closed_at = COALESCE(closed_at, ?3)
         WHERE id = ?1",
        params![
            first.0,
            serde_json::to_string(&Resolution::RepeatConfirmed { replacement: id })
                .expect("resolutions serialize"),
            ts(now)
        ],
    )?;
    tx.commit()?;
    Ok(RepeatConfirmation::Stored(id))
}
