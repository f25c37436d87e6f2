//! The manager's commands: the PIN, gift cards issued, figures, lists, messages, the
//! queue's history and its export, the till's places, the kiosk and the demo's samples.
//! Thin adapters like the rest: the core decides, and asks for the manager.

use counter_core::ids::PersonId;
use counter_core::keys::KeyPress;
use counter_core::outbox::ItemState;
use counter_core::pin::PinStatus;
use counter_core::{IssueChoices, PinFor};
use tauri::State;

use super::ConnectionView;
use crate::CommandError;
use crate::kiosk::{Kiosk, KioskStatus};
use crate::strict::Strict;
use crate::till::Till;

use counter_core::Outcome;

use crate::views::{Issued, QueueItemView, SentMessage};

/// The most writes the history screen lists at once (the export has them all).
const HISTORY_ROWS: u32 = 1000;

/// Where a PIN stands (`person`'s, or the only one who may give it now): set or not,
/// tries left, locked until when, who may give it.
#[tauri::command]
pub async fn pin_status(
    till: State<'_, Till>,
    person: Option<PersonId>,
) -> Result<PinStatus, CommandError> {
    Ok(till.session().await.counter.pin_status(person)?)
}

/// Sets the first PIN, the owner's (4 to 8 digits), and signs the owner in.
#[tauri::command]
pub async fn set_pin(
    till: State<'_, Till>,
    pin: String,
    opens: PinFor,
) -> Result<(), CommandError> {
    Ok(till.session().await.counter.set_pin(&pin, opens)?)
}

/// A manager's PIN (wrong tries lock it, per person): a right one approves the one call
/// waiting for it, or opens a manager's visit to the manager's screens. `person` is who
/// typed it, unless only one person may.
#[tauri::command]
pub async fn check_pin(
    till: State<'_, Till>,
    person: Option<PersonId>,
    pin: String,
    opens: PinFor,
) -> Result<(), CommandError> {
    Ok(till
        .session()
        .await
        .counter
        .check_pin(person, &pin, opens)?)
}

/// A manager's badge scanned at a cashier's screen: as a right PIN (see `check_pin`).
#[tauri::command]
pub async fn approve_with_badge(
    till: State<'_, Till>,
    code: String,
    opens: PinFor,
) -> Result<(), CommandError> {
    let badge = counter_core::Credential::Badge { code };
    Ok(till.session().await.counter.approve(&badge, opens)?)
}

/// The manager left the manager's screens: the PIN is asked again next time.
#[tauri::command]
pub async fn manager_leaves(till: State<'_, Till>) -> Result<(), CommandError> {
    till.session().await.counter.manager_leaves();
    Ok(())
}

/// Changes one's own PIN, the old one first.
#[tauri::command]
pub async fn change_pin(
    till: State<'_, Till>,
    old: String,
    new: String,
) -> Result<(), CommandError> {
    Ok(till.session().await.counter.change_pin(&old, &new)?)
}

/// What the form that issues a gift card offers: currencies (the usual one first) and
/// the email's languages.
#[tauri::command]
pub async fn issue_choices(till: State<'_, Till>) -> Result<IssueChoices, CommandError> {
    Ok(till.session().await.counter.issue_choices().await?)
}

/// Issues a gift card (a manager's; checked whole before anything is stored).
#[tauri::command]
pub async fn issue_gift_card(
    till: State<'_, Till>,
    issue: Strict<counter_core::GiftCardIssue>,
) -> Result<Outcome<Issued>, CommandError> {
    let session = till.session().await;
    let outcome = session.counter.issue_gift_card(issue.0).await?;
    Ok(outcome.map(Issued::from, |never| never))
}

/// The business's figures for a period, beside the period of the same length before.
#[tauri::command]
pub async fn figures(
    till: State<'_, Till>,
    period: Strict<counter_core::FiguresPeriod>,
) -> Result<counter_core::Figures, CommandError> {
    let session = till.session().await;
    Ok(session.counter.figures(&period.0).await?)
}

/// A page of one of the manager's lists (customers, scans, locations, referrals, gift
/// cards, webhook endpoints): the first, or the one after `cursor`.
#[tauri::command]
pub async fn browse(
    till: State<'_, Till>,
    query: Strict<counter_core::BrowseQuery>,
    cursor: Option<String>,
) -> Result<counter_core::BrowsePage, CommandError> {
    let session = till.session().await;
    Ok(session.counter.browse(&query.0, cursor.as_deref()).await?)
}

/// Cards to tap in the built-in demo, where a newcomer has none to scan; never with a
/// key of a real business.
#[tauri::command]
pub async fn demo_samples(till: State<'_, Till>) -> Result<counter_core::Samples, CommandError> {
    let session = till.session().await;
    if !session.is_demo() {
        return Err(counter_core::Error::from(counter_core::NotAllowed::NotInTheDemo).into());
    }
    Ok(session.counter.samples().await?)
}

/// Puts the demo business back to its first state (a manager's, from the demo only).
#[tauri::command]
pub async fn reset_demo(till: State<'_, Till>) -> Result<ConnectionView, CommandError> {
    let connection = till.reset_demo().await?;
    Ok(ConnectionView::new(connection, true))
}

/// The business's passes and locations, and the ones this till uses.
#[tauri::command]
pub async fn till_places(till: State<'_, Till>) -> Result<counter_core::TillPlaces, CommandError> {
    Ok(till.session().await.counter.till_places().await?)
}

