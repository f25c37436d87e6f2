//! The decoder on hand-written byte streams (the `escpos` crate's streams are in the
//! integration tests).

use super::*;

fn one(bytes: &[u8]) -> Receipt {
    let receipts = decode(bytes).unwrap();
    assert_eq!(receipts.len(), 1, "{receipts:#?}");
    receipts.into_iter().next().unwrap()
}

fn line(text: &str, bold: bool, width: u8, height: u8, align: Align) -> Line {
    Line {
        text: text.to_owned(),
        bold,
        width,
        height,
        align,
    }
}

fn plain(text: &str) -> Line {
    line(text, false, 1, 1, Align::Left)
}

#[test]
fn nothing_decodes_to_no_receipt() {
    assert_eq!(decode(b"").unwrap(), []);
    assert_eq!(decode(b"\x1b@\x1bE\x01").unwrap(), []);
}

#[test]
fn a_line_feed_ends_a_line_and_a_cut_ends_a_receipt() {
    let receipts = decode(b"one\ntwo\n\x1dV\x00three\n\x1dVA\x03").unwrap();
    assert_eq!(receipts.len(), 2);
    assert_eq!(receipts[0].text(), ["one", "two"]);
    assert!(receipts[0].cut);
    assert_eq!(receipts[1].text(), ["three"]);
    assert!(receipts[1].cut);
}

