//! A wedge scanner is a keyboard: it sends the physical keys that type a card's id on
//! the layout it was set up for (US QWERTY, nearly always). On a till whose keyboard is
//! set to another layout (AZERTY in France), the same keys type something else:
//! `card_8Dry` arrives as `cqrd°_Dry`. So the screens send the keys themselves
//! (`KeyboardEvent.code`, with Shift) with what was typed, and the core reads the keys
//! through the scanner's layout when they came as a scanner sends them (a burst, every
//! key within [`SCANNER_GAP_MS`] of the one before) and what was typed names no card
//! while what the keys say does ([`crate::Counter::scanned_text`]). A person typing is
//! slower, and what they typed, in their own layout, is what counts; so is what typed
//! a card's id already (a scanner on a keyboard of its own layout, whatever keys a
//! synthetic keyboard reports).

use serde::{Deserialize, Serialize};

/// The longest pause between two keys of a scanner's burst, in milliseconds. Scanners
/// send a key every few milliseconds; a person never types a whole id that fast.
pub const SCANNER_GAP_MS: u32 = 50;

/// Fewer keys than this are not told apart from a person's quick double tap.
const SHORTEST_BURST: usize = 4;

for_the_ui! {
/// The keyboard layout a wedge scanner was set up for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyboardLayout {
    /// US QWERTY: the factory setting of nearly every scanner.
    #[default]
    Us,
    /// UK QWERTY.
    Uk,
    /// French AZERTY.
    Fr,
    /// German QWERTZ.
    De,
}
}

for_the_ui! {
/// One key pressed in the scan field, as the screen saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyPress {
    /// The physical key (`KeyboardEvent.code`: `KeyA`, `Digit8`, `Minus`…).
    pub code: String,
    /// Shift was held.
    pub shift: bool,
    /// Milliseconds since the key before (0 for the first).
    pub gap_ms: u32,
}
}

/// The most keys a scan is read from (an id or a pass's link is far shorter).
pub const MOST_KEYS: usize = 2048;

/// What a scanner set up for `layout` typed with `keys`, when they came as a scanner
/// sends them (a burst of keys that each type a character on that layout); `None` when
/// a person typed them, or a key types nothing there.
pub fn scanned(layout: KeyboardLayout, keys: &[KeyPress]) -> Option<String> {
    if keys.len() < SHORTEST_BURST || keys.len() > MOST_KEYS {
        return None;
    }
    if keys.iter().skip(1).any(|key| key.gap_ms > SCANNER_GAP_MS) {
        return None;
    }
    keys.iter()
        .map(|key| character(layout, &key.code, key.shift))
        .collect()
}

/// The character a key types on `layout`, with or without Shift.
pub fn character(layout: KeyboardLayout, code: &str, shift: bool) -> Option<char> {
    if code == "Space" {
        return Some(' ');
    }
    let pick = |pair: (char, char)| if shift { pair.1 } else { pair.0 };
    if let Some(letter) = code.strip_prefix("Key").filter(|l| l.len() == 1) {
        let letter = letter.chars().next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let letter = match (layout, letter) {
            (KeyboardLayout::Fr, 'a') => 'q',
            (KeyboardLayout::Fr, 'q') => 'a',
            (KeyboardLayout::Fr, 'w') => 'z',
            (KeyboardLayout::Fr, 'z') => 'w',
            // AZERTY's M is where QWERTY's semicolon is; its comma where M is.
            (KeyboardLayout::Fr, 'm') => return Some(pick((',', '?'))),
            (KeyboardLayout::De, 'y') => 'z',
            (KeyboardLayout::De, 'z') => 'y',
            (_, letter) => letter,
        };
        return Some(pick((letter, letter.to_ascii_uppercase())));
    }
    symbols(layout)
        .iter()
        .find(|(key, _, _)| *key == code)
        .map(|&(_, plain, shifted)| pick((plain, shifted)))
}

/// The keys other than letters and Space, with what they type and with Shift.
fn symbols(layout: KeyboardLayout) -> &'static [(&'static str, char, char)] {
    match layout {
        KeyboardLayout::Us => US,
        KeyboardLayout::Uk => UK,
        KeyboardLayout::Fr => FR,
        KeyboardLayout::De => DE,
    }
}

const US: &[(&str, char, char)] = &[
    ("Backquote", '`', '~'),
    ("Digit1", '1', '!'),
    ("Digit2", '2', '@'),
    ("Digit3", '3', '#'),
    ("Digit4", '4', '$'),
    ("Digit5", '5', '%'),
    ("Digit6", '6', '^'),
    ("Digit7", '7', '&'),
    ("Digit8", '8', '*'),
    ("Digit9", '9', '('),
    ("Digit0", '0', ')'),
    ("Minus", '-', '_'),
    ("Equal", '=', '+'),
    ("BracketLeft", '[', '{'),
    ("BracketRight", ']', '}'),
    ("Backslash", '\\', '|'),
    ("Semicolon", ';', ':'),
    ("Quote", '\'', '"'),
    ("Comma", ',', '<'),
    ("Period", '.', '>'),
    ("Slash", '/', '?'),
];

const UK: &[(&str, char, char)] = &[
    ("Backquote", '`', '¬'),
    ("Digit1", '1', '!'),
    ("Digit2", '2', '"'),
    ("Digit3", '3', '£'),
    ("Digit4", '4', '$'),
    ("Digit5", '5', '%'),
    ("Digit6", '6', '^'),
    ("Digit7", '7', '&'),
    ("Digit8", '8', '*'),
    ("Digit9", '9', '('),
    ("Digit0", '0', ')'),
    ("Minus", '-', '_'),
    ("Equal", '=', '+'),
    ("BracketLeft", '[', '{'),
    ("BracketRight", ']', '}'),
    ("Backslash", '#', '~'),
    ("IntlBackslash", '\\', '|'),
    ("Semicolon", ';', ':'),
    ("Quote", '\'', '@'),
    ("Comma", ',', '<'),
    ("Period", '.', '>'),
    ("Slash", '/', '?'),
];

