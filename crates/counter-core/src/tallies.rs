//! A shift's report as plain data: its rows (what the screen, the paper and the CSV's
//! totals show, the same everywhere), what the service's records said of its writes,
//! and the writes settled after its close. Made by [`crate::shifts`], shown by the
//! shell and laid out on paper by [`crate::receipts`].

use serde::{Deserialize, Serialize};

for_the_ui! {
/// What a row of a report counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Gift-card payments taken (a currency's).
    Payments,
    /// Gift cards issued (a currency's).
    Issued,
    /// Loyalty visits.
    Visits,
    /// Points added.
    PointsAdded,
    /// Points deducted.
    PointsDeducted,
    /// Rewards redeemed.
    Rewards,
    /// Customers enrolled.
    Enrolments,
}
}

for_the_ui! {
/// A count and, for money and points, its sum: exact, in the currency's units (`12.50`)
/// or in points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportCell {
    /// How many writes.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub count: u64,
    /// Their sum (None: a count alone, as visits are).
    pub sum: Option<String>,
}
}

for_the_ui! {
/// One row of a report as the screen, the paper and the CSV's totals show it: the same
/// rows, in the same order, everywhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRow {
    /// What it counts.
    pub measure: Measure,
    /// Its currency, for money.
    pub currency: Option<String>,
    /// Confirmed by the service.
    pub confirmed: ReportCell,
    /// Still waiting in the queue.
    pub waiting: ReportCell,
    /// Refused, or waiting for a decision.
    pub refused_or_decision: ReportCell,
    /// Withdrawn before they were sent (payments only).
    pub withdrawn: Option<ReportCell>,
}
}

for_the_ui! {
/// One person's rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportPerson {
    /// Who (a name, or the kiosk).
    pub person: String,
    /// Their rows.
    pub rows: Vec<ReportRow>,
}
}

for_the_ui! {
/// A report laid out in rows: in all, then per person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRows {
    /// How many writes the report counts.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub writes: u64,
    /// Every write's.
    pub all: Vec<ReportRow>,
    /// Each person's, in the order of their names.
    pub people: Vec<ReportPerson>,
}
}

for_the_ui! {
/// Which value of a write the service's record holds otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Checked {
    /// The amount (money or points).
    Amount,
    /// The payment's reference (the ticket number).
    Reference,
    /// The currency.
    Currency,
}
}

for_the_ui! {
/// What the service's records say of one confirmed write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Check {
    /// The service's record says what the till's does.
    Matched,
    /// The service holds no record of it.
    Missing,
    /// The service's record says otherwise.
    Different {
        /// What differs.
        what: Checked,
        /// The till's value.
        till: String,
        /// The service's.
        service: String,
    },
    /// The service keeps no record of this kind a till can read (a reward redeemed):
    /// nothing to check it against.
    NoRecordToCheck,
    /// The card's ledger as the service shows it (its newest entries only) ends before
    /// this payment: it cannot be checked there.
    NotShown,
}
}

for_the_ui! {
/// Where a Z's check stands: how many of its confirmed writes match, how many the
/// service keeps no record of, each difference, and how many are not yet checked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckSummary {
    /// Confirmed writes the service's records match.
    pub matched: u32,
    /// Confirmed writes of a kind the service keeps no record of.
    pub no_record: u32,
    /// Payments older than the newest entries the service shows of their card.
    pub not_shown: u32,
    /// Confirmed writes not yet checked (the service was out of reach).
    pub unchecked: u32,
    /// Each write missing at the service, or different there.
    pub differences: Vec<Difference>,
}
}

for_the_ui! {
/// One write the service's records do not match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The write's number in the till's queue.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub item: i64,
    /// Who made it.
    pub person: String,
    /// What the service said of it.
    pub check: Check,
}
}

for_the_ui! {
/// A write settled after its shift closed, added to that shift's Z ("settled after
/// the close"): the Z itself never changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Addendum {
    /// Its number among the Z's addenda, from 1.
    pub number: u32,
    /// The write's number in the till's queue.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub item: i64,
    /// Who made it.
    pub person: String,
    /// What it counts for, with its currency and sum.
    pub measure: Option<Measure>,
    /// Its currency, for money.
    pub currency: Option<String>,
    /// Its amount (money or points).
    pub amount: Option<String>,
}
}
