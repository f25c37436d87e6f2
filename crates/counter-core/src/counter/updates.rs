//! The moment to restart into an upgraded app: between customers. The page says what
//! it shows (a dialog, something typed, when it was last touched); the counter knows
//! whether a customer's card is open and whether a write is on its way to the service.

use super::*;
use crate::customer_display::CustomerScreen;
use crate::update::{self, Busy, Moment, PageAtRest};

/// The counter held still for a restart: no write starts on its way to the service
/// while it is kept (see [`Counter::hold_for_restart`]).
#[derive(Debug)]
pub struct RestartHold<'a>(#[allow(dead_code)] tokio::sync::MutexGuard<'a, ()>);

impl Counter {
    /// Whether the till may restart into a waiting update now: no customer's card open
    /// (on the page, nor on the customer's screen, their balance neither), no write
    /// being sent, and the page at rest (no dialog, nothing typed, untouched for
    /// [`update::UNTOUCHED_BEFORE_RESTART`]). Asked of any till, the kiosk's and the lock
    /// screen's too: it changes nothing.
    pub fn restart_moment(&self, page: PageAtRest) -> Moment {
        if matches!(
            self.customer_screen(),
            Ok(CustomerScreen::Card { .. } | CustomerScreen::Balance { .. })
        ) {
            return Moment::Later(Busy::CardOpen);
        }
        if self.core.any_claimed() || self.core.send_lock.try_lock().is_err() {
            return Moment::Later(Busy::Sending);
        }
        update::page_moment(page)
    }

    /// Waits for the write being sent, if any, to be answered and stored, then keeps
    /// any other from starting until the hold is dropped (the process replaced by the
    /// upgraded app's). Every write is in the till's file already: the restarted app
    /// sends what waits.
    pub async fn hold_for_restart(&self) -> RestartHold<'_> {
        RestartHold(self.core.send_lock.lock().await)
    }
}
