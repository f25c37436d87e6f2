//! Receipts: the printer, printing, printing again, the previews, and the till's
//! language that receipts print in. Thin adapters: the core decides, and asks for the
//! manager where setting up or cancelling needs one.

use counter_core::ItemId;
use counter_core::print_jobs::{JobId, PrintJob};
use counter_core::receipts::{Language, Preview, PrinterReport, PrinterSetup};
use loyalty_api::CardId;
use tauri::State;

use crate::CommandError;
use crate::strict::Strict;
use crate::till::Till;

/// The printer set up at this till, if any.
#[tauri::command]
pub async fn printer(till: State<'_, Till>) -> Result<Option<PrinterSetup>, CommandError> {
    Ok(till.session().await.counter.printer()?)
}

/// Sets up the receipt printer, or none (a manager's).
#[tauri::command]
pub async fn set_printer(
    till: State<'_, Till>,
    setup: Option<Strict<PrinterSetup>>,
) -> Result<(), CommandError> {
    Ok(till
        .session()
        .await
        .counter
        .set_printer(setup.map(|s| s.0))?)
}

/// The printer's state, asked now, and the receipts waiting for it.
#[tauri::command]
pub async fn printer_report(till: State<'_, Till>) -> Result<PrinterReport, CommandError> {
    Ok(till.session().await.counter.printer_report().await?)
}

/// Prints a test page (a manager's).
#[tauri::command]
pub async fn print_test(till: State<'_, Till>) -> Result<JobId, CommandError> {
    Ok(till.session().await.counter.print_test()?)
}

/// Prints a loyalty card's slip: the customer's progress to their reward.
#[tauri::command]
pub async fn print_slip(till: State<'_, Till>, card: CardId) -> Result<JobId, CommandError> {
    Ok(till.session().await.counter.print_slip(&card).await?)
}

/// Prints a receipt again.
#[tauri::command]
pub async fn reprint(till: State<'_, Till>, job: JobId) -> Result<JobId, CommandError> {
    Ok(till.session().await.counter.reprint(job)?)
}

/// A person's word on a receipt that may have printed: it did, or print it again.
#[tauri::command]
pub async fn settle_print(
    till: State<'_, Till>,
    job: JobId,
    printed: bool,
) -> Result<(), CommandError> {
    Ok(till.session().await.counter.settle_print(job, printed)?)
}

/// Takes a receipt off the printer's queue unprinted (a manager's).
#[tauri::command]
pub async fn cancel_print(till: State<'_, Till>, job: JobId) -> Result<(), CommandError> {
    Ok(till.session().await.counter.cancel_print(job)?)
}

/// This till's receipts, newest first.
#[tauri::command]
pub async fn receipts(till: State<'_, Till>) -> Result<Vec<PrintJob>, CommandError> {
    Ok(till.session().await.counter.receipts()?)
}

/// The receipt a write's answer made (a payment's, a voucher), if any.
#[tauri::command]
pub async fn receipt_of(
    till: State<'_, Till>,
    item: ItemId,
) -> Result<Option<JobId>, CommandError> {
    Ok(till.session().await.counter.receipt_of(item)?)
}

/// A receipt laid out as it prints.
#[tauri::command]
pub async fn receipt_preview(till: State<'_, Till>, job: JobId) -> Result<Preview, CommandError> {
    Ok(till.session().await.counter.receipt_preview(job)?)
}

/// The language the till speaks (receipts print in it).
#[tauri::command]
pub async fn set_till_language(
    till: State<'_, Till>,
    language: Language,
) -> Result<(), CommandError> {
    Ok(till.session().await.counter.set_language(language)?)
}
