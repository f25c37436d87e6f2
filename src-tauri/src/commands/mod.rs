//! Commands the web UI may call. Each is a thin adapter: take the state and arguments,
//! call one function of the till, map the error. `build.rs` reads every
//! `#[tauri::command]` of this folder (the handler list, the permissions, the arguments
//! the IPC's door checks); `capabilities/default.json` grants them.

use counter_core::cache::CustomerSummary;
use counter_core::kinds::{Abilities, ScanAction, Scope};
use counter_core::payment::OfflinePolicyForm;
use counter_core::views::PassView;
use counter_core::{ErrorCode, ItemId, Outcome, ScanFound, SyncReport};
use loyalty_api::{CardId, GiftCardId, PassId};
use rust_decimal::Decimal;
use serde::Serialize;
use tauri::{Manager, State};
use ts_rs::TS;

use crate::CommandError;
use crate::kiosk::{Kiosk, KioskStatus};
use crate::strict::Strict;
use crate::till::Till;
use crate::trouble::TroubleView;
use crate::views::{
    CardPanel, FreshCardView, GiftCardPanel, NotEnough, Paid, QueueItemView, QueueStatus, ScanRead,
    ScanReply,
};

/// What the app is and where it keeps its data.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct AppInfo {
    /// The product name, "Loyalty Counter".
    pub name: String,
    /// The app's version, from its package.
    pub version: String,
    /// The folder that holds the app's data (outbox, cache, demo server).
    pub data_dir: String,
    /// The folder that holds the app's daily log files.
    pub log_dir: String,
    /// This build has the built-in demo (the `demo` feature, on by default).
    pub demo: bool,
}

/// The key the till is connected with, as the UI shows it. The key itself never
/// crosses to the UI.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct ConnectionView {
    /// The business the key belongs to.
    pub business_name: String,
    /// A test key: the UI shows the TEST banner.
    pub test_mode: bool,
    /// The key's scopes, to show.
    pub scopes: Vec<Scope>,
    /// What the key may do at this till (the core reads it from the scopes).
    pub may: Abilities,
    /// This is the built-in demo.
    pub demo: bool,
    /// The file the key sits in when no keychain took it.
    pub key_file: Option<String>,
}

impl ConnectionView {
    fn new(connection: counter_core::Connection, demo: bool) -> Self {
        let may = connection.may();
        let key_file = match connection.key_storage {
            counter_core::secrets::KeyStorage::File { path, .. } => {
                Some(path.display().to_string())
            }
            counter_core::secrets::KeyStorage::Keychain => None,
        };
        Self {
            may,
            business_name: connection.business_name,
            test_mode: connection.test_mode,
            scopes: connection.scopes,
            demo,
            key_file,
        }
    }
}

/// Names the app, its version and its folders.
#[tauri::command]
pub fn app_info(app: tauri::AppHandle) -> Result<AppInfo, CommandError> {
    let paths = app.path();
    let folder = |dir: tauri::Result<std::path::PathBuf>| {
        dir.map(|d| d.display().to_string()).map_err(|e| {
            CommandError::new(
                ErrorCode::AppDirUnavailable,
                format!("The app's folders are unavailable: {e}"),
            )
        })
    };
    Ok(AppInfo {
        name: app.package_info().name.clone(),
        version: app.package_info().version.to_string(),
        data_dir: folder(paths.app_data_dir())?,
        log_dir: folder(paths.app_log_dir())?,
        demo: cfg!(feature = "demo"),
    })
}

/// The screens the window can open on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum FirstScreen {
    /// No usable key: the Connect form.
    Connect,
    /// The counter, with its status bar.
    Counter,
    /// The kiosk's self check-in.
    Kiosk,
    /// What is wrong with the till's own files.
    Trouble,
}

/// The page has built its first screen: the window, created hidden, appears.
#[tauri::command]
pub fn first_screen_built(window: tauri::Window) {
    crate::show_window(&window);
}

/// The window shows its first screen, `page_millis` after its page began to load: the
/// log notes how long start-up took.
#[tauri::command]
pub fn first_screen_shown(
    screen: FirstScreen,
    page_millis: u32,
    started: State<'_, crate::logging::StartUp>,
) {
    started.first_screen(screen, page_millis);
}

/// The base URL a person is typing, as the client will use it, or why it cannot be:
/// https, or plain http to this computer only (the rule lives in the client).
#[tauri::command]
pub fn check_base_url(text: String) -> Result<String, CommandError> {
    loyalty_api::check_base_url(&text)
        .map(|url| url.as_str().trim_end_matches('/').to_owned())
        .map_err(|reason| {
            counter_core::Error::Client(loyalty_api::BuildError::BaseUrl {
                url: counter_core::input::shown(&text),
                reason,
            })
            .into()
        })
}

