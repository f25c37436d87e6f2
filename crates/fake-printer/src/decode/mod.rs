//! Reading what a printer prints from the bytes it was sent.
//!
//! The decoder follows the printer's state through the stream (styles, alignment, code
//! page, stored 2-D code data) and writes down what lands on paper. Anything it does not
//! know is an error rather than something skipped, so a test fails on garbage.

mod codes;
#[cfg(test)]
mod tests;

use crate::pages::Page;
use crate::receipt::{Align, Barcode, BarcodeKind, DecodeError, Line, Receipt};
use crate::status::status_request_has_parameter;

const NUL: u8 = 0x00;
const EOT: u8 = 0x04;
const LF: u8 = 0x0A;
const CR: u8 = 0x0D;
const DLE: u8 = 0x10;
const ESC: u8 = 0x1B;
const GS: u8 = 0x1D;

/// Decodes a byte stream sent to a printer into the receipts it prints.
///
/// A receipt ends at a cut (`GS V`); what follows the last cut is one more receipt, with
/// `cut: false`, if anything was printed on it (text still waiting for its line feed
/// counts as a line). Text goes through the selected code page (PC437, PC850, PC858 or
/// WPC1252). Real-time status requests (`DLE EOT n`) are skipped.
///
/// # Errors
///
/// A control byte or command the decoder does not know, a command cut short, a code page
/// it has no table for, a byte the code page leaves undefined, or a code it cannot read:
/// [`DecodeError::offset`] says where.
pub fn decode(bytes: &[u8]) -> Result<Vec<Receipt>, DecodeError> {
    let mut decoder = Decoder::new(bytes);
    decoder.run()?;
    Ok(decoder.finish())
}

/// The character style in effect.
#[derive(Debug, Clone, Copy)]
struct Style {
    emphasized: bool,
    double_strike: bool,
    width: u8,
    height: u8,
    align: Align,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            emphasized: false,
            double_strike: false,
            width: 1,
            height: 1,
            align: Align::Left,
        }
    }
}

/// The printer's state while reading a stream.
struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    style: Style,
    page: Page,
    /// The line being filled: it gets its style from its first character.
    line: Option<Line>,
    receipt: Receipt,
    receipts: Vec<Receipt>,
    symbols: codes::Symbols,
}

