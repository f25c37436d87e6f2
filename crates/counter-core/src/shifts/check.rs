//! A shift's writes checked against the service's own records: each confirmed write is
//! matched, missing at the service, or different (with both values); a kind of write
//! the service keeps no listable record of (a reward redeemed is no scan in
//! `GET /v1/scans`) is said so, never "matched". What is found is kept per write
//! (`checks`), beside the sealed Z: a check made after the close (the service was out
//! of reach then) is shown with the Z, which itself never changes.
//!
//! This module holds the rules and the records; `counter::shift_check` reads the
//! service, paced under its rate limits.

use std::collections::{BTreeMap, HashSet};

use jiff::{SignedDuration, Timestamp};
use loyalty_api::{GiftCardTransaction, Scan, ScanAction, ScanKind};
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;

use crate::db::ts;

pub use crate::tallies::{Check, CheckSummary, Checked, Difference};

/// Keeps what was found of `item`; a write is checked once (the first finding stays).
pub fn record(conn: &Connection, item: i64, check: &Check, now: Timestamp) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO checks (item, result, checked_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (item) DO NOTHING",
        params![
            item,
            serde_json::to_string(check).expect("a check serializes"),
            ts(now)
        ],
    )?;
    Ok(())
}

/// What was found of each checked write of shift `shift`, by its number.
pub fn of_shift(conn: &Connection, shift: i64) -> rusqlite::Result<BTreeMap<i64, Check>> {
    let mut statement = conn.prepare_cached(
        "SELECT c.item, c.result FROM checks c JOIN outbox o ON o.id = c.item
         WHERE o.shift = ?1",
    )?;
    let rows = statement.query_map([shift], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut found = BTreeMap::new();
    for row in rows {
        let (item, result) = row?;
        if let Ok(check) = serde_json::from_str(&result) {
            found.insert(item, check);
        }
    }
    Ok(found)
}

/// What was found of `item`, if it was checked.
pub fn of_item(conn: &Connection, item: i64) -> rusqlite::Result<Option<Check>> {
    let result: Option<String> = conn
        .query_row("SELECT result FROM checks WHERE item = ?1", [item], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(result.and_then(|r| serde_json::from_str(&r).ok()))
}

/// How far apart the till's and the service's clocks may put one scan.
pub const SCAN_WINDOW: SignedDuration = SignedDuration::from_mins(15);

/// A payment of `amount` with `reference`, answered with the id `payment`, against
/// its card's ledger: the entry with its id, else a spend of the same amount and
/// reference not yet matched to another payment (`used`).
pub fn payment(
    payment: &str,
    amount: Decimal,
    reference: Option<&str>,
    ledger: &[GiftCardTransaction],
    more: bool,
    used: &mut HashSet<String>,
) -> Check {
    let spends = || {
        ledger.iter().filter(|t| {
            t.kind == loyalty_api::TransactionType::Spend && !used.contains(t.id.as_str())
        })
    };
    let found = ledger
        .iter()
        .find(|t| t.id.as_str() == payment)
        .or_else(|| spends().find(|t| t.amount == amount && t.reference.as_deref() == reference))
        .or_else(|| {
            spends().find(|t| t.reference.is_some() && t.reference.as_deref() == reference)
        });
    let Some(found) = found else {
        return if more {
            Check::NotShown
        } else {
            Check::Missing
        };
    };
    used.insert(found.id.as_str().to_owned());
    if found.amount != amount {
        Check::Different {
            what: Checked::Amount,
            till: amount.normalize().to_string(),
            service: found.amount.normalize().to_string(),
        }
    } else if found.reference.as_deref() != reference {
        Check::Different {
            what: Checked::Reference,
            till: reference.unwrap_or_default().to_owned(),
            service: found.reference.clone().unwrap_or_default(),
        }
    } else {
        Check::Matched
    }
}

/// A gift card issued for `amount` in `currency`, against the card the service holds.
pub fn issued(amount: Decimal, currency: &str, card: Option<&loyalty_api::GiftCard>) -> Check {
    let Some(card) = card else {
        return Check::Missing;
    };
    if card.currency.as_str() != currency {
        Check::Different {
            what: Checked::Currency,
            till: currency.to_owned(),
            service: card.currency.as_str().to_owned(),
        }
    } else if card.initial_amount != amount {
        Check::Different {
            what: Checked::Amount,
            till: amount.normalize().to_string(),
            service: card.initial_amount.normalize().to_string(),
        }
    } else {
        Check::Matched
    }
}

/// A loyalty scan the service answered for `customer` at `answered_at`, against the
/// service's list of scans: the nearest in time of the same customer and kind not yet
/// matched (`used`), within [`SCAN_WINDOW`]. A reward redeemed is no scan there.
pub fn scan(
    action: ScanAction,
    points: Decimal,
    customer: &str,
    answered_at: Timestamp,
    listed: &[Scan],
    used: &mut HashSet<String>,
) -> Check {
    let kind = match action {
        ScanAction::Visit => ScanKind::Visit,
        ScanAction::Points => ScanKind::Points,
        ScanAction::Redeem | ScanAction::Other => return Check::NoRecordToCheck,
    };
    let distance = |s: &Scan| s.created_at.duration_since(answered_at).abs();
    let nearest = listed
        .iter()
        .filter(|s| {
            s.customer_id.as_str() == customer
                && s.kind == kind
                && !used.contains(s.id.as_str())
                && distance(s) <= SCAN_WINDOW
        })
        .min_by_key(|s| (s.amount.abs() != points.abs(), distance(s)));
    let Some(found) = nearest else {
        return Check::Missing;
    };
    used.insert(found.id.as_str().to_owned());
    if kind == ScanKind::Points && found.amount.abs() != points.abs() {
        Check::Different {
            what: Checked::Amount,
            till: points.normalize().to_string(),
            service: found.amount.normalize().to_string(),
        }
    } else {
        Check::Matched
    }
}

impl CheckSummary {
    /// The summary of `lines` (a Z's writes, and those settled after its close) with
    /// what was found of each (`checks`): only confirmed writes are checked.
    pub fn of<'a>(
        lines: impl IntoIterator<Item = &'a super::report::Line>,
        checks: &BTreeMap<i64, Check>,
    ) -> Self {
        let mut summary = CheckSummary::default();
        for line in lines {
            let counted = line.figure != super::report::Figure::Uncounted;
            let confirmed =
                line.record.is_some() || line.column == super::report::Column::Confirmed;
            if !counted || !confirmed {
                continue;
            }
            match checks.get(&line.item) {
                None => summary.unchecked += 1,
                Some(Check::Matched) => summary.matched += 1,
                Some(Check::NoRecordToCheck) => summary.no_record += 1,
                Some(Check::NotShown) => summary.not_shown += 1,
                Some(check) => summary.differences.push(Difference {
                    item: line.item,
                    person: line.person.clone(),
                    check: check.clone(),
                }),
            }
        }
        summary
    }
}
