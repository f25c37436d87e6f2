//! A receipt laid out on paper: lines of at most the paper's columns, in characters the
//! printer's code page has.

use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use super::words::Words;
use super::{Heading, Language, Money, Paper, Preview, Receipt};
use crate::kinds::LoyaltyType;
use crate::views::Progress;

mod z;

for_the_ui! {
/// How a line sits on the paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Align {
    /// Against the left edge.
    Left,
    /// Centred.
    Center,
}
}

for_the_ui! {
/// One line on paper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PaperLine {
    /// Text, at most the paper's columns (half as many when large).
    Text {
        /// The text, in characters the printer has.
        text: String,
        /// Bold.
        bold: bool,
        /// Twice as wide and twice as high.
        large: bool,
        /// Where it sits.
        align: Align,
    },
    /// A QR code (model 2), centred.
    Qr {
        /// What it holds.
        data: String,
        /// Its modules for the preview, row by row, `1` dark and `0` light (the printer
        /// draws its own from `data`).
        modules: Vec<String>,
    },
}
}

impl PaperLine {
    pub(crate) fn qr(data: &str) -> Self {
        let modules = match qrcode::QrCode::with_error_correction_level(data, qrcode::EcLevel::M) {
            Ok(code) => code
                .to_colors()
                .chunks(code.width())
                .map(|row| {
                    row.iter()
                        .map(|c| if *c == qrcode::Color::Dark { '1' } else { '0' })
                        .collect()
                })
                .collect(),
            // Longer than any QR code holds: the preview shows the data alone.
            Err(_) => Vec::new(),
        };
        PaperLine::Qr {
            data: data.to_owned(),
            modules,
        }
    }
}

/// Letters beyond ASCII that the printer's page (PC858) has: they print as they are.
/// Anything else is replaced before it reaches the printer (`printable`).
pub(crate) const KEPT: &str =
    "àâäáåãçéèêëíìîïñóòôöõúùûüÿýÀÂÄÁÅÃÇÉÈÊËÍÌÎÏÑÓÖÕÚÙÛÜÝæÆøØßðÐþÞ€£¥¢°«»×÷±§¶µ¡ªº½¼¾²³¹·";

/// `text` in characters the printer has: typographic marks become their plain forms
/// (’ to ', – to -), œ becomes oe, control characters spaces, and anything else `?`.
pub(crate) fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' '..='~' => out.push(c),
            c if KEPT.contains(c) => out.push(c),
            '‘' | '’' | '‚' | '′' => out.push('\''),
            '“' | '”' | '„' | '″' => out.push('"'),
            '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' => out.push('-'),
            '…' => out.push_str("..."),
            'œ' => out.push_str("oe"),
            // The `escpos` crate sends Ô as PC858's Ò (its table lists Ô twice).
            'Ô' => out.push('O'),
            'Œ' => out.push_str("OE"),
            c if c.is_whitespace() || c.is_control() => out.push(' '),
            _ => out.push('?'),
        }
    }
    out
}

