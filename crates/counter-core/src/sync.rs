//! Customers and their cards, copied from GET /v1/customers into the cache.
//!
//! A full sync walks the whole list and stores each page with the cursor of the
//! next one in one transaction, so it resumes where it stopped after a restart. A
//! top-up walks from the newest until it meets a customer it already has (the list
//! is newest first), for the enrolments made since.

use std::sync::Arc;

use jiff::Timestamp;
use loyalty_api::{Client, Cursor, Error as ApiError, ErrorCode, ListParams};
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
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
    core: &Arc<Core>,
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
    // The pages are asked for one after the other by a task of their own while they are
    // stored: the walk takes the longer of the service's time and the disk's, not both.
    // How long it waited for each is logged at its end.
    let mut fetching: Option<Fetching> = None;
    // An answer taken from the fetcher while gathering pages that is not a page: it is
    // dealt with next.
    let mut held: Option<Fetched> = None;
    let mut time = WalkTime::default();
    loop {
        if max_pages.is_some_and(|m| pages >= m)
            || !core.sender().is_some_and(|now| now.key == sender.key)
        {
            break;
        }
        let fetcher = match &mut fetching {
            Some(fetcher) => fetcher,
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
                let remaining = max_pages.map(|m| m - pages);
                fetching.insert(Fetching::start(core, client, &state.cursor, remaining))
            }
        };
        let fetched = match held.take() {
            Some(fetched) => Some(fetched),
            None => {
                let waiting = core.clock.instant();
                let fetched = fetcher.pages.recv().await;
                time.waiting += waiting.elapsed();
                fetched
            }
        };
        let Some((asked, answer)) = fetched else {
            // The task ends without a page only when it panicked: pass it on.
            if let Err(stopped) = (&mut fetcher.task).await {
                std::panic::resume_unwind(stopped.into_panic());
            }
            break;
        };
        let page = match answer {
            Ok(page) => page,
            Err(err) if err.code() == Some(&ErrorCode::InvalidCursor) && state.cursor.is_some() => {
                // The cursor no longer holds (for example the key changed): start over.
                state.cursor = None;
                state.done = 0;
                fetching = None;
                continue;
            }
            Err(err) => {
                return Err(err.into());
            }
        };
        let mut read = Pages::new(&page.data, asked, state.cursor.is_none(), state.done);
        // The pages that came while the last were stored go with this one, in one
        // transaction: when the disk is slower than the service, each commit (FTS5's
        // flush of the new terms, the log's frames) serves several pages.
        while read.has_more {
            match fetcher.pages.try_recv() {
                Ok((_, Ok(page))) => read.join(&page.data),
                Ok(other) => {
                    held = Some(other);
                    break;
                }
                Err(_) => break,
            }
        }
        let (count, has_more, next) = (
            read.customers.len() as u64,
            read.has_more,
            read.next.clone(),
        );
        state.done = read.done;
        pages += read.pages;
        // On a thread of the blocking pool: the runtime's own threads go on with the
        // next pages (and, in the demo, with the server that answers them).
        let (storing, key) = (core.clone(), sender.key.clone());
        let started = core.clock.instant();
        let kept = tokio::task::spawn_blocking(move || {
            storing.while_key_in_use(&key, |db| read.store(db))
        })
        .await
        .unwrap_or_else(|stopped| std::panic::resume_unwind(stopped.into_panic()));
        let Some(kept) = kept else {
            // The key was left while the page came: it belongs to no one here now.
            break;
        };
        removed += kept?;
        time.storing += started.elapsed();
        stored += count;
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
    tracing::info!(
        pages,
        stored,
        finished = state.finished,
        waiting_for_the_service_s = time.waiting.as_secs_f64(),
        storing_s = time.storing.as_secs_f64(),
        "a walk of the customers' list stopped"
    );
    Ok(SyncReport {
        stored,
        cached: cache::customer_count(&core.db())?,
        finished: state.finished,
        removed,
    })
}

/// Where a walk's time went: waiting for a page from the service (none had come yet),
/// and storing them.
#[derive(Debug, Default)]
struct WalkTime {
    waiting: std::time::Duration,
    storing: std::time::Duration,
}

/// Pages of a walk that came one after the other, to store together.
struct Pages {
    customers: Vec<CustomerView>,
    /// When the first was asked for (what the cache says it read them at: no later
    /// than it did).
    asked: Timestamp,
    /// The first is the walk's first.
    first_page: bool,
    /// The cursor of the page after the last.
    next: Option<String>,
    has_more: bool,
    /// The customers the walk has seen with these pages.
    done: u64,
    pages: u32,
}

