//! Gift-card payments: the amount a cashier types, turned into whole minor units
//! exactly, and the ticket number; the manager's policy for payments taken while
//! offline is in [`policy`].

mod form;
mod policy;

pub use crate::error::{AmountError, PolicyRefusal, ReferenceError};
pub use form::{CurrencyCapsForm, OfflinePolicyForm};
pub use policy::{CurrencyCaps, OfflinePaymentPolicy};

use iso_currency::Currency as Iso;
use loyalty_api::{Currency, MinorUnits};
use rust_decimal::Decimal;

/// The number of decimals of a card's currency: its ISO 4217 exponent. A code that
/// is not an ISO currency with minor units (a sessions card) counts whole units.
pub fn exponent(currency: &Currency) -> u32 {
    Iso::from_code(currency.as_str())
        .and_then(|c| c.exponent())
        .map(u32::from)
        .unwrap_or(0)
}

/// What a cashier typed, as the exact amount it is in `currency` ("12,5" is 12.50 EUR),
/// or why it is none: the one rule for amounts, which the screens ask as they type.
pub fn amount_of(typed: &str, currency: &Currency) -> Result<Decimal, AmountError> {
    parse_amount(typed, currency).map(|minor| to_decimal(minor, currency))
}

/// The most minor units an amount may have: 2^53 - 1, the largest integer every JSON
/// reader keeps exact. A bound of minor units, so it is the same for every currency
/// (a bound of major units would be a pittance in a currency without decimals).
pub const MAX_MINOR_UNITS: i64 = (1 << 53) - 1;

/// Reads what a cashier typed as an amount of `currency`, exactly: `12.5`, `12.50`,
/// `12,50` (a decimal comma) and ` 12.50 ` are the same; no rounding ever happens, so
/// `12.505` EUR is refused rather than guessed.
pub fn parse_amount(typed: &str, currency: &Currency) -> Result<MinorUnits, AmountError> {
    let text = typed.trim();
    if text.is_empty() {
        return Err(AmountError::Empty);
    }
    let normal = if text.contains(',') && !text.contains('.') && text.matches(',').count() == 1 {
        text.replace(',', ".")
    } else {
        text.to_owned()
    };
    let well_formed = {
        let body = normal.strip_prefix('-').unwrap_or(&normal);
        let mut parts = body.splitn(2, '.');
        let whole = parts.next().unwrap_or("");
        let fraction = parts.next();
        !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
    };
    let amount = well_formed
        .then(|| normal.parse::<Decimal>().ok())
        .flatten()
        .ok_or_else(|| AmountError::NotANumber {
            // Enough to recognise it; never a huge paste echoed back.
            text: typed.chars().take(32).collect(),
        })?;
    if amount.is_sign_negative() && !amount.is_zero() {
        return Err(AmountError::Negative);
    }
    if amount.is_zero() {
        return Err(AmountError::Zero);
    }
    let decimals = exponent(currency);
    if amount.normalize().scale() > decimals {
        return Err(AmountError::TooManyDecimals {
            currency: currency.to_string(),
            decimals,
        });
    }
    let too_large = || AmountError::TooLarge {
        amount: amount.to_string(),
        currency: currency.to_string(),
        max: to_decimal(MinorUnits(MAX_MINOR_UNITS), currency).to_string(),
    };
    let scaled = amount
        .checked_mul(Decimal::from(10_i64.pow(decimals)))
        .ok_or_else(too_large)?;
    let minor = i64::try_from(scaled.trunc())
        .ok()
        .filter(|m| *m <= MAX_MINOR_UNITS)
        .ok_or_else(too_large)?;
    Ok(MinorUnits(minor))
}

/// Minor units back to a decimal of the currency (for messages and sums).
pub fn to_decimal(minor: MinorUnits, currency: &Currency) -> Decimal {
    Decimal::new(minor.get(), exponent(currency))
}

/// A decimal balance of the currency in minor units (balances come as decimals).
pub fn to_minor(amount: Decimal, currency: &Currency) -> Option<MinorUnits> {
    let scaled = amount.checked_mul(Decimal::from(10_i64.pow(exponent(currency))))?;
    (scaled.fract().is_zero())
        .then(|| i64::try_from(scaled).ok().map(MinorUnits))
        .flatten()
}

/// The ticket number a cashier may attach to a payment: what the service accepts,
/// checked before anything is stored (a refused reference would otherwise wait in the
/// queue only to be refused). Spaces around it are dropped; empty means none.
pub fn reference(typed: Option<&str>) -> Result<Option<String>, ReferenceError> {
    let Some(text) = typed.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > MAX_TYPED_TICKET {
        return Err(ReferenceError::TooLong {
            max: MAX_TYPED_TICKET,
        });
    }
    if text.chars().any(char::is_control) {
        return Err(ReferenceError::ControlCharacter);
    }
    Ok(Some(text.to_owned()))
}

/// The longest reference the service takes (`loyalty-sandbox` documents 200 characters).
pub const MAX_REFERENCE_CHARS: usize = 200;

/// The longest ticket number a cashier may type: the reference also carries the till's
/// name (at most 30 characters) and its payment's number, within the service's 200.
pub const MAX_TYPED_TICKET: usize = 140;

