//! The customer's screen, as data: what it shows and where it is shown (the
//! counter decides both; `counter`'s `customer_screen` keeps it current).

use serde::{Deserialize, Serialize};

use crate::language::Language;
use crate::views::Progress;

for_the_ui! {
/// What the customer's screen shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "show", rename_all = "snake_case")]
pub enum CustomerScreen {
    /// Between customers: the shop's welcome.
    Welcome {
        /// The shop (the business's name).
        shop: String,
        /// The till's language.
        language: Language,
    },
    /// The cashier opened this customer's card.
    Card {
        /// The customer's name, when the till knows it.
        name: Option<String>,
        /// Where the card stands, when its pass is known.
        progress: Option<Progress>,
        /// The card's pass's language, else the till's.
        language: Language,
    },
    /// A payment was taken from a gift card.
    Balance {
        /// What was taken (exact decimal text).
        taken: String,
        /// What is left on the card.
        balance: String,
        /// Their currency.
        currency: String,
        /// The till's language.
        language: Language,
    },
}
}

for_the_ui! {
/// Where the customer's screen is shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomerDisplay {
    /// The monitor's name, as the system gives it; None for any monitor but the
    /// counter's (or a window beside it when there is one monitor).
    pub monitor: Option<String>,
}
}
