//! A Z for the books, as CSV: one row per write of the shift (its person, the till, the
//! shift, where it stood at the close, the service's record id), then the rows settled
//! after the close, then the totals of every column, in all and per person, per
//! currency: the rows the screen and the paper show. The first column says which of
//! the three a row is.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

use std::collections::BTreeMap;

use super::SealedZ;
use super::check::Check;
use super::report::{Column, Line, ReportCell, ReportRow};

/// Who the totals of every write are under.
pub const EVERYONE: &str = "All";

/// The CSV of `sealed` and its `addenda`; times in UTC and in `zone` (the till's).
pub fn of(
    sealed: &SealedZ,
    addenda: &[Line],
    checks: &BTreeMap<i64, Check>,
    zone: &TimeZone,
) -> String {
    let z = &sealed.z;
    let mut out = csv::Writer::from_writer(Vec::new());
    let base = Row {
        line: "",
        z: z.number,
        till: z.till.clone(),
        till_name: z.till_name.clone(),
        shift: z.shift,
        item: None,
        at_utc: String::new(),
        local_time: String::new(),
        person: String::new(),
        measure: String::new(),
        currency: String::new(),
        amount: String::new(),
        count: None,
        column: String::new(),
        record_id: String::new(),
        check: String::new(),
        z_hash: sealed.hash.clone(),
    };
    let mut rows = Vec::new();
    for (kind, lines) in [("write", &z.lines[..]), ("addendum", addenda)] {
        for line in lines {
            rows.push(base.write(kind, line, checks.get(&line.item), zone));
        }
    }
    let report = z.report.rows();
    let everyone = std::iter::once((EVERYONE, &report.all));
    let people = report.people.iter().map(|p| (p.person.as_str(), &p.rows));
    for (person, report_rows) in everyone.chain(people) {
        for row in report_rows {
            rows.extend(base.totals(person, row));
        }
    }
    for row in rows {
        // Rows of text and numbers written to memory: nothing can fail.
        out.serialize(row).expect("a row of text serializes");
    }
    let bytes = out.into_inner().expect("memory takes every byte");
    String::from_utf8(bytes).expect("rows of text are UTF-8")
}

/// One row of the export.
#[derive(Debug, Clone, Serialize)]
struct Row {
    /// `write`, `addendum` (settled after the close) or `total`.
    line: &'static str,
    z: u32,
    till: String,
    till_name: String,
    shift: i64,
    item: Option<i64>,
    at_utc: String,
    local_time: String,
    person: String,
    measure: String,
    currency: String,
    amount: String,
    count: Option<u64>,
    column: String,
    record_id: String,
    check: String,
    z_hash: String,
}

impl Row {
    fn write(
        &self,
        kind: &'static str,
        line: &Line,
        check: Option<&Check>,
        zone: &TimeZone,
    ) -> Row {
        let measured = line.figure.measured();
        Row {
            line: kind,
            item: Some(line.item),
            at_utc: utc(line.at),
            local_time: line.at.to_zoned(zone.clone()).strftime("%F %T").to_string(),
            person: line.person.clone(),
            measure: measured
                .as_ref()
                .map(|m| name(&m.measure))
                .unwrap_or_default(),
            currency: measured
                .as_ref()
                .and_then(|m| m.currency.clone())
                .unwrap_or_default(),
            amount: measured.and_then(|m| m.amount).unwrap_or_default(),
            count: Some(1),
            column: name(&line.column),
            record_id: line.record.clone().unwrap_or_default(),
            check: checked(line, check),
            ..self.clone()
        }
    }

    /// A row's columns as total lines (the empty ones left out).
    fn totals(&self, person: &str, row: &ReportRow) -> Vec<Row> {
        let columns = [
            ("confirmed", Some(&row.confirmed)),
            ("waiting", Some(&row.waiting)),
            ("refused_or_decision", Some(&row.refused_or_decision)),
            ("withdrawn", row.withdrawn.as_ref()),
        ];
        columns
            .into_iter()
            .filter_map(|(column, cell)| Some((column, cell?)))
            .filter(|(_, cell)| cell.count > 0)
            .map(|(column, cell): (&str, &ReportCell)| Row {
                line: "total",
                person: person.to_owned(),
                measure: name(&row.measure),
                currency: row.currency.clone().unwrap_or_default(),
                amount: cell.sum.clone().unwrap_or_default(),
                count: Some(cell.count),
                column: column.to_owned(),
                ..self.clone()
            })
            .collect()
    }
}

/// What the service's records say of a write, in one cell: `matched`, `missing`,
/// `different: amount 12.50 (service 1.25)`, `no_record_to_check`, `not_checked`; empty
/// for a write the service never confirmed.
fn checked(line: &Line, check: Option<&Check>) -> String {
    if line.column != Column::Confirmed && line.record.is_none() {
        return String::new();
    }
    match check {
        None => "not_checked".into(),
        Some(Check::Different {
            what,
            till,
            service,
        }) => format!("different: {} {till} (service {service})", name(what)),
        Some(Check::Matched) => "matched".into(),
        Some(Check::Missing) => "missing".into(),
        Some(Check::NoRecordToCheck) => "no_record_to_check".into(),
        Some(Check::NotShown) => "not_shown_by_the_service".into(),
    }
}

fn utc(at: Timestamp) -> String {
    at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A value's name as the JSON says it (`points_added`).
fn name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
