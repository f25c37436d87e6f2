//! The decoder's code page tables against the `escpos` crate's own.

use std::collections::BTreeMap;

use escpos::utils::PageCode;
use fake_printer::decode;

use crate::crate_bytes;

/// Where the crate's tables are wrong: (page, character) → what the printer prints for
/// the byte the crate sends. The soft hyphen is the decoder's choice: it prints as `-`.
const KNOWN_DIFFERENCES: &[(u8, char, char)] = &[
    // PC858 (the crate's table has ® and ⌐ one place off, and Ô twice instead of Ò).
    (19, '®', '¿'),
    (19, '⌐', '®'),
    (19, 'Ô', 'Ò'),
    // PC850 and PC858: the crate puts `-` where the soft hyphen is (the till writes
    // plain ASCII itself).
    (2, '-', '\u{AD}'),
    (19, '-', '\u{AD}'),
];

/// Every character the crate sends as one byte from 0x80 up in `page`, with that byte.
fn crate_table(page: PageCode) -> BTreeMap<char, u8> {
    let candidates: Vec<char> = (0x20..=0xFFFF)
        .filter_map(char::from_u32)
        .filter(|c| *c != '\n')
        .collect();
    let bytes = crate_bytes(|p| {
        p.page_code(page)?;
        for c in &candidates {
            p.write(&c.to_string())?.custom(b"\n")?;
        }
        Ok(())
    });
    // ESC t n, then each character's bytes and a line feed.
    let encoded: Vec<&[u8]> = bytes[3..].split(|&b| b == b'\n').collect();
    assert_eq!(encoded.len(), candidates.len() + 1);
    candidates
        .into_iter()
        .zip(encoded)
        .filter_map(|(c, encoded)| match *encoded {
            [byte] if byte >= 0x80 => Some((c, byte)),
            _ => None,
        })
        .collect()
}

fn check_page(page: PageCode, n: u8) {
    let table = crate_table(page);
    assert!(
        table.len() >= 120,
        "{page}: only {} characters mapped",
        table.len()
    );
    for &(_, c, _) in KNOWN_DIFFERENCES.iter().filter(|&&(page, ..)| page == n) {
        assert!(
            table.contains_key(&c),
            "{page}: the crate no longer maps {c:?}: update KNOWN_DIFFERENCES"
        );
    }
    for (&c, &byte) in &table {
        let receipts =
            decode(&[0x1b, b't', n, byte, b'\n']).unwrap_or_else(|e| panic!("{page} {c:?}: {e}"));
        let printed = receipts[0].lines[0].text.chars().next();
        let expected = KNOWN_DIFFERENCES
            .iter()
            .find(|&&(page, wrong, _)| page == n && wrong == c)
            .map_or(c, |&(_, _, printed)| printed);
        assert_eq!(
            printed,
            Some(expected),
            "{page}: the crate sends {c:?} as 0x{byte:02X}"
        );
    }
}

#[test]
fn pc437_reads_back_every_character_the_crate_maps() {
    check_page(PageCode::PC437, 0);
}

#[test]
fn pc850_reads_back_every_character_the_crate_maps() {
    check_page(PageCode::PC850, 2);
}

#[test]
fn pc858_reads_back_every_character_the_crate_maps_but_its_four_mistakes() {
    check_page(PageCode::PC858, 19);
    let table = crate_table(PageCode::PC858);
    assert_eq!(table.get(&'€'), Some(&0xD5));
    assert_eq!(table.get(&'-'), Some(&0xF0));
    // Sent as UTF-8, which prints as two or three wrong characters.
    assert_eq!(table.get(&'¿'), None);
    assert_eq!(table.get(&'Ò'), None);
}

#[test]
fn wpc1252_reads_back_every_character_the_crate_maps() {
    check_page(PageCode::WPC1252, 16);
}
