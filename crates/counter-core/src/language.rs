//! The till's languages: what its receipts and the customer's screen are written in.

use serde::{Deserialize, Serialize};

for_the_ui! {
/// The language a receipt is printed in: the till's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    /// English.
    #[default]
    En,
    /// French.
    Fr,
}
}

impl Language {
    /// The language of a language code (`fr`, `fr-CA`); English for any other.
    pub fn of_code(code: &str) -> Self {
        let primary = code.split(['-', '_']).next().unwrap_or_default();
        if primary.eq_ignore_ascii_case("fr") {
            Language::Fr
        } else {
            Language::En
        }
    }
}
