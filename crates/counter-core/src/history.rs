//! The queue's history: every write this till made, for a chosen period of days and a
//! state, and its export as CSV (one row per write, with its Idempotency-Key, outcome
//! and Request-Id) for the shop's records and for support. A row never holds the API
//! key nor a message's confirmation token: only what the write was and what came of it.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, Unit, Zoned};
use serde::Serialize;

use crate::outbox::{OutboxItem, Resolution, Write};

/// The longest period read or exported at once, in days (both ends included).
pub const MAX_DAYS: u32 = 366;

/// The instants a period of days covers in `zone`: from the start of `from` to the
/// start of the day after `to` (a day of 23 or 25 hours stays one day).
pub fn instants(
    from: Date,
    to: Date,
    zone: &TimeZone,
) -> Result<(Timestamp, Timestamp), jiff::Error> {
    let start = from.to_zoned(zone.clone())?.timestamp();
    let end = to.tomorrow()?.to_zoned(zone.clone())?.timestamp();
    Ok((start, end))
}

/// How a gift card's id is written in the export: its whole id is its money.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardIds {
    /// The last four characters, as everywhere a person reads it.
    LastFour,
    /// Whole, when a manager asks (to match the service's records by hand).
    Whole,
}

/// The CSV of `items`, a header first; times in UTC and in `zone` (the till's).
pub fn to_csv(items: &[OutboxItem], zone: &TimeZone, ids: CardIds) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    for item in items {
        // Rows of text and numbers written to memory: nothing can fail.
        out.serialize(Row::of(item, zone, ids))
            .expect("a row of text serializes");
    }
    let bytes = out.into_inner().expect("memory takes every byte");
    String::from_utf8(bytes).expect("rows of text are UTF-8")
}

/// One write, as a row of the export.
#[derive(Debug, Serialize)]
struct Row {
    item: i64,
    created_at: String,
    local_time: String,
    kind: &'static str,
    action: String,
    target: String,
    amount: String,
    currency: String,
    name: String,
    email: String,
    reference: String,
    idempotency_key: String,
    made_by: String,
    state: &'static str,
    outcome: String,
    request_id: String,
    attempts: u32,
    closed_at: String,
    note: String,
}

impl Row {
    fn of(item: &OutboxItem, zone: &TimeZone, ids: CardIds) -> Self {
        let mut row = Row {
            item: item.id.0,
            created_at: utc(item.created_at),
            local_time: local(item.created_at, zone),
            kind: item.write.kind().as_str(),
            action: String::new(),
            target: String::new(),
            amount: String::new(),
            currency: String::new(),
            name: String::new(),
            email: String::new(),
            reference: String::new(),
            idempotency_key: item.idempotency_key.clone(),
            made_by: cell(item.made_by.name()),
            state: item.state.as_str(),
            outcome: outcome(item),
            request_id: item
                .request_id
                .clone()
                .or_else(|| item.refusal.as_ref().and_then(|r| r.request_id.clone()))
                .unwrap_or_default(),
            attempts: item.attempts,
            closed_at: item.closed_at.map(utc).unwrap_or_default(),
            note: cell(&note(item)),
        };
        match &item.write {
            Write::Scan {
                card_id,
                action,
                amount,
                ..
            } => {
                row.action = action.as_str().to_owned();
                row.target = card_id.as_str().to_owned();
                row.amount = amount.map(|a| a.to_string()).unwrap_or_default();
            }
            Write::Payment {
                gift_card_id,
                amount_minor,
                currency,
                reference,
            } => {
                row.target = match ids {
                    CardIds::LastFour => crate::receipts::last_four(gift_card_id.as_str()),
                    CardIds::Whole => gift_card_id.as_str().to_owned(),
                };
                row.amount = crate::payment::to_decimal(*amount_minor, currency).to_string();
                row.currency = currency.to_string();
                row.reference = cell(reference.as_deref().unwrap_or_default());
            }
            Write::Enrol {
                pass_id,
                name,
                email,
                ..
            } => {
                row.target = pass_id.as_str().to_owned();
                row.name = cell(name);
                row.email = cell(email);
            }
            Write::IssueGiftCard {
                amount,
                currency,
                recipient_name,
                recipient_email,
                ..
            } => {
                row.amount = amount.to_string();
                row.currency = currency.to_string();
                row.name = cell(recipient_name);
                row.email = cell(recipient_email);
            }
            Write::ConfirmBroadcast { pass_id, title, .. } => {
                row.target = pass_id.as_str().to_owned();
                row.name = cell(title);
            }
            Write::CancelBroadcast { broadcast_id } => {
                row.target = broadcast_id.as_str().to_owned();
            }
        }
        row
    }
}

/// What came of it, in words a support person searches for.
fn outcome(item: &OutboxItem) -> String {
    match (&item.resolution, &item.refusal, &item.reason) {
        (Some(Resolution::Discarded { .. }), ..) => "discarded".into(),
        (Some(Resolution::RepeatConfirmed { replacement }), ..) => {
            format!("replaced by item {}", replacement.0)
        }
        (None, Some(refusal), _) => format!("refused: {}", refusal.code),
        (None, None, Some(reason)) => format!("needs a decision: {reason}"),
        _ if item.answer.is_some() && item.replayed => "done (replayed answer)".into(),
        _ if item.answer.is_some() => "done".into(),
        _ => item.state.as_str().into(),
    }
}

fn note(item: &OutboxItem) -> String {
    match (&item.resolution, &item.refusal) {
        (Some(Resolution::Discarded { note }), _) => note.clone(),
        (None, Some(refusal)) => refusal.detail.clone().unwrap_or_default(),
        _ => String::new(),
    }
}

fn utc(at: Timestamp) -> String {
    at.round(Unit::Millisecond).unwrap_or(at).to_string()
}

fn local(at: Timestamp, zone: &TimeZone) -> String {
    Zoned::new(at, zone.clone())
        .strftime("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// Text a person typed, made safe for a spreadsheet: a cell that begins like a
/// formula (`=`, `+`, `-`, `@`, a tab or a return) is kept as text with a leading `'`.
/// Quoting (commas, quotes, line breaks) is the CSV writer's.
fn cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_covers_whole_local_days_even_across_a_clock_change() {
        // Paris's rule, written out: no time-zone database needed.
        let paris = TimeZone::posix("CET-1CEST,M3.5.0,M10.5.0/3").unwrap();
        // 25 October 2026: the clocks go back, a day of 25 hours.
        let (from, to) = instants(
            Date::constant(2026, 10, 25),
            Date::constant(2026, 10, 25),
            &paris,
        )
        .unwrap();
        assert_eq!(from.to_string(), "2026-10-24T22:00:00Z");
        assert_eq!(to.to_string(), "2026-10-25T23:00:00Z");
    }

    #[test]
    fn text_that_looks_like_a_formula_stays_text() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(cell("-5"), "'-5");
        assert_eq!(cell("Ada, \"the\" first"), "Ada, \"the\" first");
    }
}
