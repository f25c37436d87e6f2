//! The customer's screen: what it shows (its window's one command), the counter going
//! idle, and where a manager puts it.

use counter_core::{CustomerDisplay, CustomerScreen};
use tauri::{AppHandle, State};

use crate::CommandError;
use crate::customer::{self, MonitorView};
use crate::strict::Strict;
use crate::till::Till;

/// What the customer's screen shows now (its window's first paint; events follow).
#[tauri::command]
pub async fn customer_screen(till: State<'_, Till>) -> Result<CustomerScreen, CommandError> {
    Ok(till.session().await.counter.customer_screen()?)
}

/// The counter shows nothing any more: the customer's screen welcomes the next one.
#[tauri::command]
pub async fn counter_idle(till: State<'_, Till>) -> Result<(), CommandError> {
    Ok(till.session().await.counter.counter_idle()?)
}

/// The computer's monitors, for the customer's screen.
#[tauri::command]
pub async fn monitors(app: AppHandle) -> Result<Vec<MonitorView>, CommandError> {
    Ok(customer::monitors(&app))
}

/// Where the customer's screen is, when it is on.
#[tauri::command]
pub async fn customer_display(
    till: State<'_, Till>,
) -> Result<Option<CustomerDisplay>, CommandError> {
    Ok(till.session().await.counter.customer_display()?)
}

/// Turns the customer's screen on, on a monitor, or off (a manager's); the window
/// follows at once.
#[tauri::command]
pub async fn set_customer_display(
    app: AppHandle,
    till: State<'_, Till>,
    display: Option<Strict<CustomerDisplay>>,
) -> Result<(), CommandError> {
    let session = till.session().await;
    session.counter.set_customer_display(display.map(|d| d.0))?;
    let kept = session.counter.customer_display()?;
    customer::follow(&app, kept.map(|d| d.monitor));
    Ok(())
}
