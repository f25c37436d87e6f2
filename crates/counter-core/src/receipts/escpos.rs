//! A laid-out receipt as ESC/POS bytes, through the `escpos` crate: code page PC858
//! (French's accents and €), bold and double size, centred lines, a model 2 QR code,
//! and a cut. The crate writes every command; nothing here assembles bytes by hand.

use std::sync::{Arc, Mutex};

use escpos::driver::Driver;
use escpos::errors::Result as EscposResult;
use escpos::printer::Printer;
use escpos::printer_options::PrinterOptions;
use escpos::utils::{
    JustifyMode, PageCode, Protocol, QRCodeCorrectionLevel, QRCodeModel, QRCodeOption,
    RealTimeStatusRequest, RealTimeStatusResponse,
};

use super::{Align, PaperLine, Preview};

/// Collects what the crate writes.
#[derive(Debug, Clone, Default)]
struct Bytes(Arc<Mutex<Vec<u8>>>);

impl Driver for Bytes {
    fn name(&self) -> String {
        "bytes".to_owned()
    }

    fn write(&self, data: &[u8]) -> EscposResult<()> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(data);
        Ok(())
    }

    fn read(&self, _buf: &mut [u8]) -> EscposResult<usize> {
        Ok(0)
    }

    fn flush(&self) -> EscposResult<()> {
        Ok(())
    }
}

impl Bytes {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// The printer's code page: it has every character [`super::layout::KEPT`] lists.
const PAGE: PageCode = PageCode::PC858;

fn printer(bytes: &Bytes, columns: usize) -> Printer<Bytes> {
    let columns = u8::try_from(columns).unwrap_or(u8::MAX);
    Printer::new(
        bytes.clone(),
        Protocol::default(),
        Some(PrinterOptions::new(Some(PAGE), None, columns)),
    )
}

/// The bytes that print `receipt` and cut the paper.
pub fn encode(receipt: &Preview) -> Vec<u8> {
    let bytes = Bytes::default();
    let written = (|| -> EscposResult<()> {
        let mut printer = printer(&bytes, receipt.columns);
        printer.init()?.page_code(PAGE)?;
        for line in &receipt.lines {
            match line {
                PaperLine::Text {
                    text,
                    bold,
                    large,
                    align,
                } => {
                    printer.justify(match align {
                        Align::Left => JustifyMode::LEFT,
                        Align::Center => JustifyMode::CENTER,
                    })?;
                    printer.bold(*bold)?;
                    if *large {
                        printer.size(2, 2)?;
                    } else {
                        printer.reset_size()?;
                    }
                    write_text(&mut printer, text)?;
                    printer.feed()?;
                }
                PaperLine::Qr { data, modules } => {
                    printer.justify(JustifyMode::CENTER)?;
                    // Data no QR code holds: the preview draws no code but the data, and
                    // so does the paper (the crate refuses it before writing a byte).
                    let option =
                        QRCodeOption::new(QRCodeModel::Model2, 6, QRCodeCorrectionLevel::M);
                    if modules.is_empty() || printer.qrcode_option(data, option).is_err() {
                        write_text(&mut printer, &super::layout::printable(data))?;
                        printer.feed()?;
                    }
                }
            }
        }
        printer
            .bold(false)?
            .reset_size()?
            .justify(JustifyMode::LEFT)?
            .feeds(3)?
            .print_cut()?;
        Ok(())
    })();
    // The crate refuses only sizes and options out of range, which are fixed here.
    written.expect("a laid-out receipt always encodes");
    bytes.take()
}

/// Writes `text` in the printer's page: plain ASCII as itself, the rest through the
/// crate's table of the page. The crate looks every character up in that table, and its
/// PC858 table puts `-` at 0xF0, the soft hyphen: a date or a ticket number would not
/// print as the preview shows it.
fn write_text(printer: &mut Printer<Bytes>, text: &str) -> EscposResult<()> {
    let mut rest = text;
    while !rest.is_empty() {
        let ascii = rest.find(|c: char| !c.is_ascii()).unwrap_or(rest.len());
        let (plain, after) = rest.split_at(ascii);
        if !plain.is_empty() {
            printer.custom(plain.as_bytes())?;
        }
        let other = after.find(|c: char| c.is_ascii()).unwrap_or(after.len());
        let (accented, after) = after.split_at(other);
        if !accented.is_empty() {
            printer.write(accented)?;
        }
        rest = after;
    }
    Ok(())
}

/// The real-time status requests the till asks before printing, in order.
pub(crate) const STATUS: [RealTimeStatusRequest; 3] = [
    RealTimeStatusRequest::Printer,
    RealTimeStatusRequest::OfflineCause,
    RealTimeStatusRequest::RollPaperSensor,
];

/// The bytes that ask for one real-time status (`DLE EOT n`).
pub(crate) fn status_request(request: RealTimeStatusRequest) -> Vec<u8> {
    let bytes = Bytes::default();
    let mut printer = printer(&bytes, 48);
    printer
        .real_time_status(request)
        .and_then(|p| p.send_status())
        .expect("a status request always encodes");
    bytes.take()
}

/// What the printer said of itself, read from its answers to [`STATUS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Status {
    pub offline: bool,
    pub cover_open: bool,
    pub paper_out: bool,
    pub paper_near_end: bool,
    pub error: bool,
}

