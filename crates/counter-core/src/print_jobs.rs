//! The print queue: a plain table. A job is stored before anything is sent, in the
//! same transaction as the answer that made it (a payment's, an issue's), at most once
//! per write; it is marked printed once all its bytes reached the printer, and never
//! sent again after that (a reprint is a new job).

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};

use crate::outbox::{ItemId, OutboxItem, Write};
use crate::receipts::{Heading, Language, Money, Receipt, ReceiptKind, last_four};
use crate::settings;
use crate::views::Answer;

for_the_ui! {
/// A print job's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JobId(#[cfg_attr(feature = "ts", ts(type = "number"))] pub i64);
}

for_the_ui! {
/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Waiting for the printer.
    Queued,
    /// Every byte reached the printer.
    Printed,
    /// Made while no printer was set up: kept to preview and print on request.
    Kept,
    /// A manager took it off the queue unprinted.
    Cancelled,
    /// Its bytes began to leave, then the printer stopped answering: it may have
    /// printed, and is not sent again until a person says so.
    Unsure,
}
}

impl JobState {
    fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Printed => "printed",
            JobState::Kept => "kept",
            JobState::Cancelled => "cancelled",
            JobState::Unsure => "unsure",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "queued" => JobState::Queued,
            "printed" => JobState::Printed,
            "kept" => JobState::Kept,
            "unsure" => JobState::Unsure,
            _ => JobState::Cancelled,
        }
    }
}

for_the_ui! {
/// A receipt in the queue's history, as the Receipts screen lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrintJob {
    /// Its number.
    pub id: JobId,
    /// Which receipt.
    pub kind: ReceiptKind,
    /// Where it stands.
    pub state: JobState,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// When it was printed (RFC 3339).
    pub printed_at: Option<String>,
    /// Times it was tried on a printer that failed before its last byte.
    pub attempts: u32,
    /// The job it prints again.
    pub reprint_of: Option<JobId>,
}
}

/// A job with what it prints.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub job: PrintJob,
    pub receipt: Receipt,
    pub language: Language,
}

const COLUMNS: &str = "id, receipt, language, state, created_at, printed_at, attempts, reprint_of";

fn stored(row: &Row<'_>) -> rusqlite::Result<Stored> {
    let receipt: String = row.get(1)?;
    let receipt: Receipt = serde_json::from_str(&receipt).map_err(|err| {
        rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Text, Box::new(err))
    })?;
    let language: String = row.get(2)?;
    Ok(Stored {
        job: PrintJob {
            id: JobId(row.get(0)?),
            kind: receipt.kind(),
            state: JobState::parse(&row.get::<_, String>(3)?),
            created_at: row.get(4)?,
            printed_at: row.get(5)?,
            attempts: row.get(6)?,
            reprint_of: row.get::<_, Option<i64>>(7)?.map(JobId),
        },
        receipt,
        language: Language::of_code(&language),
    })
}

fn language_code(language: Language) -> &'static str {
    match language {
        Language::En => "en",
        Language::Fr => "fr",
    }
}

/// Whether `job` is a receipt kept while no printer was set up that was never sent
/// to one: printing it is its first print, no copy.
pub(crate) fn never_printed(conn: &Connection, job: JobId) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT state = 'kept'
             AND NOT EXISTS (SELECT 1 FROM print_jobs AS again WHERE again.reprint_of = job.id)
         FROM print_jobs AS job WHERE id = ?1",
        [job.0],
        |row| row.get(0),
    )
    .optional()
    .map(|first| first.unwrap_or(false))
}

/// Stores a job: queued when a printer is set up, else kept.
pub(crate) fn enqueue(
    conn: &Connection,
    receipt: &Receipt,
    language: Language,
    source: Option<ItemId>,
    reprint_of: Option<JobId>,
    now: Timestamp,
) -> rusqlite::Result<Option<JobId>> {
    let state = if settings::load(conn)?.printer.is_some() {
        JobState::Queued
    } else {
        JobState::Kept
    };
    let added = conn.execute(
        "INSERT OR IGNORE INTO print_jobs (receipt, kind, language, state, source_item,
             reprint_of, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            serde_json::to_string(receipt).expect("receipts serialize"),
            serde_json::to_value(receipt.kind())
                .ok()
                .and_then(|k| k.as_str().map(str::to_owned)),
            language_code(language),
            state.as_str(),
            source.map(|s| s.0),
            reprint_of.map(|r| r.0),
            now.to_string(),
        ],
    )?;
    Ok((added == 1).then(|| JobId(conn.last_insert_rowid())))
}

