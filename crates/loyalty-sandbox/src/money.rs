//! Gift-card money: exact decimals, minor units by ISO 4217 exponents.
//!
//! Amounts are stored as integers of the currency's minor unit (cents for EUR, yen
//! for JPY). Money strings have exactly two decimals, as the contract fixes
//! (`sandbox-control.md`, "Time"): JPY 500 is `"500.00"`. A currency whose minor unit
//! has more than two decimals (BHD, KWD, ...) could not be shown in two decimals
//! without rounding, so no gift card is issued in one ([`gift_card_exponent`]); every
//! stored amount therefore prints exactly.

use rust_decimal::Decimal;

/// The largest amount, in major units, a gift card can be issued for.
pub const MAX_ISSUE_MAJOR: i64 = 1_000_000;

/// The ISO 4217 minor-unit exponent of `code` (uppercase), or None when the code is
/// unknown or the currency has no minor unit defined (gold, SDR, test codes).
pub fn exponent(code: &str) -> Option<u32> {
    iso_currency::Currency::from_code(code)?
        .exponent()
        .map(u32::from)
}

/// The most decimals a gift card's currency may have: money strings show two.
pub const MAX_EXPONENT: u32 = 2;

/// Why a currency cannot hold a gift card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurrencyRefusal {
    /// Not an ISO 4217 code, or one without a minor unit (gold, SDR, test codes).
    NoMinorUnit,
    /// Its minor unit has more decimals than a money string shows (BHD, KWD: 3).
    TooManyDecimals(u32),
}

/// The minor-unit exponent of a currency a gift card can be issued in: one with a
/// minor unit of at most [`MAX_EXPONENT`] decimals.
pub fn gift_card_exponent(code: &str) -> Result<u32, CurrencyRefusal> {
    match exponent(code) {
        None => Err(CurrencyRefusal::NoMinorUnit),
        Some(e) if e > MAX_EXPONENT => Err(CurrencyRefusal::TooManyDecimals(e)),
        Some(e) => Ok(e),
    }
}

/// Converts a major-unit amount to minor units, or None when it does not fit the
/// currency's minor unit exactly (`0.005` EUR, `1.5` JPY) or overflows.
pub fn to_minor(amount: Decimal, exponent: u32) -> Option<i64> {
    let scaled = amount.checked_mul(Decimal::from(10_i64.checked_pow(exponent)?))?;
    if scaled.fract() != Decimal::ZERO {
        return None;
    }
    i64::try_from(scaled.trunc()).ok()
}

/// The money string of `minor` units: exactly two decimals. Exact for every
/// exponent up to [`MAX_EXPONENT`], the only ones a gift card is issued in.
pub fn format_minor(minor: i64, exponent: u32) -> String {
    let mut value = Decimal::new(minor, exponent);
    value.rescale(2);
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn exponents_come_from_iso_4217_not_a_fixed_hundred() {
        assert_eq!(exponent("EUR"), Some(2));
        assert_eq!(exponent("JPY"), Some(0));
        assert_eq!(exponent("BHD"), Some(3));
        assert_eq!(exponent("XYZ"), None);
        assert_eq!(exponent("XAU"), None);
    }

    #[test]
    fn amounts_that_do_not_fit_the_minor_unit_are_refused() {
        assert_eq!(to_minor(dec("50"), 2), Some(5000));
        assert_eq!(to_minor(dec("12.34"), 2), Some(1234));
        assert_eq!(to_minor(dec("0.005"), 2), None);
        assert_eq!(to_minor(dec("1.5"), 0), None);
        assert_eq!(to_minor(dec("1500"), 0), Some(1500));
        assert_eq!(to_minor(dec("1.234"), 3), Some(1234));
    }

    #[test]
    fn money_strings_have_exactly_two_decimals_whatever_the_exponent() {
        assert_eq!(format_minor(5000, 2), "50.00");
        assert_eq!(format_minor(500, 0), "500.00");
        assert_eq!(format_minor(1500, 0), "1500.00");
        assert_eq!(format_minor(0, 2), "0.00");
        assert_eq!(format_minor(5, 1), "0.50");
    }

    #[test]
    fn three_decimal_currencies_were_printed_with_three_decimals_and_are_now_refused_for_gift_cards()
     {
        assert_eq!(gift_card_exponent("EUR"), Ok(2));
        assert_eq!(gift_card_exponent("JPY"), Ok(0));
        assert_eq!(
            gift_card_exponent("BHD"),
            Err(CurrencyRefusal::TooManyDecimals(3))
        );
        assert_eq!(
            gift_card_exponent("KWD"),
            Err(CurrencyRefusal::TooManyDecimals(3))
        );
        assert_eq!(gift_card_exponent("XAU"), Err(CurrencyRefusal::NoMinorUnit));
        assert_eq!(gift_card_exponent("XYZ"), Err(CurrencyRefusal::NoMinorUnit));
    }
}
