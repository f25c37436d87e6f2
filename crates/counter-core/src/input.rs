//! What a person (or the UI) hands the core, checked before anything is stored or
//! sent: a bad input gets a clear error, as data, and changes nothing. The screens put
//! the error in the cashier's language.

use loyalty_api::{CardId, GiftCardId, PassId, ScanAction};
use rust_decimal::Decimal;

pub use crate::error::{InputError, TextField, shown};
use crate::scanner::{self, Scanned};

/// A calendar date as typed (`2026-11-23`).
pub fn date(typed: &str) -> Result<jiff::civil::Date, InputError> {
    jiff::civil::Date::strptime("%Y-%m-%d", typed.trim()).map_err(|_| InputError::NotADate {
        given: shown(typed),
    })
}

/// A period of whole days, `from` and `to` both included, of at most `max_days`.
pub fn period(
    from: &str,
    to: &str,
    max_days: u32,
) -> Result<(jiff::civil::Date, jiff::civil::Date), InputError> {
    let (from, to) = (date(from)?, date(to)?);
    if to < from {
        return Err(InputError::PeriodBackwards);
    }
    let days = from
        .until((jiff::Unit::Day, to))
        .map_or(i64::MAX, |span| i64::from(span.get_days()))
        + 1;
    if days > i64::from(max_days) {
        return Err(InputError::PeriodTooLong { max_days });
    }
    Ok((from, to))
}

/// The most points one scan may add or deduct: far beyond any real scan, far below
/// what any number on the way can carry.
pub const MAX_POINTS: i64 = 1_000_000;

/// A loyalty card's id exactly as the scanner would read it.
pub fn card(id: &CardId) -> Result<(), InputError> {
    match scanner::read(id.as_str()) {
        Scanned::Card { id: read } if read == *id => Ok(()),
        Scanned::Unknown { code } if code == id.as_str() => Ok(()),
        _ => Err(InputError::NotACard {
            given: shown(id.as_str()),
        }),
    }
}

/// A gift card's id exactly as the scanner would read it.
pub fn gift_card(id: &GiftCardId) -> Result<(), InputError> {
    match scanner::read(id.as_str()) {
        Scanned::GiftCard { id: read } if read == *id => Ok(()),
        Scanned::Unknown { code } if code == id.as_str() => Ok(()),
        _ => Err(InputError::NotAGiftCard {
            given: shown(id.as_str()),
        }),
    }
}

/// A pass's id: `pass_` and 8 to 64 letters and digits.
pub fn pass(id: &PassId) -> Result<(), InputError> {
    let valid = id.as_str().strip_prefix("pass_").is_some_and(|tail| {
        (8..=64).contains(&tail.len()) && tail.chars().all(|c| c.is_ascii_alphanumeric())
    });
    if valid {
        Ok(())
    } else {
        Err(InputError::NotAPass {
            given: shown(id.as_str()),
        })
    }
}

/// Points fit the action: a number for `Points` (whole, not zero, within
/// [`MAX_POINTS`] either way), none for a visit or a redemption.
pub fn points(action: &ScanAction, amount: Option<Decimal>) -> Result<(), InputError> {
    if action.known().is_none() {
        return Err(InputError::UnknownAction);
    }
    let needs_points = *action == ScanAction::Points;
    match amount {
        None if !needs_points => Ok(()),
        Some(n) if needs_points => {
            let whole = n.fract().is_zero() && !n.is_zero();
            if whole && n.abs() <= Decimal::from(MAX_POINTS) {
                Ok(())
            } else {
                Err(InputError::PointsOutOfRange { max: MAX_POINTS })
            }
        }
        _ => Err(InputError::PointsMismatch {
            action: action.as_str().to_owned(),
            needs_points,
        }),
    }
}

/// A text a person typed: trimmed; at most `max` characters; no control characters;
/// empty refused when `required`, else None.
pub fn text(
    field: TextField,
    typed: &str,
    max: usize,
    required: bool,
) -> Result<Option<String>, InputError> {
    let text = typed.trim();
    if text.is_empty() {
        return if required {
            Err(InputError::Empty { field })
        } else {
            Ok(None)
        };
    }
    if text.chars().count() > max {
        return Err(InputError::TooLong { field, max });
    }
    if text.chars().any(char::is_control) {
        return Err(InputError::ControlCharacter { field });
    }
    Ok(Some(text.to_owned()))
}

/// A text of several lines (a message's body): trimmed; required; at most `max`
/// characters; line breaks and tabs allowed, other control characters not.
pub fn multiline(field: TextField, typed: &str, max: usize) -> Result<String, InputError> {
    let text = typed.trim();
    if text.is_empty() {
        return Err(InputError::Empty { field });
    }
    if text.chars().count() > max {
        return Err(InputError::TooLong { field, max });
    }
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err(InputError::ControlCharacter { field });
    }
    Ok(text.replace("\r\n", "\n"))
}