// AZERTY's dead keys (^ and ¨ on BracketLeft) type nothing by themselves: left out.
const FR: &[(&str, char, char)] = &[
    ("Digit1", '&', '1'),
    ("Digit2", 'é', '2'),
    ("Digit3", '"', '3'),
    ("Digit4", '\'', '4'),
    ("Digit5", '(', '5'),
    ("Digit6", '-', '6'),
    ("Digit7", 'è', '7'),
    ("Digit8", '_', '8'),
    ("Digit9", 'ç', '9'),
    ("Digit0", 'à', '0'),
    ("Minus", ')', '°'),
    ("Equal", '=', '+'),
    ("BracketRight", '$', '£'),
    ("Semicolon", 'm', 'M'),
    ("Quote", 'ù', '%'),
    ("Backslash", '*', 'µ'),
    ("IntlBackslash", '<', '>'),
    ("Comma", ';', '.'),
    ("Period", ':', '/'),
    ("Slash", '!', '§'),
];

// QWERTZ's dead keys (´ ` on Equal, ^ ° on Backquote) left out likewise.
const DE: &[(&str, char, char)] = &[
    ("Digit1", '1', '!'),
    ("Digit2", '2', '"'),
    ("Digit3", '3', '§'),
    ("Digit4", '4', '$'),
    ("Digit5", '5', '%'),
    ("Digit6", '6', '&'),
    ("Digit7", '7', '/'),
    ("Digit8", '8', '('),
    ("Digit9", '9', ')'),
    ("Digit0", '0', '='),
    ("Minus", 'ß', '?'),
    ("BracketLeft", 'ü', 'Ü'),
    ("BracketRight", '+', '*'),
    ("Semicolon", 'ö', 'Ö'),
    ("Quote", 'ä', 'Ä'),
    ("Backslash", '#', '\''),
    ("IntlBackslash", '<', '>'),
    ("Comma", ',', ';'),
    ("Period", '.', ':'),
    ("Slash", '-', '_'),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys a scanner set up for `layout` sends to type `text`, a few ms apart.
    fn keys_for(layout: KeyboardLayout, text: &str) -> Vec<KeyPress> {
        const CODES: &[&str] = &[
            "Backquote",
            "Digit1",
            "Digit2",
            "Digit3",
            "Digit4",
            "Digit5",
            "Digit6",
            "Digit7",
            "Digit8",
            "Digit9",
            "Digit0",
            "Minus",
            "Equal",
            "BracketLeft",
            "BracketRight",
            "Backslash",
            "IntlBackslash",
            "Semicolon",
            "Quote",
            "Comma",
            "Period",
            "Slash",
            "Space",
        ];
        let codes = CODES
            .iter()
            .map(|c| c.to_string())
            .chain(('A'..='Z').map(|l| format!("Key{l}")));
        let all: Vec<(String, bool)> = codes
            .flat_map(|code| [(code.clone(), false), (code, true)])
            .collect();
        text.chars()
            .enumerate()
            .map(|(n, c)| {
                let (code, shift) = all
                    .iter()
                    .find(|(code, shift)| character(layout, code, *shift) == Some(c))
                    .unwrap_or_else(|| panic!("{c:?} cannot be typed on {layout:?}"));
                KeyPress {
                    code: code.clone(),
                    shift: *shift,
                    gap_ms: if n == 0 { 0 } else { 4 },
                }
            })
            .collect()
    }

    #[test]
    fn a_us_scanner_on_an_azerty_till_gives_the_card_id_it_was_shown() {
        let keys = keys_for(KeyboardLayout::Us, "card_8Dry");
        // What the French till's keyboard typed from those keys.
        let typed: String = keys
            .iter()
            .map(|k| character(KeyboardLayout::Fr, &k.code, k.shift).unwrap_or('?'))
            .collect();
        assert_eq!(typed, "cqrd°_Dry");
        assert_eq!(
            scanned(KeyboardLayout::Us, &keys).as_deref(),
            Some("card_8Dry")
        );
    }

    #[test]
    fn each_layouts_scanner_types_an_id_and_a_passs_link() {
        for layout in [
            KeyboardLayout::Us,
            KeyboardLayout::Uk,
            KeyboardLayout::Fr,
            KeyboardLayout::De,
        ] {
            for text in [
                "card_8Dry0Zq",
                "gc_AbCdEf012",
                "https://w.example/p?card=card_x-Y.Z",
            ] {
                let keys = keys_for(layout, text);
                assert_eq!(scanned(layout, &keys).as_deref(), Some(text), "{layout:?}");
            }
        }
    }

    #[test]
    fn a_person_typing_or_a_key_that_types_nothing_leaves_what_was_typed() {
        let mut keys = keys_for(KeyboardLayout::Us, "card_8Dry");
        keys[4].gap_ms = SCANNER_GAP_MS + 1;
        assert_eq!(
            scanned(KeyboardLayout::Us, &keys),
            None,
            "a pause: a person"
        );
        let short = keys_for(KeyboardLayout::Us, "abc");
        assert_eq!(
            scanned(KeyboardLayout::Us, &short),
            None,
            "too few keys to tell"
        );
        let mut unknown = keys_for(KeyboardLayout::Us, "card_8Dry");
        unknown[2].code = "Backspace".into();
        assert_eq!(scanned(KeyboardLayout::Us, &unknown), None);
        unknown[2].code = "".into();
        assert_eq!(scanned(KeyboardLayout::Us, &unknown), None);
    }
}
