//! Customers and their cards, copied from GET /v1/customers into the cache.
//!
//! A full sync walks the whole list and stores each page with the cursor of the
//! next one in one transaction, so it resumes where it stopped after a restart. A
//! top-up walks from the newest until it meets a customer it already has (the list
//! is newest first), for the enrolments made since.

use jiff::Timestamp;
use loyalty_api::{Client, Cursor, Error as ApiError, ErrorCode, ListParams};
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use tokio::task::JoinHandle;

use crate::cache;
use crate::error::Error;
use crate::events::Event;
use crate::shared::{Core, Sender};
use crate::views::CustomerView;

const PAGE: u32 = 100;
const LIST: &str = "customers";

for_the_ui! {
/// What a sync did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncReport {
    /// Customers stored by this call.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub stored: u64,
    /// Customers in the cache now.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub cached: u64,
    /// Whether a full walk is complete.
    pub finished: bool,
    /// Customers the finished walk no longer found (deleted), removed from the cache.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub removed: u64,
}
}

#[derive(Debug, Default)]
struct State {
    cursor: Option<String>,
    done: u64,
    finished: bool,
    last_total: Option<u64>,
    newest_id: Option<String>,
    /// When the newest customer of the last finished walk was enrolled.
    newest_at: Option<String>,
}

fn load(core: &Core) -> rusqlite::Result<State> {
    Ok(core
        .db()
        .query_row(
            "SELECT cursor, done, finished, last_total, newest_id, newest_at
             FROM sync_state WHERE list = ?1",
            [LIST],
            |r| {
                Ok(State {
                    cursor: r.get(0)?,
                    done: r.get(1)?,
                    finished: r.get(2)?,
                    last_total: r.get(3)?,
                    newest_id: r.get(4)?,
                    newest_at: r.get(5)?,
                })
            },
        )
        .optional()?
        .unwrap_or_default())
}

/// Walks the whole list, resuming an interrupted walk. `max_pages` stops early (for
/// tests of resuming, and to keep one call short); the next call goes on.
/// Stops between pages when the key it started with is no longer the one connected
/// (disconnected, or replaced): a key change never waits for a sync.
pub(crate) async fn full(
    core: &Core,
    sender: &Sender,
    max_pages: Option<u32>,
) -> Result<SyncReport, Error> {
    let client = &sender.client;
    let mut state = load(core)?;
    if state.finished {
        state.cursor = None;
        state.done = 0;
        state.finished = false;
    }
    let mut stored = 0u64;
    let mut removed = 0u64;
    let mut pages = 0u32;
    // The next page is asked for while this one is stored: the walk takes the service's
    // time, not the service's and then the disk's.
    let mut ahead: Option<(Timestamp, JoinHandle<Result<CustomerPage, ApiError>>)> = None;
    loop {
        if max_pages.is_some_and(|m| pages >= m)
            || !core.sender().is_some_and(|now| now.key == sender.key)
        {
            if let Some((_, next)) = ahead {
                next.abort();
            }
            break;
        }
        let (asked, answer) = match ahead.take() {
            // The task only stops by a panic (it is aborted only above): pass it on.
            Some((asked, next)) => (
                asked,
                next.await
                    .unwrap_or_else(|stopped| std::panic::resume_unwind(stopped.into_panic())),
            ),
            None => {
                if state.cursor.is_none() {
                    // A new walk, numbered before its first page is asked for: whatever
                    // is stored from now on counts as seen by it.
                    core.db().execute(
                        "INSERT INTO sync_state (list, walk) VALUES (?1, 1)
                         ON CONFLICT(list) DO UPDATE SET walk = walk + 1",
                        [LIST],
                    )?;
                }
                (
                    core.now(),
                    client.customers().list(&page_after(&state.cursor)).await,
                )
            }
        };
        let page = match answer {
            Ok(page) => page,
            Err(err) if err.code() == Some(&ErrorCode::InvalidCursor) && state.cursor.is_some() => {
                // The cursor no longer holds (for example the key changed): start over.
                state.cursor = None;
                state.done = 0;
                continue;
            }
            Err(err) => {
                return Err(err.into());
            }
        };
        let first_page = state.cursor.is_none();
        let customers: Vec<CustomerView> = page.data.data.iter().map(CustomerView::from).collect();
        let next = page
            .data
            .next_cursor
            .as_ref()
            .map(|c| c.as_str().to_owned());
        let has_more = page.data.has_more && next.is_some();
        if has_more && max_pages.is_none_or(|m| pages + 1 < m) {
            let (client, params) = (client.clone(), page_after(&next));
            ahead = Some((
                core.now(),
                tokio::spawn(async move { client.customers().list(&params).await }),
            ));
        }
        // Not synced to the disk: a page lost in a power cut is walked again (its cursor
        // is stored with it).
        crate::db::cache_write(&mut core.db(), |tx| {
            if first_page {
                let newest = customers.first();
                tx.execute(
                    "UPDATE sync_state SET walk_newest_id = ?2, walk_newest_at = ?3
                     WHERE list = ?1",
                    params![
                        LIST,
                        newest.map(|c| c.id.as_str()),
                        newest.and_then(|c| c.created_at).map(|t| t.to_string())
                    ],
                )?;
            }
            for customer in &customers {
                cache::put_customer(tx, customer, asked)?;
            }
            state.done += customers.len() as u64;
            tx.execute(
                "INSERT INTO sync_state (list) VALUES (?1) ON CONFLICT(list) DO NOTHING",
                [LIST],
            )?;
            tx.execute(
                "UPDATE sync_state SET cursor = ?2, done = ?3, finished = ?4 WHERE list = ?1",
                params![LIST, next, state.done, !has_more],
            )?;
            if !has_more {
                tx.execute(
                    "UPDATE sync_state SET last_total = done, newest_id = walk_newest_id,
                         newest_at = walk_newest_at WHERE list = ?1",
                    [LIST],
                )?;
                let walk: i64 =
                    tx.query_row("SELECT walk FROM sync_state WHERE list = ?1", [LIST], |r| {
                        r.get(0)
                    })?;
                removed = cache::forget_unseen(tx, walk)?;
            }
            Ok(())
        })?;
        stored += customers.len() as u64;
        pages += 1;
        state.cursor = next;
        let estimate = state
            .last_total
            .unwrap_or(0)
            .max(state.done + if has_more { u64::from(PAGE) } else { 0 });
        core.events.publish(Event::SyncProgress {
            done: state.done,
            estimated_total: Some(estimate),
            finished: !has_more,
        });
        if !has_more {
            state.finished = true;
            break;
        }
    }
    Ok(SyncReport {
        stored,
        cached: cache::customer_count(&core.db())?,
        finished: state.finished,
        removed,
    })
}