/// A language tag such as `en`, `fr` or `pt-BR`: what the service takes for an email's
/// language.
pub fn locale(typed: &str) -> Result<String, InputError> {
    let tag = text(TextField::Locale, typed, 35, true)?.unwrap_or_default();
    let mut parts = tag.split('-');
    let language = parts.next().unwrap_or("");
    let valid = (2..=3).contains(&language.len())
        && language.chars().all(|c| c.is_ascii_alphabetic())
        && parts
            .all(|p| (2..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()));
    if valid {
        Ok(tag)
    } else {
        Err(InputError::NotALanguage { given: shown(&tag) })
    }
}

/// An email address: one `@` with text on both sides, a dot in the domain, no spaces,
/// at most 254 characters.
pub fn email(typed: &str) -> Result<String, InputError> {
    let email = text(TextField::Email, typed, 254, true)?.unwrap_or_default();
    let valid = match email.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains('@')
                && !email.chars().any(char::is_whitespace)
        }
        None => false,
    };
    if valid {
        Ok(email)
    } else {
        Err(InputError::NotAnEmail {
            given: shown(&email),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_id_the_scanner_reads_as_is_is_a_card() {
        assert!(card(&CardId::new("card_0Ab1Cd2Ef3Gh4Ij5")).is_ok());
        // Ids are the service's strings: one without this project's prefix may be a card.
        assert!(card(&CardId::new("LOY-2026-000042")).is_ok());
        for bad in [
            "",
            "card_",
            "abc",
            " card_0Ab1Cd2Ef3Gh4Ij5",
            "card_0Ab1Cd2E\n",
            "gc_0Ab1Cd2Ef3Gh4Ij5",
            "../../v1/me",
            "*4006381333931*",
        ] {
            assert!(card(&CardId::new(bad)).is_err(), "{bad:?}");
        }
        assert!(gift_card(&GiftCardId::new("gc_0Ab1Cd2Ef3Gh4Ij5")).is_ok());
        assert!(gift_card(&GiftCardId::new("gc_../../v1/me")).is_err());
    }

    #[test]
    fn points_fit_the_action() {
        let p = |n: i64| Some(Decimal::from(n));
        assert!(points(&ScanAction::Points, p(40)).is_ok());
        assert!(points(&ScanAction::Points, p(-15)).is_ok());
        assert!(points(&ScanAction::Visit, None).is_ok());
        assert!(points(&ScanAction::Redeem, None).is_ok());
        assert_eq!(
            points(&ScanAction::Other, None),
            Err(InputError::UnknownAction)
        );
        assert!(points(&ScanAction::Points, None).is_err());
        assert!(points(&ScanAction::Visit, p(1)).is_err());
        assert!(points(&ScanAction::Points, p(0)).is_err());
        assert!(points(&ScanAction::Points, p(MAX_POINTS + 1)).is_err());
        assert!(points(&ScanAction::Points, Some(Decimal::new(15, 1))).is_err());
    }

    #[test]
    fn texts_are_trimmed_bounded_and_free_of_control_characters() {
        assert_eq!(
            text(TextField::Name, " Ana ", 10, true),
            Ok(Some("Ana".into()))
        );
        assert_eq!(text(TextField::Note, "  ", 10, false), Ok(None));
        assert!(text(TextField::Name, "", 10, true).is_err());
        assert!(text(TextField::Name, "Ana\u{0}", 10, true).is_err());
        assert!(text(TextField::Name, &"é".repeat(11), 10, true).is_err());
        assert_eq!(email(" ana@example.com "), Ok("ana@example.com".into()));
        assert_eq!(locale("pt-BR"), Ok("pt-BR".into()));
        for bad in ["", "e", "english", "en_GB", "en-", "\u{202e}en"] {
            assert!(locale(bad).is_err(), "{bad:?}");
        }
        for bad in [
            "ana",
            "@example.com",
            "ana@",
            "ana@example",
            "a b@example.com",
            "ana@@x.com",
        ] {
            assert!(email(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_period_is_whole_days_in_order_and_not_too_long() {
        let (from, to) = period("2026-01-01", "2026-12-31", 366).unwrap();
        assert_eq!(
            (from.to_string(), to.to_string()),
            ("2026-01-01".into(), "2026-12-31".into())
        );
        assert!(
            period("2024-01-01", "2024-12-31", 366).is_ok(),
            "a leap year is 366 days"
        );
        assert_eq!(
            period("2026-01-01", "2027-01-02", 366),
            Err(InputError::PeriodTooLong { max_days: 366 })
        );
        assert_eq!(
            period("2026-11-23", "2026-11-22", 366),
            Err(InputError::PeriodBackwards)
        );
        assert!(period("2026-11-23", "2026-11-23", 1).is_ok());
        for bad in [
            "",
            "23/11/2026",
            "2026-02-30",
            "2026-11-23T10:00",
            "2026-11-2x",
        ] {
            assert!(
                matches!(date(bad), Err(InputError::NotADate { .. })),
                "{bad:?}"
            );
        }
    }
}
