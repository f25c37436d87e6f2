//! Streams the `escpos` crate produces, decoded.

use escpos::utils::{
    CashDrawer, JustifyMode, PageCode, QRCodeCorrectionLevel, QRCodeModel, QRCodeOption,
    RealTimeStatusRequest, UnderlineMode,
};
use fake_printer::{Align, Barcode, BarcodeKind, Line, Receipt, decode};

use crate::{crate_bytes, crate_bytes_with};

fn one(bytes: &[u8]) -> Receipt {
    let receipts = decode(bytes).unwrap_or_else(|error| panic!("{error} in {bytes:02X?}"));
    assert_eq!(receipts.len(), 1, "{receipts:#?}");
    receipts.into_iter().next().unwrap()
}

#[test]
fn writeln_ends_with_a_one_line_feed_and_print_cut_with_a_full_cut() {
    let bytes = crate_bytes(|p| {
        p.writeln("ab")?.feed()?.print_cut()?;
        Ok(())
    });
    assert_eq!(bytes, b"ab\x1bd\x01\x1bd\x01\x1dVA\x00");
}

#[test]
fn a_styled_receipt_decodes_to_its_lines() {
    let bytes = crate_bytes(|p| {
        p.init()?
            .justify(JustifyMode::CENTER)?
            .bold(true)?
            .size(2, 2)?
            .writeln("LOYALTY")?
            .reset_size()?
            .bold(false)?
            .writeln("Counter 3")?
            .justify(JustifyMode::RIGHT)?
            .double_strike(true)?
            .writeln("120 pts")?
            .double_strike(false)?
            .justify(JustifyMode::LEFT)?
            .underline(UnderlineMode::Single)?
            .smoothing(true)?
            .writeln("Thanks")?
            .feed()?
            .print_cut()?;
        Ok(())
    });
    let receipt = one(&bytes);
    let line = |text: &str, bold, size, align| Line {
        text: text.to_owned(),
        bold,
        width: size,
        height: size,
        align,
    };
    assert_eq!(
        receipt.lines,
        [
            line("LOYALTY", true, 2, Align::Center),
            line("Counter 3", false, 1, Align::Center),
            line("120 pts", true, 1, Align::Right),
            line("Thanks", false, 1, Align::Left),
            line("", false, 1, Align::Left),
        ]
    );
    assert_eq!(receipt.lines[0].columns(), 14);
    assert!(receipt.cut);
    assert!(receipt.barcodes.is_empty());
}

#[test]
fn a_model_2_qr_code_decodes_with_its_data() {
    let data = "https://loyalty.example/c/ABC-123?p=1";
    let option = QRCodeOption::new(QRCodeModel::Model2, 6, QRCodeCorrectionLevel::M);
    let bytes = crate_bytes(|p| {
        p.init()?
            .writeln("Your card")?
            .qrcode_option(data, option)?
            .feed()?
            .print_cut()?;
        Ok(())
    });
    // The model command is GS ( k 4 0 49 65 n1 n2, n2 = 0.
    assert!(
        bytes.windows(9).any(|w| w == b"\x1d(k\x04\x001A2\x00"),
        "{bytes:02X?}"
    );
    let receipt = one(&bytes);
    let qr = Barcode {
        kind: BarcodeKind::QrModel2,
        data: data.to_owned(),
        after_line: 1,
    };
    assert_eq!(receipt.barcodes, [qr]);
    assert_eq!(receipt.text(), ["Your card", ""]);
}

#[test]
fn a_qr_code_without_options_is_model_1() {
    let bytes = crate_bytes(|p| {
        p.qrcode("card-42")?;
        Ok(())
    });
    assert_eq!(one(&bytes).barcodes[0].kind, BarcodeKind::QrModel1);
}

#[test]
fn a_code_128_sent_as_a_custom_command_decodes_without_its_selector() {
    let data = b"{BGC-0042";
    let mut command = vec![0x1d, b'k', 73, u8::try_from(data.len()).unwrap()];
    command.extend_from_slice(data);
    let bytes = crate_bytes(|p| {
        p.init()?
            .custom(&command)?
            .writeln("GC-0042")?
            .print_cut()?;
        Ok(())
    });
    let receipt = one(&bytes);
    assert_eq!(receipt.barcodes[0].kind, BarcodeKind::Code128);
    assert_eq!(receipt.barcodes[0].data, "GC-0042");
    assert_eq!(receipt.barcodes[0].after_line, 0);
}

#[test]
fn the_crate_s_1d_barcodes_and_datamatrix_decode() {
    let bytes = crate_bytes(|p| {
        p.ean13("4006381333931")?
            .ean8("9638507")?
            .code39("GC-42")?
            .itf("123456")?
            .data_matrix("DM-1")?
            .maxi_code("MX1")?;
        Ok(())
    });
    let codes: Vec<_> = one(&bytes)
        .barcodes
        .into_iter()
        .map(|b| (b.kind, b.data))
        .collect();
    let expected = [
        (BarcodeKind::Ean13, "4006381333931"),
        (BarcodeKind::Ean8, "9638507"),
        (BarcodeKind::Code39, "GC-42"),
        (BarcodeKind::Itf, "123456"),
        (BarcodeKind::DataMatrix, "DM-1"),
        (BarcodeKind::MaxiCode, "MX1"),
    ];
    assert_eq!(codes, expected.map(|(kind, data)| (kind, data.to_owned())));
}

