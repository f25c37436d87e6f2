//! What a scanner (a keyboard to the computer) or a person typed, turned into a card.
//!
//! Accepted: a bare id (`card_…` for a loyalty card, `gc_…` for a gift card), with
//! spaces, a trailing Enter or other control characters around or inside it, any
//! letter case of the prefix, or a URL (a wallet pass link) that carries the id in
//! its path or query. The API's ids are strings, whatever they look like: a code
//! without either prefix (a scanner's start and stop characters trimmed) is `Unknown`,
//! which the counter looks up as a loyalty card, then as a gift card
//! ([`crate::Counter::identify`]). Anything else is "not a card", with the reason.

use loyalty_api::{CardId, GiftCardId};
use serde::{Deserialize, Serialize};

/// What was scanned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Scanned {
    /// A loyalty card.
    Card {
        /// Its id.
        id: CardId,
    },
    /// A gift card.
    GiftCard {
        /// Its id.
        id: GiftCardId,
    },
    /// A person's staff badge (`staff_…`), made by this till or another of the shop's:
    /// never a customer's card.
    Badge {
        /// The badge's code.
        code: String,
    },
    /// A code without a prefix this till knows: a card of either kind, or neither.
    Unknown {
        /// The code.
        code: String,
    },
    /// Not something the counter can use.
    NotACard {
        /// Why.
        reason: NotACard,
    },
}

for_the_ui! {
/// Why an input is not a card; the screens say it in the cashier's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotACard {
    /// Far longer than any card's id or link.
    TooLong,
    /// Nothing but spaces and control characters.
    Empty,
    /// No id of a loyalty card or gift card in it.
    NoCard,
    /// More than one card's id in it.
    SeveralCards,
    /// A code the service knows as neither a loyalty card nor a gift card.
    NotKnown,
    /// A person's staff badge: it signs them in at the lock screen, and is no card.
    StaffBadge,
    /// A code this till does not know, and the service cannot be reached to ask.
    NotKnownOffline,
}
}

impl NotACard {
    /// Its name, as the screens receive it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TooLong => "too_long",
            Self::Empty => "empty",
            Self::NoCard => "no_card",
            Self::SeveralCards => "several_cards",
            Self::NotKnown => "not_known",
            Self::StaffBadge => "staff_badge",
            Self::NotKnownOffline => "not_known_offline",
        }
    }
}