/// The amount a cashier is typing, exact in `currency` ("12,5" is "12.50"), or why it
/// is none: the core's one rule for amounts.
#[tauri::command]
pub fn check_amount(amount: String, currency: String) -> Result<String, CommandError> {
    let currency = loyalty_api::Currency::new(currency.trim()).map_err(|_| {
        counter_core::Error::from(counter_core::NotAllowed::NotACurrency {
            given: currency.chars().take(8).collect(),
        })
    })?;
    counter_core::payment::amount_of(&amount, &currency)
        .map(|exact| exact.to_string())
        .map_err(|error| counter_core::Error::from(error).into())
}

/// Checks the key with the service (GET /v1/me) and, if it is accepted, keeps it.
#[tauri::command]
pub async fn connect(
    till: State<'_, Till>,
    base_url: String,
    api_key: String,
) -> Result<ConnectionView, CommandError> {
    let connection = till.connect(&base_url, &api_key).await?;
    Ok(ConnectionView::new(connection, false))
}

/// Zooms the window one step in or out, or back to normal size (Ctrl+plus, Ctrl+minus,
/// Ctrl+0); the till keeps the level for its next start. Answers it, in per cent.
#[tauri::command]
pub async fn zoom(
    app: tauri::AppHandle,
    till: State<'_, Till>,
    change: counter_core::zoom::ZoomChange,
) -> Result<u16, CommandError> {
    let level = till.session().await.counter.change_zoom(change)?;
    crate::apply_zoom(&app, level);
    Ok(level)
}

/// What connecting a key asks now: the manager, and which writes wait for whom.
#[tauri::command]
pub async fn connect_gate(
    till: State<'_, Till>,
) -> Result<counter_core::ConnectGate, CommandError> {
    Ok(till.session().await.counter.connect_gate()?)
}

/// Starts the built-in demo and connects to it.
#[tauri::command]
pub async fn try_demo(till: State<'_, Till>) -> Result<ConnectionView, CommandError> {
    let connection = till.try_demo().await?;
    Ok(ConnectionView::new(connection, true))
}

/// Forgets the key, to connect with another; queued writes wait for it.
#[tauri::command]
pub async fn disconnect(till: State<'_, Till>) -> Result<(), CommandError> {
    till.disconnect().await
}

/// The base URL this till last connected to, to offer it again on Connect.
#[tauri::command]
pub async fn saved_base_url(till: State<'_, Till>) -> Result<Option<String>, CommandError> {
    let session = till.session().await;
    session.counter.staff()?;
    Ok(session.counter.settings()?.base_url)
}

/// What the window needs to choose its first screen, in one answer (each call the page
/// waits for before it draws is a round trip through WebKit).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct Opening {
    /// What is wrong with the till's own files (key, settings, lock); empty when all is well.
    pub troubles: Vec<TroubleView>,
    /// The key the till is connected with: connected in this run, or kept from the last
    /// (the business it was last accepted for).
    pub connection: Option<ConnectionView>,
    /// Whether the till runs as a kiosk (the window follows it).
    pub kiosk: KioskStatus,
    /// Who is at the till: nobody yet shows the lock screen (the owner's first PIN on a
    /// till with no one on its roster).
    pub seat: counter_core::SeatView,
}

/// What the window shows first: the till's troubles, its connection, its kiosk.
#[tauri::command]
pub async fn opening(
    app: tauri::AppHandle,
    till: State<'_, Till>,
    kiosk: State<'_, Kiosk>,
) -> Result<Opening, CommandError> {
    let session = till.session().await;
    let counter = &session.counter;
    Ok(Opening {
        troubles: counter
            .troubles()?
            .into_iter()
            .map(TroubleView::from)
            .collect(),
        connection: counter
            .connection()
            .map(|connection| ConnectionView::new(connection, session.is_demo())),
        kiosk: kiosk.opening(&app, counter.kiosk()?),
        seat: counter.seat()?,
    })
}

/// Puts each damaged setting back to its default.
#[tauri::command]
pub async fn reset_damaged_settings(till: State<'_, Till>) -> Result<(), CommandError> {
    till.reset_damaged_settings().await.map(drop)
}

/// Opens the till again once the other copy that owned it has closed.
#[tauri::command]
pub async fn reopen(till: State<'_, Till>) -> Result<(), CommandError> {
    till.reopen().await
}

