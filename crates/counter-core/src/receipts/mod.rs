//! Receipts: what the till prints on a thermal ESC/POS printer, and shows as a preview.
//!
//! A [`Receipt`] holds the facts (a payment, a voucher, a loyalty slip, a test page);
//! [`Receipt::lay_out`] turns them into the lines on paper, in the till's language and
//! for the paper's width. The preview on screen and the printer's bytes
//! ([`escpos::encode`]) are both drawn from those lines, so what the cashier sees is
//! what comes out. Jobs are kept in SQLite ([`print_jobs`](crate::print_jobs)) and printed once by the till's
//! printer task (`Counter`'s), whatever the printer's state when they were made.
//!
//! The printer's words are here, not in the UI: the receipt is a document the till
//! prints without a window, and the preview must show the very same text.

use jiff::Timestamp;
use loyalty_api::{Currency, GiftCardId};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

pub use crate::error::PrinterAddressError;
pub use crate::language::Language;
use crate::views::Progress;

pub(crate) mod device;
pub mod escpos;
mod layout;
mod words;

pub use device::{PrinterAddress, PrinterState};
pub use layout::{Align, PaperLine};

/// What the printer task shares with the rest of the till: a bell to ring when a job
/// is stored or the printer changed, and the printer's state at its last ask.
#[derive(Debug)]
pub(crate) struct Printing {
    pub wake: tokio::sync::Notify,
    pub state: std::sync::Mutex<PrinterState>,
    /// What the screens were last told (state and receipts waiting).
    pub told: std::sync::Mutex<Option<PrinterReport>>,
}

impl Printing {
    pub(crate) fn new() -> Self {
        Self {
            wake: tokio::sync::Notify::new(),
            state: std::sync::Mutex::new(PrinterState::Unknown),
            told: std::sync::Mutex::new(None),
        }
    }
}

for_the_ui! {
/// The printer's state and the jobs waiting for it, as the counter shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrinterReport {
    /// What the printer said at the last ask.
    pub state: PrinterState,
    /// Receipts waiting for it.
    pub waiting: u32,
    /// Receipts that may have printed (it stopped answering halfway), waiting for a
    /// person's word.
    pub unsure: u32,
    /// The status bar shows it: the printer is set up, and it is not ready (paper near
    /// its end or out, cover open, an error, no answer), or receipts wait for it or may
    /// have printed.
    pub needs_a_look: bool,
}
}

impl PrinterReport {
    /// The report of a printer in `state`, with `waiting` receipts and `unsure` ones.
    pub fn new(state: PrinterState, waiting: u32, unsure: u32) -> Self {
        let needs_a_look = state != PrinterState::NotSetUp
            && (waiting > 0
                || unsure > 0
                || !matches!(state, PrinterState::Ready | PrinterState::Unknown));
        Self {
            state,
            waiting,
            unsure,
            needs_a_look,
        }
    }
}

#[cfg(test)]
mod report_tests {
    use super::*;

    #[test]
    fn a_printer_needs_a_look_when_set_up_and_not_ready_or_with_receipts_left() {
        let look = |state, waiting, unsure| PrinterReport::new(state, waiting, unsure).needs_a_look;
        assert!(
            !look(PrinterState::NotSetUp, 3, 1),
            "no printer: nothing to look at"
        );
        assert!(!look(PrinterState::Ready, 0, 0));
        assert!(!look(PrinterState::Unknown, 0, 0), "not asked yet");
        assert!(look(PrinterState::Ready, 1, 0), "a receipt waits");
        assert!(
            look(PrinterState::Ready, 0, 1),
            "a receipt may have printed"
        );
        for state in [
            PrinterState::PaperNearEnd,
            PrinterState::PaperOut,
            PrinterState::CoverOpen,
            PrinterState::Error,
            PrinterState::Unreachable,
            PrinterState::NoAnswer,
        ] {
            assert!(look(state, 0, 0), "{state:?}");
        }
    }
}

for_the_ui! {
/// The paper roll's width.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    /// 58 mm: 384 dots at 203 dpi, 32 columns of the printer's font A.
    Mm58,
    /// 80 mm: 576 dots, 48 columns.
    #[default]
    Mm80,
}
}

impl Paper {
    /// Characters of font A on one line.
    pub fn columns(self) -> usize {
        match self {
            Paper::Mm58 => 32,
            Paper::Mm80 => 48,
        }
    }
}

for_the_ui! {
/// The printer a manager set up at this till.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrinterSetup {
    /// Where it is.
    pub address: PrinterAddress,
    /// Its paper.
    pub paper: Paper,
}
}

/// The top of every receipt: who printed it, where and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    /// The shop (the business's name).
    pub shop: String,
    /// The till's location, when one is set.
    pub location: Option<String>,
    /// When it happened, shown in the till's time zone.
    pub at: Timestamp,
    /// The first name of who served the customer ("Served by Anna"), when a person did
    /// (not at the kiosk, nor on a receipt made before staff seats).
    #[serde(default)]
    pub served_by: Option<String>,
    /// A receipt printed again: it says "COPY" under its heading.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub copy: bool,
}

/// Money as printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Money {
    /// The amount, exactly.
    #[serde(with = "loyalty_api::decimal_string")]
    pub amount: Decimal,
    /// Its currency.
    pub currency: Currency,
}

