//! Commands the web UI may call. Each is a thin adapter: take the state and arguments,
//! call one function of the till, map the error. Each is declared in `build.rs` and
//! granted in `capabilities/default.json`.

use counter_core::ItemId;
use counter_core::scanner::Scanned;
use loyalty_api::{CardId, GiftCardId, PassId, ScanAction};
use rust_decimal::Decimal;
use serde::Serialize;
use tauri::{Manager, State};
use ts_rs::TS;

use crate::CommandError;
use crate::till::Till;
use crate::trouble::TroubleView;
use crate::views::{
    CardPanel, CustomerRow, EnrolReply, FreshCardView, GiftCardPanel, OfflinePolicyView, PassPanel,
    PaymentReply, QueueItemView, QueueStatus, ScanRead, ScanReply, SyncView,
};

/// What the app is and where it keeps its data.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = "../../ui/src/lib/ipc/bindings/")]
pub struct AppInfo {
    /// The product name, "Loyalty Counter".
    pub name: String,
    /// The app's version, from its package.
    pub version: String,
    /// The folder that holds the app's data (outbox, cache, demo server).
    pub data_dir: String,
    /// The folder that holds the app's daily log files.
    pub log_dir: String,
}

/// The key the till is connected with, as the UI shows it. The key itself never
/// crosses to the UI.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export, export_to = "../../ui/src/lib/ipc/bindings/")]
pub struct ConnectionView {
    /// The business the key belongs to.
    pub business_name: String,
    /// A test key: the UI shows the TEST banner.
    pub test_mode: bool,
    /// What the key may do.
    pub scopes: Vec<String>,
    /// This is the built-in demo.
    pub demo: bool,
    /// The file the key sits in when no keychain took it.
    pub key_file: Option<String>,
}

impl ConnectionView {
    fn new(connection: counter_core::Connection, demo: bool) -> Self {
        let key_file = match connection.key_storage {
            counter_core::secrets::KeyStorage::File { path, .. } => {
                Some(path.display().to_string())
            }
            counter_core::secrets::KeyStorage::Keychain => None,
        };
        Self {
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
                "app_dir_unavailable",
                format!("The app's folders are unavailable: {e}"),
            )
        })
    };
    Ok(AppInfo {
        name: app.package_info().name.clone(),
        version: app.package_info().version.to_string(),
        data_dir: folder(paths.app_data_dir())?,
        log_dir: folder(paths.app_log_dir())?,
    })
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
    Ok(session.counter.settings()?.base_url)
}

/// The key the till is connected with: connected in this run, or kept from the last
/// (the business it was last accepted for).
#[tauri::command]
pub async fn current_connection(
    till: State<'_, Till>,
) -> Result<Option<ConnectionView>, CommandError> {
    let session = till.session().await;
    Ok(session
        .counter
        .connection()
        .map(|connection| ConnectionView::new(connection, session.is_demo())))
}

