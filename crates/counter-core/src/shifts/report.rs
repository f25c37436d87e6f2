//! The one computation behind an X report (at any time; nothing closes) and a Z report
//! (at a shift's close): a shift's writes, each a [`Line`], summed per person and in
//! all, per currency, each figure in three columns.

use std::collections::BTreeMap;

use jiff::Timestamp;
use loyalty_api::ScanAction;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::outbox::{ItemState, MadeBy, OutboxItem, Resolution, Write};
use crate::views::Answer;

pub use crate::tallies::{Measure, ReportCell, ReportPerson, ReportRow, ReportRows};

/// What one write counts for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Figure {
    /// A gift-card payment taken, in exact minor units.
    Payment {
        /// Its currency.
        currency: String,
        /// Its amount.
        minor: i64,
    },
    /// A gift card issued, in exact minor units.
    Issued {
        /// Its currency.
        currency: String,
        /// Its amount.
        minor: i64,
    },
    /// A loyalty visit.
    Visit,
    /// Points added.
    PointsAdded {
        /// How many.
        points: Decimal,
    },
    /// Points deducted.
    PointsDeducted {
        /// How many.
        points: Decimal,
    },
    /// A reward redeemed.
    Reward,
    /// A customer enrolled.
    Enrolment,
    /// A message to customers (or a kind of scan this build does not know): counted by
    /// no figure.
    Uncounted,
}

impl Figure {
    /// What `write` counts for.
    pub fn of(write: &Write) -> Self {
        match write {
            Write::Payment {
                amount_minor,
                currency,
                ..
            } => Figure::Payment {
                currency: currency.as_str().to_owned(),
                minor: amount_minor.get(),
            },
            Write::IssueGiftCard {
                amount, currency, ..
            } => Figure::Issued {
                currency: currency.as_str().to_owned(),
                minor: crate::payment::to_minor(*amount, currency)
                    .map_or(0, loyalty_api::MinorUnits::get),
            },
            Write::Scan { action, amount, .. } => match action {
                ScanAction::Visit => Figure::Visit,
                ScanAction::Redeem => Figure::Reward,
                ScanAction::Other => Figure::Uncounted,
                ScanAction::Points => {
                    let points = amount.unwrap_or_default();
                    if points.is_sign_negative() {
                        Figure::PointsDeducted { points: -points }
                    } else {
                        Figure::PointsAdded { points }
                    }
                }
            },
            Write::Enrol { .. } => Figure::Enrolment,
            Write::ConfirmBroadcast { .. } | Write::CancelBroadcast { .. } => Figure::Uncounted,
        }
    }
}

/// What a report's rows count a write under, with its currency and its amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measured {
    /// Its row.
    pub measure: Measure,
    /// Its currency, for money.
    pub currency: Option<String>,
    /// Its amount: money in the currency's units (`12.50`), or points.
    pub amount: Option<String>,
}

impl Figure {
    /// What the rows count it under (None: counted by no row).
    pub fn measured(&self) -> Option<Measured> {
        let (measure, currency, amount) = match self {
            Figure::Payment { currency, minor } => (
                Measure::Payments,
                Some(currency.clone()),
                Some(money(currency, *minor)),
            ),
            Figure::Issued { currency, minor } => (
                Measure::Issued,
                Some(currency.clone()),
                Some(money(currency, *minor)),
            ),
            Figure::Visit => (Measure::Visits, None, None),
            Figure::PointsAdded { points } => (
                Measure::PointsAdded,
                None,
                Some(points.normalize().to_string()),
            ),
            Figure::PointsDeducted { points } => (
                Measure::PointsDeducted,
                None,
                Some(points.normalize().to_string()),
            ),
            Figure::Reward => (Measure::Rewards, None, None),
            Figure::Enrolment => (Measure::Enrolments, None, None),
            Figure::Uncounted => return None,
        };
        Some(Measured {
            measure,
            currency,
            amount,
        })
    }
}

/// `minor` units of `currency` in its units, exactly (`1250` EUR is `12.50`).
pub fn money(currency: &str, minor: i64) -> String {
    match loyalty_api::Currency::new(currency) {
        Ok(currency) => {
            crate::payment::to_decimal(loyalty_api::MinorUnits::new(minor), &currency).to_string()
        }
        Err(_) => minor.to_string(),
    }
}