/// The top of a receipt made now at this till.
pub(crate) fn heading(
    conn: &Connection,
    at: Timestamp,
    served_by: Option<&str>,
) -> rusqlite::Result<(Heading, Language)> {
    let settings = settings::load(conn)?;
    let heading = Heading {
        shop: settings
            .connection
            .map(|c| c.business_name)
            .unwrap_or_default(),
        location: settings
            .location_name
            .or(settings.location_id.map(|l| l.as_str().to_owned())),
        at,
        served_by: served_by.map(|name| crate::people::first_name(name).to_owned()),
        copy: false,
    };
    let language = settings
        .language
        .as_deref()
        .map_or(Language::En, Language::of_code);
    Ok((heading, language))
}

/// The receipt a write's answer prints, if any: a payment's, a voucher.
pub(crate) fn receipt_of(write: &Write, answer: &Answer, heading: Heading) -> Option<Receipt> {
    match (write, answer) {
        (Write::Payment { reference, .. }, Answer::GiftCardPayment(payment)) => {
            Some(Receipt::Payment {
                heading,
                taken: Money {
                    amount: payment.amount,
                    currency: payment.gift_card.currency.clone(),
                },
                balance_after: payment.balance_after,
                ticket: reference.clone(),
                card_end: last_four(payment.gift_card.id.as_str()),
            })
        }
        (Write::IssueGiftCard { .. }, Answer::GiftCard(issued)) => Some(Receipt::voucher(
            heading,
            Money {
                amount: issued.gift_card.initial_amount,
                currency: issued.gift_card.currency.clone(),
            },
            issued.gift_card.recipient_name.clone(),
            issued.gift_card.id.clone(),
        )),
        _ => None,
    }
}

/// Stores the receipt `item`'s answer prints, once per item (called in the transaction
/// that closes it as done).
pub(crate) fn record_answer(
    conn: &Connection,
    item: &OutboxItem,
    answer: &Answer,
    now: Timestamp,
) -> rusqlite::Result<Option<JobId>> {
    let served_by = match &item.made_by {
        crate::outbox::MadeBy::Person { name, .. } => Some(name.as_str()),
        _ => None,
    };
    let (heading, language) = heading(conn, now, served_by)?;
    match receipt_of(&item.write, answer, heading) {
        Some(receipt) => enqueue(conn, &receipt, language, Some(item.id), None, now),
        None => Ok(None),
    }
}

/// The oldest job waiting for the printer.
pub(crate) fn next_queued(conn: &Connection) -> rusqlite::Result<Option<Stored>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM print_jobs WHERE state = 'queued' ORDER BY id LIMIT 1"),
        [],
        stored,
    )
    .optional()
}

/// Jobs waiting for the printer.
pub(crate) fn queued(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row(
        "SELECT COUNT(*) FROM print_jobs WHERE state = 'queued'",
        [],
        |r| r.get(0),
    )
}

/// A job, with what it prints.
pub(crate) fn get(conn: &Connection, id: JobId) -> rusqlite::Result<Option<Stored>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM print_jobs WHERE id = ?1"),
        [id.0],
        stored,
    )
    .optional()
}

/// The job a write's answer made.
pub(crate) fn of_item(conn: &Connection, item: ItemId) -> rusqlite::Result<Option<JobId>> {
    conn.query_row(
        "SELECT id FROM print_jobs WHERE source_item = ?1",
        [item.0],
        |r| r.get(0).map(JobId),
    )
    .optional()
}

/// The newest jobs first.
pub(crate) fn list(conn: &Connection, limit: u32) -> rusqlite::Result<Vec<PrintJob>> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM print_jobs ORDER BY id DESC LIMIT ?1"
    ))?;
    statement
        .query_map([limit], |row| stored(row).map(|s| s.job))?
        .collect()
}

