//! What only a manager may do starts with the manager's PIN ([`crate::pin`]), and a PIN
//! opens only what it was asked for ([`PinFor`]): one action at a cashier's screen, or
//! a manager's visit to the manager's screens, which lasts while one of them is open
//! and the manager does something at least every [`Config::manager_idle`]. What can
//! cost money or change where writes go asks [`Counter::as_manager`], whatever the page
//! says. Idle is measured on the till's uptime ([`Clock::uptime`]): neither a change of
//! the wall clock nor a restart (which forgets the manager) can stretch it, and a test
//! moves it with the till's clock.

use std::time::Duration;

use crate::clock::Uptime;

use super::*;
use crate::pin::{self, PinError, PinStatus};

for_the_ui! {
/// What a right PIN opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PinFor {
    /// The one action it was asked for at a cashier's screen (issue a gift card,
    /// withdraw a payment, replace the key, leave the kiosk ...): the next manager's
    /// action uses it up; if none comes within the idle time, it lapses.
    OneAction,
    /// A manager's visit to Figures, Messages, Lists or Settings: the manager is here
    /// until they leave those screens, or do nothing for the idle time.
    Visit,
}
}

/// Whether, and how, a manager is here now.
#[derive(Debug, Default)]
pub(super) struct Presence {
    /// A visit to the manager's screens, until then (moved on by each action).
    visit_until: Option<Uptime>,
    /// A PIN given for one action, usable until then.
    one_action_until: Option<Uptime>,
}

impl Presence {
    fn visiting(&self, now: &Uptime) -> bool {
        self.visit_until
            .as_ref()
            .is_some_and(|until| before(now, until))
    }

    fn one_action(&self, now: &Uptime) -> bool {
        self.one_action_until
            .as_ref()
            .is_some_and(|until| before(now, until))
    }
}

/// Whether `now` comes before `until` (on the same boot: uptime restarts with one).
fn before(now: &Uptime, until: &Uptime) -> bool {
    now.boot == until.boot && now.since_boot < until.since_boot
}

/// `by` after `now`.
fn after(now: &Uptime, by: Duration) -> Uptime {
    Uptime {
        boot: now.boot.clone(),
        since_boot: now.since_boot.saturating_add(by),
    }
}

impl Counter {
    /// Where the manager's PIN stands, and whether a manager is here (on a visit).
    pub fn pin_status(&self) -> Result<PinStatus, Error> {
        Ok(PinStatus {
            manager_here: self.presence().visiting(&self.core.uptime()),
            ..pin::status(&self.core.db(), self.core.now(), &self.core.uptime())?
        })
    }

    /// Sets the first PIN (4 to 8 digits); refused once one is set. It opens what it
    /// was set for, as a right PIN would. A kiosk kept without a PIN (an earlier
    /// version's) is dropped: the first PIN does not turn the till into a kiosk.
    pub fn set_pin(&self, new: &str, opens: PinFor) -> Result<(), Error> {
        self.owner()?;
        pin::set(&self.core.db(), new)?;
        if self.settings()?.kiosk {
            self.change_settings(|saved| saved.kiosk = false)?;
        }
        self.manager_arrives(opens);
        Ok(())
    }

    /// Checks the PIN; wrong tries lock it ([`crate::pin`]). A right one opens what
    /// it was asked for: one action, or a manager's visit.
    pub fn check_pin(&self, pin: &str, opens: PinFor) -> Result<(), Error> {
        pin::check(&self.core.db(), pin, self.core.now(), &self.core.uptime())?;
        self.manager_arrives(opens);
        Ok(())
    }

    /// Changes the PIN, the old one first. Not at a kiosk.
    pub fn change_pin(&self, old: &str, new: &str) -> Result<(), Error> {
        self.owner()?;
        self.staff()?;
        pin::change(
            &self.core.db(),
            old,
            new,
            self.core.now(),
            &self.core.uptime(),
        )?;
        self.manager_arrives(PinFor::Visit);
        Ok(())
    }

    /// The manager left the till (or its manager's screens): the next manager's
    /// screen or action asks for the PIN again.
    pub fn manager_leaves(&self) {
        *self.presence() = Presence::default();
    }

    /// Goes on only when a manager is here: on a visit (kept a while longer), or with
    /// a PIN given for one action, which this uses up.
    pub(crate) fn as_manager(&self) -> Result<(), Error> {
        let now = self.core.uptime();
        let mut presence = self.presence();
        if presence.visiting(&now) {
            presence.visit_until = Some(after(&now, self.core.config.manager_idle));
            presence.one_action_until = None;
            return Ok(());
        }
        let one_action = presence.one_action(&now);
        *presence = Presence::default();
        if one_action {
            Ok(())
        } else {
            Err(PinError::ManagerOnly.into())
        }
    }

    /// Whether [`Counter::as_manager`] would go on now, using nothing up: for an action
    /// that asks the service something first.
    pub(crate) fn manager_may(&self) -> Result<(), Error> {
        let now = self.core.uptime();
        let presence = self.presence();
        if presence.visiting(&now) || presence.one_action(&now) {
            Ok(())
        } else {
            Err(PinError::ManagerOnly.into())
        }
    }

    fn manager_arrives(&self, opens: PinFor) {
        let until = after(&self.core.uptime(), self.core.config.manager_idle);
        let mut presence = self.presence();
        match opens {
            PinFor::Visit => presence.visit_until = Some(until),
            PinFor::OneAction => presence.one_action_until = Some(until),
        }
    }

    fn presence(&self) -> std::sync::MutexGuard<'_, Presence> {
        self.presence
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A manager's decision the shell carries out (the demo's reset): not at a kiosk,
    /// and only with the manager here.
    pub fn manager_decides(&self) -> Result<(), Error> {
        self.staff()?;
        self.as_manager()
    }

    /// Whether this till may be left for another (the demo's, for a real one): not at a
    /// kiosk, and by the manager once a PIN is set (the demo's first visitor has none).
    pub fn may_be_left(&self) -> Result<(), Error> {
        self.staff()?;
        if self.pin_is_set()? {
            self.as_manager()?;
        }
        Ok(())
    }

    /// Goes on only when the till is not a kiosk: a kiosk checks customers in and
    /// nothing else, whatever its page asks ([`NotAllowed::Kiosk`]).
    pub fn staff(&self) -> Result<(), Error> {
        if self.kiosk_on.load(Ordering::SeqCst) {
            Err(NotAllowed::Kiosk.into())
        } else {
            Ok(())
        }
    }
}
