//! The gift-card screen: a card with its ledger and what may be paid, and the answers
//! to a payment and to an issue.

use counter_core::kinds::{EmailReason, GiftCardStatus, TransactionType};
use counter_core::offer::PaymentOffer;
use counter_core::views::{IssuedGiftCardView, LedgerEntryView, PaymentView};
use counter_core::{GiftCardRead, InsufficientBalance};

use super::exported;

exported! {
/// A gift card as the gift-card screen shows it, with what a payment may take (the
/// core decides: the key's scopes, the card's state, its balance less what is at risk,
/// and offline, the manager's policy).
pub struct GiftCardPanel {
    /// Its id.
    pub id: String,
    /// Whether it can be spent.
    pub status: GiftCardStatus,
    /// The card's currency.
    pub currency: String,
    /// The amount it was issued with.
    pub initial_amount: String,
    /// What is left.
    pub balance: String,
    /// The recipient.
    pub recipient_name: Option<String>,
    /// When the balance was read (RFC 3339).
    pub read_at: String,
    /// Read from the service just now (else from the till's cache).
    pub fresh: bool,
    /// The recent ledger, newest first (empty when read from the cache).
    pub ledger: Vec<LedgerRow>,
    /// What a payment may take now.
    pub payment: PaymentOffer,
}
}

exported! {
/// An entry of a gift card's ledger.
pub struct LedgerRow {
    /// Money taken, or the card's issue.
    pub kind: TransactionType,
    /// The amount.
    pub amount: String,
    /// The balance after it.
    pub balance_after: String,
    /// When (RFC 3339).
    pub created_at: String,
    /// The ticket number, if one was given.
    pub reference: Option<String>,
    /// Who took it, when this till did.
    pub made_by: Option<String>,
}
}

impl From<&LedgerEntryView> for LedgerRow {
    fn from(e: &LedgerEntryView) -> Self {
        Self {
            kind: e.kind,
            amount: e.amount.to_string(),
            balance_after: e.balance_after.to_string(),
            created_at: e.created_at.to_string(),
            reference: e.reference.clone(),
            made_by: e.made_by.clone(),
        }
    }
}

impl From<GiftCardRead> for GiftCardPanel {
    fn from(read: GiftCardRead) -> Self {
        let g = &read.card.gift_card;
        Self {
            id: g.id.as_str().to_owned(),
            status: g.status,
            currency: g.currency.to_string(),
            initial_amount: g.initial_amount.to_string(),
            balance: g.balance.to_string(),
            recipient_name: g.recipient_name.clone(),
            read_at: read.card.read_at.to_string(),
            fresh: read.fresh,
            ledger: read.ledger.iter().map(LedgerRow::from).collect(),
            payment: read.offer,
        }
    }
}

exported! {
/// A gift card issued: it opens with its ledger; whether its email went, and why not.
pub struct Issued {
    /// The card's id.
    id: String,
    /// Whether the recipient's email went.
    email_sent: bool,
    /// Why it did not.
    email_reason: Option<EmailReason>,
}
}

impl From<IssuedGiftCardView> for Issued {
    fn from(issued: IssuedGiftCardView) -> Self {
        Self {
            id: issued.gift_card.id.as_str().to_owned(),
            email_sent: issued.email_sent,
            email_reason: issued.email_reason,
        }
    }
}

exported! {
/// A payment taken.
pub struct Paid {
    /// The amount taken.
    amount: String,
    /// The balance after it.
    balance_after: String,
    /// The card's status after it.
    status: GiftCardStatus,
}
}

impl From<PaymentView> for Paid {
    fn from(payment: PaymentView) -> Self {
        Self {
            amount: payment.amount.to_string(),
            balance_after: payment.balance_after.to_string(),
            status: payment.gift_card.status,
        }
    }
}

exported! {
/// A payment refused as more than the card holds: nothing taken; the screen offers
/// the balance.
pub struct NotEnough {
    /// What the card holds, when the service said.
    balance: Option<String>,
}
}

impl From<InsufficientBalance> for NotEnough {
    fn from(refused: InsufficientBalance) -> Self {
        Self {
            balance: refused.balance.map(|b| b.amount.to_string()),
        }
    }
}
