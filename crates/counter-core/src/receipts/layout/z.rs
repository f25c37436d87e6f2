//! A shift's Z report on paper: its number, the till, who opened and closed the shift,
//! the report's rows (in all, then per person: the rows the screen and the CSV show),
//! what was settled after the close, and its seal, as text and as a QR code.

use jiff::tz::TimeZone;
use rust_decimal::Decimal;

use super::{Align, Money, PaperLine, Sheet, local_time_of, money};
use crate::receipts::{Language, ZSlip};
use crate::tallies::{Check, CheckSummary, Checked, Measure, ReportCell, ReportRow};

/// The words a Z prints.
struct ZWords {
    title: fn(u32) -> String,
    till: &'static str,
    shift: &'static str,
    opened: &'static str,
    closed: &'static str,
    writes: &'static str,
    in_all: &'static str,
    confirmed: &'static str,
    waiting: &'static str,
    refused: &'static str,
    withdrawn: &'static str,
    settled_after: &'static str,
    nothing: &'static str,
    seal: &'static str,
    measure: fn(Measure) -> &'static str,
    checked_title: &'static str,
    all_match: fn(u32) -> String,
    matched: fn(u32) -> String,
    no_record: fn(u32) -> String,
    not_shown: fn(u32) -> String,
    unchecked: fn(u32) -> String,
    missing: &'static str,
    different: fn(&str, &str, &str) -> String,
    what: fn(Checked) -> &'static str,
}

const EN: ZWords = ZWords {
    title: |n| format!("Z REPORT {n}"),
    till: "Till",
    shift: "Shift",
    opened: "Opened",
    closed: "Closed",
    writes: "Writes",
    in_all: "IN ALL",
    confirmed: "Confirmed",
    waiting: "Waiting",
    refused: "Refused/decision",
    withdrawn: "Withdrawn",
    settled_after: "SETTLED AFTER THE CLOSE",
    nothing: "Nothing was done in this shift.",
    seal: "Seal (SHA-256)",
    measure: |m| match m {
        Measure::Payments => "Gift-card payments",
        Measure::Issued => "Gift cards issued",
        Measure::Visits => "Visits",
        Measure::PointsAdded => "Points added",
        Measure::PointsDeducted => "Points deducted",
        Measure::Rewards => "Rewards redeemed",
        Measure::Enrolments => "Customers enrolled",
    },
    checked_title: "CHECKED WITH THE SERVICE",
    all_match: |n| match n {
        1 => "The write matches the service's records.".into(),
        n => format!("All {n} writes match the service's records."),
    },
    matched: |n| format!("{n} match the service's records."),
    no_record: |n| format!("{n} of a kind the service keeps no record of."),
    not_shown: |n| format!("{n} older than the card's ledger the service shows."),
    unchecked: |n| format!("{n} not yet checked."),
    missing: "missing at the service",
    different: |what, till, service| format!("{what} {till}, service {service}"),
    what: |w| match w {
        Checked::Amount => "amount",
        Checked::Reference => "reference",
        Checked::Currency => "currency",
    },
};

const FR: ZWords = ZWords {
    title: |n| format!("RAPPORT Z {n}"),
    till: "Caisse",
    shift: "Service",
    opened: "Ouvert",
    closed: "Clôturé",
    writes: "Opérations",
    in_all: "EN TOUT",
    confirmed: "Confirmé",
    waiting: "En attente",
    refused: "Refusé/décision",
    withdrawn: "Retiré",
    settled_after: "RÉGLÉ APRÈS LA CLÔTURE",
    nothing: "Rien n'a été fait pendant ce service.",
    seal: "Sceau (SHA-256)",
    measure: |m| match m {
        Measure::Payments => "Paiements carte cadeau",
        Measure::Issued => "Cartes cadeaux émises",
        Measure::Visits => "Visites",
        Measure::PointsAdded => "Points ajoutés",
        Measure::PointsDeducted => "Points retirés",
        Measure::Rewards => "Récompenses utilisées",
        Measure::Enrolments => "Clients inscrits",
    },
    checked_title: "VÉRIFIÉ AUPRÈS DU SERVICE",
    all_match: |n| match n {
        1 => "L'opération correspond aux relevés du service.".into(),
        n => format!("Les {n} opérations correspondent aux relevés du service."),
    },
    matched: |n| format!("{n} correspondent aux relevés du service."),
    no_record: |n| format!("{n} d'un type dont le service ne garde pas de relevé."),
    not_shown: |n| format!("{n} plus anciennes que ce que le service montre de la carte."),
    unchecked: |n| format!("{n} pas encore vérifiées."),
    missing: "absente du service",
    different: |what, till, service| format!("{what} {till}, service {service}"),
    what: |w| match w {
        Checked::Amount => "montant",
        Checked::Reference => "référence",
        Checked::Currency => "devise",
    },
};

fn words(language: Language) -> &'static ZWords {
    match language {
        Language::En => &EN,
        Language::Fr => &FR,
    }
}

/// The title of Z `number` in `language`.
pub(super) fn title(number: u32, language: Language) -> String {
    (words(language).title)(number)
}

