//! How long the till keeps customers' details: closed writes, receipts and the gift
//! cards it read keep names, emails, phones and bodies for the retention a manager
//! sets ([`RETENTION_DAYS`] unless they chose), then keep only what the history and the
//! shift reports count (when, who, what kind, amounts, the service's record ids, the
//! last four). The forgetter applies it (`forget_now`).

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
pub(super) fn retention_of(settings: &Settings) -> u32 {
    settings.retention_days.unwrap_or(RETENTION_DAYS)
}

/// Takes customers' details out of what is older than the retention; answers how many
/// rows changed.
pub(super) fn redact_older(core: &Core, db: &rusqlite::Connection) -> Result<usize, Error> {
    let days = retention_of(&crate::settings::load(db)?);
    let before = core.now() - jiff::SignedDuration::from_hours(24 * i64::from(days));
    Ok(store::redact_closed(db, before)?
        + crate::print_jobs::redact(db, before)?
        + cache::forget_gift_cards_read_before(db, before)?)
}
