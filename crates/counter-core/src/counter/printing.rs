//! Receipts at the counter: the printer a manager sets up, the receipts a cashier
//! prints or prints again, their previews, and the task that prints the queue.

use jiff::tz::TimeZone;

use super::*;
use crate::print_jobs::{self, JobId, PrintJob};
use crate::receipts::{
    self, Language, Paper, PrinterReport, PrinterSetup, PrinterState, Receipt, device,
};

/// How long the printer task waits before asking a printer that could not print again.
const RETRY: Duration = Duration::from_secs(2);
/// The most receipts the Receipts screen lists.
const LISTED: u32 = 200;

impl Counter {
    /// The printer set up at this till, if any.
    pub fn printer(&self) -> Result<Option<PrinterSetup>, Error> {
        self.staff()?;
        Ok(self.settings()?.printer)
    }

    /// Sets up the receipt printer (a manager's), or none. Receipts waiting for a
    /// printer go to this one.
    pub fn set_printer(&self, setup: Option<PrinterSetup>) -> Result<(), Error> {
        self.staff()?;
        let setup = setup
            .map(|s| -> Result<PrinterSetup, Error> {
                Ok(PrinterSetup {
                    address: s.address.checked()?,
                    paper: s.paper,
                })
            })
            .transpose()?;
        self.permit(Action::SetPrinter)?;
        self.change_settings(|saved| saved.printer = setup)?;
        self.core.printer.wake.notify_one();
        Ok(())
    }

    /// The printer's state, asked now, and the receipts waiting for it.
    pub async fn printer_report(&self) -> Result<PrinterReport, Error> {
        self.staff()?;
        let state = match self.settings()?.printer {
            Some(setup) => device::state(&setup.address).await,
            None => PrinterState::NotSetUp,
        };
        set_printer_state(&self.core, state);
        report(&self.core)
    }

    /// Prints a test page (a manager's, from Settings).
    pub fn print_test(&self) -> Result<JobId, Error> {
        self.staff()?;
        self.permit(Action::PrintTest)?;
        self.print(false, |heading| Receipt::Test { heading })
    }

    /// Prints a loyalty slip of `card`: the customer's progress to their reward, as
    /// this till knows it (its pass read now when the till has not yet).
    pub async fn print_slip(&self, card: &CardId) -> Result<JobId, Error> {
        self.staff()?;
        input::card(card)?;
        self.printer_set_up()?;
        let known = self
            .cached_card(card)?
            .ok_or(NotAllowed::NotACardOfThisBusiness)?;
        if self.progress(&known.card).is_none() {
            let _ = tokio::time::timeout(
                self.core.config.interactive_wait,
                self.learn_pass(&known.card.pass_id),
            )
            .await;
        }
        let progress = self.progress(&known.card);
        self.print(true, |heading| Receipt::LoyaltySlip {
            heading,
            name: known.customer.and_then(|c| c.name),
            progress,
            card_end: receipts::last_four(card.as_str()),
        })
    }

    /// Prints `job`'s receipt again, as a new job.
    pub fn reprint(&self, job: JobId) -> Result<JobId, Error> {
        self.staff()?;
        let stored = print_jobs::get(&self.core.db(), job)?.ok_or(Error::NoSuchReceipt)?;
        self.printer_set_up()?;
        let printing = self.reprinting_action(job)?;
        self.permit(printing)?;
        let receipt = if printing == Action::PrintKept {
            stored.receipt
        } else {
            stored.receipt.into_copy()
        };
        let db = self.core.db();
        let id = print_jobs::enqueue(
            &db,
            &receipt,
            stored.language,
            None,
            Some(job),
            self.core.now(),
        )?
        .ok_or(Error::NoSuchReceipt)?;
        drop(db);
        self.printing_changed();
        Ok(id)
    }

    /// A person's word on a receipt that may have printed (the printer stopped
    /// answering halfway): it did (`printed`), or it goes to the printer again, as it
    /// was (a voucher's or a badge's again is a manager's, as a copy is).
    pub fn settle_print(&self, job: JobId, printed: bool) -> Result<(), Error> {
        self.staff()?;
        let stored = print_jobs::get(&self.core.db(), job)?.ok_or(Error::NoSuchReceipt)?;
        self.permit(settling(&stored, printed))?;
        let settled = print_jobs::settle_unsure(&self.core.db(), job, printed, self.core.now())?;
        if !settled {
            return Err(NotAllowed::NotUnsure.into());
        }
        self.printing_changed();
        Ok(())
    }

