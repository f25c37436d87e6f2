//! Barcodes (`GS k`) and 2-D codes (`GS ( k`).

use std::fmt::Write as _;

use super::{Decoder, NUL};
use crate::receipt::{BarcodeKind, DecodeError};

/// The printer's 2-D code settings and stored data (`GS ( k`).
#[derive(Debug, Clone)]
pub(super) struct Symbols {
    /// The QR Code model (`fn` 65), model 2 unless chosen otherwise.
    qr_model: BarcodeKind,
    /// The data stored (`fn` 80) for each symbol, indexed by `cn - 48`.
    stored: [Option<Vec<u8>>; 7],
}

impl Default for Symbols {
    fn default() -> Symbols {
        Symbols {
            qr_model: BarcodeKind::QrModel2,
            stored: Default::default(),
        }
    }
}

/// The symbol a `GS ( k` command's `cn` names, if the decoder reads it.
fn symbol(cn: u8, qr_model: BarcodeKind) -> Option<BarcodeKind> {
    match cn {
        48 => Some(BarcodeKind::Pdf417),
        49 => Some(qr_model),
        50 => Some(BarcodeKind::MaxiCode),
        53 => Some(BarcodeKind::Aztec),
        54 => Some(BarcodeKind::DataMatrix),
        _ => None,
    }
}

impl Decoder<'_> {
    /// `GS k m ...`: a 1-D barcode, printed at once.
    pub(super) fn barcode(&mut self, start: usize) -> Result<(), DecodeError> {
        let m = self.take1(start, "GS k")?;
        let data_offset;
        let data = match m {
            // d1..dk NUL
            0..=6 => {
                data_offset = self.pos;
                let rest = &self.bytes[self.pos..];
                let Some(end) = rest.iter().position(|&b| b == NUL) else {
                    return Err(DecodeError::new(
                        start,
                        format!("GS k {m}: the data has no closing NUL"),
                    ));
                };
                self.pos += end + 1;
                &rest[..end]
            }
            // n d1..dn
            65..=73 => {
                let n = self.take1(start, "GS k")?;
                data_offset = self.pos;
                self.take(start, usize::from(n), "GS k")?
            }
            _ => {
                return Err(DecodeError::new(
                    start,
                    format!("GS k {m}: unknown barcode system"),
                ));
            }
        };
        let kind = match m {
            0 | 65 => BarcodeKind::UpcA,
            1 | 66 => BarcodeKind::UpcE,
            2 | 67 => BarcodeKind::Ean13,
            3 | 68 => BarcodeKind::Ean8,
            4 | 69 => BarcodeKind::Code39,
            5 | 70 => BarcodeKind::Itf,
            6 | 71 => BarcodeKind::Codabar,
            72 => BarcodeKind::Code93,
            _ => BarcodeKind::Code128,
        };
        let data = if kind == BarcodeKind::Code128 {
            code128(data, data_offset)?
        } else {
            data.iter().copied().map(char::from).collect()
        };
        self.print_code(kind, data);
        Ok(())
    }

    /// `GS ( k pL pH cn fn [parameters]`: a 2-D code's setting, data or print.
    pub(super) fn code_2d(&mut self, start: usize) -> Result<(), DecodeError> {
        let size = self.take(start, 2, "GS ( k")?;
        let size = usize::from(size[0]) + 256 * usize::from(size[1]);
        let body = self.take(start, size, "GS ( k")?;
        let &[cn, function, ref parameters @ ..] = body else {
            return Err(DecodeError::new(
                start,
                format!("GS ( k with {size} bytes: cn and fn expected"),
            ));
        };
        let Some(kind) = symbol(cn, self.symbols.qr_model) else {
            return Err(DecodeError::new(
                start,
                format!("GS ( k cn={cn}: not a symbol the decoder reads"),
            ));
        };
        let stored = &mut self.symbols.stored[usize::from(cn - 48)];
        match function {
            // QR Code model.
            65 if cn == 49 => {
                self.symbols.qr_model = match parameters.first() {
                    Some(49) => BarcodeKind::QrModel1,
                    Some(50) => BarcodeKind::QrModel2,
                    Some(51) => BarcodeKind::MicroQr,
                    other => {
                        return Err(DecodeError::new(
                            start,
                            format!("GS ( k QR model {other:?}: no such model"),
                        ));
                    }
                };
            }
            // Store the data: m = 48, then the data.
            80 => match parameters {
                [48, data @ ..] => *stored = Some(data.to_vec()),
                _ => {
                    return Err(DecodeError::new(
                        start,
                        format!("GS ( k cn={cn} fn=80: m=48 expected"),
                    ));
                }
            },
            // Print the stored data.
            81 => {
                let Some(data) = stored else {
                    return Err(DecodeError::new(
                        start,
                        format!("GS ( k: {kind:?} printed with no data stored"),
                    ));
                };
                let data = String::from_utf8_lossy(data).into_owned();
                self.print_code(kind, data);
            }
            // Size, error correction, columns, rows...: nothing the receipt model keeps.
            _ => {}
        }
        Ok(())
    }
}

