//! The character code tables the printer prints text through, chosen with `ESC t n`.
//!
//! The printer knows nothing of UTF-8: each byte from 0x20 up is one character of the
//! selected table. The lower half (0x20..=0x7F) is ASCII in every table here; the upper
//! halves are below, from the IBM and Windows definitions of each page.

/// A character code table the decoder can read (`ESC t n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Page {
    /// PC437, USA / standard Europe (`ESC t 0`, the printer's default).
    Pc437,
    /// PC850, multilingual (`ESC t 2`).
    Pc850,
    /// PC858, PC850 with `€` in place of `ı` at 0xD5 (`ESC t 19`).
    Pc858,
    /// Windows-1252 (`ESC t 16`).
    Wpc1252,
}

impl Page {
    /// The table `ESC t n` selects, if the decoder knows it.
    pub(crate) fn from_number(n: u8) -> Option<Page> {
        match n {
            0 => Some(Page::Pc437),
            2 => Some(Page::Pc850),
            16 => Some(Page::Wpc1252),
            19 => Some(Page::Pc858),
            _ => None,
        }
    }

    /// The `n` of `ESC t n` that selects this table.
    pub(crate) fn number(self) -> u8 {
        match self {
            Page::Pc437 => 0,
            Page::Pc850 => 2,
            Page::Wpc1252 => 16,
            Page::Pc858 => 19,
        }
    }

    /// The table's usual name, for error messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Page::Pc437 => "PC437",
            Page::Pc850 => "PC850",
            Page::Pc858 => "PC858",
            Page::Wpc1252 => "WPC1252",
        }
    }

    /// The character the printer prints for a byte from 0x20 up, or `None` when the
    /// table has nothing there (the holes of Windows-1252).
    ///
    /// The soft hyphen (U+00AD: 0xF0 in PC850/PC858, 0xAD in WPC1252) is read as itself,
    /// not as `-`: the `escpos` crate sends it for `-` in PC850 and PC858, and a test
    /// that reads it as `-` cannot see that a date or a ticket number prints otherwise.
    pub(crate) fn decode(self, byte: u8) -> Option<char> {
        let Some(high) = byte.checked_sub(0x80) else {
            return Some(char::from(byte));
        };
        let c = match self {
            Page::Pc437 => PC437[usize::from(high)],
            Page::Pc858 if byte == 0xD5 => '€',
            Page::Pc850 | Page::Pc858 => PC850[usize::from(high)],
            Page::Wpc1252 => WPC1252[usize::from(high)],
        };
        (c != HOLE).then_some(c)
    }
}

/// Marks a byte the table leaves undefined.
const HOLE: char = '\0';

/// PC437, 0x80..=0xFF.
const PC437: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{A0}',
];

/// PC850, 0x80..=0xFF (PC858 differs only at 0xD5).
const PC850: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', 'ø', '£', 'Ø', '×', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '®', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', 'Á', 'Â', 'À', '©', '╣', '║', '╗', '╝', '¢', '¥', '┐', //
    '└', '┴', '┬', '├', '─', '┼', 'ã', 'Ã', '╚', '╔', '╩', '╦', '╠', '═', '╬', '¤', //
    'ð', 'Ð', 'Ê', 'Ë', 'È', 'ı', 'Í', 'Î', 'Ï', '┘', '┌', '█', '▄', '¦', 'Ì', '▀', //
    'Ó', 'ß', 'Ô', 'Ò', 'õ', 'Õ', 'µ', 'þ', 'Þ', 'Ú', 'Û', 'Ù', 'ý', 'Ý', '¯', '´', //
    '\u{AD}', '±', '‗', '¾', '¶', '§', '÷', '¸', '°', '¨', '·', '¹', '³', '²', '■', '\u{A0}',
];

