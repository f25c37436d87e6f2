//! The gift-card screen: a card with its ledger and what may be paid, the answer to a
//! payment, and the offline policy.

use counter_core::kinds::{EmailReason, GiftCardStatus, LedgerKind};
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
    pub kind: LedgerKind,
    /// The amount.
    pub amount: String,
    /// The balance after it.
    pub balance_after: String,
    /// When (RFC 3339).
    pub created_at: String,
    /// The ticket number, if one was given.
    pub reference: Option<String>,
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

exported! {
/// What the manager allows while the service cannot be reached. Caps are per
/// currency: the form edits those of `currency`; `caps` lists every currency's.
#[derive(serde::Deserialize)]
pub struct OfflinePolicyView {
    /// Payments may be queued while offline.
    pub allowed: bool,
    /// The currency whose caps the form edits (ISO 4217 code).
    pub currency: String,
    /// The most one offline payment may take (major units), if capped.
    pub per_payment_cap: Option<String>,
    /// The most all payments at risk together may take, if capped.
    pub total_cap: Option<String>,
    /// The balance must have been read within this many minutes, if limited.
    pub balance_max_age_minutes: Option<u32>,
    /// The caps of every currency that has some.
    #[serde(default)]
    pub caps: Vec<CurrencyCapsView>,
}
}

exported! {
/// One currency's offline caps.
#[derive(serde::Deserialize)]
pub struct CurrencyCapsView {
    /// The currency (ISO 4217 code).
    pub currency: String,
    /// The most one offline payment may take, if capped.
    pub per_payment_cap: Option<String>,
    /// The most all payments at risk together may take, if capped.
    pub total_cap: Option<String>,
}
}

impl OfflinePolicyView {
    /// The policy as the form shows it, editing `currency`'s caps.
    pub fn new(
        p: &counter_core::payment::OfflinePaymentPolicy,
        currency: &loyalty_api::Currency,
    ) -> Self {
        let own = p.caps_of(currency);
        Self {
            allowed: p.allowed,
            currency: currency.as_str().to_owned(),
            per_payment_cap: own.and_then(|c| c.per_payment).map(|d| d.to_string()),
            total_cap: own.and_then(|c| c.total).map(|d| d.to_string()),
            balance_max_age_minutes: p.balance_max_age_minutes,
            caps: p
                .caps
                .iter()
                .map(|c| CurrencyCapsView {
                    currency: c.currency.as_str().to_owned(),
                    per_payment_cap: c.per_payment.map(|d| d.to_string()),
                    total_cap: c.total.map(|d| d.to_string()),
                })
                .collect(),
        }
    }

    /// `current` with this form's changes: `allowed`, the age limit, and the caps of
    /// `currency` (other currencies' caps stay). A cap that is not a positive amount,
    /// or a currency that is not a currency code, is refused.
    pub fn policy(
        &self,
        mut current: counter_core::payment::OfflinePaymentPolicy,
    ) -> Result<counter_core::payment::OfflinePaymentPolicy, counter_core::Error> {
        let currency = loyalty_api::Currency::new(self.currency.trim()).map_err(|_| {
            counter_core::NotAllowed::NotACurrency {
                given: self.currency.chars().take(8).collect(),
            }
        })?;
        // A cap is an amount of the currency, read by the core's one rule for amounts.
        let cap =
            |text: &Option<String>| -> Result<Option<rust_decimal::Decimal>, counter_core::Error> {
                match text.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
                    None => Ok(None),
                    Some(t) => {
                        let minor = counter_core::payment::parse_amount(t, &currency)?;
                        Ok(Some(counter_core::payment::to_decimal(minor, &currency)))
                    }
                }
            };
        current.allowed = self.allowed;
        current.balance_max_age_minutes = self.balance_max_age_minutes;
        let (per_payment, total) = (cap(&self.per_payment_cap)?, cap(&self.total_cap)?);
        current.set_caps(counter_core::payment::CurrencyCaps {
            currency,
            per_payment,
            total,
        });
        Ok(current)
    }
}