impl Sheet {
    /// Everything of `z` under its heading and title.
    pub(super) fn z_report(&mut self, z: &ZSlip, language: Language, zone: &TimeZone) {
        let words = words(language);
        let when = |at| local_time_of(at, language, zone);
        self.pair(words.till, &z.till_name, false);
        self.pair(words.shift, &z.shift.to_string(), false);
        self.pair(words.opened, &when(z.opened_at), false);
        self.pair("", &z.opened_by, false);
        self.pair(words.closed, &when(z.closed_at), false);
        self.pair("", &z.closed_by, false);
        self.pair(words.writes, &z.rows.writes.to_string(), true);
        self.rule();
        self.title(words.in_all);
        if z.rows.writes == 0 {
            self.plain(words.nothing);
        }
        self.z_rows(&z.rows.all, language, true);
        for person in &z.rows.people {
            self.rule();
            self.title(&person.person.to_uppercase());
            self.z_rows(&person.rows, language, false);
        }
        if !z.addenda.is_empty() {
            self.rule();
            self.title(words.settled_after);
            for addendum in &z.addenda {
                let label = addendum.measure.map_or("", words.measure);
                let amount = match (&addendum.amount, &addendum.currency) {
                    (Some(amount), Some(currency)) => money_of(amount, currency, language),
                    (Some(amount), None) => amount.clone(),
                    (None, _) => String::new(),
                };
                self.plain(&format!(
                    "{}. #{} {}",
                    addendum.number, addendum.item, addendum.person
                ));
                self.pair(&format!("   {label}"), &amount, false);
            }
        }
        self.rule();
        self.z_check(&z.check, words);
        self.rule();
        self.centred(words.seal);
        self.lines.push(PaperLine::qr(&z.hash));
        self.text(&z.hash, false, false, Align::Center);
    }

    /// What the service's records say of the Z's confirmed writes.
    fn z_check(&mut self, check: &CheckSummary, words: &ZWords) {
        self.title(words.checked_title);
        let clean = check.differences.is_empty() && check.unchecked == 0;
        if clean && check.no_record == 0 && check.not_shown == 0 {
            self.plain(&(words.all_match)(check.matched));
            return;
        }
        self.plain(&(words.matched)(check.matched));
        if check.no_record > 0 {
            self.plain(&(words.no_record)(check.no_record));
        }
        if check.not_shown > 0 {
            self.plain(&(words.not_shown)(check.not_shown));
        }
        if check.unchecked > 0 {
            self.text(
                &(words.unchecked)(check.unchecked),
                true,
                false,
                Align::Left,
            );
        }
        for difference in &check.differences {
            let said = match &difference.check {
                Check::Different {
                    what,
                    till,
                    service,
                } => (words.different)((words.what)(*what), till, service),
                _ => words.missing.to_owned(),
            };
            self.text(
                &format!("#{} {}: {said}", difference.item, difference.person),
                true,
                false,
                Align::Left,
            );
        }
    }

    /// Each row: its confirmed figure on its line, the other columns under it when
    /// they hold anything. A row with nothing in it is one line with its 0 in all
    /// (`zeros`), and left out of a person's.
    fn z_rows(&mut self, rows: &[ReportRow], language: Language, zeros: bool) {
        let words = words(language);
        for row in rows {
            let label = match &row.currency {
                Some(currency) => format!("{} {currency}", (words.measure)(row.measure)),
                None => (words.measure)(row.measure).to_owned(),
            };
            let empty = [&row.confirmed, &row.waiting, &row.refused_or_decision]
                .into_iter()
                .chain(&row.withdrawn)
                .all(|cell| cell.count == 0);
            if empty {
                if zeros {
                    self.pair(&label, "0", false);
                }
                continue;
            }
            self.text(&label, true, false, Align::Left);
            let cell = |cell: &ReportCell| shown(cell, row.currency.as_deref(), language);
            self.pair(
                &format!("  {}", words.confirmed),
                &cell(&row.confirmed),
                false,
            );
            let others = [
                (words.waiting, Some(&row.waiting)),
                (words.refused, Some(&row.refused_or_decision)),
                (words.withdrawn, row.withdrawn.as_ref()),
            ];
            for (name, found) in others {
                if let Some(found) = found.filter(|c| c.count > 0) {
                    self.pair(&format!("  {name}"), &cell(found), true);
                }
            }
        }
    }
}

/// A cell as printed: its count, and its sum in money or points.
fn shown(cell: &ReportCell, currency: Option<&str>, language: Language) -> String {
    match (&cell.sum, currency) {
        (Some(sum), Some(currency)) => {
            format!("{} x {}", cell.count, money_of(sum, currency, language))
        }
        (Some(sum), None) => format!("{} x {sum}", cell.count),
        (None, _) => cell.count.to_string(),
    }
}