    /// What printing `job` again is, for the role table: a receipt kept while no printer
    /// was set up prints a first time as anyone's ([`Action::PrintKept`]); any print
    /// after that is a copy, and a manager's (a voucher's copy is a card).
    pub(super) fn reprinting_action(&self, job: JobId) -> Result<Action, Error> {
        Ok(if print_jobs::never_printed(&self.core.reader(), job)? {
            Action::PrintKept
        } else {
            Action::Reprint
        })
    }

    /// What settling `job` with `printed` is, for the role table.
    pub(super) fn settling_action(&self, job: JobId, printed: bool) -> Result<Action, Error> {
        let stored = print_jobs::get(&self.core.reader(), job)?.ok_or(Error::NoSuchReceipt)?;
        Ok(settling(&stored, printed))
    }

    /// Takes a receipt off the printer's queue unprinted (a manager's: a printer gone
    /// for good).
    pub fn cancel_print(&self, job: JobId) -> Result<(), Error> {
        self.staff()?;
        print_jobs::get(&self.core.db(), job)?.ok_or(Error::NoSuchReceipt)?;
        self.permit(Action::CancelPrint)?;
        if !print_jobs::cancel(&self.core.db(), job)? {
            return Err(NotAllowed::NotWaitingToPrint.into());
        }
        self.printing_changed();
        Ok(())
    }

    /// The receipts of this till, newest first.
    pub fn receipts(&self) -> Result<Vec<PrintJob>, Error> {
        self.staff()?;
        Ok(print_jobs::list(&self.core.db(), LISTED)?)
    }

    /// The receipt a write's answer made (a payment's, a voucher), if any.
    pub fn receipt_of(&self, item: ItemId) -> Result<Option<JobId>, Error> {
        self.staff()?;
        outcome_state(&self.core, item)?;
        Ok(print_jobs::of_item(&self.core.db(), item)?)
    }

    /// `job`'s receipt laid out as it prints on this till's paper.
    pub fn receipt_preview(&self, job: JobId) -> Result<receipts::Preview, Error> {
        self.staff()?;
        let stored = print_jobs::get(&self.core.db(), job)?.ok_or(Error::NoSuchReceipt)?;
        let paper = self
            .settings()?
            .printer
            .map_or(Paper::default(), |p| p.paper);
        Ok(stored
            .receipt
            .preview(paper, stored.language, &TimeZone::system()))
    }

    /// Tells the core the language the till speaks: receipts print in it.
    pub fn set_language(&self, language: Language) -> Result<(), Error> {
        self.staff()?;
        let code = match language {
            Language::En => "en",
            Language::Fr => "fr",
        };
        if self.settings()?.language.as_deref() != Some(code) {
            self.change_settings(|saved| saved.language = Some(code.to_owned()))?;
        }
        Ok(())
    }

    fn printer_set_up(&self) -> Result<(), Error> {
        match self.settings()?.printer {
            Some(_) => Ok(()),
            None => Err(NotAllowed::NoPrinter.into()),
        }
    }

    /// Stores a receipt made now for the printer set up here; with `says_who`, it says
    /// who served (a loyalty slip; not a test print or a badge).
    pub(super) fn print(
        &self,
        says_who: bool,
        receipt: impl FnOnce(receipts::Heading) -> Receipt,
    ) -> Result<JobId, Error> {
        self.printer_set_up()?;
        let db = self.core.db();
        let server = match self.author() {
            Ok(person) if says_who => crate::people::get(&db, person)?,
            _ => None,
        };
        let served_by = server.as_ref().map(|p| p.name.as_str());
        let (heading, language) = print_jobs::heading(&db, self.core.now(), served_by)?;
        let id = print_jobs::enqueue(
            &db,
            &receipt(heading),
            language,
            None,
            None,
            self.core.now(),
        )?
        .ok_or(Error::NoSuchReceipt)?;
        drop(db);
        self.printing_changed();
        Ok(id)
    }

