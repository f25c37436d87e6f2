//! The wedge scanner's keyboard layout (a manager's setting).

use counter_core::keys::KeyboardLayout;
use tauri::State;

use crate::CommandError;
use crate::till::Till;

/// The keyboard layout the wedge scanner was set up for.
#[tauri::command]
pub async fn scanner_layout(till: State<'_, Till>) -> Result<KeyboardLayout, CommandError> {
    Ok(till.session().await.counter.scanner_layout()?)
}

/// Sets the keyboard layout the wedge scanner was set up for (a manager's).
#[tauri::command]
pub async fn set_scanner_layout(
    till: State<'_, Till>,
    layout: KeyboardLayout,
) -> Result<(), CommandError> {
    Ok(till.session().await.counter.set_scanner_layout(layout)?)
}