/// What is wrong with the till's own files (key, settings, lock); empty when all is well.
#[tauri::command]
pub async fn troubles(till: State<'_, Till>) -> Result<Vec<TroubleView>, CommandError> {
    let troubles = till.troubles().await?;
    Ok(troubles.into_iter().map(TroubleView::from).collect())
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
/// a gift card, or not a card.
#[tauri::command]
pub async fn read_scan(till: State<'_, Till>, input: String) -> Result<ScanRead, CommandError> {
    let session = till.session().await;
    Ok(match counter_core::scanner::read(&input) {
        Scanned::Card { id } => ScanRead::Card {
            known: session
                .counter
                .lookup_card(&id)?
                .as_ref()
                .map(CardPanel::of_lookup),
            id: id.as_str().to_owned(),
        },
        Scanned::GiftCard { id } => ScanRead::GiftCard {
            id: id.as_str().to_owned(),
        },
        Scanned::NotACard { reason } => ScanRead::NotACard {
            reason: reason.as_str().to_owned(),
        },
    })
}

/// A card read from the service now, after the cached one was shown.
#[tauri::command]
pub async fn read_card(
    till: State<'_, Till>,
    card_id: String,
) -> Result<FreshCardView, CommandError> {
    let Scanned::Card { id } = counter_core::scanner::read(&card_id) else {
        return Err(CommandError::new(
            "invalid_card",
            format!("{:?} is not a loyalty card id.", shown(&card_id)),
        ));
    };
    let session = till.session().await;
    Ok(session.counter.read_card(&id).await?.into())
}

/// Records a visit, points (negative to deduct) or a redemption on a card.
#[tauri::command]
pub async fn record_scan(
    till: State<'_, Till>,
    card_id: String,
    action: String,
    points: Option<i32>,
) -> Result<ScanReply, CommandError> {
    let action = match action.as_str() {
        "visit" => ScanAction::Visit,
        "points" => ScanAction::Points,
        "redeem" => ScanAction::Redeem,
        other => {
            return Err(CommandError::new(
                "invalid_action",
                format!("{:?} is not a counter action.", shown(other)),
            ));
        }
    };
    let session = till.session().await;
    let outcome = session
        .counter
        .record_scan(CardId::new(card_id), action, points.map(Decimal::from))
        .await?;
    Ok(outcome.into())
}

/// The cashier confirms a repeat visit (after the `recent_visit` question).
#[tauri::command]
pub async fn confirm_repeat_visit(
    till: State<'_, Till>,
    item: i32,
) -> Result<ScanReply, CommandError> {
    let session = till.session().await;
    let outcome = session
        .counter
        .confirm_repeat_visit(ItemId(item.into()))
        .await?;
    Ok(outcome.into())
}

/// The queue: open writes only, or the latest of everything.
#[tauri::command]
pub async fn queue(
    till: State<'_, Till>,
    open_only: bool,
) -> Result<Vec<QueueItemView>, CommandError> {
    let session = till.session().await;
    let items = session.counter.queue(open_only, 200)?;
    Ok(items.iter().map(QueueItemView::from).collect())
}

/// Lifts the till's own backoff and sends what is queued.
#[tauri::command]
pub async fn send_now(till: State<'_, Till>) -> Result<(), CommandError> {
    till.session().await.counter.send_now();
    Ok(())
}

/// Withdraws a write that needs a decision (or a queued one that cannot have arrived);
/// it is kept, closed, with the note.
#[tauri::command]
pub async fn discard_item(
    till: State<'_, Till>,
    item: i32,
    note: String,
) -> Result<QueueItemView, CommandError> {
    let session = till.session().await;
    let closed = session.counter.discard(ItemId(item.into()), &note)?;
    Ok(QueueItemView::from(&closed))
}

/// Sends a write that needs a decision again.
#[tauri::command]
pub async fn retry_item(till: State<'_, Till>, item: i32) -> Result<(), CommandError> {
    let session = till.session().await;
    Ok(session.counter.retry_item(ItemId(item.into()))?)
}

/// A gift card, read from the service now, or from the till's cache when the service
/// cannot be reached.
#[tauri::command]
pub async fn gift_card(till: State<'_, Till>, id: String) -> Result<GiftCardPanel, CommandError> {
    let session = till.session().await;
    let id = GiftCardId::new(id);
    match session.counter.read_gift_card(&id).await {
        Ok((read, ledger)) => Ok(GiftCardPanel::read(&read, &ledger)),
        Err(error @ counter_core::Error::Api(_)) if error.code() == "service_unreachable" => {
            match session.counter.gift_card(&id)? {
                Some(cached) => Ok(GiftCardPanel::new(&cached, false)),
                None => Err(error.into()),
            }
        }
        Err(error) => Err(error.into()),
    }
}

/// Takes a payment from a gift card, typed in the card's currency.
#[tauri::command]
pub async fn take_payment(
    till: State<'_, Till>,
    id: String,
    amount: String,
    reference: Option<String>,
) -> Result<PaymentReply, CommandError> {
    let session = till.session().await;
    let reference = reference.filter(|r| !r.trim().is_empty());
    let outcome = session
        .counter
        .take_payment(GiftCardId::new(id), &amount, reference)
        .await?;
    Ok(outcome.into())
}

/// Customers whose name, email or phone start with what was typed (local cache).
#[tauri::command]
pub async fn search_customers(
    till: State<'_, Till>,
    typed: String,
) -> Result<Vec<CustomerRow>, CommandError> {
    let session = till.session().await;
    let found = session.counter.search(&typed, 50)?;
    Ok(found.iter().map(CustomerRow::from).collect())
}

/// Syncs the customer cache with the service (progress arrives as events).
#[tauri::command]
pub async fn sync_customers(till: State<'_, Till>) -> Result<SyncView, CommandError> {
    // The walk holds nothing of the session: scans, a disconnect or a key change never
    // wait behind it (a key change stops it between pages).
    let walk = till.session().await.counter.sync(None);
    Ok(walk.await?.into())
}

/// What the till allows while the service cannot be reached.
#[tauri::command]
pub async fn offline_payments(till: State<'_, Till>) -> Result<OfflinePolicyView, CommandError> {
    let session = till.session().await;
    let counter = &session.counter;
    Ok(OfflinePolicyView::new(
        &counter.settings()?.offline_payments,
        &counter.usual_currency()?,
    ))
}

/// Keeps what the till allows while the service cannot be reached.
#[tauri::command]
pub async fn save_offline_payments(
    till: State<'_, Till>,
    policy: OfflinePolicyView,
) -> Result<OfflinePolicyView, CommandError> {
    let session = till.session().await;
    let mut settings = session.counter.settings()?;
    settings.offline_payments = policy
        .policy(settings.offline_payments)
        .map_err(|message| CommandError::new("invalid_amount", message))?;
    session.counter.save_settings(&settings)?;
    let currency = loyalty_api::Currency::new(policy.currency.trim())
        .map_err(|e| CommandError::new("invalid_amount", e.to_string()))?;
    Ok(OfflinePolicyView::new(
        &settings.offline_payments,
        &currency,
    ))
}

/// A pass (goal and reward), read from the service.
#[tauri::command]
pub async fn pass(till: State<'_, Till>, id: String) -> Result<PassPanel, CommandError> {
    let session = till.session().await;
    Ok(session.counter.pass(&PassId::new(id)).await?.into())
}

/// The business's active passes, to enrol customers on.
#[tauri::command]
pub async fn passes(till: State<'_, Till>) -> Result<Vec<PassPanel>, CommandError> {
    let session = till.session().await;
    let passes = session.counter.passes().await?;
    Ok(passes.into_iter().map(PassPanel::from).collect())
}

/// Enrols a customer on a pass.
#[tauri::command]
pub async fn enrol(
    till: State<'_, Till>,
    pass_id: String,
    name: String,
    email: String,
    wallet: String,
    send_welcome: bool,
) -> Result<EnrolReply, CommandError> {
    let session = till.session().await;
    let enrolment = counter_core::Enrolment {
        pass_id: Some(PassId::new(pass_id)),
        name,
        email,
        wallet,
        send_welcome,
    };
    Ok(session.counter.enrol(enrolment).await?.into())
}

/// The start of what was given, for an error: enough to recognise it, never a huge
/// paste echoed back.
fn shown(given: &str) -> String {
    given.chars().take(64).collect()
}
