//! What came out on paper: receipts, their lines and their codes.

use std::fmt;

/// One piece of paper: what was printed up to a cut (or after the last one).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Receipt {
    /// The printed lines, in order. A feed without text gives an empty line.
    pub lines: Vec<Line>,
    /// The barcodes and 2-D codes, in order.
    pub barcodes: Vec<Barcode>,
    /// Whether the receipt was cut off the roll (`GS V`). Only the part after the last
    /// cut can be uncut, and it is a receipt only if something was printed on it.
    pub cut: bool,
    /// The code page (`n` of `ESC t n`) in effect when the receipt ended: the last one
    /// selected, on this receipt or before it (0, PC437, after `ESC @`).
    pub code_page: u8,
}

impl Receipt {
    /// The text of each line, in order.
    pub fn text(&self) -> Vec<String> {
        self.lines.iter().map(|line| line.text.clone()).collect()
    }

    /// Whether one of the lines contains `needle` (barcodes' data are not searched).
    pub fn contains(&self, needle: &str) -> bool {
        self.lines.iter().any(|line| line.text.contains(needle))
    }
}

/// One printed line, with the style in effect when its first character arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The characters, decoded through the selected code page.
    pub text: String,
    /// Emphasized (`ESC E`, `ESC !` bit 3) or double-strike (`ESC G`).
    pub bold: bool,
    /// Character width multiplier, 1..=8 (`GS !`; `ESC !` bit 5 gives 2).
    pub width: u8,
    /// Character height multiplier, 1..=8 (`GS !`; `ESC !` bit 4 gives 2).
    pub height: u8,
    /// Justification (`ESC a`).
    pub align: Align,
}

impl Line {
    /// The columns of font A the line takes: its characters times its width. Compare it
    /// with the paper's width (32 columns on 58 mm paper, 48 on 80 mm): longer wraps.
    pub fn columns(&self) -> usize {
        self.text.chars().count() * usize::from(self.width)
    }
}

/// Justification of a line (`ESC a n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Align {
    /// `ESC a 0` (the default).
    #[default]
    Left,
    /// `ESC a 1`.
    Center,
    /// `ESC a 2`.
    Right,
}

/// A printed barcode or 2-D code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Barcode {
    /// The symbology.
    pub kind: BarcodeKind,
    /// The encoded data (for Code 128, without the code set selectors).
    pub data: String,
    /// How many lines of the receipt were printed before it: it comes after
    /// `lines[after_line - 1]`.
    pub after_line: usize,
}

/// The symbology of a [`Barcode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BarcodeKind {
    /// QR Code model 1 (`GS ( k` model 49), which many scanners do not read.
    QrModel1,
    /// QR Code model 2 (`GS ( k` model 50, the printer's default).
    QrModel2,
    /// Micro QR Code (`GS ( k` model 51).
    MicroQr,
    /// PDF417 (`GS ( k`, cn 48).
    Pdf417,
    /// MaxiCode (`GS ( k`, cn 50).
    MaxiCode,
    /// DataMatrix (`GS ( k`, cn 54).
    DataMatrix,
    /// Aztec Code (`GS ( k`, cn 53).
    Aztec,
    /// Code 128 (`GS k 73`).
    Code128,
    /// Code 93 (`GS k 72`).
    Code93,
    /// Code 39 (`GS k 4` / `GS k 69`).
    Code39,
    /// EAN-13 (`GS k 2` / `GS k 67`).
    Ean13,
    /// EAN-8 (`GS k 3` / `GS k 68`).
    Ean8,
    /// UPC-A (`GS k 0` / `GS k 65`).
    UpcA,
    /// UPC-E (`GS k 1` / `GS k 66`).
    UpcE,
    /// Interleaved 2 of 5 (`GS k 5` / `GS k 70`).
    Itf,
    /// Codabar (`GS k 6` / `GS k 71`).
    Codabar,
}

/// Bytes the decoder could not read as what a printer prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Where in the decoded bytes: the first byte of the command (or character) that
    /// could not be read, or the byte inside a barcode's data that is wrong.
    pub offset: usize,
    /// What is wrong, for a person.
    pub problem: String,
}

impl DecodeError {
    pub(crate) fn new(offset: usize, problem: impl Into<String>) -> DecodeError {
        DecodeError {
            offset,
            problem: problem.into(),
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "undecodable printer bytes at offset {}: {}",
            self.offset, self.problem
        )
    }
}

impl std::error::Error for DecodeError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, width: u8) -> Line {
        Line {
            text: text.to_owned(),
            bold: false,
            width,
            height: 1,
            align: Align::Left,
        }
    }

    #[test]
    fn columns_count_characters_times_width() {
        assert_eq!(line("Crème", 1).columns(), 5);
        assert_eq!(line("Crème", 2).columns(), 10);
        assert_eq!(line("", 8).columns(), 0);
    }

    #[test]
    fn a_receipt_gives_its_text_and_finds_a_needle() {
        let receipt = Receipt {
            lines: vec![line("Café du port", 1), line("Total 3,50 €", 2)],
            ..Receipt::default()
        };
        assert_eq!(receipt.text(), ["Café du port", "Total 3,50 €"]);
        assert!(receipt.contains("3,50 €"));
        assert!(!receipt.contains("4,00"));
    }

    #[test]
    fn a_decode_error_says_where() {
        let error = DecodeError::new(7, "unknown command ESC 0xFF");
        assert_eq!(
            error.to_string(),
            "undecodable printer bytes at offset 7: unknown command ESC 0xFF"
        );
    }
}
