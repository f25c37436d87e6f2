//! Customers and their cards, copied from GET /v1/customers into the cache.
//!
//! A full sync walks the whole list and stores each page with the cursor of the
//! next one in one transaction, so it resumes where it stopped after a restart. A
//! top-up walks from the newest until it meets a customer it already has (the list
//! is newest first), for the enrolments made since.

use loyalty_api::{Client, Cursor, ErrorCode, ListParams};
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::cache;
use crate::core::Core;
use crate::error::Error;
use crate::events::Event;
use crate::views::CustomerView;

const PAGE: u32 = 100;
const LIST: &str = "customers";

/// What a sync did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncReport {
    /// Customers stored by this call.
    pub stored: u64,
    /// Customers in the cache now.
    pub cached: u64,
    /// Whether a full walk is complete.
    pub finished: bool,
    /// Customers the finished walk no longer found (deleted), removed from the cache.
    pub removed: u64,
}

#[derive(Debug, Default)]
struct State {
    cursor: Option<String>,
    done: u64,
    finished: bool,
    last_total: Option<u64>,
    newest_id: Option<String>,
}

fn load(core: &Core) -> rusqlite::Result<State> {
    Ok(core
        .db()
        .query_row(
            "SELECT cursor, done, finished, last_total, newest_id FROM sync_state WHERE list = ?1",
            [LIST],
            |r| {
                Ok(State {
                    cursor: r.get(0)?,
                    done: r.get(1)?,
                    finished: r.get(2)?,
                    last_total: r.get(3)?,
                    newest_id: r.get(4)?,
                })
            },
        )
        .optional()?
        .unwrap_or_default())
}

/// Walks the whole list, resuming an interrupted walk. `max_pages` stops early (for
/// tests of resuming, and to keep one call short); the next call goes on.
pub(crate) async fn full(
    core: &Core,
    client: &Client,
    max_pages: Option<u32>,
) -> Result<SyncReport, Error> {
    let mut state = load(core)?;
    if state.finished {
        state.cursor = None;
        state.done = 0;
        state.finished = false;
    }
    let mut stored = 0u64;
    let mut removed = 0u64;
    let mut pages = 0u32;
    loop {
        if max_pages.is_some_and(|m| pages >= m) {
            break;
        }
        let mut params = ListParams::new().limit(PAGE);
        if let Some(cursor) = &state.cursor {
            params = params.cursor(Cursor::new(cursor.clone()));
        }
        let page = match client.customers().list(&params).await {
            Ok(page) => page,
            Err(err) if err.code() == Some(&ErrorCode::InvalidCursor) && state.cursor.is_some() => {
                // The cursor no longer holds (for example the key changed): start over.
                state.cursor = None;
                state.done = 0;
                continue;
            }
            Err(err) => {
                core.observe_failure(&err);
                return Err(err.into());
            }
        };
        core.observe_answer(page.date, page.rate_limit.as_ref());
        let first_page = state.cursor.is_none();
        let customers: Vec<CustomerView> = page.data.data.iter().map(CustomerView::from).collect();
        let next = page
            .data
            .next_cursor
            .as_ref()
            .map(|c| c.as_str().to_owned());
        let has_more = page.data.has_more && next.is_some();
        let now = core.now();
        {
            let mut db = core.db();
            let tx = db.transaction()?;
            if first_page {
                // A new walk: the customers it sees are marked with its number.
                let newest = customers.first().map(|c| c.id.as_str().to_owned());
                tx.execute(
                    "INSERT INTO sync_state (list, walk_newest_id, walk) VALUES (?1, ?2, 1)
                     ON CONFLICT(list) DO UPDATE SET walk_newest_id = ?2, walk = walk + 1",
                    params![LIST, newest],
                )?;
            }
            for customer in &customers {
                cache::put_customer(&tx, customer, now)?;
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
                    "UPDATE sync_state SET last_total = done, newest_id = walk_newest_id WHERE list = ?1",
                    [LIST],
                )?;
                let walk: i64 =
                    tx.query_row("SELECT walk FROM sync_state WHERE list = ?1", [LIST], |r| {
                        r.get(0)
                    })?;
                removed = cache::forget_unseen(&tx, walk)?;
            }
            tx.commit()?;
        }
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

/// Stores customers enrolled since the last finished walk (a full sync if none).
pub(crate) async fn top_up(core: &Core, client: &Client) -> Result<SyncReport, Error> {
    match newer(core, client).await? {
        Some(report) => Ok(report),
        None => full(core, client, None).await,
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
    let mut pages = client.customers().pages(ListParams::new().limit(PAGE));
    let mut stored = 0u64;
    let mut newest: Option<String> = None;
    'walk: loop {
        let page = match pages.next_page().await {
            Ok(Some(page)) => page,
            Ok(None) => break,
            Err(err) => {
                core.observe_failure(&err);
                return Err(err.into());
            }
        };
        core.observe_answer(page.date, page.rate_limit.as_ref());
        let now = core.now();
        let mut db = core.db();
        let tx = db.transaction()?;
        for customer in &page.data.data {
            if customer.id.as_str() == known {
                tx.commit()?;
                break 'walk;
            }
            newest.get_or_insert_with(|| customer.id.as_str().to_owned());
            cache::put_customer(&tx, &CustomerView::from(customer), now)?;
            stored += 1;
        }
        tx.commit()?;
    }
    if let Some(newest) = newest {
        core.db().execute(
            "UPDATE sync_state SET newest_id = ?2 WHERE list = ?1",
            params![LIST, newest],
        )?;
    }
    Ok(Some(SyncReport {
        stored,
        cached: cache::customer_count(&core.db())?,
        finished: true,
        removed: 0,
    }))
}
