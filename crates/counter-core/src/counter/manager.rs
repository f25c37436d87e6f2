//! What only a manager may do starts with the manager's PIN ([`crate::pin`]). A right
//! PIN makes the manager "here" on this till until they leave (the screen says so) or
//! do nothing for [`MANAGER_IDLE`]; what can cost money asks [`Counter::as_manager`].

use std::time::{Duration, Instant};

use super::*;
use crate::pin::{self, PinError, PinStatus};

/// How long a manager who entered the PIN counts as here without doing anything.
pub const MANAGER_IDLE: Duration = Duration::from_secs(5 * 60);

impl Counter {
    /// Where the manager's PIN stands, and whether a manager is here.
    pub fn pin_status(&self) -> Result<PinStatus, Error> {
        Ok(PinStatus {
            manager_here: self.manager_here(),
            ..pin::status(&self.core.db(), self.core.now())?
        })
    }

    /// Sets the first PIN (4 to 8 digits); refused once one is set. The manager who
    /// set it is here. A kiosk kept without a PIN (an earlier version's) is dropped:
    /// the first PIN does not turn the till into a kiosk.
    pub fn set_pin(&self, new: &str) -> Result<(), Error> {
        self.owner()?;
        pin::set(&self.core.db(), new)?;
        self.manager_arrives();
        if self.settings()?.kiosk {
            self.change_settings(|saved| saved.kiosk = false)?;
        }
        Ok(())
    }

    /// Checks the PIN before a manager screen or what can cost money; five wrong tries
    /// lock it for five minutes. A right one makes the manager here.
    pub fn check_pin(&self, pin: &str) -> Result<(), Error> {
        pin::check(&self.core.db(), pin, self.core.now())?;
        self.manager_arrives();
        Ok(())
    }

    /// Changes the PIN, the old one first.
    pub fn change_pin(&self, old: &str, new: &str) -> Result<(), Error> {
        self.owner()?;
        pin::change(&self.core.db(), old, new, self.core.now())?;
        self.manager_arrives();
        Ok(())
    }

    /// The manager left the till: the next manager screen asks for the PIN again.
    pub fn manager_leaves(&self) {
        *self.manager_until() = None;
    }

    /// Goes on only when a manager is here (and keeps them here a while longer).
    pub(crate) fn as_manager(&self) -> Result<(), Error> {
        let mut until = self.manager_until();
        match *until {
            Some(deadline) if Instant::now() < deadline => {
                *until = Some(Instant::now() + MANAGER_IDLE);
                Ok(())
            }
            _ => {
                *until = None;
                Err(PinError::ManagerOnly.into())
            }
        }
    }

    fn manager_here(&self) -> bool {
        self.manager_until()
            .is_some_and(|deadline| Instant::now() < deadline)
    }

    fn manager_arrives(&self) {
        *self.manager_until() = Some(Instant::now() + MANAGER_IDLE);
    }

    fn manager_until(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        self.manager_until
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