/// Where a write stood when the report was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    /// Accepted by the service.
    Confirmed,
    /// Still in the queue.
    Waiting,
    /// Refused by the service, or waiting for a person's decision.
    RefusedOrDecision,
    /// Withdrawn by a person before it was ever sent.
    Withdrawn,
}

impl Column {
    /// Where `item` stands now.
    pub fn of(item: &OutboxItem) -> Self {
        match item.state {
            ItemState::Done => Column::Confirmed,
            ItemState::Queued | ItemState::Sending => Column::Waiting,
            ItemState::NeedsDecision => Column::RefusedOrDecision,
            ItemState::Refused => match &item.resolution {
                Some(Resolution::Discarded { .. }) if item.may_have_arrived_at.is_none() => {
                    Column::Withdrawn
                }
                _ => Column::RefusedOrDecision,
            },
        }
    }
}

/// One write of a shift, as a report counts it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The write's number in the till's queue.
    pub item: i64,
    /// When it was made.
    pub at: Timestamp,
    /// Who made it: a person's id on this till (None: a customer at the kiosk, or a
    /// write from before staff seats).
    pub person_id: Option<i64>,
    /// Who made it, as the report names them.
    pub person: String,
    /// What it counts for.
    pub figure: Figure,
    /// Where it stood.
    pub column: Column,
    /// The service's record of it, once confirmed.
    pub record: Option<String>,
}

/// Whom a write without a person is counted under.
pub const KIOSK: &str = "Kiosk";
/// Writes from before the till had staff seats.
pub const BEFORE_SEATS: &str = "This till";

impl Line {
    /// `item` as it stands now.
    pub fn of(item: &OutboxItem) -> Self {
        let (person_id, person) = match &item.made_by {
            MadeBy::Person { id, name } => (Some(id.0), name.clone()),
            MadeBy::Kiosk => (None, KIOSK.to_owned()),
            MadeBy::BeforeStaffSeats => (None, BEFORE_SEATS.to_owned()),
        };
        let column = Column::of(item);
        Self {
            item: item.id.0,
            at: item.created_at,
            person_id,
            person,
            figure: Figure::of(&item.write),
            column,
            record: (column == Column::Confirmed)
                .then(|| item.answer.as_ref().and_then(record_of))
                .flatten(),
        }
    }
}

/// The service's id of what an answer confirms.
fn record_of(answer: &Answer) -> Option<String> {
    match answer {
        Answer::GiftCardPayment(payment) => Some(payment.id.as_str().to_owned()),
        // A gift card's id is its money: its last four, as everywhere it is kept.
        Answer::GiftCard(issued) => Some(crate::kept::shown(issued.gift_card.id.as_str())),
        Answer::Customer(customer) => Some(customer.id.as_str().to_owned()),
        Answer::Broadcast(message) => Some(message.id.as_str().to_owned()),
        Answer::ScanResult(_) => None,
    }
}

/// A count and a sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally<T> {
    /// How many writes.
    pub count: u64,
    /// Their sum (minor units, or points).
    pub sum: T,
}

impl<T: std::ops::AddAssign> Tally<T> {
    fn add(&mut self, amount: T) {
        self.count += 1;
        self.sum += amount;
    }
}

/// A figure in its three columns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Columns<T> {
    /// Confirmed by the service.
    pub confirmed: T,
    /// Still waiting in the queue.
    pub waiting: T,
    /// Refused, or waiting for a decision.
    pub refused_or_decision: T,
}

impl<T: Default> Columns<Tally<T>>
where
    T: std::ops::AddAssign,
{
    fn add(&mut self, column: Column, amount: T) {
        match column {
            Column::Confirmed => self.confirmed.add(amount),
            Column::Waiting => self.waiting.add(amount),
            Column::RefusedOrDecision => self.refused_or_decision.add(amount),
            // Counted apart (payments), or not at all.
            Column::Withdrawn => {}
        }
    }
}

/// The money of one currency.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Money {
    /// Gift-card payments taken.
    pub payments: Columns<Tally<i64>>,
    /// Gift cards issued.
    pub issued: Columns<Tally<i64>>,
    /// Payments withdrawn before they were sent.
    pub withdrawn: Tally<i64>,
}

/// The loyalty figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loyalty {
    /// Visits.
    pub visits: Columns<Tally<u64>>,
    /// Points added.
    pub points_added: Columns<Tally<Decimal>>,
    /// Points deducted.
    pub points_deducted: Columns<Tally<Decimal>>,
    /// Rewards redeemed.
    pub rewards: Columns<Tally<u64>>,
    /// Customers enrolled.
    pub enrolments: Columns<Tally<u64>>,
}