/// `text` cut into lines of at most `width` characters, at spaces where it can be.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let room = if used == 0 {
                width
            } else {
                width.saturating_sub(used + 1)
            };
            if word.len() <= room {
                if used > 0 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than the line: cut it.
            let rest = word.split_off(width);
            lines.push(word.iter().collect());
            word = rest;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Builds the lines of one receipt for one paper.
struct Sheet {
    columns: usize,
    lines: Vec<PaperLine>,
}

impl Sheet {
    fn text(&mut self, text: &str, bold: bool, large: bool, align: Align) {
        let width = if large {
            self.columns / 2
        } else {
            self.columns
        };
        for text in wrap(&printable(text), width) {
            self.lines.push(PaperLine::Text {
                text,
                bold,
                large,
                align,
            });
        }
    }

    fn plain(&mut self, text: &str) {
        self.text(text, false, false, Align::Left);
    }

    fn centred(&mut self, text: &str) {
        self.text(text, false, false, Align::Center);
    }

    fn title(&mut self, text: &str) {
        self.text(text, true, false, Align::Center);
    }

    fn blank(&mut self) {
        self.plain("");
    }

    fn rule(&mut self) {
        self.plain(&"-".repeat(self.columns));
    }

    /// A label on the left and its value on the right of one line; on two lines when
    /// both do not fit (the value against the right edge).
    fn pair(&mut self, label: &str, value: &str, bold: bool) {
        let (label, value) = (printable(label), printable(value));
        let used = label.chars().count() + value.chars().count();
        if used < self.columns {
            let gap = " ".repeat(self.columns - used);
            self.exactly(format!("{label}{gap}{value}"), bold);
        } else {
            self.text(&label, bold, false, Align::Left);
            for value in wrap(&value, self.columns) {
                let pad = " ".repeat(self.columns - value.chars().count());
                self.exactly(format!("{pad}{value}"), bold);
            }
        }
    }

    /// A line of printable text that fits, spaces and all.
    fn exactly(&mut self, text: String, bold: bool) {
        self.lines.push(PaperLine::Text {
            text,
            bold,
            large: false,
            align: Align::Left,
        });
    }

    /// Every receipt's top: the heading, then its title and a blank line.
    fn top(&mut self, heading: &Heading, title: &str, language: Language, zone: &TimeZone) {
        self.heading(heading, language, zone);
        self.title(title);
        self.blank();
    }

    fn heading(&mut self, heading: &Heading, language: Language, zone: &TimeZone) {
        if heading.copy {
            self.text(language.words().copy, true, true, Align::Center);
        }
        self.text(&heading.shop, true, true, Align::Center);
        if let Some(location) = &heading.location {
            self.centred(location);
        }
        self.centred(&local_time(heading, language, zone));
        if let Some(name) = &heading.served_by {
            self.centred(&(language.words().served_by)(name));
        }
        self.rule();
    }
}

fn local_time(heading: &Heading, language: Language, zone: &TimeZone) -> String {
    local_time_of(heading.at, language, zone)
}

fn local_time_of(at: jiff::Timestamp, language: Language, zone: &TimeZone) -> String {
    let at = at.to_zoned(zone.clone());
    match language {
        Language::En => at.strftime("%Y-%m-%d %H:%M").to_string(),
        Language::Fr => at.strftime("%d/%m/%Y %H:%M").to_string(),
    }
}

/// Money as the till's language writes it: `€12.50`, `12,50 €`, `12.50 CHF`.
pub(crate) fn money(money: &Money, language: Language) -> String {
    let places = crate::payment::exponent(&money.currency) as usize;
    let amount = format!("{:.places$}", money.amount);
    let amount = match language {
        Language::Fr => amount.replace('.', ","),
        Language::En => amount,
    };
    let symbol = match money.currency.as_str() {
        "EUR" => Some("€"),
        "GBP" => Some("£"),
        "USD" => Some("$"),
        _ => None,
    };
    match (symbol, language) {
        (Some(symbol), Language::En) => format!("{symbol}{amount}"),
        (Some(symbol), Language::Fr) => format!("{amount} {symbol}"),
        (None, _) => format!("{amount} {}", money.currency.as_str()),
    }
}

fn standing(sheet: &mut Sheet, standing: &Progress, words: &Words) {
    let unit = match standing.counts {
        LoyaltyType::Points => words.points,
        _ => words.visits,
    };
    sheet.pair(
        unit,
        &format!("{} / {}", standing.count, standing.goal),
        true,
    );
    // A bar of the paper's width less its ends: `[#####.....]`.
    let inner = sheet.columns - 2;
    let goal = standing.goal.max(1);
    let filled =
        usize::try_from(standing.count.clamp(0, goal) * inner as i64 / goal).unwrap_or_default();
    sheet.plain(&format!(
        "[{}{}]",
        "#".repeat(filled),
        ".".repeat(inner - filled)
    ));
    let to_go = standing.goal - standing.count;
    if to_go > 0 {
        sheet.plain(&(words.to_go)(
            to_go,
            &unit.to_lowercase(),
            &standing.reward_title,
        ));
    } else {
        sheet.plain(&format!(
            "{} {}",
            words.reward_earned, standing.reward_title
        ));
    }
    if standing.rewards_available > 0 {
        sheet.pair(
            words.rewards_ready,
            &standing.rewards_available.to_string(),
            true,
        );
    }
}

/// Where a receipt is laid out: a voucher's whole card only goes on paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Medium {
    Paper,
    Screen,
}

impl Receipt {
    /// The receipt's lines on `paper`, in `language`, its time in `zone`: what the
    /// printer prints.
    pub fn lay_out(&self, paper: Paper, language: Language, zone: &TimeZone) -> Preview {
        self.lay_out_on(Medium::Paper, paper, language, zone)
    }