/// What a receipt says: the facts, laid out when printed or previewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Receipt {
    /// After a gift-card payment.
    Payment {
        /// Shop, place, time.
        heading: Heading,
        /// The amount taken.
        taken: Money,
        /// The balance left on the card.
        #[serde(with = "loyalty_api::decimal_string")]
        balance_after: Decimal,
        /// The business's ticket number, when the cashier gave one.
        ticket: Option<String>,
        /// The card's id cut to its last four characters.
        card_end: String,
    },
    /// After a gift card is issued: the card, to hand over or to post.
    Voucher {
        /// Shop, place, time.
        heading: Heading,
        /// What it holds.
        amount: Money,
        /// Who it is for.
        recipient: Option<String>,
        /// The card, whole: printed as a QR code the counter scans, and as text. Only on
        /// paper, and only while the till still keeps it ([`Receipt::forget_card`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gift_card: Option<GiftCardId>,
        /// The card's id cut to its last four characters (read from `gift_card` in a
        /// voucher an earlier version kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card_end: Option<String>,
    },
    /// A loyalty card's progress, at the counter on request.
    LoyaltySlip {
        /// Shop, place, time.
        heading: Heading,
        /// The customer's name, when known.
        name: Option<String>,
        /// Where the card stands (None when its pass is not known at this till).
        progress: Option<Progress>,
        /// The card's id cut to its last four characters.
        card_end: String,
    },
    /// A manager's test print: the width, the accents, the QR code.
    Test {
        /// Shop, place, time.
        heading: Heading,
    },
    /// A shift's Z report, sealed at its close (and its copies, with what was settled
    /// after the close).
    ZReport {
        /// Shop, place, time.
        heading: Heading,
        /// The Z.
        z: Box<ZSlip>,
    },
    /// A person's staff badge: their name and their code as a QR code, which the
    /// scanner or the camera reads at the lock screen.
    Badge {
        /// Shop, place, time.
        heading: Heading,
        /// Whose.
        name: String,
        /// The code: erased once printed or cancelled (the till keeps only its digest).
        #[serde(default)]
        code: Option<String>,
    },
}

for_the_ui! {
/// Which receipt a job prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReceiptKind {
    /// A gift-card payment's receipt.
    Payment,
    /// A gift card's voucher.
    Voucher,
    /// A loyalty slip.
    LoyaltySlip,
    /// A test print.
    Test,
    /// A staff badge.
    Badge,
    /// A shift's Z report.
    ZReport,
}
}

/// What a Z report prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZSlip {
    /// Its number, per till.
    pub number: u32,
    /// The till's name when it closed.
    pub till_name: String,
    /// The shift.
    pub shift: i64,
    /// When the shift opened.
    pub opened_at: Timestamp,
    /// Who opened it.
    pub opened_by: String,
    /// When it closed.
    pub closed_at: Timestamp,
    /// Who closed it.
    pub closed_by: String,
    /// Its rows: the screen's and the CSV's.
    pub rows: crate::tallies::ReportRows,
    /// What was settled after its close, when printed again.
    pub addenda: Vec<crate::tallies::Addendum>,
    /// What the service's records say of its writes, as checked when printed.
    #[serde(default)]
    pub check: crate::tallies::CheckSummary,
    /// Its seal.
    pub hash: String,
}

impl Receipt {
    /// The voucher for a gift card just issued: whole, to print and hand over.
    pub(crate) fn voucher(
        heading: Heading,
        amount: Money,
        recipient: Option<String>,
        gift_card: GiftCardId,
    ) -> Self {
        Receipt::Voucher {
            heading,
            amount,
            recipient,
            card_end: Some(last_four(gift_card.as_str())),
            gift_card: Some(gift_card),
        }
    }

    /// The same receipt printed again: it says "COPY".
    pub(crate) fn into_copy(mut self) -> Self {
        self.heading_mut().copy = true;
        self
    }

    fn heading_mut(&mut self) -> &mut Heading {
        match self {
            Receipt::Payment { heading, .. }
            | Receipt::Voucher { heading, .. }
            | Receipt::LoyaltySlip { heading, .. }
            | Receipt::Test { heading }
            | Receipt::Badge { heading, .. }
            | Receipt::ZReport { heading, .. } => heading,
        }
    }

    /// Which receipt this is.
    pub fn kind(&self) -> ReceiptKind {
        match self {
            Receipt::Payment { .. } => ReceiptKind::Payment,
            Receipt::Voucher { .. } => ReceiptKind::Voucher,
            Receipt::LoyaltySlip { .. } => ReceiptKind::LoyaltySlip,
            Receipt::Test { .. } => ReceiptKind::Test,
            Receipt::Badge { .. } => ReceiptKind::Badge,
            Receipt::ZReport { .. } => ReceiptKind::ZReport,
        }
    }
}

/// The last four characters of an id, the most a receipt shows of a card a customer
/// pays with.
pub fn last_four(id: &str) -> String {
    let chars: Vec<char> = id.chars().collect();
    chars[chars.len().saturating_sub(4)..].iter().collect()
}

for_the_ui! {
/// A receipt laid out for the paper: what the preview draws, line for line as printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preview {
    /// Characters on one line of this paper.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub columns: usize,
    /// The lines, top to bottom.
    pub lines: Vec<PaperLine>,
}
}
