//! The till's shifts at the counter: the one open now (any person opens it; the first
//! sign-in of the day is offered it), its X report at any time, its close with the Z
//! (a manager's), and the Zs sealed before, each with what was settled after its close.

use jiff::tz::TimeZone;

use super::*;
use crate::shifts::report::{Line, ReportRows};
use crate::shifts::{self, SealedZ, Shift};

for_the_ui! {
/// A shift, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShiftView {
    /// Its number among the till's shifts.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: i64,
    /// When it opened.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub opened_at: Timestamp,
    /// Who opened it.
    pub opened_by: String,
}
}

for_the_ui! {
/// Where the till's shifts stand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShiftStatus {
    /// The shift open now.
    pub open: Option<ShiftView>,
    /// Offer to open one: none is open, and none was opened since today began at
    /// this till (the first sign-in of the day).
    pub offer: bool,
    /// The last Z sealed, by its number.
    pub last_z: Option<u32>,
}
}

for_the_ui! {
/// An X report: the open shift's figures as they stand now. Nothing closes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct XReport {
    /// The shift.
    pub shift: ShiftView,
    /// When it was made.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub at: Timestamp,
    /// Its figures.
    pub rows: ReportRows,
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
    pub measure: Option<crate::shifts::report::Measure>,
    /// Its currency, for money.
    pub currency: Option<String>,
    /// Its amount (money or points).
    pub amount: Option<String>,
}
}

for_the_ui! {
/// A sealed Z, as its screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZView {
    /// Its number: per till, from 1, without gaps.
    pub number: u32,
    /// The till's name when it closed.
    pub till_name: String,
    /// The shift.
    pub shift: ShiftView,
    /// When it closed.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub closed_at: Timestamp,
    /// Who closed it.
    pub closed_by: String,
    /// Its figures.
    pub rows: ReportRows,
    /// Its SHA-256, as sealed.
    pub hash: String,
    /// What was settled after its close.
    pub addenda: Vec<Addendum>,
}
}

for_the_ui! {
/// A past Z, in the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZSummary {
    /// Its number.
    pub number: u32,
    /// When its shift opened.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub opened_at: Timestamp,
    /// When it closed.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub closed_at: Timestamp,
    /// Who closed it.
    pub closed_by: String,
    /// How many writes it counts.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub writes: u64,
    /// How many were settled after its close.
    pub addenda: u32,
}
}

/// How many past Zs the list shows, the newest first.
const Z_LIST: u32 = 100;

impl Counter {
    /// Where the till's shifts stand (every person's, for the status bar and the offer).
    pub fn shift_status(&self) -> Result<ShiftStatus, Error> {
        self.staff()?;
        self.permit(Action::ShiftStatus)?;
        let since = self.start_of_today();
        let (open, opened_today, last_z) = {
            let db = self.core.reader();
            (
                shifts::open_shift(&db)?,
                shifts::opened_since(&db, since)?,
                shifts::last_z(&db)?,
            )
        };
        Ok(ShiftStatus {
            offer: open.is_none() && !opened_today,
            open: open.map(|shift| self.shift_view(&shift)).transpose()?,
            last_z,
        })
    }

    /// Opens a shift (any person signed in); the one open stays the one.
    pub fn open_shift(&self) -> Result<ShiftView, Error> {
        self.owner()?;
        self.staff()?;
        let person = self.permit_as(Action::OpenShift)?;
        let shift = shifts::open(&self.core.db(), person, self.core.now())?;
        self.shift_view(&shift)
    }

    /// The X report of the open shift (a manager's).
    pub fn x_report(&self) -> Result<XReport, Error> {
        self.staff()?;
        self.permit(Action::XReport)?;
        let (shift, report) = {
            let db = self.core.db();
            let shift = shifts::open_shift(&db)?.ok_or(NotAllowed::NoShiftOpen)?;
            let (_, report) = shifts::x_report(&db, shift.id)?;
            (shift, report)
        };
        Ok(XReport {
            shift: self.shift_view(&shift)?,
            at: self.core.now(),
            rows: report.rows(),
        })
    }