#[test]
fn the_crate_s_pdf417_leaves_a_stray_byte_the_printer_cannot_read() {
    let bytes = crate_bytes(|p| {
        p.pdf417("card")?;
        Ok(())
    });
    // Four 8-byte settings, then the error level GS ( k 3 0 48 69 49 1: pL says 3 bytes
    // follow, 4 do; the 0x01 is left over.
    assert_eq!(&bytes[32..41], b"\x1d(k\x03\x000E1\x01");
    assert_eq!(decode(&bytes).unwrap_err().offset, 40);
}

#[test]
fn the_crate_s_aztec_error_level_swallows_the_next_command() {
    let bytes = crate_bytes(|p| {
        p.aztec("AZ")?;
        Ok(())
    });
    // GS ( k 4 0 53 69 n: pL says 4 bytes follow, 3 do; the printer takes the next GS as
    // the fourth, then prints "(k" and meets the data command's 0x05.
    assert_eq!(&bytes[17..25], b"\x1d(k\x04\x005E\x17");
    let error = decode(&bytes).unwrap_err();
    assert_eq!(error.offset, 28, "{error}");
}

#[test]
fn french_text_in_pc858_decodes_with_its_accents_and_the_euro() {
    let bytes = crate_bytes(|p| {
        p.init()?
            .page_code(PageCode::PC858)?
            .writeln("Crème brûlée à 3,50 €")?
            .writeln("Carte-cadeau : Noël, été, Ça va ?")?
            .print_cut()?;
        Ok(())
    });
    // The crate sends '-' as 0xF0, the soft hyphen, in PC850 and PC858: it reads back
    // as what it is (the till writes plain ASCII itself, so a date prints as shown).
    assert!(
        bytes.contains(&0xF0) && !bytes.contains(&b'-'),
        "{bytes:02X?}"
    );
    let receipt = one(&bytes);
    assert_eq!(
        receipt.text(),
        [
            "Crème brûlée à 3,50 €",
            "Carte\u{AD}cadeau : Noël, été, Ça va ?"
        ]
    );
    assert_eq!(receipt.code_page, 19);
}

#[test]
fn french_text_in_wpc1252_decodes_with_its_accents_and_the_euro() {
    let bytes = crate_bytes_with(Some(PageCode::WPC1252), |p| {
        p.init()?.writeln("Œuf à 2 € – déjà payé")?.print_cut()?;
        Ok(())
    });
    assert_eq!(&bytes[..5], b"\x1b@\x1bt\x10");
    let receipt = one(&bytes);
    assert_eq!(receipt.text(), ["Œuf à 2 € – déjà payé"]);
    assert_eq!(receipt.code_page, 16);
}

#[test]
fn text_without_a_page_code_goes_as_utf_8_and_prints_as_garbage() {
    let bytes = crate_bytes(|p| {
        p.writeln("é")?;
        Ok(())
    });
    assert_eq!(bytes, b"\xc3\xa9\x1bd\x01");
    assert_eq!(one(&bytes).text(), ["├⌐"]);
}

#[test]
fn a_status_request_is_dle_eot_n_then_nul_and_prints_nothing() {
    let bytes = crate_bytes(|p| {
        p.real_time_status(RealTimeStatusRequest::Printer)?
            .real_time_status(RealTimeStatusRequest::RollPaperSensor)?
            .send_status()?;
        Ok(())
    });
    assert_eq!(bytes, b"\x10\x04\x01\x00\x10\x04\x04\x00");
    assert_eq!(decode(&bytes).unwrap(), []);
}

#[test]
fn the_crate_s_cash_drawer_lets_the_printer_swallow_two_bytes() {
    let bytes = crate_bytes(|p| {
        p.cash_drawer(CashDrawer::Pin2)?.writeln("Total")?;
        Ok(())
    });
    // ESC p m t1 t2 sent without t1 t2: "To" becomes the pulse's timing.
    assert_eq!(&bytes[..3], b"\x1bp\x00");
    assert_eq!(one(&bytes).text(), ["tal"]);
}

#[test]
fn two_jobs_make_two_receipts_and_an_unfinished_one() {
    let mut bytes = Vec::new();
    for text in ["first", "second"] {
        bytes.extend(crate_bytes(|p| {
            p.init()?.writeln(text)?.print_cut()?;
            Ok(())
        }));
    }
    bytes.extend(crate_bytes(|p| {
        p.init()?.writeln("third")?;
        Ok(())
    }));
    let receipts = decode(&bytes).unwrap();
    let summary: Vec<_> = receipts.iter().map(|r| (r.text(), r.cut)).collect();
    assert_eq!(
        summary,
        [
            (vec!["first".to_owned()], true),
            (vec!["second".to_owned()], true),
            (vec!["third".to_owned()], false),
        ]
    );
}

#[test]
fn garbage_gives_an_error_at_its_offset() {
    let mut bytes = crate_bytes(|p| {
        p.init()?.writeln("ok")?;
        Ok(())
    });
    let at = bytes.len();
    bytes.extend_from_slice(&[0x1b, 0xff]);
    let error = decode(&bytes).unwrap_err();
    assert_eq!(error.offset, at, "{error}");

    // A QR code's data command cut short.
    let qr = crate_bytes(|p| {
        p.qrcode("truncated")?;
        Ok(())
    });
    let data_command = qr.len() - 8 - (3 + 2 + 3 + "truncated".len());
    let error = decode(&qr[..qr.len() - 12]).unwrap_err();
    assert_eq!(error.offset, data_command, "{error}");
    assert!(error.problem.contains("cut short"), "{error}");
}
