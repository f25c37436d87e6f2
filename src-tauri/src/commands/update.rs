//! Updates installed under the running app (`crate::update`).

use counter_core::update::PageAtRest;
use tauri::{AppHandle, State};

use crate::CommandError;
use crate::update::Updates;
use crate::views::UpdateState;

/// Whether an update waits; the page says how it is (a dialog open, something typed,
/// when it was last touched), and when the counter is between customers the till
/// restarts into the update (the answer says so, just before).
#[tauri::command]
pub async fn update_moment(
    app: AppHandle,
    updates: State<'_, Updates>,
    page: PageAtRest,
) -> Result<UpdateState, CommandError> {
    Ok(updates.moment(&app, page).await)
}