    /// Closes the open shift and seals its Z (a manager's, or approved by one, who is
    /// then who closed it). `shift` is the one the manager saw: a shift closed already
    /// (a second press, a close answered twice) answers its Z and closes nothing.
    pub fn close_shift(&self, shift: i64) -> Result<ZView, Error> {
        self.owner()?;
        self.staff()?;
        let by = self.permit_as(Action::CloseShift)?;
        let name = crate::people::get(&self.core.reader(), by)?
            .map(|person| person.name)
            .unwrap_or_default();
        let sealed = {
            let mut db = self.core.db();
            shifts::close(&mut db, shift, &name, by, self.core.now()).map_err(|e| match e {
                shifts::CloseError::Db(e) => Error::from(e),
                shifts::CloseError::NoSuchShift(_) => NotAllowed::NoShiftOpen.into(),
            })?
        };
        tracing::info!(z = sealed.z.number, shift, "shift closed, its Z sealed");
        self.z_view(&sealed)
    }

    /// The past Zs, the newest first (a manager's).
    pub fn z_reports(&self) -> Result<Vec<ZSummary>, Error> {
        self.staff()?;
        self.permit(Action::ZReports)?;
        let db = self.core.reader();
        let Some(last) = shifts::last_z(&db)? else {
            return Ok(Vec::new());
        };
        let mut list = Vec::new();
        for number in (last.saturating_sub(Z_LIST) + 1..=last).rev() {
            if let Some(sealed) = shifts::sealed(&db, number)? {
                list.push(ZSummary {
                    number,
                    opened_at: sealed.z.opened_at,
                    closed_at: sealed.z.closed_at,
                    closed_by: sealed.z.closed_by.clone(),
                    writes: sealed.z.report.writes,
                    addenda: shifts::addenda(&db, &sealed.z)?.len() as u32,
                });
            }
        }
        Ok(list)
    }

    /// One past Z, with what was settled after its close (a manager's).
    pub fn z_report(&self, number: u32) -> Result<ZView, Error> {
        self.staff()?;
        self.permit(Action::ZReport)?;
        let sealed = shifts::sealed(&self.core.reader(), number)?;
        self.z_view(&sealed.ok_or(NotAllowed::NoSuchZ)?)
    }

    /// Writes Z `number` as CSV to `path`: one row per write (its person, till, shift,
    /// the service's record id), then the totals per currency and person, the
    /// addenda last (a manager's). Answers how many writes it holds.
    pub fn export_z(&self, number: u32, path: &Path) -> Result<usize, Error> {
        self.staff()?;
        self.permit(Action::ExportZ)?;
        let db = self.core.reader();
        let sealed = shifts::sealed(&db, number)?.ok_or(NotAllowed::NoSuchZ)?;
        let addenda = shifts::addenda(&db, &sealed.z)?;
        drop(db);
        let csv = crate::shifts::csv::of(&sealed, &addenda, &TimeZone::system());
        crate::private::write(path, csv.as_bytes()).map_err(Error::Export)?;
        Ok(sealed.z.lines.len())
    }

    fn shift_view(&self, shift: &Shift) -> Result<ShiftView, Error> {
        Ok(ShiftView {
            id: shift.id,
            opened_at: shift.opened_at,
            opened_by: crate::people::get(&self.core.reader(), shift.opened_by)?
                .map(|person| person.name)
                .unwrap_or_default(),
        })
    }

    fn z_view(&self, sealed: &SealedZ) -> Result<ZView, Error> {
        let z = &sealed.z;
        let addenda = shifts::addenda(&self.core.reader(), z)?;
        Ok(ZView {
            number: z.number,
            till_name: z.till_name.clone(),
            shift: ShiftView {
                id: z.shift,
                opened_at: z.opened_at,
                opened_by: z.opened_by.clone(),
            },
            closed_at: z.closed_at,
            closed_by: z.closed_by.clone(),
            rows: z.report.rows(),
            hash: sealed.hash.clone(),
            addenda: addenda.iter().zip(1..).map(addendum).collect(),
        })
    }
}

fn addendum((line, number): (&Line, u32)) -> Addendum {
    let measured = line.figure.measured();
    Addendum {
        number,
        item: line.item,
        person: line.person.clone(),
        measure: measured.as_ref().map(|m| m.measure),
        currency: measured.as_ref().and_then(|m| m.currency.clone()),
        amount: measured.and_then(|m| m.amount),
    }
}
