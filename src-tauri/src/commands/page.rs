//! What the page is told: the core's events and its camera's sights, asked for by a call
//! the page keeps open (`crate::mailbox`).

use tauri::{State, Window};

use crate::CommandError;
use crate::mailbox::{Mailboxes, PageEvent};

/// What waits for this window's page, as soon as anything does (empty when a newer call
/// from the window took over).
#[tauri::command]
pub async fn page_events(
    window: Window,
    mailboxes: State<'_, Mailboxes>,
) -> Result<Vec<PageEvent>, CommandError> {
    Ok(mailboxes.next(window.label()).await)
}
