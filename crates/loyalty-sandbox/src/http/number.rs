//! JSON numbers read exactly from their text.
//!
//! serde_json reads a number with a fraction or an exponent as an `f64`, so
//! `10.000000000000000001` arrives as `10` and `0.009999999999999999999` as `0.01`:
//! an amount a client never sent. Its `arbitrary_precision` feature would keep the
//! text, but features are unified across the workspace, and it changes how every
//! crate that embeds this server (the till, its Tauri shell) handles numbers. So
//! bodies keep their JSON text ([`super::body::JsonObject`]), and a number's value
//! is read from that text here, exactly, as a [`Decimal`]: the right value, or a
//! reason it has none, never a rounded one.

use rust_decimal::Decimal;

/// Most decimals a [`Decimal`] holds.
const MAX_SCALE: i128 = 28;
/// Digits of a [`Decimal`]'s largest whole value, 2^96 - 1.
const MAX_INT_DIGITS: i128 = 29;

/// Why a JSON number has no exact [`Decimal`] value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inexact {
    /// Its magnitude is 2^96 or more.
    TooLarge,
    /// It needs more decimals, or more significant digits, than a [`Decimal`] holds
    /// (28 decimals, 96 bits), trailing zeros aside.
    TooPrecise,
}

/// The exact value of a JSON number's text (`-?int(.frac)?([eE][+-]?digits)?`), or
/// None when the text is not a JSON number.
pub fn exact(text: &str) -> Option<Result<Decimal, Inexact>> {
    let text = text.trim();
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (unsigned, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    let digits_only = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits_only(int_part)
        || (int_part.len() > 1 && int_part.starts_with('0'))
        || (mantissa.contains('.') && !digits_only(frac_part))
    {
        return None;
    }
    // The exponent, saturated: past ±10^30 only its sign matters (the text is at
    // most a body long), and "1e999999999999999999999" must not wrap.
    let exponent: i128 = match exponent {
        None => 0,
        Some(e) => {
            let (sign, magnitude) = match e.as_bytes().first() {
                Some(b'-') => (-1, &e[1..]),
                Some(b'+') => (1, &e[1..]),
                _ => (1, e),
            };
            if !digits_only(magnitude) {
                return None;
            }
            let trimmed = magnitude.trim_start_matches('0');
            let value = if trimmed.len() > 30 {
                10_i128.pow(30)
            } else {
                trimmed.parse::<i128>().unwrap_or(0)
            };
            sign * value
        }
    };
    // value = digits × 10^-scale
    let mut digits = format!("{int_part}{frac_part}");
    let mut scale = frac_part.len() as i128 - exponent;
    let significant = digits.trim_start_matches('0').len();
    digits.drain(..digits.len() - significant);
    if digits.is_empty() {
        return Some(Ok(Decimal::ZERO));
    }
    while scale > 0 && digits.ends_with('0') {
        digits.pop();
        scale -= 1;
    }
    let int_digits = digits.len() as i128 - scale;
    if int_digits > MAX_INT_DIGITS {
        return Some(Err(Inexact::TooLarge));
    }
    if scale < 0 {
        // At most 29 integer digits here, so this appends at most 28 zeros.
        digits.extend(std::iter::repeat_n('0', (-scale) as usize));
        scale = 0;
    }
    if int_digits == MAX_INT_DIGITS && whole_part_too_large(&digits, scale) {
        return Some(Err(Inexact::TooLarge));
    }
    if scale > MAX_SCALE {
        return Some(Err(Inexact::TooPrecise));
    }
    // Within range and at most 28 decimals, a mantissa that overflows u128 or 96 bits
    // is one with more significant digits than a Decimal holds.
    let Ok(mantissa) = digits.parse::<u128>() else {
        return Some(Err(Inexact::TooPrecise));
    };
    let signed = if negative {
        -(mantissa as i128)
    } else {
        mantissa as i128
    };
    Some(Decimal::try_from_i128_with_scale(signed, scale as u32).map_err(|_| Inexact::TooPrecise))
}

/// Whether the whole part of `digits × 10^-scale` is 2^96 or more.
fn whole_part_too_large(digits: &str, scale: i128) -> bool {
    let whole = &digits[..digits.len() - scale as usize];
    whole.parse::<u128>().is_ok_and(|w| w >= 1_u128 << 96)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn ok(text: &str) -> String {
        exact(text).unwrap().unwrap().normalize().to_string()
    }

    #[test]
    fn numbers_that_f64_rounds_keep_every_digit() {
        assert_eq!(ok("10.000000000000000001"), "10.000000000000000001");
        assert_eq!(ok("0.009999999999999999999"), "0.009999999999999999999");
        assert_eq!(ok("0.1"), "0.1");
        assert_eq!(ok("9007199254740993"), "9007199254740993");
        assert_eq!(ok("99999999999999999999.99"), "99999999999999999999.99");
    }

    #[test]
    fn every_json_spelling_of_a_value_reads_the_same() {
        for text in [
            "100",
            "100.0",
            "1e2",
            "1E2",
            "1e+2",
            "10e1",
            "0.1e3",
            "1000e-1",
            "100.000000000000000000000000000000000000",
        ] {
            assert_eq!(ok(text), "100", "{text}");
        }
        assert_eq!(ok("12.5e-1"), "1.25");
        assert_eq!(ok("-0"), "0");
        assert_eq!(ok("0e999999999999999999999999"), "0");
        assert_eq!(ok("-7.5"), "-7.5");
    }

    #[test]
    fn the_limits_of_a_decimal_are_refused_not_rounded() {
        let max = Decimal::MAX.to_string();
        assert_eq!(ok(&max), max);
        assert_eq!(
            exact("79228162514264337593543950336"),
            Some(Err(Inexact::TooLarge))
        );
        assert_eq!(exact("1e29"), Some(Err(Inexact::TooLarge)));
        assert_eq!(
            exact("1e999999999999999999999"),
            Some(Err(Inexact::TooLarge))
        );
        assert_eq!(exact("-1e30"), Some(Err(Inexact::TooLarge)));
        assert_eq!(
            exact("99999999999999999999999999999.00000000000000000000000000001"),
            Some(Err(Inexact::TooLarge))
        );
        assert_eq!(
            ok("0.0000000000000000000000000001"),
            "0.0000000000000000000000000001"
        );
        assert_eq!(exact("1e-29"), Some(Err(Inexact::TooPrecise)));
        assert_eq!(
            exact("1e-999999999999999999999"),
            Some(Err(Inexact::TooPrecise))
        );
        assert_eq!(
            exact("12.0000000000000000000000000001"),
            Some(Err(Inexact::TooPrecise))
        );
        assert_eq!(
            exact("1.0000000000000000000000000001"),
            Some(Ok(
                Decimal::from_str("1.0000000000000000000000000001").unwrap()
            ))
        );
    }

    #[test]
    fn text_that_is_not_a_json_number_is_none() {
        for text in [
            "", "-", "+1", "01", ".5", "5.", "1e", "1e+", "0x10", "\"5\"", "true", "1.5.2", "NaN",
        ] {
            assert_eq!(exact(text), None, "{text}");
        }
    }
}
