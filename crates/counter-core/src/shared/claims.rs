//! The outbox's claims and backoff: the items a cashier's call is sending itself (the
//! worker leaves them alone), and each item's own wait after a failure of its own.

use std::collections::HashSet;

use tokio::time::Instant;

use super::Core;
use crate::ids::PersonId;
use crate::outbox::{ItemId, store};

impl Core {
    /// Holds one item back for `wait` after a failure of its own.
    pub(crate) fn back_off(&self, id: ItemId, wait: std::time::Duration) {
        let until = self.later(wait.min(self.config.max_service_wait));
        self.backoff
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, until);
    }

    /// Whether `id` is waiting out its own backoff.
    pub(crate) fn is_backing_off(&self, id: ItemId) -> bool {
        let mut backoff = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
        match backoff.get(&id) {
            Some(until) if *until > self.clock.instant() => true,
            Some(_) => {
                backoff.remove(&id);
                false
            }
            None => false,
        }
    }

    /// When the first item's own backoff ends, if any waits.
    pub(crate) fn next_backoff_end(&self) -> Option<Instant> {
        let mut backoff = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
        let now = self.clock.instant();
        backoff.retain(|_, until| *until > now);
        backoff.values().min().copied()
    }

    /// Ends every item's own backoff ("send now").
    pub(super) fn clear_backoff(&self) {
        self.backoff
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    /// Stores a write and claims it for the caller in one step: the claim is taken
    /// before the row is visible, so the worker can never pick the item up first.
    pub(crate) fn enqueue_claimed(
        &self,
        write: &crate::outbox::Write,
        key: &loyalty_api::IdempotencyKey,
        replaces: Option<ItemId>,
        person: PersonId,
    ) -> rusqlite::Result<ItemId> {
        let made = store::Made {
            owner: self.owner(),
            kiosk: false,
            person: Some(person),
        };
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        let id = store::enqueue(&self.db(), write, key, self.now(), replaces, made)?;
        claimed.insert(id);
        Ok(id)
    }

    /// Stores a customer's check-in and claims it, unless one of the same card still
    /// waits ([`store::enqueue_check_in`]): None then.
    pub(crate) fn enqueue_check_in_claimed(
        &self,
        write: &crate::outbox::Write,
        key: &loyalty_api::IdempotencyKey,
    ) -> rusqlite::Result<Option<ItemId>> {
        let owner = self.owner();
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        let id = store::enqueue_check_in(&self.db(), write, key, self.now(), owner)?;
        claimed.extend(id);
        Ok(id)
    }

    /// Confirms a repeat visit ([`store::confirm_repeat`]) and claims a new
    /// replacement for the caller in the same step, as [`Core::enqueue_claimed`] does.
    pub(crate) fn confirm_repeat_claimed(
        &self,
        first: ItemId,
        replacement: &crate::outbox::Write,
        key: &loyalty_api::IdempotencyKey,
        person: PersonId,
    ) -> rusqlite::Result<store::RepeatConfirmation> {
        let mut claimed = self.claimed.lock().unwrap_or_else(|p| p.into_inner());
        let found =
            store::confirm_repeat(&mut self.db(), first, replacement, key, self.now(), person)?;
        if let store::RepeatConfirmation::Stored(id) = found {
            claimed.insert(id);
        }
        Ok(found)
    }

    /// Ends a cashier's claim on an item: from now on it is the worker's. Without a key
    /// the worker has nothing to send, and waking it would only cost a switch of threads
    /// on every write stored offline; the key's arrival wakes it, and it then finds this
    /// item unclaimed (the claim ends before the key is looked at).
    pub(crate) fn unclaim(&self, id: ItemId) {
        self.claimed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
        if self
            .sender
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
        {
            self.wake.notify_one();
        }
    }

    /// The items not to pick now: claimed by a cashier's call, or waiting out their own
    /// backoff. Read before the database is locked: taking these locks while holding
    /// the database would invert the order `enqueue_claimed` takes them in (claims,
    /// then database), and the two could wait for each other forever.
    pub(crate) fn not_ready(&self) -> HashSet<ItemId> {
        let mut ids: HashSet<ItemId> = self
            .claimed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let now = self.clock.instant();
        let backoff = self.backoff.lock().unwrap_or_else(|p| p.into_inner());
        ids.extend(
            backoff
                .iter()
                .filter(|(_, until)| **until > now)
                .map(|(id, _)| *id),
        );
        ids
    }

    pub(crate) fn is_claimed(&self, id: ItemId) -> bool {
        self.claimed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&id)
    }

    /// Whether a cashier's call is sending a write itself now.
    pub(crate) fn any_claimed(&self) -> bool {
        !self
            .claimed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_empty()
    }
}