const LONGEST_INPUT: usize = 2048;

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The loyalty card `text` names, where only a loyalty card will do (a fresh read of
/// the card on screen): a card's id, or a code without a prefix this till knows, which
/// the service decides on. Anything else is refused as not a card.
pub fn card_id(text: &str) -> Result<CardId, crate::error::InputError> {
    match read(text) {
        Scanned::Card { id } => Ok(id),
        Scanned::Unknown { code } => Ok(CardId::new(code)),
        Scanned::GiftCard { .. } | Scanned::Badge { .. } | Scanned::NotACard { .. } => {
            Err(crate::error::InputError::NotACard {
                given: crate::input::shown(text),
            })
        }
    }
}

/// Reads scanner or keyboard input.
pub fn read(input: &str) -> Scanned {
    if input.len() > LONGEST_INPUT {
        return Scanned::NotACard {
            reason: NotACard::TooLong,
        };
    }
    // Scanners add Enter or Tab, people add spaces; none is ever part of an id.
    let cleaned: String = input
        .chars()
        .filter(|c| !c.is_control() && !c.is_whitespace())
        .collect();
    if cleaned.is_empty() {
        return Scanned::NotACard {
            reason: NotACard::Empty,
        };
    }
    let decoded = cleaned.replace("%5F", "_").replace("%5f", "_");
    let mut found: Vec<Scanned> = decoded
        .split(|c: char| !is_id_char(c))
        .filter_map(token)
        .collect();
    found.dedup();
    match found.len() {
        1 => found.remove(0),
        0 => {
            // Spaces and control characters only at its ends (inside, it is two words),
            // and a scanner's start and stop characters (`*`, `;`, `?`, `%`...).
            let code = input
                .trim_matches(|c: char| c.is_control() || c.is_whitespace())
                .trim_matches(|c: char| !is_id_char(c) && c != '-');
            if plausible_id(code) {
                Scanned::Unknown {
                    code: code.to_owned(),
                }
            } else {
                Scanned::NotACard {
                    reason: NotACard::NoCard,
                }
            }
        }
        _ => Scanned::NotACard {
            reason: NotACard::SeveralCards,
        },
    }
}

/// Whether `text` could be an id the service issued: 4 to 100 letters, digits, `_` or
/// `-`, starting and ending with a letter or digit.
pub fn plausible_id(text: &str) -> bool {
    (4..=100).contains(&text.len())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && text.starts_with(|c: char| c.is_ascii_alphanumeric())
        && text.ends_with(|c: char| c.is_ascii_alphanumeric())
}

fn token(word: &str) -> Option<Scanned> {
    let lower = word.to_ascii_lowercase();
    let (prefix, _) = lower.split_once('_')?;
    let tail = &word[prefix.len() + 1..];
    let plausible = tail.len() >= 8 && tail.chars().all(|c| c.is_ascii_alphanumeric());
    match (prefix, plausible) {
        ("card", true) => Some(Scanned::Card {
            id: CardId::new(format!("card_{tail}")),
        }),
        ("gc", true) => Some(Scanned::GiftCard {
            id: GiftCardId::new(format!("gc_{tail}")),
        }),
        ("staff", true) => Some(Scanned::Badge {
            code: format!("staff_{tail}"),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: &str = "card_0Ab1Cd2Ef3Gh4Ij5Kl6Mn7O";
    const GIFT: &str = "gc_9Zy8Xw7Vu6Ts5Rq4Po3Nm2Lk1";

    #[test]
    fn only_a_loyalty_card_or_a_code_the_service_decides_on_names_a_card() {
        assert_eq!(card_id(&format!(" {CARD}\r\n")).unwrap().as_str(), CARD);
        assert_eq!(
            card_id("LOY-2026-000042").unwrap().as_str(),
            "LOY-2026-000042"
        );
        for not_a_card in [GIFT, "", "card_\u{0}x"] {
            assert!(card_id(not_a_card).is_err(), "{not_a_card:?}");
        }
    }

    fn card() -> Scanned {
        Scanned::Card {
            id: CardId::new(CARD),
        }
    }

    #[test]
    fn a_staff_badge_is_never_a_card() {
        let badge = "staff_k3m9q2x7w4p8r6t5v1z0";
        assert_eq!(
            read(&format!("{badge}\r")),
            Scanned::Badge {
                code: badge.to_owned()
            }
        );
        assert!(card_id(badge).is_err());
    }

    #[test]
    fn a_bare_card_id_is_a_card() {
        assert_eq!(read(CARD), card());
    }

    #[test]
    fn a_gift_card_id_is_a_gift_card() {
        assert_eq!(
            read(GIFT),
            Scanned::GiftCard {
                id: GiftCardId::new(GIFT)
            }
        );
    }

    #[test]
    fn spaces_enter_and_control_characters_are_ignored() {
        assert_eq!(read(&format!("  {CARD}\r\n")), card());
        assert_eq!(read(&format!("\u{2}{CARD}\u{3}")), card());
        assert_eq!(
            read(&format!("\t{}  {}\n", &CARD[..10], &CARD[10..])),
            card()
        );
    }

    #[test]
    fn an_upper_case_prefix_from_a_caps_lock_scanner_is_read() {
        assert_eq!(read(&format!("CARD_{}", &CARD[5..])), card());
    }

    #[test]
    fn a_url_carrying_the_id_in_its_path_or_query_is_read() {
        assert_eq!(read(&format!("https://wallet.example/p/{CARD}")), card());
        assert_eq!(
            read(&format!("https://wallet.example/c?id={CARD}&x=1")),
            card()
        );
        assert_eq!(
            read(&format!(
                "https://wallet.example/c?id=card%5F{}",
                &CARD[5..]
            )),
            card()
        );
    }

    #[test]
    fn text_that_is_not_a_card_says_so() {
        let not_a_card = |reason| Scanned::NotACard { reason };
        for input in ["", "   \n"] {
            assert_eq!(read(input), not_a_card(NotACard::Empty), "{input:?}");
        }
        for input in [
            "card_",
            "abc",
            "https://example.com/",
            "two words",
            "ab.cd",
            &"x".repeat(101),
        ] {
            assert_eq!(read(input), not_a_card(NotACard::NoCard), "{input:?}");
        }
        assert_eq!(read(&"x".repeat(5000)), not_a_card(NotACard::TooLong));
    }

    #[test]
    fn a_code_without_a_known_prefix_is_looked_up_whatever_it_looks_like() {
        let unknown = |code: &str| Scanned::Unknown { code: code.into() };
        for (input, code) in [
            ("4006381333931", "4006381333931"),
            ("card_short", "card_short"),
            ("cus_0Ab1Cd2Ef3Gh4Ij5Kl6Mn7O", "cus_0Ab1Cd2Ef3Gh4Ij5Kl6Mn7O"),
            ("LOY-2026-000042", "LOY-2026-000042"),
            // A wedge scanner's start and stop characters, its Enter, a person's spaces.
            ("*4006381333931*\r\n", "4006381333931"),
            (";LOY-42A?", "LOY-42A"),
            ("  %hello\t", "hello"),
        ] {
            assert_eq!(read(input), unknown(code), "{input:?}");
        }
    }

    #[test]
    fn two_different_cards_in_one_scan_are_refused() {
        assert_eq!(
            read(&format!("{CARD}/{GIFT}")),
            Scanned::NotACard {
                reason: NotACard::SeveralCards
            }
        );
        assert_eq!(read(&format!("{CARD}/{CARD}")), card());
    }
}