    fn printing_changed(&self) {
        self.core.printer.wake.notify_one();
        if let Ok(report) = report(&self.core) {
            tell(&self.core, report);
        }
    }
}

/// Settling a job that may have printed: printing a voucher or a badge again is a
/// manager's (each is a card), anything else anyone's.
fn settling(stored: &print_jobs::Stored, printed: bool) -> Action {
    match stored.receipt.kind() {
        receipts::ReceiptKind::Voucher | receipts::ReceiptKind::Badge if !printed => {
            Action::Reprint
        }
        _ => Action::SettlePrint,
    }
}

/// Tells the screens the printer's state and the receipts waiting, and keeps it as what
/// they were told.
fn tell(core: &Core, report: PrinterReport) {
    *core.printer.told.lock().unwrap_or_else(|p| p.into_inner()) = Some(report);
    core.events.publish(Event::Printer(report));
}

fn report(core: &Core) -> Result<PrinterReport, Error> {
    let db = core.db();
    Ok(PrinterReport::new(
        *core.printer.state.lock().unwrap_or_else(|p| p.into_inner()),
        print_jobs::queued(&db)?,
        print_jobs::unsure(&db)?,
    ))
}

/// Keeps the printer's state, and tells the screens when it, or the count of receipts
/// waiting, is not what they were told (a receipt stored while the printer cannot
/// print changes only the count).
fn set_printer_state(core: &Core, state: PrinterState) {
    *core.printer.state.lock().unwrap_or_else(|p| p.into_inner()) = state;
    let Ok(report) = report(core) else {
        return;
    };
    let told = *core.printer.told.lock().unwrap_or_else(|p| p.into_inner());
    if told != Some(report) {
        tell(core, report);
    }
}

/// The printer task: prints the queue, oldest first, each job once, while the printer
/// says it can print; asks again every [`RETRY`] while jobs wait and it cannot.
pub(crate) async fn run_printer(core: Arc<Core>) {
    loop {
        let waited = match print_next(&core).await {
            Ok(Next::Printed) => {
                if let Ok(report) = report(&core) {
                    tell(&core, report);
                }
                continue;
            }
            Ok(Next::Idle) => None,
            Ok(Next::Retry) => Some(RETRY),
            Err(err) => {
                tracing::warn!(%err, "the print queue could not be read");
                Some(RETRY)
            }
        };
        match waited {
            Some(wait) => {
                let _ = tokio::time::timeout(wait, core.printer.wake.notified()).await;
            }
            None => core.printer.wake.notified().await,
        }
    }
}

enum Next {
    Printed,
    Idle,
    Retry,
}

async fn print_next(core: &Core) -> Result<Next, Error> {
    let (setup, job) = {
        let db = core.db();
        (settings::load(&db)?.printer, print_jobs::next_queued(&db)?)
    };
    let Some(setup) = setup else {
        set_printer_state(core, PrinterState::NotSetUp);
        return Ok(Next::Idle);
    };
    let Some(job) = job else {
        return Ok(Next::Idle);
    };
    let lines = job
        .receipt
        .lay_out(setup.paper, job.language, &TimeZone::system());
    let bytes = receipts::escpos::encode(&lines);
    Ok(match device::print(&setup.address, &bytes).await {
        device::Sent::Printed(state) => {
            print_jobs::mark_printed(&core.db(), job.job.id, core.now())?;
            // Ready, or its paper nearly out: what it said before this job.
            set_printer_state(core, state);
            tracing::info!(job = job.job.id.0, "receipt printed");
            Next::Printed
        }
        device::Sent::NotNow(state) => {
            set_printer_state(core, state);
            Next::Retry
        }
        device::Sent::Unsure(error) => {
            print_jobs::mark_unsure(&core.db(), job.job.id, &error)?;
            set_printer_state(core, PrinterState::Unreachable);
            tracing::warn!(job = job.job.id.0, %error, "the receipt may have printed: it waits for a person's word");
            Next::Retry
        }
        device::Sent::Failed(state, error) => {
            print_jobs::attempt_failed(&core.db(), job.job.id, &error)?;
            set_printer_state(core, state);
            tracing::info!(job = job.job.id.0, %error, "the receipt will be sent again");
            Next::Retry
        }
    })
}