/// `amount` (exact, as the report keeps it) of `currency` as the language writes money.
fn money_of(amount: &str, currency: &str, language: Language) -> String {
    match (
        amount.parse::<Decimal>(),
        loyalty_api::Currency::new(currency),
    ) {
        (Ok(amount), Ok(currency)) => money(&Money { amount, currency }, language),
        _ => format!("{amount} {currency}"),
    }
}

#[cfg(test)]
mod tests {
    use jiff::Timestamp;

    use super::*;
    use crate::receipts::{Heading, Paper, Receipt};
    use crate::tallies::{Addendum, Difference, ReportPerson, ReportRows};

    fn cell(count: u64, sum: Option<&str>) -> ReportCell {
        ReportCell {
            count,
            sum: sum.map(str::to_owned),
        }
    }

    /// A row with `one` (a count of 1 and its sum) in the column `at` (0 confirmed,
    /// 1 waiting, 2 refused or awaiting a decision); every other column empty.
    fn row(measure: Measure, currency: Option<&str>, at: usize, one: Option<&str>) -> ReportRow {
        let zero = currency.map(|_| "0.00").or(one.map(|_| "0"));
        let column = |c| if c == at { cell(1, one) } else { cell(0, zero) };
        ReportRow {
            measure,
            currency: currency.map(str::to_owned),
            confirmed: column(0),
            waiting: column(1),
            refused_or_decision: column(2),
            withdrawn: (measure == Measure::Payments).then(|| cell(0, zero)),
        }
    }

    fn z() -> Receipt {
        let long = "Anne-Sophie de la Tour d'Auvergne-Lauraguais";
        let eur = Some("EUR");
        let payment = row(Measure::Payments, eur, 0, Some("12.50"));
        let issued = row(Measure::Issued, eur, 1, Some("50.00"));
        let visit = row(Measure::Visits, None, 0, None);
        let points = row(Measure::PointsAdded, None, 2, Some("12.5"));
        let rows = ReportRows {
            writes: 4,
            all: vec![
                payment.clone(),
                issued.clone(),
                visit.clone(),
                points.clone(),
            ],
            people: vec![
                ReportPerson {
                    person: long.into(),
                    rows: vec![payment, visit],
                },
                ReportPerson {
                    person: "Ben".into(),
                    rows: vec![issued, points],
                },
            ],
        };
        let at: Timestamp = "2026-11-29T18:00:00Z".parse().unwrap();
        Receipt::ZReport {
            heading: Heading {
                shop: "Café du Port".into(),
                location: None,
                at,
                served_by: None,
                copy: false,
            },
            z: Box::new(crate::receipts::ZSlip {
                number: 3,
                till_name: "Comptoir 2".into(),
                shift: 7,
                opened_at: "2026-11-29T08:00:00Z".parse().unwrap(),
                opened_by: long.into(),
                closed_at: at,
                closed_by: "Ben".into(),
                rows,
                addenda: vec![Addendum {
                    number: 1,
                    item: 2,
                    person: "Ben".into(),
                    measure: Some(Measure::Issued),
                    currency: Some("EUR".into()),
                    amount: Some("50.00".into()),
                }],
                check: CheckSummary {
                    matched: 1,
                    no_record: 0,
                    not_shown: 0,
                    unchecked: 1,
                    differences: vec![Difference {
                        item: 4,
                        person: long.into(),
                        check: Check::Different {
                            what: Checked::Amount,
                            till: "12.5".into(),
                            service: "1.25".into(),
                        },
                    }],
                },
                hash: "ab".repeat(32),
            }),
        }
    }

    #[test]
    fn a_z_fits_both_papers_in_both_languages_with_its_figures_and_its_seal_as_a_qr_code() {
        let zone = TimeZone::UTC;
        for paper in [Paper::Mm58, Paper::Mm80] {
            for language in [Language::En, Language::Fr] {
                let preview = z().lay_out(paper, language, &zone);
                let mut texts = Vec::new();
                for line in &preview.lines {
                    if let PaperLine::Text { text, large, .. } = line {
                        let width = text.chars().count() * if *large { 2 } else { 1 };
                        assert!(width <= paper.columns(), "{text:?} on {paper:?}");
                        texts.push(text.trim().to_owned());
                    }
                }
                let all = texts.join("\n");
                let (title, paid, issued) = match language {
                    Language::En => ("Z REPORT 3", "1 x €12.50", "1 x €50.00"),
                    Language::Fr => ("RAPPORT Z 3", "1 x 12,50 €", "1 x 50,00 €"),
                };
                for expected in [title, paid, issued, "1 x 12.5", "Comptoir 2"] {
                    assert!(all.contains(expected), "{expected:?} in\n{all}");
                }
                // The seal, whole, across lines where the paper is narrow, and as a QR code.
                assert!(all.replace('\n', "").contains(&"ab".repeat(32)), "{all}");
                let qr: Vec<&str> = preview
                    .lines
                    .iter()
                    .filter_map(|line| match line {
                        PaperLine::Qr { data, modules } if !modules.is_empty() => {
                            Some(data.as_str())
                        }
                        _ => None,
                    })
                    .collect();
                assert_eq!(qr, [&"ab".repeat(32)]);
            }
        }
    }
}