    /// The receipt as a screen shows it: as on paper, but a voucher's card by its last
    /// four characters (its whole id is its money: it goes to the customer on paper).
    pub fn preview(&self, paper: Paper, language: Language, zone: &TimeZone) -> Preview {
        self.lay_out_on(Medium::Screen, paper, language, zone)
    }

    fn lay_out_on(
        &self,
        medium: Medium,
        paper: Paper,
        language: Language,
        zone: &TimeZone,
    ) -> Preview {
        let words = language.words();
        let mut sheet = Sheet {
            columns: paper.columns(),
            lines: Vec::new(),
        };
        match self {
            Receipt::Payment {
                heading,
                taken,
                balance_after,
                ticket,
                card_end,
            } => {
                sheet.top(heading, words.payment, language, zone);
                sheet.pair(words.card, &format!("****{card_end}"), false);
                if let Some(ticket) = ticket {
                    sheet.pair(words.ticket, ticket, false);
                }
                sheet.pair(words.taken, &money(taken, language), false);
                let left = Money {
                    amount: *balance_after,
                    currency: taken.currency.clone(),
                };
                sheet.pair(words.balance_left, &money(&left, language), true);
                sheet.rule();
                sheet.centred(words.thanks);
            }
            Receipt::Voucher {
                heading,
                amount,
                recipient,
                gift_card,
                card_end,
            } => {
                sheet.top(heading, words.voucher, language, zone);
                sheet.text(&money(amount, language), true, true, Align::Center);
                if let Some(recipient) = recipient.as_deref().filter(|r| !r.trim().is_empty()) {
                    sheet.blank();
                    sheet.centred(&format!("{} {recipient}", words.voucher_for));
                }
                sheet.blank();
                match (gift_card, medium) {
                    (Some(card), Medium::Paper) => {
                        sheet.lines.push(PaperLine::qr(card.as_str()));
                        sheet.centred(card.as_str());
                        sheet.blank();
                        sheet.centred(words.voucher_use);
                    }
                    (card, _) => {
                        let end = card_end
                            .clone()
                            .or_else(|| card.as_ref().map(|c| super::last_four(c.as_str())))
                            .unwrap_or_default();
                        sheet.pair(words.voucher_card, &format!("****{end}"), false);
                        sheet.blank();
                        sheet.plain(if card.is_some() {
                            words.voucher_on_paper
                        } else {
                            words.voucher_not_a_card
                        });
                    }
                }
            }
            Receipt::LoyaltySlip {
                heading,
                name,
                progress: card,
                card_end,
            } => {
                sheet.top(heading, words.slip, language, zone);
                if let Some(name) = name {
                    sheet.text(name, true, false, Align::Left);
                }
                sheet.pair(words.card, &format!("****{card_end}"), false);
                match card {
                    Some(card) => standing(&mut sheet, card, words),
                    None => sheet.plain(words.pass_unknown),
                }
                sheet.rule();
                sheet.centred(words.thanks);
            }
            Receipt::Test { heading } => {
                sheet.top(heading, words.test, language, zone);
                sheet.plain(words.test_width);
                let ruler: String = (1..=sheet.columns)
                    .map(|n| char::from(b'0' + (n % 10) as u8))
                    .collect();
                sheet.plain(&ruler);
                sheet.plain(&format!("{} é è à ç ô ù € £ °", words.test_accents));
                sheet.lines.push(PaperLine::qr("TEST"));
            }
            Receipt::ZReport { heading, z } => {
                sheet.top(heading, &z::title(z.number, language), language, zone);
                sheet.z_report(z, language, zone);
            }
            Receipt::Badge {
                heading,
                name,
                code,
            } => {
                sheet.top(heading, words.badge, language, zone);
                sheet.text(name, true, false, Align::Center);
                sheet.blank();
                match code {
                    Some(code) => {
                        sheet.lines.push(PaperLine::qr(code));
                        sheet.centred(code);
                        sheet.blank();
                        sheet.centred(words.badge_use);
                    }
                    None => sheet.centred(words.badge_gone),
                }
            }
        }
        Preview {
            columns: sheet.columns,
            lines: sheet.lines,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;
    use loyalty_api::{Currency, GiftCardId};

    fn heading() -> Heading {
        Heading {
            shop: "Café de la Gare — Lyon".into(),
            location: Some("Comptoir n°2".into()),
            at: "2026-11-26T20:45:00Z".parse::<Timestamp>().unwrap(),
            served_by: Some("Anne-Sophie-Marie-Bérangère-Hortense".into()),
            copy: false,
        }
    }

    fn eur(amount: &str) -> Money {
        Money {
            amount: amount.parse().unwrap(),
            currency: Currency::new("EUR").unwrap(),
        }
    }

    fn texts(preview: &Preview) -> Vec<String> {
        preview
            .lines
            .iter()
            .filter_map(|line| match line {
                PaperLine::Text { text, .. } => Some(text.clone()),
                PaperLine::Qr { .. } => None,
            })
            .collect()
    }

    fn paris() -> TimeZone {
        TimeZone::posix("CET-1CEST,M3.5.0,M10.5.0/3").unwrap()
    }

    #[test]
    fn every_line_fits_the_paper_in_both_widths_and_both_languages() {
        let long = "Madame Anne-Sophie de la Tour d'Auvergne-Lauraguais et famille";
        let receipts = [
            Receipt::Payment {
                heading: heading(),
                taken: eur("12.5"),
                balance_after: "37.50".parse().unwrap(),
                ticket: Some("T-0000000000000000000000000000000000000000001042".into()),
                card_end: "AB12".into(),
            },
            Receipt::Voucher {
                heading: heading(),
                amount: eur("50"),
                recipient: Some(long.into()),
                gift_card: Some(GiftCardId::new("gc_0123456789abcdef")),
                card_end: Some("cdef".into()),
            },
            Receipt::LoyaltySlip {
                heading: heading(),
                name: Some(long.into()),
                progress: Some(Progress {
                    count: 7,
                    goal: 10,
                    counts: LoyaltyType::Visits,
                    reward_title: "Un café offert avec sa part de tarte du jour".into(),
                    rewards_available: 1,
                }),
                card_end: "9F3C".into(),
            },
            Receipt::Test { heading: heading() },
            Receipt::Badge {
                heading: heading(),
                name: long.into(),
                code: Some("staff_23456789abcdefghjkmnpqrs".into()),
            },
            Receipt::Badge {
                heading: heading(),
                name: long.into(),
                code: None,
            },
        ];
        for paper in [Paper::Mm58, Paper::Mm80] {
            for language in [Language::En, Language::Fr] {
                for receipt in &receipts {
                    let preview = receipt.lay_out(paper, language, &paris());
                    for line in &preview.lines {
                        if let PaperLine::Text { text, large, .. } = line {
                            let width = text.chars().count() * if *large { 2 } else { 1 };
                            assert!(width <= paper.columns(), "{text:?} on {paper:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_payment_receipt_says_what_was_taken_and_what_is_left_in_french() {
        let receipt = Receipt::Payment {
            heading: heading(),
            taken: eur("12.5"),
            balance_after: "37.50".parse().unwrap(),
            ticket: Some("T-1042".into()),
            card_end: "AB12".into(),
        };
        let lines = texts(&receipt.lay_out(Paper::Mm58, Language::Fr, &paris()));
        assert_eq!(lines[..2], ["Café de la Gare", "- Lyon"]);
        assert!(lines.contains(&"26/11/2026 21:45".to_owned()), "{lines:?}");
        assert_eq!(
            lines[4..7],
            ["Servi par", "Anne-Sophie-Marie-Bérangère-Hort", "ense"],
            "who served, under the time, cut to the paper"
        );
        assert!(
            lines.contains(&format!("Montant débité{}12,50 €", " ".repeat(11))),
            "{lines:#?}"
        );
        assert!(lines.contains(&format!("Solde restant{}37,50 €", " ".repeat(12))));
        assert!(lines.contains(&format!("Carte{}****AB12", " ".repeat(19))));
        assert!(lines.contains(&format!("Ticket{}T-1042", " ".repeat(20))));
    }

    #[test]
    fn text_the_printer_lacks_is_replaced_not_sent_as_garbage() {
        assert_eq!(printable("l’été — “œuvre” …"), "l'été - \"oeuvre\" ...");
        assert_eq!(printable("李 🎁\u{7}x"), "? ? x");
    }

    #[test]
    fn a_word_longer_than_the_line_is_cut_and_short_ones_are_kept_whole() {
        assert_eq!(wrap("abcdefgh ij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("ab cd ef", 5), ["ab cd", "ef"]);
        assert_eq!(wrap("", 5), [""]);
    }
}
