//! Gift-card money: exact decimals, minor units by ISO 4217 exponents.
//!
//! Amounts are stored as integers of the currency's minor unit (cents for EUR, yen
//! for JPY, fils for BHD). Money strings have two decimals, or as many as the
//! currency's minor unit needs when it has more than two (BHD `"1.250"`), so no
//! amount is ever rounded.

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

/// Converts a major-unit amount to minor units, or None when it does not fit the
/// currency's minor unit exactly (`0.005` EUR, `1.5` JPY) or overflows.
pub fn to_minor(amount: Decimal, exponent: u32) -> Option<i64> {
    let scaled = amount.checked_mul(Decimal::from(10_i64.checked_pow(exponent)?))?;
    if scaled.fract() != Decimal::ZERO {
        return None;
    }
    i64::try_from(scaled.trunc()).ok()
}

/// The money string of `minor` units: two decimals, more when the currency needs them.
pub fn format_minor(minor: i64, exponent: u32) -> String {
    let mut value = Decimal::new(minor, exponent);
    value.rescale(exponent.max(2));
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
    fn money_strings_have_two_decimals_unless_the_currency_needs_more() {
        assert_eq!(format_minor(5000, 2), "50.00");
        assert_eq!(format_minor(1500, 0), "1500.00");
        assert_eq!(format_minor(1234, 3), "1.234");
        assert_eq!(format_minor(0, 2), "0.00");
    }
}
