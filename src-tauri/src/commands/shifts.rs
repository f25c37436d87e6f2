//! The till's shifts: where they stand, opening one, the open shift's X report, the
//! close that seals its Z, and the Zs sealed before (on screen and as CSV). Thin
//! adapters: the core decides who may.

use counter_core::{ShiftStatus, ShiftView, XReport, ZSummary, ZView};
use tauri::State;

use crate::CommandError;
use crate::till::Till;

/// Where the till's shifts stand: the one open, and whether to offer one.
#[tauri::command]
pub async fn shift_status(till: State<'_, Till>) -> Result<ShiftStatus, CommandError> {
    Ok(till.session().await.counter.shift_status()?)
}

/// Opens a shift (the one open stays the one).
#[tauri::command]
pub async fn open_shift(till: State<'_, Till>) -> Result<ShiftView, CommandError> {
    Ok(till.session().await.counter.open_shift()?)
}

/// The open shift's figures as they stand now: nothing closes.
#[tauri::command]
pub async fn x_report(till: State<'_, Till>) -> Result<XReport, CommandError> {
    Ok(till.session().await.counter.x_report()?)
}

/// Closes shift `shift` and seals its Z; a shift closed already answers its Z.
#[tauri::command]
pub async fn close_shift(till: State<'_, Till>, shift: i64) -> Result<ZView, CommandError> {
    Ok(till.session().await.counter.close_shift(shift).await?)
}

/// The past Zs, the newest first.
#[tauri::command]
pub async fn z_reports(till: State<'_, Till>) -> Result<Vec<ZSummary>, CommandError> {
    Ok(till.session().await.counter.z_reports()?)
}

/// Z `number`, with what was settled after its close.
#[tauri::command]
pub async fn z_report(till: State<'_, Till>, number: u32) -> Result<ZView, CommandError> {
    Ok(till.session().await.counter.z_report(number).await?)
}

/// Writes Z `number` as CSV to `path`, a `.csv` file the manager chose in the system's
/// save dialog; answers how many writes it holds.
#[tauri::command]
pub async fn export_z(
    till: State<'_, Till>,
    number: u32,
    path: String,
) -> Result<usize, CommandError> {
    let path = super::chosen_file(&path, "csv", super::Chosen::ToWrite)?;
    Ok(till.session().await.counter.export_z(number, &path)?)
}

/// Prints Z `number` again, with what was settled after its close.
#[tauri::command]
pub async fn print_z(
    till: State<'_, Till>,
    number: u32,
) -> Result<counter_core::print_jobs::JobId, CommandError> {
    Ok(till.session().await.counter.print_z(number)?)
}