/// Windows-1252, 0x80..=0xFF.
const WPC1252: [char; 128] = [
    '€', HOLE, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', HOLE, 'Ž', HOLE, //
    HOLE, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', HOLE, 'ž', 'Ÿ', //
    '\u{A0}', '¡', '¢', '£', '¤', '¥', '¦', '§', '¨', '©', 'ª', '«', '¬', '\u{AD}', '®',
    '¯', //
    '°', '±', '²', '³', '´', 'µ', '¶', '·', '¸', '¹', 'º', '»', '¼', '½', '¾', '¿', //
    'À', 'Á', 'Â', 'Ã', 'Ä', 'Å', 'Æ', 'Ç', 'È', 'É', 'Ê', 'Ë', 'Ì', 'Í', 'Î', 'Ï', //
    'Ð', 'Ñ', 'Ò', 'Ó', 'Ô', 'Õ', 'Ö', '×', 'Ø', 'Ù', 'Ú', 'Û', 'Ü', 'Ý', 'Þ', 'ß', //
    'à', 'á', 'â', 'ã', 'ä', 'å', 'æ', 'ç', 'è', 'é', 'ê', 'ë', 'ì', 'í', 'î', 'ï', //
    'ð', 'ñ', 'ò', 'ó', 'ô', 'õ', 'ö', '÷', 'ø', 'ù', 'ú', 'û', 'ü', 'ý', 'þ', 'ÿ', //
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's characters for the bytes, undecodable bytes as `?`.
    fn text(page: Page, bytes: &[u8]) -> String {
        bytes
            .iter()
            .map(|&b| page.decode(b).unwrap_or('?'))
            .collect()
    }

    #[test]
    fn ascii_is_the_same_in_every_page() {
        for page in [Page::Pc437, Page::Pc850, Page::Pc858, Page::Wpc1252] {
            assert_eq!(
                text(page, b"Total: 12,50 EUR #1 {ok}"),
                "Total: 12,50 EUR #1 {ok}"
            );
        }
    }

    #[test]
    fn french_letters_are_where_pc858_puts_them() {
        let bytes = [
            0x82, 0x85, 0x8A, 0x87, 0x88, 0x93, 0x96, 0x97, 0x83, 0x8C, 0x8B, 0x89, 0x81, 0x94,
            0x84, 0x90, 0xB7, 0x80, 0xD5, 0xF8,
        ];
        assert_eq!(text(Page::Pc858, &bytes), "éàèçêôûùâîïëüöäÉÀÇ€°");
        // PC850 has the dotless i where PC858 has the euro sign.
        assert_eq!(Page::Pc850.decode(0xD5), Some('ı'));
        // PC437 has no É À at those places, but the lower-case letters are the same.
        assert_eq!(text(Page::Pc437, &bytes[..15]), "éàèçêôûùâîïëüöä");
        assert_eq!(Page::Pc437.decode(0xF8), Some('°'));
    }

    #[test]
    fn french_letters_are_latin_1_in_wpc1252() {
        let bytes = [
            0xE9, 0xE0, 0xE8, 0xE7, 0xEA, 0xF4, 0xFB, 0xF9, 0xE2, 0xEE, 0xEF, 0xEB, 0xFC, 0xF6,
            0xE4, 0xC9, 0xC0, 0xC7, 0x80, 0xB0, 0x9C, 0x85,
        ];
        assert_eq!(text(Page::Wpc1252, &bytes), "éàèçêôûùâîïëüöäÉÀÇ€°œ…");
    }

    #[test]
    fn holes_of_wpc1252_have_no_character() {
        for byte in [0x81, 0x8D, 0x8F, 0x90, 0x9D] {
            assert_eq!(Page::Wpc1252.decode(byte), None, "0x{byte:02X}");
        }
    }

    #[test]
    fn a_soft_hyphen_reads_as_itself_not_as_a_hyphen() {
        assert_eq!(Page::Pc850.decode(0xF0), Some('\u{AD}'));
        assert_eq!(Page::Pc858.decode(0xF0), Some('\u{AD}'));
        assert_eq!(Page::Wpc1252.decode(0xAD), Some('\u{AD}'));
        assert_eq!(Page::Pc858.decode(b'-'), Some('-'));
    }

    #[test]
    fn page_numbers_round_trip() {
        for n in 0..=u8::MAX {
            if let Some(page) = Page::from_number(n) {
                assert_eq!(page.number(), n, "{}", page.name());
            }
        }
        assert_eq!(Page::from_number(19), Some(Page::Pc858));
        assert_eq!(Page::from_number(1), None);
    }
}
