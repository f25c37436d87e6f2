//! How long the till keeps customers' details: closed writes, receipts and the gift
//! cards it read keep names, emails, phones and bodies for the retention a manager
//! sets ([`RETENTION_DAYS`] unless they chose), then keep only what the history and the
//! shift reports count (when, who, what kind, amounts, the service's record ids, the
//! last four). The forgetter applies it, with what the till keeps for less time still
//! (a closed write's whole gift card, a voucher's).

use super::*;
use crate::settings::{MAX_RETENTION_DAYS, RETENTION_DAYS};

impl Counter {
    /// How many days customers' details are kept (a manager's screen).
    pub fn retention_days(&self) -> Result<u32, Error> {
        self.staff()?;
        self.permit(Action::Retention)?;
        Ok(retention_of(&self.settings()?))
    }

    /// Sets it (a manager's): from 1 to [`MAX_RETENTION_DAYS`] days. What is older is
    /// forgotten at once.
    pub fn set_retention_days(&self, days: u32) -> Result<(), Error> {
        self.staff()?;
        if !(1..=MAX_RETENTION_DAYS).contains(&days) {
            return Err(NotAllowed::RetentionOutOfRange {
                max: MAX_RETENTION_DAYS,
            }
            .into());
        }
        self.permit(Action::SetRetention)?;
        self.change_settings(|saved| saved.retention_days = Some(days))?;
        forget_now(&self.core);
        Ok(())
    }
}

/// The retention the settings say, in days.
fn retention_of(settings: &Settings) -> u32 {
    settings.retention_days.unwrap_or(RETENTION_DAYS)
}

/// The snapshots taken before an upgrade hold what the till held then: past the
/// retention, they go as its closed writes' details do (at each start).
pub(super) fn forget_old_snapshots(core: &Core, database: &std::path::Path, saved: &Settings) {
    let days = i64::from(retention_of(saved));
    let cut = core.now() - jiff::SignedDuration::from_hours(24 * days);
    if let Err(error) = crate::db::snapshots::remove(database, Some(cut)) {
        tracing::warn!(%error, "snapshots past the retention could not be removed");
    }
}

/// Takes customers' details out of what is older than the retention; answers how many
/// rows changed.
fn redact_older(core: &Core, db: &rusqlite::Connection) -> Result<usize, Error> {
    let days = retention_of(&crate::settings::load(db)?);
    let before = core.now() - jiff::SignedDuration::from_hours(24 * i64::from(days));
    Ok(store::redact_closed(db, before)?
        + crate::print_jobs::redact(db, before)?
        + cache::forget_gift_cards_read_before(db, before)?)
}

/// At the start and every two minutes: what the till must no longer keep is forgotten
/// (a closed write's whole card a few minutes after it closed, a voucher's once its day
/// is over, customers' details past the retention), and the WAL cut so that it is on the
/// disk nowhere.
pub(super) async fn run_forgetter(core: Arc<Core>) {
    // Often enough that a closed write's card is kept whole a few minutes only.
    const EVERY: Duration = Duration::from_secs(120);
    loop {
        forget_now(&core);
        tokio::time::sleep(EVERY).await;
    }
}

fn forget_now(core: &Core) {
    let now = core.now();
    let before = now - crate::print_jobs::VOUCHER_KEEPS_ITS_CARD;
    let db = core.db();
    let closed = store::keep_card_ends(&db, now - crate::outbox::ANSWER_KEEPS_ITS_CARD)
        .unwrap_or_else(|error| {
            tracing::warn!(%error, "closed writes' card ids could not be forgotten");
            0
        });
    let redacted = redact_older(core, &db).unwrap_or_else(|error| {
        tracing::warn!(%error, "customers' details past the retention could not be forgotten");
        0
    });
    match crate::print_jobs::forget_cards(&db, before).map(|vouchers| vouchers + closed + redacted)
    {
        Ok(0) => {}
        Ok(forgotten) => {
            tracing::info!(
                forgotten,
                "whole gift-card ids or customers' details forgotten"
            );
            if let Err(error) = crate::db::truncate_wal(&db) {
                tracing::warn!(%error, "the WAL could not be cut");
            }
        }
        Err(error) => tracing::warn!(%error, "vouchers' card ids could not be forgotten"),
    }
}
