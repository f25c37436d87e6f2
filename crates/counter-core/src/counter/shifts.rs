//! The till's shifts at the counter: the one open now (any person opens it; the first
//! sign-in of the day is offered it), its X report at any time, its close with the Z
//! (a manager's), and the Zs sealed before, each with what was settled after its close.

use jiff::tz::TimeZone;

use super::*;
use crate::print_jobs::JobId;
use crate::receipts::{self, Receipt};
use crate::shifts::check::{self, CheckSummary};
use crate::shifts::report::{Line, ReportRows};
use crate::shifts::{self, SealedZ, Shift, XTaken};
use crate::tallies::Addendum;

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
    /// The X reports taken during the open shift.
    pub xs: Vec<XTaken>,
}
}

for_the_ui! {
/// An X report: the open shift's figures as they stand now. Nothing closes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct XReport {
    /// Its number within the shift, from 1.
    pub number: u32,
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
    /// What the service's records say of its confirmed writes, as checked so far.
    pub check: CheckSummary,
    /// The X reports taken during its shift.
    pub xs: Vec<XTaken>,
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

/// How long a close waits for the shift's check before it seals the Z.
pub const CHECK_BEFORE_SEALING: Duration = Duration::from_secs(10);

/// How long opening a Z waits for its writes not yet checked.
const CHECK_ON_OPENING: Duration = Duration::from_secs(5);

/// How many past Zs the list shows, the newest first.
const Z_LIST: u32 = 100;

impl Counter {
    /// Where the till's shifts stand (every person's, for the status bar and the offer).
    pub fn shift_status(&self) -> Result<ShiftStatus, Error> {
        self.staff()?;
        self.permit(Action::ShiftStatus)?;
        let since = self.start_of_today();
        let (open, opened_today, last_z, xs) = {
            let db = self.core.reader();
            let open = shifts::open_shift(&db)?;
            let xs = match &open {
                Some(shift) => shifts::xs_taken(&db, shift.id)?,
                None => Vec::new(),
            };
            (
                open,
                shifts::opened_since(&db, since)?,
                shifts::last_z(&db)?,
                xs,
            )
        };
        Ok(ShiftStatus {
            xs,
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
        let by = self.permit_as(Action::XReport)?;
        let now = self.core.now();
        let (shift, report, number) = {
            let db = self.core.db();
            let shift = shifts::open_shift(&db)?.ok_or(NotAllowed::NoShiftOpen)?;
            let (_, report) = shifts::x_report(&db, shift.id)?;
            let number = shifts::note_x(&db, shift.id, now, Some(by), report.writes)?;
            (shift, report, number)
        };
        Ok(XReport {
            number,
            shift: self.shift_view(&shift)?,
            at: now,
            rows: report.rows(),
        })
    }

    /// Closes the open shift and seals its Z (a manager's, or approved by one, who is
    /// then who closed it). `shift` is the one the manager saw: a shift closed already
    /// (a second press, a close answered twice) answers its Z and closes nothing.
    /// Before sealing, the shift's confirmed writes are checked against the service's
    /// records, for [`CHECK_BEFORE_SEALING`] at most: what is not checked by then (the
    /// service out of reach) is checked later, and shown with the Z.
    pub async fn close_shift(&self, shift: i64) -> Result<ZView, Error> {
        self.owner()?;
        self.staff()?;
        let by = self.permit_as(Action::CloseShift)?;
        let open =
            shifts::shift(&self.core.reader(), shift)?.is_some_and(|s| s.closed_at.is_none());
        if open {
            let checking = shift_check::check_shift(&self.core, shift);
            match tokio::time::timeout(CHECK_BEFORE_SEALING, checking).await {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => tracing::warn!(%error, "the shift's check failed; the Z says so"),
                Err(_) => tracing::info!("the shift's check took too long; it goes on later"),
            }
        }
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
        let view = self.z_view(&sealed)?;
        // On paper at once where a printer is set up: a Z that does not print is still
        // sealed, and prints again from the Shifts screen.
        match self.print(false, |heading| z_receipt(heading, &view)) {
            Ok(_) | Err(Error::NotAllowed(NotAllowed::NoPrinter)) => {}
            Err(error) => tracing::warn!(%error, "the Z could not be sent to the printer"),
        }
        Ok(view)
    }

    /// Prints Z `number` again, with what was settled after its close (a manager's).
    pub fn print_z(&self, number: u32) -> Result<JobId, Error> {
        self.staff()?;
        self.permit(Action::PrintZ)?;
        let sealed = shifts::sealed(&self.core.reader(), number)?;
        let view = self.z_view(&sealed.ok_or(NotAllowed::NoSuchZ)?)?;
        self.print(false, |heading| z_receipt(heading, &view))
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
    /// Its writes not yet checked are checked first, for a few seconds at most.
    pub async fn z_report(&self, number: u32) -> Result<ZView, Error> {
        self.staff()?;
        self.permit(Action::ZReport)?;
        let sealed = shifts::sealed(&self.core.reader(), number)?;
        let sealed = sealed.ok_or(NotAllowed::NoSuchZ)?;
        let view = self.z_view(&sealed)?;
        if view.check.unchecked == 0 {
            return Ok(view);
        }
        let checking = shift_check::check_shift(&self.core, sealed.z.shift);
        match tokio::time::timeout(CHECK_ON_OPENING, checking).await {
            Ok(Ok(0)) => Ok(view),
            _ => self.z_view(&sealed),
        }
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
        let checks = check::of_shift(&db, sealed.z.shift)?;
        drop(db);
        let csv = crate::shifts::csv::of(&sealed, &addenda, &checks, &TimeZone::system());
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
        let (addenda, checks, xs) = {
            let db = self.core.reader();
            (
                shifts::addenda(&db, z)?,
                check::of_shift(&db, z.shift)?,
                shifts::xs_taken(&db, z.shift)?,
            )
        };
        let check = CheckSummary::of(z.lines.iter().chain(&addenda), &checks);
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
            check,
            xs,
        })
    }
}

/// The Z on paper: what its screen shows.
fn z_receipt(heading: receipts::Heading, z: &ZView) -> Receipt {
    Receipt::ZReport {
        heading,
        z: Box::new(receipts::ZSlip {
            number: z.number,
            till_name: z.till_name.clone(),
            shift: z.shift.id,
            opened_at: z.shift.opened_at,
            opened_by: z.shift.opened_by.clone(),
            closed_at: z.closed_at,
            closed_by: z.closed_by.clone(),
            rows: z.rows.clone(),
            addenda: z.addenda.clone(),
            check: z.check.clone(),
            hash: z.hash.clone(),
        }),
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