/// The data of a Code 128 barcode (`GS k 73`), without its code set selectors.
///
/// The data starts with `{A`, `{B` or `{C`; `{{` is a `{`, `{S` shifts one character,
/// `{1`..`{4` are FNC1..FNC4 (no character). In code set C each byte is two digits.
fn code128(data: &[u8], offset: usize) -> Result<String, DecodeError> {
    #[derive(PartialEq)]
    enum Set {
        AorB,
        C,
    }
    let mut set = None;
    let mut text = String::new();
    let mut i = 0;
    while let Some(&byte) = data.get(i) {
        let at = offset + i;
        i += 1;
        if byte == b'{' {
            let Some(&function) = data.get(i) else {
                return Err(DecodeError::new(at, "Code 128 data ends with a lone '{'"));
            };
            i += 1;
            match (function, &set) {
                (b'A' | b'B', _) => set = Some(Set::AorB),
                (b'C', _) => set = Some(Set::C),
                (b'{', Some(Set::AorB)) => text.push('{'),
                (b'1'..=b'4', Some(_)) => {}
                (b'S', Some(Set::AorB)) => {
                    let Some(&shifted) = data.get(i) else {
                        return Err(DecodeError::new(at, "Code 128 data ends after a shift"));
                    };
                    i += 1;
                    text.push(char::from(shifted));
                }
                _ => {
                    let function = char::from(function);
                    return Err(DecodeError::new(
                        at,
                        format!("Code 128: '{{{function}' here is not a function"),
                    ));
                }
            }
            continue;
        }
        match set {
            None => {
                return Err(DecodeError::new(
                    at,
                    "Code 128 data must start with a code set selector ({A, {B or {C)",
                ));
            }
            Some(Set::C) if byte <= 99 => {
                let _ = write!(text, "{byte:02}");
            }
            Some(Set::C) => {
                return Err(DecodeError::new(
                    at,
                    format!("Code 128 code set C: {byte} is not two digits"),
                ));
            }
            Some(Set::AorB) => text.push(char::from(byte)),
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_128_strips_its_selectors() {
        assert_eq!(code128(b"{BGC-0042", 0).unwrap(), "GC-0042");
        assert_eq!(code128(b"{Aabc{Bdef", 0).unwrap(), "abcdef");
    }

    #[test]
    fn code_128_reads_a_doubled_brace_as_one() {
        assert_eq!(code128(b"{Ba{{b", 0).unwrap(), "a{b");
    }

    #[test]
    fn code_128_set_c_gives_two_digits_a_byte() {
        assert_eq!(code128(&[b'{', b'C', 12, 34, 5, 0], 0).unwrap(), "12340500");
        assert_eq!(
            code128(&[b'{', b'C', 20, 26, b'{', b'B', b'X'], 0).unwrap(),
            "2026X"
        );
    }

    #[test]
    fn code_128_without_a_selector_is_an_error_at_its_first_byte() {
        let error = code128(b"GC-0042", 10).unwrap_err();
        assert_eq!(error.offset, 10);
    }

    #[test]
    fn code_128_set_c_refuses_a_byte_over_99() {
        let error = code128(&[b'{', b'C', 12, 100], 4).unwrap_err();
        assert_eq!(error.offset, 7);
    }

    #[test]
    fn code_128_functions_print_nothing_and_a_shift_prints_one_character() {
        assert_eq!(code128(b"{A{1ab{Sc", 0).unwrap(), "abc");
        assert!(code128(b"{Bab{", 0).is_err());
        assert!(code128(b"{Bab{X", 0).is_err());
    }
}