#[test]
fn what_follows_the_last_cut_is_an_uncut_receipt_if_anything_printed() {
    let receipts = decode(b"a\n\x1dV\x01b\n").unwrap();
    assert_eq!(receipts.len(), 2);
    assert!(!receipts[1].cut);
    // Styles and status requests after the cut print nothing.
    assert_eq!(
        decode(b"a\n\x1dV\x31\x1bE\x01\x10\x04\x01\x00")
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn text_without_its_line_feed_is_still_a_line_at_a_cut_or_the_end() {
    let receipts = decode(b"cut\x1dV\x30end").unwrap();
    assert_eq!(receipts[0].text(), ["cut"]);
    assert_eq!(receipts[1].text(), ["end"]);
}

#[test]
fn feeds_print_empty_lines() {
    // ESC d n: the current line, then n - 1 empty ones; ESC d 0 only prints the line.
    let receipt = one(b"a\x1bd\x03b\x1bd\x00\x1bd\x01\x1bJ\x10c\r\n");
    assert_eq!(receipt.text(), ["a", "", "", "b", "", "", "c"]);
}

#[test]
fn a_line_keeps_the_style_of_its_first_character() {
    let receipt = one(b"\x1bE\x01bo\x1bE\x00ld\n\x1ba\x01\x1d!\x11big\n\x1d!\x00\x1ba\x32right\n");
    assert_eq!(
        receipt.lines,
        [
            line("bold", true, 1, 1, Align::Left),
            line("big", false, 2, 2, Align::Center),
            line("right", false, 1, 1, Align::Right),
        ]
    );
}

#[test]
fn esc_bang_sets_bold_and_double_size_and_the_last_size_command_wins() {
    let receipt =
        one(b"\x1b!\x08b\n\x1b!\x10h\n\x1b!\x20w\n\x1b!\x38\x1d!\x70x\n\x1d!\x07\x1b!\x00n\n");
    assert_eq!(
        receipt.lines,
        [
            line("b", true, 1, 1, Align::Left),
            line("h", false, 1, 2, Align::Left),
            line("w", false, 2, 1, Align::Left),
            line("x", true, 8, 1, Align::Left),
            plain("n"),
        ]
    );
    assert_eq!(receipt.lines[3].columns(), 8);
}

#[test]
fn double_strike_counts_as_bold() {
    assert!(one(b"\x1bG\x01x\n").lines[0].bold);
}

#[test]
fn init_resets_styles_alignment_and_code_page_and_clears_the_print_buffer() {
    let receipt = one(b"\x1bE\x01\x1ba\x02\x1d!\x11\x1bt\x13lost\x1b@\x82\n");
    assert_eq!(receipt.lines, [plain("é")]);
    assert_eq!(receipt.code_page, 0);
}

#[test]
fn settings_without_an_effect_on_the_model_are_accepted() {
    let settings: &[u8] = b"\x1b2\x1b3\x20\x1b \x01\x1bR\x01\x1b{\x00\x1bV\x00\x1b-\x01\x1bM\x01\x1b$\x10\x00\
        \x1bp\x00\x19\xfa\x1dB\x00\x1dh\x50\x1dw\x02\x1dH\x02\x1df\x00\x1db\x01\x1dL\x00\x00\x1dW\x40\x02\x1dP\x00\x00";
    let mut bytes = settings.to_vec();
    bytes.extend_from_slice(b"ok\n");
    assert_eq!(one(&bytes).lines, [plain("ok")]);
}

#[test]
fn text_goes_through_the_selected_code_page_which_carries_over_cuts() {
    let receipts = decode(b"\x1bt\x13Caf\x82 \xd5\n\x1dVA\x00\xd5\n\x1bt\x10\x80\n").unwrap();
    assert_eq!(receipts[0].text(), ["Café €"]);
    assert_eq!(receipts[0].code_page, 19);
    assert_eq!(receipts[1].text(), ["€", "€"]);
    assert_eq!(receipts[1].code_page, 16);
    // PC437 by default, where 0xD5 is a box-drawing character.
    assert_eq!(one(b"\xd5\n").text(), ["╒"]);
}

#[test]
fn status_requests_in_a_stream_print_nothing() {
    let receipt = one(b"\x10\x04\x01\x00a\x10\x04\x04\n\x10\x04\x07\x01");
    assert_eq!(receipt.text(), ["a"]);
}

#[test]
fn a_qr_code_prints_its_stored_data_in_the_model_chosen() {
    let mut bytes = b"top\n".to_vec();
    bytes.extend_from_slice(b"\x1d(k\x04\x001A2\x00\x1d(k\x03\x001C\x06\x1d(k\x03\x001E1");
    bytes.extend_from_slice(b"\x1d(k\x07\x001P0card\x1d(k\x03\x001Q0");
    bytes.extend_from_slice(b"\x1d(k\x04\x001A1\x00\x1d(k\x03\x001Q0");
    let receipt = one(&bytes);
    let barcodes = [
        Barcode {
            kind: BarcodeKind::QrModel2,
            data: "card".to_owned(),
            after_line: 1,
        },
        Barcode {
            kind: BarcodeKind::QrModel1,
            data: "card".to_owned(),
            after_line: 1,
        },
    ];
    assert_eq!(receipt.barcodes, barcodes);
}

#[test]
fn other_2d_codes_print_their_own_stored_data() {
    let receipt =
        one(b"\x1d(k\x06\x000P0pdf\x1d(k\x06\x006P0dmx\x1d(k\x03\x000Q0\x1d(k\x03\x006Q0");
    let kinds: Vec<_> = receipt
        .barcodes
        .iter()
        .map(|b| (b.kind, b.data.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (BarcodeKind::Pdf417, "pdf"),
            (BarcodeKind::DataMatrix, "dmx")
        ]
    );
}

#[test]
fn one_d_barcodes_in_both_forms_decode() {
    let receipt = one(b"\x1dk\x024006381333931\x00\x1dkE\x05AB-12\x1dkI\x09{C\x0c\x22\x38{B{{");
    let kinds: Vec<_> = receipt
        .barcodes
        .iter()
        .map(|b| (b.kind, b.data.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (BarcodeKind::Ean13, "4006381333931"),
            (BarcodeKind::Code39, "AB-12"),
            (BarcodeKind::Code128, "123456{"),
        ]
    );
}

#[test]
fn text_before_a_barcode_is_printed_above_it() {
    let receipt = one(b"a\nb\x1dk\x04X\x00c\n");
    assert_eq!(receipt.text(), ["a", "b", "c"]);
    assert_eq!(receipt.barcodes[0].after_line, 2);
}

#[test]
fn garbage_is_an_error_at_its_offset() {
    let cases: &[(&[u8], usize)] = &[
        (b"\x1b\xff", 0),
        (b"ok\n\x1b\xff", 3),
        (b"ok\x01", 2),
        (b"\x1d(k\x0a\x001P0abc", 0),
        (b"a\n\x1d(k\x03\x001Q0", 2),
        (b"\x1d(k\x03\x009Q0", 0),
        (b"\x1dk\x04ABC", 0),
        (b"\x1dkI\x03GC1", 4),
        (b"\x1dkZ\x00", 0),
        (b"xy\x1bt\x05", 2),
        (b"\x1bt\x10ok\x81", 5),
        (b"\x1d!\x99", 0),
        (b"\x1dV\x02", 0),
        (b"\x1ba\x03", 0),
        (b"\x10\x14\x01", 0),
        (b"abc\x1b", 3),
        (b"\x1b(A", 0),
    ];
    for &(bytes, offset) in cases {
        let error = decode(bytes).expect_err(&format!("{bytes:02X?}"));
        assert_eq!(error.offset, offset, "{bytes:02X?}: {error}");
    }
}
