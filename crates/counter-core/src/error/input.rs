//! Why a typed or scanned input is refused.

use serde::{Deserialize, Serialize};

for_the_ui! {
/// Which text a person typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextField {
    /// A customer's or recipient's name.
    Name,
    /// An email address.
    Email,
    /// A note kept with a decision.
    Note,
    /// What was typed in a search.
    Search,
    /// An email's language.
    Locale,
    /// A message's title.
    Title,
    /// A message's body.
    Body,
    /// The till's name.
    TillName,
}
}

for_the_ui! {
/// Why an input is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InputError {
    /// Not the id of a loyalty card.
    #[error("{given:?} is not a loyalty card id")]
    NotACard {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// Not the id of a gift card.
    #[error("{given:?} is not a gift card id")]
    NotAGiftCard {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// Not the id of a pass.
    #[error("{given:?} is not a pass id")]
    NotAPass {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// Points given to an action that takes none, or none to one that needs them.
    #[error("{action} takes {}", if *needs_points { "a number of points" } else { "no points" })]
    PointsMismatch {
        /// The action.
        action: String,
        /// Whether it needs points.
        needs_points: bool,
    },
    /// Points that are zero, not whole, or beyond what a scan may carry.
    #[error("points must be a whole number from 1 to {max}, or -1 to -{max} to deduct")]
    PointsOutOfRange {
        /// The most points one scan may add or deduct.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        max: i64,
    },
    /// A required text left empty.
    #[error("the {field:?} is empty")]
    Empty {
        /// Which text.
        field: TextField,
    },
    /// Longer than the field takes.
    #[error("the {field:?} has more than {max} characters")]
    TooLong {
        /// Which text.
        field: TextField,
        /// The most characters.
        max: usize,
    },
    /// A tab, line break or other control character.
    #[error("the {field:?} holds control characters")]
    ControlCharacter {
        /// Which text.
        field: TextField,
    },
    /// Not an email address.
    #[error("{given:?} is not an email address")]
    NotAnEmail {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// Not a language tag.
    #[error("{given:?} is not a language tag such as en, fr or pt-BR")]
    NotALanguage {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// A wallet other than Apple's or Google's.
    #[error("not a wallet (apple or google)")]
    UnknownWallet,
    /// An action other than a visit, points or a redemption.
    #[error("not an action of the counter (visit, points or redeem)")]
    UnknownAction,
    /// Not a calendar date.
    #[error("{given:?} is not a date such as 2026-11-23")]
    NotADate {
        /// What was given (cut to 64 characters).
        given: String,
    },
    /// A period that ends before it starts.
    #[error("the period ends before it starts")]
    PeriodBackwards,
    /// A period longer than what may be asked at once.
    #[error("a period is at most {max_days} days")]
    PeriodTooLong {
        /// The most days, both ends included.
        max_days: u32,
    },
}
}

/// The start of what was given, for an error: its first 64 characters, enough to
/// recognise it, never a huge paste echoed back.
pub fn shown(text: &str) -> String {
    text.chars().take(64).collect()
}