/// Every byte of the job reached the printer.
pub(crate) fn mark_printed(conn: &Connection, id: JobId, now: Timestamp) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE print_jobs SET state = 'printed', printed_at = ?2, last_error = NULL
         WHERE id = ?1 AND state = 'queued'",
        params![id.0, now.to_string()],
    )?;
    forget_badge_code(conn, id)
}

/// A badge's code, once on paper (or its job cancelled), is kept nowhere: the till
/// keeps only its digest, on the person's line.
fn forget_badge_code(conn: &Connection, id: JobId) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE print_jobs SET receipt = json_remove(receipt, '$.code')
         WHERE id = ?1 AND kind = 'badge' AND state IN ('printed', 'cancelled')",
        [id.0],
    )?;
    Ok(())
}

/// How long a voucher keeps its card's whole id once it is off the queue: the day it
/// was printed, for a manager to print again a voucher the paper jammed on. After that
/// a copy is a record, no card.
pub const VOUCHER_KEEPS_ITS_CARD: jiff::SignedDuration = jiff::SignedDuration::from_hours(24);

/// Takes the customer's name off every voucher and loyalty slip off the queue since
/// before `before` (the retention); who served stays. Answers how many.
pub(crate) fn redact(conn: &Connection, before: Timestamp) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE print_jobs SET receipt = json_replace(receipt, '$.recipient', NULL, '$.name', NULL),
                               redacted = 1
         WHERE redacted = 0 AND kind IN ('voucher', 'loyalty_slip') AND state != 'queued'
           AND coalesce(printed_at, created_at) < ?1",
        [before.to_string()],
    )
}

/// Forgets the whole gift-card id of every voucher off the queue (printed, cancelled,
/// or kept without a printer) since before `before`, keeping its last four characters.
/// Answers how many.
pub(crate) fn forget_cards(conn: &Connection, before: Timestamp) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE print_jobs
         SET receipt = json_set(json_remove(receipt, '$.gift_card'),
                                '$.card_end', substr(receipt ->> '$.gift_card', -4))
         WHERE kind = 'voucher' AND state != 'queued'
           AND receipt ->> '$.gift_card' IS NOT NULL
           AND coalesce(printed_at, created_at) < ?1",
        [before.to_string()],
    )
}

/// Some of the job's bytes left, then the printer stopped answering: it may have
/// printed, so it waits for a person ([`settle_unsure`]).
pub(crate) fn mark_unsure(conn: &Connection, id: JobId, error: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE print_jobs SET state = 'unsure', attempts = attempts + 1, last_error = ?2
         WHERE id = ?1 AND state = 'queued'",
        params![id.0, error],
    )?;
    Ok(())
}

/// A person's word on a job that may have printed: it did (`printed`), or it goes to
/// the printer again. False when the job was not waiting for that word.
pub(crate) fn settle_unsure(
    conn: &Connection,
    id: JobId,
    printed: bool,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let settled = if printed {
        conn.execute(
            "UPDATE print_jobs SET state = 'printed', printed_at = ?2, last_error = NULL
             WHERE id = ?1 AND state = 'unsure'",
            params![id.0, now.to_string()],
        )?
    } else {
        conn.execute(
            "UPDATE print_jobs SET state = 'queued' WHERE id = ?1 AND state = 'unsure'",
            [id.0],
        )?
    } == 1;
    if settled && printed {
        forget_badge_code(conn, id)?;
    }
    Ok(settled)
}

/// How many jobs may have printed and wait for a person's word.
pub(crate) fn unsure(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row(
        "SELECT COUNT(*) FROM print_jobs WHERE state = 'unsure'",
        [],
        |row| row.get(0),
    )
}

/// The connection failed before any of the job's bytes left: it goes again.
pub(crate) fn attempt_failed(conn: &Connection, id: JobId, error: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE print_jobs SET attempts = attempts + 1, last_error = ?2 WHERE id = ?1",
        params![id.0, error],
    )?;
    Ok(())
}

/// Takes a queued job off the queue; false when it was not queued.
pub(crate) fn cancel(conn: &Connection, id: JobId) -> rusqlite::Result<bool> {
    let cancelled = conn.execute(
        "UPDATE print_jobs SET state = 'cancelled' WHERE id = ?1 AND state = 'queued'",
        [id.0],
    )? == 1;
    forget_badge_code(conn, id)?;
    Ok(cancelled)
}