/// One page of the customers' list.
type CustomerPage = loyalty_api::Response<loyalty_api::List<loyalty_api::Customer>>;

/// The parameters of the page after `cursor` (the first page for none).
fn page_after(cursor: &Option<String>) -> ListParams {
    let params = ListParams::new().limit(PAGE);
    match cursor {
        Some(cursor) => params.cursor(Cursor::new(cursor.clone())),
        None => params,
    }
}

/// Stores customers enrolled since the last finished walk (a full sync if none).
pub(crate) async fn top_up(core: &Core, sender: &Sender) -> Result<SyncReport, Error> {
    match newer(core, &sender.client).await? {
        Some(report) => Ok(report),
        None => full(core, sender, None).await,
    }
}

/// Stores customers enrolled since the last finished walk; `None` (and nothing read)
/// when no walk has finished yet.
pub(crate) async fn newer(core: &Core, client: &Client) -> Result<Option<SyncReport>, Error> {
    let state = load(core)?;
    let Some(known) = state
        .newest_id
        .filter(|_| state.finished || state.last_total.is_some())
    else {
        return Ok(None);
    };
    // Newest first: the walk stops at the newest customer it knew, or at anyone enrolled
    // no later (that customer may since have been deleted).
    let known_at: Option<Timestamp> = state.newest_at.as_deref().and_then(|t| t.parse().ok());
    let is_known = |customer: &loyalty_api::Customer| {
        customer.id.as_str() == known
            || matches!((customer.created_at, known_at), (Some(at), Some(known)) if at < known)
    };
    let mut pages = client.customers().pages(ListParams::new().limit(PAGE));
    let mut stored = 0u64;
    let mut newest: Option<(String, Option<Timestamp>)> = None;
    'walk: loop {
        let asked = core.now();
        let page = match pages.next_page().await {
            Ok(Some(page)) => page,
            Ok(None) => break,
            Err(err) => {
                return Err(err.into());
            }
        };
        let met_known = crate::db::cache_write(&mut core.db(), |tx| {
            for customer in &page.data.data {
                if is_known(customer) {
                    return Ok(true);
                }
                newest
                    .get_or_insert_with(|| (customer.id.as_str().to_owned(), customer.created_at));
                cache::put_customer(tx, &CustomerView::from(customer), asked)?;
                stored += 1;
            }
            Ok(false)
        })?;
        if met_known {
            break 'walk;
        }
    }
    if let Some((id, created_at)) = newest {
        core.db().execute(
            "UPDATE sync_state SET newest_id = ?2, newest_at = ?3 WHERE list = ?1",
            params![LIST, id, created_at.map(|t| t.to_string())],
        )?;
    }
    Ok(Some(SyncReport {
        stored,
        cached: cache::customer_count(&core.db())?,
        finished: true,
        removed: 0,
    }))
}