/// Every figure of some writes: the money per currency, and the loyalty figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    /// Per currency (ISO code).
    pub money: BTreeMap<String, Money>,
    /// Loyalty.
    pub loyalty: Loyalty,
}

impl Figures {
    fn add(&mut self, line: &Line) {
        let column = line.column;
        match &line.figure {
            Figure::Payment { currency, minor } => {
                let money = self.money.entry(currency.clone()).or_default();
                if column == Column::Withdrawn {
                    money.withdrawn.add(*minor);
                } else {
                    money.payments.add(column, *minor);
                }
            }
            Figure::Issued { currency, minor } => {
                self.money
                    .entry(currency.clone())
                    .or_default()
                    .issued
                    .add(column, *minor);
            }
            Figure::Visit => self.loyalty.visits.add(column, 1),
            Figure::PointsAdded { points } => self.loyalty.points_added.add(column, *points),
            Figure::PointsDeducted { points } => {
                self.loyalty.points_deducted.add(column, *points);
            }
            Figure::Reward => self.loyalty.rewards.add(column, 1),
            Figure::Enrolment => self.loyalty.enrolments.add(column, 1),
            Figure::Uncounted => {}
        }
    }
}

/// A shift's figures: in all, and per person (in the order of their names).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Every write of the shift.
    pub all: Figures,
    /// Each person's.
    pub people: BTreeMap<String, Figures>,
    /// How many writes.
    pub writes: u64,
}

impl Report {
    /// The figures of `lines`: the one computation of an X and a Z.
    pub fn of(lines: &[Line]) -> Self {
        let mut report = Report::default();
        for line in lines {
            report.all.add(line);
            report
                .people
                .entry(line.person.clone())
                .or_default()
                .add(line);
            report.writes += 1;
        }
        report
    }
}

impl Report {
    /// Its rows: the money of each currency (payments, then cards issued), then the
    /// loyalty figures (every one, zero too: a bookkeeper reads that none were made).
    pub fn rows(&self) -> ReportRows {
        ReportRows {
            writes: self.writes,
            all: self.all.rows(),
            people: self
                .people
                .iter()
                .map(|(person, figures)| ReportPerson {
                    person: person.clone(),
                    rows: figures.rows(),
                })
                .collect(),
        }
    }
}

impl Figures {
    fn rows(&self) -> Vec<ReportRow> {
        let mut rows = Vec::new();
        for (code, money) in &self.money {
            let amount = |tally: &Tally<i64>| ReportCell {
                count: tally.count,
                sum: Some(self::money(code, tally.sum)),
            };
            let row =
                |measure, columns: &Columns<Tally<i64>>, withdrawn: Option<ReportCell>| ReportRow {
                    measure,
                    currency: Some(code.clone()),
                    confirmed: amount(&columns.confirmed),
                    waiting: amount(&columns.waiting),
                    refused_or_decision: amount(&columns.refused_or_decision),
                    withdrawn,
                };
            rows.push(row(
                Measure::Payments,
                &money.payments,
                Some(amount(&money.withdrawn)),
            ));
            rows.push(row(Measure::Issued, &money.issued, None));
        }
        let count = |tally: &Tally<u64>| ReportCell {
            count: tally.count,
            sum: None,
        };
        let points = |tally: &Tally<Decimal>| ReportCell {
            count: tally.count,
            sum: Some(tally.sum.normalize().to_string()),
        };
        let loyalty = &self.loyalty;
        let counted = |measure, columns: &Columns<Tally<u64>>| ReportRow {
            measure,
            currency: None,
            confirmed: count(&columns.confirmed),
            waiting: count(&columns.waiting),
            refused_or_decision: count(&columns.refused_or_decision),
            withdrawn: None,
        };
        let summed = |measure, columns: &Columns<Tally<Decimal>>| ReportRow {
            measure,
            currency: None,
            confirmed: points(&columns.confirmed),
            waiting: points(&columns.waiting),
            refused_or_decision: points(&columns.refused_or_decision),
            withdrawn: None,
        };
        rows.extend([
            counted(Measure::Visits, &loyalty.visits),
            summed(Measure::PointsAdded, &loyalty.points_added),
            summed(Measure::PointsDeducted, &loyalty.points_deducted),
            counted(Measure::Rewards, &loyalty.rewards),
            counted(Measure::Enrolments, &loyalty.enrolments),
        ]);
        rows
    }
}
