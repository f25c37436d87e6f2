//! What an attempt records: it started (durably, before the request leaves), it
//! failed, it may have arrived, and the service's answer.

use jiff::Timestamp;
use rusqlite::{Connection, params};

use super::ts;
use crate::outbox::{DecisionReason, ItemId, Refusal};
use crate::secrets::KeyFingerprint;
use crate::views::Answer;

/// Marks an attempt as started, durably, before the request leaves, with the key it
/// goes under and the service's time. False when the item is no longer open (a person
/// closed it meanwhile): then nothing may be sent.
pub(crate) fn mark_sending(
    conn: &Connection,
    id: ItemId,
    now: Timestamp,
    key: &KeyFingerprint,
    service_at: Option<Timestamp>,
) -> rusqlite::Result<bool> {
    let changed = conn.execute(
        "UPDATE outbox SET state = 'sending', attempts = attempts + 1,
             first_attempt_at = COALESCE(first_attempt_at, ?2), last_attempt_at = ?2,
             attempt_key = ?3, attempt_service_at = ?4
         WHERE id = ?1 AND state IN ('queued', 'sending')",
        params![id.0, ts(now), key.as_str(), service_at.map(ts)],
    )?;
    Ok(changed == 1)
}

/// What the first attempt that may have arrived was sent with: copied from the last
/// attempt's columns, once (later attempts never move it).
const ARRIVED: &str = "may_have_arrived_at = COALESCE(may_have_arrived_at, last_attempt_at),
    arrived_service_at = COALESCE(arrived_service_at, attempt_service_at),
    arrived_key = COALESCE(arrived_key, attempt_key)";

/// An attempt failed in a way that is worth retrying: back to `queued`. When the
/// request may have reached the service, that attempt's moment and key are remembered
/// (the earliest such attempt's, for the 23-hour rule and the key rule).
pub(crate) fn attempt_failed(
    conn: &Connection,
    id: ItemId,
    may_have_arrived: bool,
    error: &str,
) -> rusqlite::Result<()> {
    if may_have_arrived {
        // A new attempt that may have arrived: a person's earlier "send again" covered
        // the attempts before it, not this one.
        conn.execute(
            &format!(
                "UPDATE outbox SET state = 'queued', last_error = ?2, {ARRIVED},
                     resend_approved = 0
                 WHERE id = ?1 AND state IN ('queued', 'sending')"
            ),
            params![id.0, error],
        )?;
    } else {
        conn.execute(
            "UPDATE outbox SET state = 'queued', last_error = ?2
             WHERE id = ?1 AND state IN ('queued', 'sending')",
            params![id.0, error],
        )?;
    }
    Ok(())
}

/// Notes that an item found in `sending` (after a crash) may have reached the service
/// when its last attempt started, under that attempt's key.
pub(crate) fn interrupted_attempts_may_have_arrived(conn: &Connection) -> rusqlite::Result<usize> {
    conn.execute(
        &format!(
            "UPDATE outbox SET {ARRIVED}, resend_approved = 0,
                 last_error = COALESCE(last_error, 'the app stopped while this was being sent')
             WHERE state = 'sending'"
        ),
        [],
    )
}

/// The same for one item found in `sending` while no attempt of it is under way.
pub(crate) fn interrupted_attempt_may_have_arrived(
    conn: &Connection,
    id: ItemId,
) -> rusqlite::Result<()> {
    conn.execute(
        &format!(
            "UPDATE outbox SET state = 'queued', {ARRIVED}, resend_approved = 0,
                 last_error = COALESCE(last_error, 'an attempt was cut short')
             WHERE id = ?1 AND state = 'sending'"
        ),
        [id.0],
    )?;
    Ok(())
}

/// Writes stored by a version that did not record keys, which may have arrived: they
/// were sent under the key this till kept, so they are marked with it (at open, before
/// any other key can be connected).
pub(crate) fn stamp_unrecorded_key(
    conn: &Connection,
    key: &KeyFingerprint,
) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE outbox SET arrived_key = ?1
         WHERE may_have_arrived_at IS NOT NULL AND arrived_key IS NULL AND resend_approved = 0
           AND state IN ('queued', 'sending', 'needs_decision')",
        [key.as_str()],
    )
}

/// The service accepted the write. False when it was no longer open (closed already).
pub(crate) fn mark_done(
    conn: &Connection,
    id: ItemId,
    answer: &Answer,
    replayed: bool,
    request_id: Option<&str>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let changed = conn.execute(
        "UPDATE outbox SET state = 'done', answer = ?2, replayed = ?3, request_id = ?4,
             closed_at = ?5, last_error = NULL
         WHERE id = ?1 AND state IN ('queued', 'sending')",
        params![
            id.0,
            serde_json::to_string(answer).expect("answers serialize"),
            replayed,
            request_id,
            ts(now)
        ],
    )?;
    Ok(changed == 1)
}

/// The service refused the write for good.
pub(crate) fn mark_refused(
    conn: &Connection,
    id: ItemId,
    refusal: &Refusal,
    now: Timestamp,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'refused', problem_code = ?2, problem_detail = ?3,
             request_id = ?4, closed_at = ?5
         WHERE id = ?1 AND state IN ('queued', 'sending')",
        params![
            id.0,
            refusal.code.as_str(),
            refusal.detail,
            refusal.request_id,
            ts(now)
        ],
    )?;
    Ok(())
}

/// A person must decide; `refusal` keeps the service's answer when there was one.
pub(crate) fn mark_needs_decision(
    conn: &Connection,
    id: ItemId,
    reason: &DecisionReason,
    refusal: Option<&Refusal>,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE outbox SET state = 'needs_decision', reason = ?2,
             problem_code = COALESCE(?3, problem_code),
             problem_detail = COALESCE(?4, problem_detail),
             request_id = COALESCE(?5, request_id)
         WHERE id = ?1 AND state IN ('queued', 'sending')",
        params![
            id.0,
            serde_json::to_string(reason).expect("reasons serialize"),
            refusal.map(|r| r.code.as_str()),
            refusal.and_then(|r| r.detail.as_deref()),
            refusal.and_then(|r| r.request_id.as_deref()),
        ],
    )?;
    Ok(())
}