/// A payment's reference: the till and its number, then the ticket the cashier typed.
pub fn with_ticket(ticket: &crate::people::Ticket, typed: Option<String>) -> String {
    let reference = match typed {
        Some(typed) => format!("{ticket} · {typed}"),
        None => ticket.to_string(),
    };
    debug_assert!(reference.chars().count() <= MAX_REFERENCE_CHARS);
    reference
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eur() -> Currency {
        Currency::new("EUR").unwrap()
    }

    fn parse(text: &str, code: &str) -> Result<i64, AmountError> {
        parse_amount(text, &Currency::new(code).unwrap()).map(|m| m.get())
    }

    #[test]
    fn an_amount_becomes_exact_minor_units_of_the_currency() {
        // An ordinary KRW amount is not "absurd".
        assert_eq!(parse("150000", "KRW"), Ok(150_000));
        assert_eq!(parse("12.50", "EUR"), Ok(1250));
        assert_eq!(parse("12.5", "EUR"), Ok(1250));
        assert_eq!(parse(" 12,5 ", "EUR"), Ok(1250));
        assert_eq!(parse("0.01", "EUR"), Ok(1));
        assert_eq!(parse("7", "EUR"), Ok(700));
        assert_eq!(parse("500", "JPY"), Ok(500));
        assert_eq!(parse("1.234", "BHD"), Ok(1234));
        assert_eq!(
            parse("12.500", "EUR"),
            Ok(1250),
            "trailing zeros are not decimals"
        );
    }

    #[test]
    fn a_sessions_card_counts_whole_sessions() {
        assert_eq!(parse("3", "SES"), Ok(3));
        assert!(matches!(
            parse("1.5", "SES"),
            Err(AmountError::TooManyDecimals { decimals: 0, .. })
        ));
    }

    #[test]
    fn too_many_decimals_zero_negative_and_absurd_amounts_are_refused() {
        assert!(matches!(
            parse("12.505", "EUR"),
            Err(AmountError::TooManyDecimals { decimals: 2, .. })
        ));
        assert!(matches!(
            parse("1.5", "JPY"),
            Err(AmountError::TooManyDecimals { .. })
        ));
        assert_eq!(parse("0", "EUR"), Err(AmountError::Zero));
        assert_eq!(parse("0.00", "EUR"), Err(AmountError::Zero));
        assert_eq!(parse("-5", "EUR"), Err(AmountError::Negative));
        assert!(matches!(
            parse("90071992547409.92", "EUR"),
            Err(AmountError::TooLarge { .. })
        ));
        assert_eq!(parse("90071992547409.91", "EUR"), Ok(MAX_MINOR_UNITS));
        assert!(matches!(
            parse("99999999999999999999999", "EUR"),
            Err(AmountError::TooLarge { .. })
        ));
    }

    #[test]
    fn text_that_is_not_a_plain_decimal_is_refused() {
        for bad in [
            "", "  ", "abc", "1e3", "1.2.3", "1,000.50", "1.", ".5", "€5", "5 EUR", "0x10",
        ] {
            assert!(parse(bad, "EUR").is_err(), "{bad:?}");
        }
        assert_eq!(parse("", "EUR"), Err(AmountError::Empty));
    }

    #[test]
    fn minor_units_convert_back_exactly() {
        assert_eq!(to_decimal(MinorUnits(1250), &eur()).to_string(), "12.50");
        assert_eq!(
            to_minor(Decimal::new(4250, 2), &eur()),
            Some(MinorUnits(4250))
        );
    }

    #[test]
    fn a_reference_the_service_would_refuse_is_refused_before_anything_is_stored() {
        assert_eq!(reference(None), Ok(None));
        assert_eq!(reference(Some("  ")), Ok(None));
        assert_eq!(reference(Some(" T-42 ")), Ok(Some("T-42".into())));
        assert_eq!(
            reference(Some(&"é".repeat(140))).map(|r| r.is_some()),
            Ok(true)
        );
        assert_eq!(
            reference(Some(&"x".repeat(141))),
            Err(ReferenceError::TooLong { max: 140 })
        );
        // The longest till name, the largest number and the longest ticket still fit
        // the service's reference.
        let ticket = crate::people::Ticket {
            till: "é".repeat(30),
            number: i64::MAX,
        };
        let longest = with_ticket(&ticket, Some("é".repeat(MAX_TYPED_TICKET)));
        assert!(longest.chars().count() <= MAX_REFERENCE_CHARS, "{longest}");
        let counter = crate::people::Ticket {
            till: "Counter 2".into(),
            number: 17,
        };
        assert_eq!(with_ticket(&counter, None), "Counter 2 #17");
        assert_eq!(
            with_ticket(&counter, Some("T-42".into())),
            "Counter 2 #17 · T-42"
        );
        for bad in ["T-\n42", "T\t42", "T\u{0}42", "T\u{1b}[31m42", "T\u{7f}42"] {
            assert_eq!(
                reference(Some(bad)),
                Err(ReferenceError::ControlCharacter),
                "{bad:?}"
            );
        }
    }
}
