//! What a closed write keeps of the people and cards it names. Its gift card as the
//! till keeps an id no write needs whole (`crate::kept`): its last four wherever the id
//! was (the write, the request's body, the answer, the service's words), and its order
//! key becomes the card's keyed hash, which a scanned card is still matched against
//! (`payers_by_reference`); the whole id stays a few minutes after the write closed
//! ([`crate::outbox::ANSWER_KEEPS_ITS_CARD`]: the counter shows the answer, a card just
//! issued is handed over, a card just paid from is read again). Past the retention, no
//! customer's details at all ([`redact_closed`]).

use jiff::Timestamp;
use rusqlite::{Connection, params};

use super::ts;
use crate::kept::{self, CardKey};

/// The order key of a closed payment from the gift card whose keyed hash is `hash`.
pub(crate) fn kept_order_key(hash: &str) -> String {
    format!("gift_card#{hash}")
}

/// Keeps the gift card of each write closed before `before` that still holds its id
/// whole; answers how many changed.
pub(crate) fn keep_card_ends(conn: &Connection, before: Timestamp) -> rusqlite::Result<usize> {
    let whole: Vec<(i64, Option<String>)> = conn
        .prepare_cached(
            "SELECT id, CASE kind
                    WHEN 'payment' THEN substr(order_key, length('gift_card:') + 1)
                    WHEN 'issue_gift_card' THEN json_extract(answer, '$.gift_card.id')
                END
             FROM outbox
             WHERE ids_kept = 0 AND closed_at IS NOT NULL AND closed_at < ?1",
        )?
        .query_map([ts(before)], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    if whole.is_empty() {
        return Ok(0);
    }
    let key = CardKey::of(conn)?;
    for (item, card) in &whole {
        match card {
            Some(card) if !kept::is_shown(card) => {
                conn.execute(
                    "UPDATE outbox SET
                         write = replace(write, ?2, ?3),
                         body = replace(body, ?2, ?3),
                         answer = replace(answer, ?2, ?3),
                         problem_detail = replace(problem_detail, ?2, ?3),
                         last_error = replace(last_error, ?2, ?3),
                         reason = replace(reason, ?2, ?3),
                         order_key = CASE WHEN kind = 'payment' THEN ?4 ELSE order_key END,
                         ids_kept = 1
                     WHERE id = ?1",
                    params![
                        item,
                        card,
                        kept::shown(card),
                        kept_order_key(&key.hash(card))
                    ],
                )?;
            }
            _ => {
                conn.execute("UPDATE outbox SET ids_kept = 1 WHERE id = ?1", [item])?;
            }
        }
    }
    Ok(whole.len())
}

/// Takes the customers' details out of each write closed before `before` (the
/// retention): names, emails and phones in the write and the answer, the request's body
/// but its reference, the service's words. What the history and the shift reports
/// count stays: when, who, what kind, amounts, the service's record ids, the last four.
/// Answers how many writes changed.
pub(crate) fn redact_closed(conn: &Connection, before: Timestamp) -> rusqlite::Result<usize> {
    conn.execute(
        &format!(
            "UPDATE outbox SET {REDACTED}
             WHERE redacted = 0 AND closed_at IS NOT NULL AND closed_at < ?1"
        ),
        [ts(before)],
    )
}

/// Takes the details of `customer`, whom the service no longer lists (deleted), out of
/// the closed writes that name them (their enrolment): the history keeps that it
/// happened, not who. Answers how many writes changed.
pub(crate) fn redact_customer(conn: &Connection, customer: &str) -> rusqlite::Result<usize> {
    conn.execute(
        &format!(
            "UPDATE outbox SET {REDACTED}
             WHERE closed_at IS NOT NULL AND kind = 'enrol'
               AND json_extract(answer, '$.id') = ?1"
        ),
        [customer],
    )
}

/// What a redacted write keeps: no name, email or phone in the write or the answer,
/// the request's body but its reference, none of the service's words.
const REDACTED: &str = "
    write = json_replace(write, '$.name', '', '$.email', '',
                         '$.recipient_name', '', '$.recipient_email', ''),
    body = CASE WHEN json_extract(body, '$.reference') IS NOT NULL
                THEN json_object('reference', json_extract(body, '$.reference'))
                ELSE '{}' END,
    answer = json_replace(answer, '$.name', NULL, '$.email', NULL, '$.phone', NULL,
                          '$.gift_card.recipient_name', NULL),
    problem_detail = NULL,
    last_error = NULL,
    redacted = 1";
