//! The customer's screen: a second window facing the customer. It follows the counter:
//! the shop's welcome while idle, the customer's name and progress when the cashier
//! opens their card (in the language of the card's pass), the card's balance after a
//! gift-card payment. It shows nothing a customer may not see and offers no control:
//! the core decides what it shows, and the window only draws it.

use super::*;
use crate::language::Language;
use crate::views::CardView;

/// What the customer's screen shows now, and a count of its changes (a change that is
/// not the latest does not bring the welcome back).
#[derive(Debug, Default)]
pub(crate) struct Shown {
    screen: Option<CustomerScreen>,
    changes: u64,
}

impl Counter {
    /// What the customer's screen shows now.
    pub fn customer_screen(&self) -> Result<CustomerScreen, Error> {
        let shown = self.shown().screen.clone();
        match shown {
            Some(screen) => Ok(screen),
            None => self.welcome(),
        }
    }

    /// The counter shows nothing any more: the customer's screen welcomes the next one.
    pub fn counter_idle(&self) -> Result<(), Error> {
        self.staff()?;
        let welcome = self.welcome()?;
        self.show_customer(welcome);
        Ok(())
    }

    /// Where the customer's screen is shown, when it is on.
    pub fn customer_display(&self) -> Result<Option<CustomerDisplay>, Error> {
        self.staff()?;
        Ok(self.settings()?.customer_display)
    }

    /// Turns the customer's screen on, on a monitor, or off (a manager's).
    pub fn set_customer_display(&self, display: Option<CustomerDisplay>) -> Result<(), Error> {
        self.staff()?;
        let display = match display {
            Some(CustomerDisplay { monitor }) => Some(CustomerDisplay {
                monitor: match monitor
                    .map(|m| m.trim().to_owned())
                    .filter(|m| !m.is_empty())
                {
                    Some(name) => {
                        Some(input::text(TextField::Name, &name, 200, true)?.unwrap_or_default())
                    }
                    None => None,
                },
            }),
            None => None,
        };
        self.permit(Action::SetCustomerDisplay)?;
        self.change_settings(|saved| saved.customer_display = display)
    }

    fn welcome(&self) -> Result<CustomerScreen, Error> {
        welcome(&self.core)
    }

    fn shown(&self) -> std::sync::MutexGuard<'_, Shown> {
        self.customer_screen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Shows `screen` to the customer now; a card or a balance gives way to the welcome
    /// after [`Config::customer_screen_idle`] unless something newer is shown.
    pub(crate) fn show_customer(&self, screen: CustomerScreen) {
        let is_welcome = matches!(screen, CustomerScreen::Welcome { .. });
        let change = {
            let mut shown = self.shown();
            if shown.screen.as_ref() == Some(&screen) {
                return;
            }
            shown.screen = Some(screen.clone());
            shown.changes += 1;
            shown.changes
        };
        self.core.events.publish(Event::CustomerScreen(screen));
        if is_welcome {
            return;
        }
        let (core, shown, idle) = (
            self.core.clone(),
            self.customer_screen.clone(),
            self.core.config.customer_screen_idle,
        );
        // Without a runtime (never in the app) the card stays until the next change.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            tokio::time::sleep(idle).await;
            let Ok(next) = welcome(&core) else {
                return;
            };
            let mut now = shown.lock().unwrap_or_else(|p| p.into_inner());
            if now.changes == change {
                now.screen = Some(next.clone());
                now.changes += 1;
                drop(now);
                core.events.publish(Event::CustomerScreen(next));
            }
        });
    }

    /// The customer's screen shows `card` (the counter opened it, or a scan changed it).
    pub(crate) fn show_card_to_customer(
        &self,
        card: &CardView,
        pass: Option<&PassView>,
        settings: &Settings,
    ) {
        let name = self
            .cached_card(&card.id)
            .ok()
            .flatten()
            .and_then(|known| known.customer)
            .and_then(|customer| customer.name);
        let language = match pass {
            Some(pass) if !pass.locale.is_empty() => Language::of_code(&pass.locale),
            _ => till_language(settings),
        };
        self.show_customer(CustomerScreen::Card {
            name,
            progress: self.progress(card),
            language,
        });
    }

    /// The customer's screen shows what a payment left on the card.
    pub(crate) fn show_balance_to_customer(&self, payment: &PaymentView) {
        let language = self
            .settings()
            .map(|s| till_language(&s))
            .unwrap_or_default();
        self.show_customer(CustomerScreen::Balance {
            taken: payment.amount.to_string(),
            balance: payment.balance_after.to_string(),
            currency: payment.gift_card.currency.to_string(),
            language,
        });
    }
}

/// The shop's welcome, in the till's language.
fn welcome(core: &Core) -> Result<CustomerScreen, Error> {
    let settings = settings::load(&core.db())?;
    Ok(CustomerScreen::Welcome {
        language: till_language(&settings),
        shop: settings
            .connection
            .map(|c| c.business_name)
            .unwrap_or_default(),
    })
}

fn till_language(settings: &Settings) -> Language {
    settings
        .language
        .as_deref()
        .map_or(Language::En, Language::of_code)
}