type CustomerList = loyalty_api::List<loyalty_api::Customer>;

impl Pages {
    /// `page`, asked for at `asked`, after the `done` customers the walk has seen.
    fn new(page: &CustomerList, asked: Timestamp, first_page: bool, done: u64) -> Self {
        let mut pages = Pages {
            customers: Vec::with_capacity(page.data.len()),
            asked,
            first_page,
            next: None,
            has_more: false,
            done,
            pages: 0,
        };
        pages.join(page);
        pages
    }

    /// Adds the page after the last.
    fn join(&mut self, page: &CustomerList) {
        self.customers
            .extend(page.data.iter().map(CustomerView::from));
        self.next = page.next_cursor.as_ref().map(|c| c.as_str().to_owned());
        self.has_more = page.has_more && self.next.is_some();
        self.done += page.data.len() as u64;
        self.pages += 1;
    }

    /// Stores the pages with the walk's place after them, in one transaction not synced
    /// to the disk: pages lost in a power cut are walked again. After the last page, the
    /// customers the walk did not see are forgotten: answers how many.
    fn store(self, db: &mut rusqlite::Connection) -> rusqlite::Result<u64> {
        let has_more = self.has_more;
        crate::db::cache_write(db, |tx| {
            if self.first_page {
                let newest = self.customers.first();
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
            cache::put_customers(tx, &self.customers, self.asked)?;
            tx.execute(
                "INSERT INTO sync_state (list) VALUES (?1) ON CONFLICT(list) DO NOTHING",
                [LIST],
            )?;
            tx.execute(
                "UPDATE sync_state SET cursor = ?2, done = ?3, finished = ?4 WHERE list = ?1",
                params![LIST, self.next, self.done, !has_more],
            )?;
            if has_more {
                return Ok(0);
            }
            tx.execute(
                "UPDATE sync_state SET last_total = done, newest_id = walk_newest_id,
                     newest_at = walk_newest_at WHERE list = ?1",
                [LIST],
            )?;
            let walk: i64 =
                tx.query_row("SELECT walk FROM sync_state WHERE list = ?1", [LIST], |r| {
                    r.get(0)
                })?;
            cache::forget_unseen(tx, walk)
        })
    }
}

/// One page of the customers' list, and when it was asked for.
type Fetched = (
    Timestamp,
    Result<loyalty_api::Response<loyalty_api::List<loyalty_api::Customer>>, ApiError>,
);

/// The task that asks for the pages of a walk, one after the other, as fast as the
/// service answers them: four wait in the channel and a fifth may be on its way while
/// the others are stored. Stopped when dropped.
struct Fetching {
    pages: mpsc::Receiver<Fetched>,
    task: JoinHandle<()>,
}

impl Fetching {
    /// Asks from the page after `cursor` on (the first for none), at most `max` pages.
    fn start(core: &Core, client: &Client, cursor: &Option<String>, max: Option<u32>) -> Self {
        let (sent, pages) = mpsc::channel(4);
        let (clock, client, mut cursor) = (core.clock.clone(), client.clone(), cursor.clone());
        let task = tokio::spawn(async move {
            for _ in 0..max.unwrap_or(u32::MAX) {
                let asked = clock.now();
                let answer = client.customers().list(&page_after(&cursor)).await;
                let next = match &answer {
                    Ok(page) if page.data.has_more => page.data.next_cursor.clone(),
                    _ => None,
                };
                if sent.send((asked, answer)).await.is_err() {
                    return;
                }
                match next {
                    Some(next) => cursor = Some(next.as_str().to_owned()),
                    None => return,
                }
            }
        });
        Fetching { pages, task }
    }
}

impl Drop for Fetching {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The parameters of the page after `cursor` (the first page for none).
fn page_after(cursor: &Option<String>) -> ListParams {
    let params = ListParams::new().limit(PAGE);
    match cursor {
        Some(cursor) => params.cursor(Cursor::new(cursor.clone())),
        None => params,
    }
}

/// Stores customers enrolled since the last finished walk (a full sync if none).
pub(crate) async fn top_up(core: &Arc<Core>, sender: &Sender) -> Result<SyncReport, Error> {
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
        let new: Vec<CustomerView> = page
            .data
            .data
            .iter()
            .take_while(|customer| !is_known(customer))
            .map(CustomerView::from)
            .collect();
        let met_known = new.len() < page.data.data.len();
        if let Some(first) = new.first() {
            newest.get_or_insert_with(|| (first.id.as_str().to_owned(), first.created_at));
        }
        crate::db::cache_write(&mut core.db(), |tx| cache::put_customers(tx, &new, asked))?;
        stored += new.len() as u64;
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
