//! What the core and the camera tell a window's page waits in that window's mailbox
//! until the page asks for it: the page keeps one call open (`page_events`), answered as
//! soon as anything waits.
//!
//! Not Tauri's events: an event reaches the page as a script the app has WebKit run in
//! it, and WebKit hands every script's result back to the app's own process, which
//! starts a whole JavaScript engine of its own to hold it (3.5 MB of the app's idle
//! memory, measured). A call's answer comes back over the IPC's scheme, as every other
//! answer does.
//!
//! A page hears everything posted since it began to load, in order: what comes while no
//! call is open waits for the next one. Its window's mailbox is opened (emptied) when a
//! page begins to load in it, which also ends the call a page it replaces left open; a
//! newer call from the window takes over from an older one; the window's end closes the
//! mailbox, and what is posted to a window without one goes nowhere.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::Notify;

use crate::views::CoreEvent;

/// What the camera sends the window that opened it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum CameraSight {
    /// The newest frame, small, as a `data:image/jpeg` URL.
    Preview { url: String },
    /// A code read (not seen in the last few seconds): the text a wedge scanner would
    /// type.
    Code { text: String },
    /// The camera stopped working.
    Failed,
}

/// The most a mailbox keeps for a page that does not ask; the oldest go first. A
/// counter's page takes what waits within a frame; a thousand events is minutes of a busy
/// sync.
const MOST_WAITING: usize = 1000;

/// One thing a page is told.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[serde(tag = "from", content = "event", rename_all = "snake_case")]
#[ts(export)]
pub enum PageEvent {
    /// The core's: connectivity, the queue, the outbox's items, the sync, the customer's
    /// screen.
    Core(CoreEvent),
    /// The camera this window opened.
    Camera(CameraSight),
    /// An update was installed (`crate::update`).
    Update(crate::views::UpdateState),
}

impl PageEvent {
    /// A newer `self` makes `older` pointless to show: a camera's frame replaces the one
    /// before it that the page has not taken yet.
    fn replaces(&self, older: &PageEvent) -> bool {
        matches!(
            (self, older),
            (
                PageEvent::Camera(CameraSight::Preview { .. }),
                PageEvent::Camera(CameraSight::Preview { .. })
            )
        )
    }
}

/// Every open window's mailbox, by window label.
#[derive(Debug, Default)]
pub struct Mailboxes(Mutex<Boxes>);

#[derive(Debug, Default)]
struct Boxes {
    by_window: HashMap<String, Mailbox>,
    /// Asks so far, of every window: an ask's number is never used again, even by a
    /// window of the same label opened later.
    asks: u64,
}

#[derive(Debug, Default)]
struct Mailbox {
    waiting: VecDeque<PageEvent>,
    /// The number of the ask that may take what waits: an older one still waiting gives
    /// up, empty-handed.
    newest_ask: u64,
    /// Some were dropped since the page last asked (said once in the log).
    overflowed: bool,
    /// Rung when something is posted, when a newer ask takes over, and when the mailbox
    /// is opened again or closed.
    bell: Arc<Notify>,
}

impl Mailboxes {
    /// A page begins to load in `window`: its mailbox starts empty (the page reads what
    /// is true now once it listens), and the call a page before it left open ends.
    pub fn open(&self, window: &str) {
        let mut boxes = self.lock();
        if let Some(old) = boxes
            .by_window
            .insert(window.to_owned(), Mailbox::default())
        {
            old.bell.notify_waiters();
        }
    }

    /// `window` has ended: what waited for it goes, and its ask gives up.
    pub fn close(&self, window: &str) {
        if let Some(old) = self.lock().by_window.remove(window) {
            old.bell.notify_waiters();
        }
    }

    /// Leaves `event` for `window`'s page, if the window has a mailbox.
    pub fn post(&self, window: &str, event: PageEvent) {
        let mut boxes = self.lock();
        let Some(mailbox) = boxes.by_window.get_mut(window) else {
            return;
        };
        mailbox.waiting.retain(|older| !event.replaces(older));
        if mailbox.waiting.len() == MOST_WAITING {
            mailbox.waiting.pop_front();
            if !mailbox.overflowed {
                mailbox.overflowed = true;
                tracing::warn!(window, "a page is not taking its events: the oldest go");
            }
        }
        mailbox.waiting.push_back(event);
        mailbox.bell.notify_waiters();
    }