/// Online or not, the queue's counts and the clock's skew, for the status bar's first
/// paint; events keep it current after that.
#[tauri::command]
pub async fn queue_status(till: State<'_, Till>) -> Result<QueueStatus, CommandError> {
    let session = till.session().await;
    Ok(QueueStatus::of(&session.counter)?)
}

/// Reads what the scanner or the keyboard gave: a card (with what the till knows of it),
/// a gift card, or not a card. `keys`: the keys the scanner sent, read through its
/// layout (a till whose keyboard has another layout types something else).
#[tauri::command]
pub async fn read_scan(
    till: State<'_, Till>,
    input: String,
    keys: Option<Strict<Vec<counter_core::keys::KeyPress>>>,
) -> Result<ScanRead, CommandError> {
    let session = till.session().await;
    let counter = &session.counter;
    let input = counter.scanned_text(input, &keys.map(|k| k.0).unwrap_or_default());
    Ok(match counter.read_scan(&input).await? {
        ScanFound::Card { id, known, actions } => ScanRead::Card {
            id: id.as_str().to_owned(),
            known: known.map(|known| {
                let (lookup, offer) = *known;
                Box::new(CardPanel::with_offer(&lookup, offer))
            }),
            actions,
        },
        ScanFound::GiftCard { id } => ScanRead::GiftCard {
            id: id.as_str().to_owned(),
        },
        ScanFound::NotACard { reason } => ScanRead::NotACard { reason },
    })
}

/// A card read from the service now, after the cached one was shown.
#[tauri::command]
pub async fn read_card(
    till: State<'_, Till>,
    card_id: String,
) -> Result<FreshCardView, CommandError> {
    let id = counter_core::scanner::card_id(&card_id).map_err(counter_core::Error::from)?;
    let session = till.session().await;
    let fresh = session.counter.read_card(&id).await?;
    Ok(FreshCardView::new(&session.counter, fresh))
}

/// Records a visit, points (negative to deduct) or a redemption on a card.
#[tauri::command]
pub async fn record_scan(
    till: State<'_, Till>,
    card_id: CardId,
    action: ScanAction,
    points: Option<i32>,
) -> Result<ScanReply, CommandError> {
    let session = till.session().await;
    let outcome = session
        .counter
        .record_scan(card_id.clone(), action, points.map(Decimal::from))
        .await?;
    Ok(ScanReply::new(&session.counter, outcome, &card_id)?)
}

/// The cashier confirms a repeat visit (after the `recent_visit` question).
#[tauri::command]
pub async fn confirm_repeat_visit(
    till: State<'_, Till>,
    item: ItemId,
) -> Result<ScanReply, CommandError> {
    let session = till.session().await;
    let outcome = session.counter.confirm_repeat_visit(item).await?;
    let counter_core::Write::Scan { card_id, .. } = session.counter.item(outcome.item())?.write
    else {
        return Err(counter_core::Error::NoSuchItem.into());
    };
    Ok(ScanReply::new(&session.counter, outcome, &card_id)?)
}

/// The queue: open writes only, or the latest of everything.
#[tauri::command]
pub async fn queue(
    till: State<'_, Till>,
    open_only: bool,
) -> Result<Vec<QueueItemView>, CommandError> {
    let session = till.session().await;
    let counter = &session.counter;
    let items = counter.queue(open_only, 200)?;
    Ok(items
        .iter()
        .map(|item| QueueItemView::new(counter, item))
        .collect())
}

/// Lifts the till's own backoff and sends what is queued.
#[tauri::command]
pub async fn send_now(till: State<'_, Till>) -> Result<(), CommandError> {
    let session = till.session().await;
    session.counter.staff()?;
    session.counter.send_now();
    Ok(())
}

/// Withdraws a write that needs a decision (or a queued one that cannot have arrived);
/// it is kept, closed, with the note.
#[tauri::command]
pub async fn discard_item(
    till: State<'_, Till>,
    item: ItemId,
    note: String,
) -> Result<QueueItemView, CommandError> {
    let session = till.session().await;
    let closed = session.counter.withdraw(item, &note).await?;
    Ok(QueueItemView::new(&session.counter, &closed))
}

/// Sends a write that needs a decision again.
#[tauri::command]
pub async fn retry_item(till: State<'_, Till>, item: ItemId) -> Result<(), CommandError> {
    let session = till.session().await;
    Ok(session.counter.retry_item(item)?)
}

/// The gift cards the service already issued for a gift-card issue that waits for a
/// decision (same recipient, amount and currency, since its first attempt).
#[tauri::command]
pub async fn probably_issued(
    till: State<'_, Till>,
    item: ItemId,
) -> Result<Vec<counter_core::IssuedCard>, CommandError> {
    let session = till.session().await;
    Ok(session.counter.probably_issued(item).await?)
}