/// Keeps the pass and location this till uses (a manager's).
#[tauri::command]
pub async fn set_till_places(
    till: State<'_, Till>,
    pass_id: Option<String>,
    location_id: Option<String>,
) -> Result<(), CommandError> {
    let session = till.session().await;
    Ok(session
        .counter
        .set_till_places(pass_id.as_deref(), location_id.as_deref())
        .await?)
}

/// Previews a message to card holders (a manager's): who would receive it, the quota.
#[tauri::command]
pub async fn preview_message(
    till: State<'_, Till>,
    draft: Strict<counter_core::MessageDraft>,
) -> Result<counter_core::MessagePreview, CommandError> {
    let session = till.session().await;
    Ok(session.counter.preview_message(&draft.0).await?)
}

/// Sends a previewed message, exactly as previewed (a manager's).
#[tauri::command]
pub async fn send_message(
    till: State<'_, Till>,
    preview: u32,
) -> Result<Outcome<SentMessage>, CommandError> {
    let session = till.session().await;
    let outcome = session.counter.send_message(preview).await?;
    Ok(outcome.map(SentMessage::from, |never| never))
}

/// The messages this till scheduled for later, with where each stands.
#[tauri::command]
pub async fn scheduled_messages(
    till: State<'_, Till>,
) -> Result<Vec<counter_core::ScheduledMessage>, CommandError> {
    Ok(till.session().await.counter.scheduled_messages()?)
}

/// Cancels a message this till scheduled (a manager's).
#[tauri::command]
pub async fn cancel_message(
    till: State<'_, Till>,
    id: String,
) -> Result<Outcome<SentMessage>, CommandError> {
    let session = till.session().await;
    let outcome = session.counter.cancel_message(&id).await?;
    Ok(outcome.map(SentMessage::from, |never| never))
}

/// Turns the kiosk on or off (a manager's, both ways).
#[tauri::command]
pub async fn set_kiosk(
    app: tauri::AppHandle,
    till: State<'_, Till>,
    kiosk: State<'_, Kiosk>,
    on: bool,
) -> Result<KioskStatus, CommandError> {
    let session = till.session().await;
    session.counter.set_kiosk(on)?;
    session.counter.manager_leaves();
    Ok(kiosk.apply(&app, on))
}

/// A customer checks in at the kiosk with their own card: one visit, never a repeat.
/// `keys`: the keys the scanner sent, read through its layout (a till whose keyboard
/// has another layout types something else).
#[tauri::command]
pub async fn check_in(
    till: State<'_, Till>,
    input: String,
    keys: Option<Strict<Vec<KeyPress>>>,
) -> Result<counter_core::CheckIn, CommandError> {
    let session = till.session().await;
    let input = session
        .counter
        .scanned_text(input, &keys.map(|k| k.0).unwrap_or_default());
    Ok(session.counter.check_in(&input).await?)
}

/// The writes made on the till's days `from` to `to` (`2026-11-23`), in `state` when
/// given, newest first.
#[tauri::command]
pub async fn history(
    till: State<'_, Till>,
    from: String,
    to: String,
    state: Option<ItemState>,
) -> Result<Vec<QueueItemView>, CommandError> {
    let session = till.session().await;
    let items = session.counter.history(&from, &to, state, HISTORY_ROWS)?;
    Ok(items
        .iter()
        .map(|item| QueueItemView::new(&session.counter, item))
        .collect())
}

/// Writes the CSV of the writes made on the till's days `from` to `to` (in `state`
/// when given) to `path`, a `.csv` file the manager chose in the system's save dialog;
/// answers how many writes it holds.
#[tauri::command]
pub async fn export_history(
    till: State<'_, Till>,
    from: String,
    to: String,
    state: Option<ItemState>,
    path: String,
    whole_ids: bool,
) -> Result<usize, CommandError> {
    let path = super::chosen_file(&path, "csv", super::Chosen::ToWrite)?;
    let ids = if whole_ids {
        counter_core::history::CardIds::Whole
    } else {
        counter_core::history::CardIds::LastFour
    };
    let session = till.session().await;
    Ok(session
        .counter
        .export_history(&from, &to, state, &path, ids)?)
}

/// The cards with unusual activity today: more loyalty scans at this till than the
/// manager's threshold.
#[tauri::command]
pub async fn unusual_activity(
    till: State<'_, Till>,
) -> Result<counter_core::UnusualActivity, CommandError> {
    Ok(till.session().await.counter.unusual_activity()?)
}

/// How many days closed writes, receipts and gift cards keep customers' details.
#[tauri::command]
pub async fn retention(till: State<'_, Till>) -> Result<u32, CommandError> {
    Ok(till.session().await.counter.retention_days()?)
}

/// Sets how many days customers' details are kept (a manager's).
#[tauri::command]
pub async fn set_retention(till: State<'_, Till>, days: u32) -> Result<(), CommandError> {
    Ok(till.session().await.counter.set_retention_days(days)?)
}

/// Sets how many loyalty scans of one card in a day are unusual.
#[tauri::command]
pub async fn set_unusual_threshold(
    till: State<'_, Till>,
    threshold: u32,
) -> Result<(), CommandError> {
    Ok(till
        .session()
        .await
        .counter
        .set_unusual_threshold(threshold)?)
}