    /// What waits for `window`'s page, as soon as anything does; nothing if another ask
    /// from the window takes over first, or the mailbox is opened again or closed.
    pub async fn next(&self, window: &str) -> Vec<PageEvent> {
        let (ask, bell) = {
            let mut boxes = self.lock();
            boxes.asks += 1;
            let ask = boxes.asks;
            let Some(mailbox) = boxes.by_window.get_mut(window) else {
                return Vec::new();
            };
            mailbox.newest_ask = ask;
            // The ask it takes over from gives up now.
            mailbox.bell.notify_waiters();
            (ask, Arc::clone(&mailbox.bell))
        };
        loop {
            // Listening before looking: a post between the two still wakes this ask.
            let rung = bell.notified();
            tokio::pin!(rung);
            rung.as_mut().enable();
            {
                let mut boxes = self.lock();
                let Some(mailbox) = boxes.by_window.get_mut(window) else {
                    return Vec::new();
                };
                if mailbox.newest_ask != ask {
                    return Vec::new();
                }
                if !mailbox.waiting.is_empty() {
                    mailbox.overflowed = false;
                    return mailbox.waiting.drain(..).collect();
                }
            }
            rung.await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Boxes> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use counter_core::Connectivity;

    use super::*;

    fn connectivity(state: Connectivity) -> PageEvent {
        PageEvent::Core(CoreEvent::Connectivity { state })
    }

    fn preview(url: &str) -> PageEvent {
        PageEvent::Camera(CameraSight::Preview { url: url.into() })
    }

    /// The events as JSON, to compare.
    fn json(events: &[PageEvent]) -> serde_json::Value {
        serde_json::to_value(events).expect("events serialize")
    }

    /// Whether `ask` is still waiting after a moment.
    async fn still_waiting<F: Future>(ask: &mut std::pin::Pin<&mut F>) -> bool {
        tokio::time::timeout(Duration::from_millis(50), ask.as_mut())
            .await
            .is_err()
    }

    /// Mailboxes with `windows` open.
    fn opened(windows: &[&str]) -> Mailboxes {
        let boxes = Mailboxes::default();
        for window in windows {
            boxes.open(window);
        }
        boxes
    }

    #[tokio::test]
    async fn what_is_posted_while_nobody_asks_waits_in_order_for_the_next_ask() {
        let boxes = opened(&["main"]);
        boxes.post("main", connectivity(Connectivity::Offline));
        boxes.post("main", connectivity(Connectivity::Online));
        assert_eq!(
            json(&boxes.next("main").await),
            json(&[
                connectivity(Connectivity::Offline),
                connectivity(Connectivity::Online)
            ])
        );
        // Taken once: the next ask waits for something new.
        let ask = boxes.next("main");
        tokio::pin!(ask);
        assert!(still_waiting(&mut ask).await);
    }

    #[tokio::test]
    async fn an_ask_waits_until_something_is_posted_to_its_window() {
        let boxes = opened(&["main", "customer"]);
        let ask = boxes.next("main");
        tokio::pin!(ask);
        assert!(still_waiting(&mut ask).await);
        boxes.post("customer", connectivity(Connectivity::Online));
        assert!(still_waiting(&mut ask).await, "another window's event");
        boxes.post("main", connectivity(Connectivity::Offline));
        assert_eq!(
            json(&ask.await),
            json(&[connectivity(Connectivity::Offline)])
        );
        assert_eq!(
            json(&boxes.next("customer").await),
            json(&[connectivity(Connectivity::Online)])
        );
    }

    #[tokio::test]
    async fn a_newer_ask_takes_over_and_the_older_gives_up_empty_handed() {
        let boxes = opened(&["main"]);
        let older = boxes.next("main");
        tokio::pin!(older);
        assert!(still_waiting(&mut older).await);
        let newer = boxes.next("main");
        tokio::pin!(newer);
        assert!(still_waiting(&mut newer).await);
        assert!(older.await.is_empty());
        boxes.post("main", connectivity(Connectivity::Online));
        assert_eq!(
            json(&newer.await),
            json(&[connectivity(Connectivity::Online)])
        );
    }

    #[tokio::test]
    async fn a_reloaded_page_hears_everything_posted_since_it_began_to_load() {
        let boxes = opened(&["main"]);
        let gone = boxes.next("main");
        tokio::pin!(gone);
        assert!(still_waiting(&mut gone).await);
        boxes.post("main", connectivity(Connectivity::Offline));
        // The page reloads: the call the old page left open ends, and what it did not
        // take goes (the new page reads what is true once it listens)...
        boxes.open("main");
        // ...before the old page's call could take what is posted as the new page loads.
        boxes.post("main", connectivity(Connectivity::Online));
        assert!(gone.await.is_empty(), "the old page's call gives up");
        assert_eq!(
            json(&boxes.next("main").await),
            json(&[connectivity(Connectivity::Online)])
        );
    }

    #[tokio::test]
    async fn a_page_that_does_not_ask_keeps_the_newest_events_and_one_camera_frame() {
        let boxes = opened(&["main"]);
        boxes.post("main", preview("data:first"));
        for _ in 0..MOST_WAITING + 5 {
            boxes.post("main", connectivity(Connectivity::Offline));
        }
        boxes.post("main", preview("data:second"));
        boxes.post("main", connectivity(Connectivity::Online));
        boxes.post("main", preview("data:third"));
        let taken = boxes.next("main").await;
        assert_eq!(taken.len(), MOST_WAITING);
        let last = json(&taken[MOST_WAITING - 2..]);
        assert_eq!(
            last,
            json(&[connectivity(Connectivity::Online), preview("data:third")])
        );
        let frames = taken
            .iter()
            .filter(|e| matches!(e, PageEvent::Camera(_)))
            .count();
        assert_eq!(frames, 1, "only the newest frame is kept");
    }

    #[tokio::test]
    async fn a_closed_window_keeps_nothing_and_its_reopened_page_hears_only_its_own() {
        let boxes = opened(&["customer"]);
        let ask = boxes.next("customer");
        tokio::pin!(ask);
        assert!(still_waiting(&mut ask).await);
        boxes.close("customer");
        assert!(ask.await.is_empty(), "the ask gives up");
        // Posted after the window ended (a race with its end): it goes nowhere.
        boxes.post("customer", connectivity(Connectivity::Offline));
        assert!(boxes.next("customer").await.is_empty());
        // Opened again: its page hears what is posted from now on.
        boxes.open("customer");
        boxes.post("customer", connectivity(Connectivity::Online));
        assert_eq!(
            json(&boxes.next("customer").await),
            json(&[connectivity(Connectivity::Online)])
        );
    }
}