/// A gift card, read from the service now, or from the till's cache when the service
/// cannot be reached, with what a payment may take.
#[tauri::command]
pub async fn gift_card(
    till: State<'_, Till>,
    id: GiftCardId,
) -> Result<GiftCardPanel, CommandError> {
    let session = till.session().await;
    let read = session.counter.open_gift_card(&id).await?;
    Ok(GiftCardPanel::from(read))
}

/// Takes a payment from a gift card, typed in the card's currency.
#[tauri::command]
pub async fn take_payment(
    till: State<'_, Till>,
    id: GiftCardId,
    amount: String,
    reference: Option<String>,
) -> Result<Outcome<Paid, NotEnough>, CommandError> {
    let session = till.session().await;
    let outcome = session.counter.take_payment(id, &amount, reference).await?;
    Ok(outcome.map(Paid::from, NotEnough::from))
}

/// Customers whose name, email or phone start with what was typed (local cache).
#[tauri::command]
pub async fn search_customers(
    till: State<'_, Till>,
    typed: String,
) -> Result<Vec<CustomerSummary>, CommandError> {
    let session = till.session().await;
    let found = session.counter.search(&typed, 50)?;
    Ok(found)
}

/// Syncs the customer cache with the service (progress arrives as events).
#[tauri::command]
pub async fn sync_customers(till: State<'_, Till>) -> Result<SyncReport, CommandError> {
    // The walk holds nothing of the session: scans, a disconnect or a key change never
    // wait behind it (a key change stops it between pages).
    let walk = till.session().await.counter.sync(None);
    Ok(walk.await?)
}

/// What the till allows while the service cannot be reached.
#[tauri::command]
pub async fn offline_payments(till: State<'_, Till>) -> Result<OfflinePolicyForm, CommandError> {
    Ok(till.session().await.counter.offline_payments_form()?)
}

/// Keeps what the till allows while the service cannot be reached (a manager's).
#[tauri::command]
pub async fn save_offline_payments(
    till: State<'_, Till>,
    policy: Strict<OfflinePolicyForm>,
) -> Result<OfflinePolicyForm, CommandError> {
    let session = till.session().await;
    Ok(session.counter.save_offline_payments_form(&policy.0)?)
}

/// A pass (goal and reward), read from the service.
#[tauri::command]
pub async fn pass(till: State<'_, Till>, id: PassId) -> Result<PassView, CommandError> {
    let session = till.session().await;
    Ok(session.counter.pass(&id).await?)
}

/// The business's active passes, to enrol customers on.
#[tauri::command]
pub async fn passes(till: State<'_, Till>) -> Result<Vec<PassView>, CommandError> {
    let session = till.session().await;
    Ok(session.counter.passes().await?)
}

/// Enrols a customer on a pass.
#[tauri::command]
pub async fn enrol(
    till: State<'_, Till>,
    enrolment: Strict<counter_core::Enrolment>,
) -> Result<Outcome<CustomerSummary, CustomerSummary>, CommandError> {
    let session = till.session().await;
    Ok(session.counter.enrol(enrolment.0).await?)
}

pub mod camera;
pub mod customer;
pub mod manager;
pub mod page;
pub mod people;
pub mod receipts;
pub mod scanner;
pub mod shifts;
pub mod update;

/// What a file chosen in the system's dialog is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chosen {
    /// Written: its folder exists.
    ToWrite,
    /// Read: it exists.
    ToRead,
}

/// A file the system's dialog named: absolute, ending in `.{extension}`, in a folder
/// that exists (to write) or existing (to read). Anything else is refused before a
/// byte is read or written.
pub(crate) fn chosen_file(
    given: &str,
    extension: &str,
    chosen: Chosen,
) -> Result<std::path::PathBuf, CommandError> {
    let path = std::path::PathBuf::from(given);
    let fits = path.is_absolute()
        && path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(extension))
        && match chosen {
            Chosen::ToWrite => path.parent().is_some_and(std::path::Path::is_dir),
            Chosen::ToRead => path.is_file(),
        }
        && !given.chars().any(char::is_control);
    if fits {
        Ok(path)
    } else {
        let refused = |text: &str| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("not a .{extension} file {text}"),
            )
        };
        Err(match chosen {
            Chosen::ToWrite => counter_core::Error::Export(refused("in an existing folder")),
            Chosen::ToRead => counter_core::Error::Import(refused("that exists")),
        }
        .into())
    }
}