/// Reads the answers to [`STATUS`]; None when one is not a status byte (not ESC/POS).
pub(crate) fn read_status(answers: [u8; 3]) -> Option<Status> {
    let [printer, offline, paper] = answers;
    let printer = RealTimeStatusResponse::parse(RealTimeStatusRequest::Printer, printer).ok()?;
    let offline =
        RealTimeStatusResponse::parse(RealTimeStatusRequest::OfflineCause, offline).ok()?;
    let paper =
        RealTimeStatusResponse::parse(RealTimeStatusRequest::RollPaperSensor, paper).ok()?;
    let is = |map: &std::collections::HashMap<RealTimeStatusResponse, bool>, what| {
        map.get(&what).copied().unwrap_or(false)
    };
    Some(Status {
        offline: !is(&printer, RealTimeStatusResponse::Online),
        cover_open: !is(&offline, RealTimeStatusResponse::CoverClosed),
        paper_out: is(&offline, RealTimeStatusResponse::PrintingStopsDueToPaperEnd)
            || !is(
                &paper,
                RealTimeStatusResponse::RollPaperEndSensorPaperPresent,
            ),
        paper_near_end: !is(
            &paper,
            RealTimeStatusResponse::RollPaperNearEndSensorPaperAdequate,
        ),
        error: is(&offline, RealTimeStatusResponse::ErrorOccurred),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::receipts::layout::KEPT;

    #[test]
    fn every_character_a_receipt_keeps_is_one_byte_of_the_printers_page() {
        let mut missing = Vec::new();
        for c in KEPT.chars() {
            let preview = Preview {
                columns: 48,
                lines: vec![PaperLine::Text {
                    text: c.to_string(),
                    bold: false,
                    large: false,
                    align: Align::Left,
                }],
            };
            let plain = Preview {
                columns: 48,
                lines: vec![PaperLine::Text {
                    text: "x".to_owned(),
                    bold: false,
                    large: false,
                    align: Align::Left,
                }],
            };
            // The crate sends a character its page lacks as UTF-8 (two bytes or more).
            if encode(&preview).len() != encode(&plain).len() {
                missing.push(c);
            }
        }
        assert_eq!(missing, Vec::<char>::new());
    }

    /// Pins the `escpos` crate's PC858 table, which sends `-` as the soft hyphen: every
    /// printed byte, read back through the page, is the preview's character.
    #[test]
    fn every_character_prints_as_the_preview_shows_it() {
        let ascii: String = (' '..='~').collect();
        let lines = [ascii.as_str(), KEPT, "2026-11-28 10:05 · T-2001 · 12,50 €"];
        let preview = Preview {
            columns: 48,
            lines: lines
                .iter()
                .map(|text| PaperLine::Text {
                    text: (*text).to_owned(),
                    bold: false,
                    large: false,
                    align: Align::Left,
                })
                .collect(),
        };
        let printed = fake_printer::decode(&encode(&preview)).expect("the bytes decode");
        assert_eq!(printed.len(), 1, "one receipt, cut once");
        let text: Vec<String> = printed[0].text().into_iter().take(lines.len()).collect();
        assert_eq!(text, lines);
    }

    /// Any data in a receipt's QR code, of any length, encodes without a panic, and
    /// paper shows what the preview shows: the code when the preview draws one, else
    /// the data as text (seeded: the same payloads every run).
    #[test]
    fn a_qr_code_of_any_data_encodes_as_its_preview_shows_it() {
        use rand::{Rng, SeedableRng};
        let mut random = rand_chacha::ChaCha8Rng::seed_from_u64(53);
        for round in 0..200 {
            let len = match round % 4 {
                0 => random.random_range(0..64),
                1 => random.random_range(2000..2500),
                2 => random.random_range(7000..7200),
                _ => random.random_range(0..12_000),
            };
            let data: String = (0..len)
                .map(|_| match random.random_range(0..4) {
                    0 => char::from(random.random_range(b' '..=b'~')),
                    1 => random.random_range('\u{80}'..='\u{2FF}'),
                    2 => char::from(random.random_range(0..32u8)),
                    _ => random.random_range('a'..='z'),
                })
                .collect();
            let qr = PaperLine::qr(&data);
            let PaperLine::Qr { modules, .. } = &qr else {
                unreachable!("a QR line");
            };
            let drawn = !modules.is_empty();
            let preview = Preview {
                columns: 32,
                lines: vec![qr.clone()],
            };
            let printed = fake_printer::decode(&encode(&preview)).expect("the bytes decode");
            let codes = printed[0].barcodes.len();
            assert_eq!(
                codes,
                usize::from(drawn),
                "{len} bytes: {codes} codes printed"
            );
        }
    }

    #[test]
    fn the_status_bytes_read_as_the_printer_meant_them() {
        assert_eq!(read_status([0x12, 0x12, 0x12]), Some(Status::default()));
        let out = read_status([0x1a, 0x32, 0x72]).unwrap();
        assert!(out.offline && out.paper_out && !out.cover_open);
        let open = read_status([0x1a, 0x16, 0x12]).unwrap();
        assert!(open.offline && open.cover_open && !open.paper_out);
        assert!(read_status([0x12, 0x12, 0x1e]).unwrap().paper_near_end);
        assert_eq!(read_status([0x00, 0x12, 0x12]), None);
    }

    #[test]
    fn a_status_request_is_dle_eot() {
        assert_eq!(
            &status_request(RealTimeStatusRequest::RollPaperSensor)[..3],
            &[0x10, 0x04, 4]
        );
    }
}