impl<'a> Decoder<'a> {
    fn new(bytes: &'a [u8]) -> Decoder<'a> {
        Decoder {
            bytes,
            pos: 0,
            style: Style::default(),
            page: Page::Pc437,
            line: None,
            receipt: Receipt::default(),
            receipts: Vec::new(),
            symbols: codes::Symbols::default(),
        }
    }

    fn run(&mut self) -> Result<(), DecodeError> {
        while let Some(&byte) = self.bytes.get(self.pos) {
            let start = self.pos;
            self.pos += 1;
            match byte {
                LF => self.end_line(),
                // Ignored while automatic line feed is off (the default).
                CR => {}
                ESC => self.esc(start)?,
                GS => self.gs(start)?,
                DLE => self.dle(start)?,
                0x00..=0x1F => {
                    return Err(DecodeError::new(
                        start,
                        format!("unknown control byte 0x{byte:02X}"),
                    ));
                }
                _ => self.text(start, byte)?,
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Vec<Receipt> {
        self.flush_line();
        if !self.receipt.lines.is_empty() || !self.receipt.barcodes.is_empty() {
            self.receipt.code_page = self.page.number();
            self.receipts.push(self.receipt);
        }
        self.receipts
    }

    /// The next `count` bytes of the command that began at `start`.
    fn take(&mut self, start: usize, count: usize, command: &str) -> Result<&'a [u8], DecodeError> {
        let bytes = self.bytes;
        match bytes.get(self.pos..self.pos + count) {
            Some(taken) => {
                self.pos += count;
                Ok(taken)
            }
            None => Err(DecodeError::new(
                start,
                format!(
                    "{command} is cut short: {count} more bytes expected, {} left",
                    bytes.len() - self.pos
                ),
            )),
        }
    }

    /// The next byte of the command that began at `start`.
    fn take1(&mut self, start: usize, command: &str) -> Result<u8, DecodeError> {
        Ok(self.take(start, 1, command)?[0])
    }

    fn text(&mut self, start: usize, byte: u8) -> Result<(), DecodeError> {
        let Some(c) = self.page.decode(byte) else {
            let page = self.page.name();
            return Err(DecodeError::new(
                start,
                format!("byte 0x{byte:02X} has no character in {page}"),
            ));
        };
        let style = self.style;
        self.line
            .get_or_insert_with(|| styled_line(style))
            .text
            .push(c);
        Ok(())
    }

    /// Prints the line being filled, or an empty line (a feed).
    fn end_line(&mut self) {
        let line = self.line.take().unwrap_or_else(|| styled_line(self.style));
        self.receipt.lines.push(line);
    }

    /// Prints the line being filled, if any.
    fn flush_line(&mut self) {
        if let Some(line) = self.line.take() {
            self.receipt.lines.push(line);
        }
    }

    /// Prints a barcode or 2-D code below what was printed so far.
    fn print_code(&mut self, kind: BarcodeKind, data: String) {
        self.flush_line();
        let after_line = self.receipt.lines.len();
        self.receipt.barcodes.push(Barcode {
            kind,
            data,
            after_line,
        });
    }

    fn cut(&mut self) {
        self.flush_line();
        let mut receipt = std::mem::take(&mut self.receipt);
        receipt.cut = true;
        receipt.code_page = self.page.number();
        self.receipts.push(receipt);
    }

    fn esc(&mut self, start: usize) -> Result<(), DecodeError> {
        let command = self.take1(start, "ESC")?;
        match command {
            // Initialize: styles, code page and 2-D code settings back to their defaults;
            // the print buffer (text without its line feed) is cleared.
            b'@' => {
                self.style = Style::default();
                self.page = Page::Pc437;
                self.line = None;
                self.symbols = codes::Symbols::default();
            }
            b'!' => {
                let n = self.take1(start, "ESC !")?;
                self.style.emphasized = n & 0x08 != 0;
                self.style.height = if n & 0x10 != 0 { 2 } else { 1 };
                self.style.width = if n & 0x20 != 0 { 2 } else { 1 };
            }
            b'E' => self.style.emphasized = self.take1(start, "ESC E")? & 1 != 0,
            b'G' => self.style.double_strike = self.take1(start, "ESC G")? & 1 != 0,
            b'a' => {
                self.style.align = match self.take1(start, "ESC a")? {
                    0 | 48 => Align::Left,
                    1 | 49 => Align::Center,
                    2 | 50 => Align::Right,
                    n => {
                        return Err(DecodeError::new(
                            start,
                            format!("ESC a {n}: no such justification"),
                        ));
                    }
                };
            }
            b't' => {
                let n = self.take1(start, "ESC t")?;
                self.page = Page::from_number(n).ok_or_else(|| {
                    DecodeError::new(
                        start,
                        format!("ESC t {n}: code page {n} is not one the decoder reads"),
                    )
                })?;
            }
            // Print and feed n lines.
            b'd' => {
                let n = self.take1(start, "ESC d")?;
                if n == 0 {
                    self.flush_line();
                } else {
                    self.end_line();
                    for _ in 1..n {
                        self.end_line();
                    }
                }
            }
            // Print and feed n dots.
            b'J' => {
                self.take1(start, "ESC J")?;
                self.end_line();
            }
            // Line spacing back to its default.
            b'2' => {}
            // Underline, font, line spacing, character spacing, international character
            // set, upside-down, 90° rotation: nothing the receipt model keeps.
            b'-' | b'M' | b'3' | b' ' | b'R' | b'{' | b'V' => {
                self.take1(start, "ESC")?;
            }
            // Absolute print position.
            b'$' => {
                self.take(start, 2, "ESC $")?;
            }
            // Drawer kick-out pulse: ESC p m t1 t2.
            b'p' => {
                self.take(start, 3, "ESC p")?;
            }
            _ => {
                return Err(DecodeError::new(
                    start,
                    format!("unknown command ESC 0x{command:02X}"),
                ));
            }
        }
        Ok(())
    }

    fn gs(&mut self, start: usize) -> Result<(), DecodeError> {
        let command = self.take1(start, "GS")?;
        match command {
            b'!' => {
                let n = self.take1(start, "GS !")?;
                let (width, height) = ((n >> 4) + 1, (n & 0x0F) + 1);
                if width > 8 || height > 8 {
                    return Err(DecodeError::new(
                        start,
                        format!("GS ! 0x{n:02X}: no such character size"),
                    ));
                }
                self.style.width = width;
                self.style.height = height;
            }
            b'V' => {
                match self.take1(start, "GS V")? {
                    0 | 1 | 48 | 49 => {}
                    65 | 66 => {
                        self.take1(start, "GS V")?;
                    }
                    m => return Err(DecodeError::new(start, format!("GS V {m}: unknown cut"))),
                }
                self.cut();
            }
            b'k' => self.barcode(start)?,
            b'(' => match self.take1(start, "GS (")? {
                b'k' => self.code_2d(start)?,
                other => {
                    return Err(DecodeError::new(
                        start,
                        format!("unknown command GS ( 0x{other:02X}"),
                    ));
                }
            },
            // Reverse, barcode height, width, text position and font, smoothing.
            b'B' | b'h' | b'w' | b'H' | b'f' | b'b' => {
                self.take1(start, "GS")?;
            }
            // Left margin, print area width, motion units.
            b'L' | b'W' | b'P' => {
                self.take(start, 2, "GS")?;
            }
            _ => {
                return Err(DecodeError::new(
                    start,
                    format!("unknown command GS 0x{command:02X}"),
                ));
            }
        }
        Ok(())
    }

    /// A real-time command: only the status request, `DLE EOT n`, which prints nothing.
    fn dle(&mut self, start: usize) -> Result<(), DecodeError> {
        let command = self.take1(start, "DLE")?;
        if command != EOT {
            return Err(DecodeError::new(
                start,
                format!("unknown real-time command DLE 0x{command:02X}"),
            ));
        }
        let n = self.take1(start, "DLE EOT")?;
        if status_request_has_parameter(n) {
            self.take1(start, "DLE EOT")?;
        } else if self.bytes.get(self.pos) == Some(&NUL) {
            // The `escpos` crate sends a NUL after n.
            self.pos += 1;
        }
        Ok(())
    }
}

/// An empty line in the given style.
fn styled_line(style: Style) -> Line {
    Line {
        text: String::new(),
        bold: style.emphasized || style.double_strike,
        width: style.width,
        height: style.height,
        align: style.align,
    }
}
