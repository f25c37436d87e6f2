//! The queue as a person sees it: its items, their counts, and what a person decides.

use jiff::tz::TimeZone;

use super::*;
use crate::history;
use crate::input::InputError;

for_the_ui! {
/// What a person may decide about a write now. The core checks again when they do:
/// the screen offers, the core decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ItemChoices {
    /// Record another visit: a visit refused as too recent, not yet decided.
    pub confirm_repeat: bool,
    /// Send it again under its key: it needs a decision that a resend can settle.
    pub send_again: bool,
    /// Withdraw it: it needs a decision, or it waits and no attempt of it may have
    /// reached the service, and no cashier's attempt holds it now.
    pub discard: bool,
    /// Withdrawing it is a manager's decision (money moved or promised): the PIN is
    /// asked first.
    pub discard_needs_manager: bool,
    /// Sending it again is a manager's decision too (money could move twice).
    pub send_again_needs_manager: bool,
}
}

impl Counter {
    /// The business `item` waits for, when it is still open and belongs to another
    /// business than the key in use (the queue says so in words). None when it is
    /// this till's key's, or closed.
    pub fn waits_for(&self, item: &OutboxItem) -> Result<Option<Business>, Error> {
        let open = item.state.is_open() || item.state == ItemState::NeedsDecision;
        let Some(owner) = item.owner.filter(|_| open) else {
            return Ok(None);
        };
        let current = self
            .core
            .sender()
            .and_then(|s| s.owner)
            .or(self.core.owner());
        if current == Some(owner) {
            return Ok(None);
        }
        Ok(store::business(&self.core.db(), owner)?)
    }

    /// What a person may decide about `item` now.
    pub fn choices(&self, item: &OutboxItem) -> ItemChoices {
        ItemChoices {
            confirm_repeat: item.is_unresolved_recent_visit(),
            send_again: item.may_be_sent_again(),
            discard: item.may_be_discarded() && !self.core.is_claimed(item.id),
            discard_needs_manager: item.write.kind().is_money(),
            send_again_needs_manager: item.write.kind().is_money(),
        }
    }

    /// A cashier's decision on an item that needs one, or on a queued item that can
    /// safely be withdrawn: it is closed as refused and kept, with `note`. Checked and
    /// closed in one statement, so an item the sender has started sending is never
    /// withdrawn. Money (a payment, a gift card issued) is withdrawn only by a manager.
    pub fn discard(&self, item: ItemId, note: &str) -> Result<OutboxItem, Error> {
        self.staff()?;
        let note = input::text(TextField::Note, note, 500, false)?.unwrap_or_default();
        if outcome_state(&self.core, item)?.write.kind().is_money() {
            self.permit(Action::DiscardPaymentOrIssue)?;
        }
        let closed = !self.core.is_claimed(item)
            && store::discard(&self.core.db(), item, &note, self.core.now())?;
        if !closed {
            return Err(NotAllowed::MayHaveArrived.into());
        }
        self.core.publish_item(item);
        outcome_state(&self.core, item)
    }

    /// [`Counter::discard`] once the outbox's attempt in flight, if any, has ended: a
    /// queued write the service is being asked about at this moment (and turns away,
    /// say rate limited) is withdrawn when that answer is in, instead of being refused
    /// as one that may have arrived. No attempt starts while it is withdrawn.
    pub async fn withdraw(&self, item: ItemId, note: &str) -> Result<OutboxItem, Error> {
        self.staff()?;
        let _no_attempt = self.core.send_lock.lock().await;
        self.discard(item, note)
    }

    /// Sends an item that needs a decision again, with its own key (the person
    /// checked that it did not reach the service, or accepts the replay). The moment
    /// of its first attempt that may have arrived stays as it was.
    pub fn retry_item(&self, item: ItemId) -> Result<(), Error> {
        self.staff()?;
        let found = outcome_state(&self.core, item)?;
        if found.state != ItemState::NeedsDecision {
            return Err(NotAllowed::NoDecisionPending.into());
        }
        if !found.may_be_sent_again() {
            return Err(NotAllowed::SameAnswerAgain.into());
        }
        if found.write.kind().is_money() {
            self.permit(Action::ResendPaymentOrIssue)?;
        }
        if !store::approve_resend(&self.core.db(), item)? {
            return Err(NotAllowed::NoDecisionPending.into());
        }
        self.core.publish_item(item);
        self.send_now();
        Ok(())
    }

    /// The writes made on the till's days `from` to `to` (`2026-11-23`, both included,
    /// at most [`history::MAX_DAYS`]), in `state` when given, newest first, at most
    /// `limit`.
    pub fn history(
        &self,
        from: &str,
        to: &str,
        state: Option<ItemState>,
        limit: u32,
    ) -> Result<Vec<OutboxItem>, Error> {
        self.staff()?;
        let period = self.period(from, to)?;
        self.permit(Action::History)?;
        Ok(store::made_between(
            &self.core.db(),
            period,
            state,
            true,
            limit,
        )?)
    }

    /// Writes the CSV of every write made on the till's days `from` to `to` (in
    /// `state` when given), oldest first, to `path`; answers how many rows it holds.
    /// The shop's records leave the till only by a manager's hand.
    pub fn export_history(
        &self,
        from: &str,
        to: &str,
        state: Option<ItemState>,
        path: &Path,
        ids: history::CardIds,
    ) -> Result<usize, Error> {
        self.staff()?;
        let period = self.period(from, to)?;
        self.permit(Action::ExportHistory)?;
        let items = store::made_between(&self.core.db(), period, state, false, u32::MAX)?;
        let csv = history::to_csv(&items, &TimeZone::system(), ids);
        crate::private::write(path, csv.as_bytes()).map_err(Error::Export)?;
        Ok(items.len())
    }

    fn period(&self, from: &str, to: &str) -> Result<(Timestamp, Timestamp), Error> {
        let (first, last) = input::period(from, to, history::MAX_DAYS)?;
        history::instants(first, last, &TimeZone::system()).map_err(|_| {
            InputError::NotADate {
                given: input::shown(to),
            }
            .into()
        })
    }

    /// The queue: with `open_only`, what is queued, sending or needs a decision;
    /// else everything, newest first, at most `limit`.
    pub fn queue(&self, open_only: bool, limit: u32) -> Result<Vec<OutboxItem>, Error> {
        self.staff()?;
        Ok(store::list(&self.core.db(), open_only, limit)?)
    }

    /// One item.
    pub fn item(&self, id: ItemId) -> Result<OutboxItem, Error> {
        outcome_state(&self.core, id)
    }

    /// The queue's counts.
    pub fn counts(&self) -> Result<QueueCounts, Error> {
        Ok(store::counts(&self.core.db())?)
    }

    /// "Send now": lifts the till's own backoff (never a wait the service asked for)
    /// and wakes the sender.
    pub fn send_now(&self) {
        self.core.lift_backoff();
    }

    /// Waits until nothing is queued or sending, or `timeout` passes; true when empty.
    pub async fn drained(&self, timeout: std::time::Duration) -> Result<bool, Error> {
        let deadline = self.core.clock.instant() + timeout;
        let mut events = self.subscribe();
        loop {
            if self.counts()?.queued == 0 {
                return Ok(true);
            }
            let left = deadline.saturating_duration_since(self.core.clock.instant());
            if left.is_zero() {
                return Ok(false);
            }
            let _ = tokio::time::timeout(
                left.min(std::time::Duration::from_millis(250)),
                events.recv(),
            )
            .await;
        }
    }
}
