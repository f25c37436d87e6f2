//! Gift cards, their ledger, payments taken from them, and the issue email.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::ids::{
    CustomerId, GiftCardId, GiftCardTransactionId, LocationId, PassId, PaymentId, TemplateId,
};
use crate::macros::string_enum;
use crate::money::{Currency, MinorUnits, decimal_number, decimal_string};

string_enum!(
    /// A gift card's status.
    GiftCardStatus {
        /// Issued, not yet opened by the recipient; cannot be spent.
        Issued => "issued",
        /// Opened; can be spent.
        Active => "active",
        /// Balance 0.
        Depleted => "depleted",
        /// Cancelled.
        Cancelled => "cancelled",
    }
);

string_enum!(
    /// The kind of a ledger entry.
    TransactionType {
        /// Money taken.
        Spend => "spend",
        /// The card's issue.
        Issue => "issue",
    }
);

string_enum!(
    /// Why the issue email did not go.
    EmailReason {
        /// No email provider configured.
        NotConfigured => "not_configured",
        /// Sandbox: nothing is sent.
        Sandbox => "sandbox",
        /// Sending is blocked in this environment.
        BlockedEnvironment => "blocked_environment",
        /// The address is not valid.
        InvalidAddress => "invalid_address",
        /// Too many emails.
        RateLimited => "rate_limited",
        /// The provider refused it.
        ProviderRefused => "provider_refused",
        /// It failed.
        Failed => "failed",
    }
);

/// The recipient of a gift card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipient {
    /// Name.
    pub name: String,
    /// Email.
    pub email: String,
}

/// A gift card. Its spending code is never exposed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GiftCard {
    /// Its id.
    pub id: GiftCardId,
    /// Its status.
    pub status: GiftCardStatus,
    /// Its template.
    pub template_id: TemplateId,
    /// The pass whose look it takes.
    #[serde(default)]
    pub pass_id: Option<PassId>,
    /// The card's currency.
    pub currency: Currency,
    /// The amount issued.
    #[serde(with = "decimal_string")]
    pub initial_amount: Decimal,
    /// What is left.
    #[serde(with = "decimal_string")]
    pub balance: Decimal,
    /// The recipient; None once the recipient customer was deleted.
    #[serde(default)]
    pub recipient: Option<Recipient>,
    /// The recipient's customer.
    #[serde(default)]
    pub customer_id: Option<CustomerId>,
    /// Whether that customer was deleted.
    #[serde(default)]
    pub customer_deleted: bool,
    /// True for a sandbox card.
    #[serde(default)]
    pub test: bool,
    /// Issued.
    pub created_at: Timestamp,
    /// Opened by the recipient.
    #[serde(default)]
    pub claimed_at: Option<Timestamp>,
    /// Used up.
    #[serde(default)]
    pub depleted_at: Option<Timestamp>,
}

/// An entry of a gift card's ledger.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GiftCardTransaction {
    /// Its id.
    pub id: GiftCardTransactionId,
    /// Its kind (`type` on the wire).
    #[serde(rename = "type")]
    pub kind: TransactionType,
    /// The amount.
    #[serde(with = "decimal_string")]
    pub amount: Decimal,
    /// The balance after it.
    #[serde(with = "decimal_string")]
    pub balance_after: Decimal,
    /// When.
    pub created_at: Timestamp,
    /// Where.
    #[serde(default)]
    pub location_id: Option<LocationId>,
    /// The business's own reference.
    #[serde(default)]
    pub reference: Option<String>,
}

/// `GET /v1/gift_cards/{id}`: a gift card with its ledger, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GiftCardWithTransactions {
    /// The card.
    #[serde(flatten)]
    pub gift_card: GiftCard,
    /// The ledger, newest first.
    #[serde(default)]
    pub transactions: Vec<GiftCardTransaction>,
    /// Whether older entries exist beyond these.
    #[serde(default)]
    pub transactions_has_more: bool,
}

/// What happened to the email of an issued card.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct EmailOutcome {
    /// Whether it went.
    pub sent: bool,
    /// Why not, when it did not.
    #[serde(default)]
    pub reason: Option<EmailReason>,
}

/// `POST /v1/gift_cards`: the issued card and what happened to its email.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct IssuedGiftCard {
    /// The card (status issued).
    #[serde(flatten)]
    pub gift_card: GiftCard,
    /// The recipient's email.
    pub email: EmailOutcome,
}

/// The body of `POST /v1/gift_cards`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewGiftCard {
    /// The amount in major units (`50` issues `"50.00"`); a JSON number on the wire.
    #[serde(serialize_with = "decimal_number::serialize")]
    pub amount: Decimal,
    /// The card's currency.
    pub currency: Currency,
    /// The language of the email.
    pub locale: String,
    /// Who receives it.
    pub recipient: Recipient,
}

/// The body of `POST /v1/gift_cards/{id}/payments`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewPayment {
    /// Whole minor units of the card's currency.
    pub amount_minor: MinorUnits,
    /// Must be the card's currency; nothing is converted.
    pub currency: Currency,
    /// The business's own ticket number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// A payment taken from a gift card.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GiftCardPayment {
    /// Its id.
    pub id: PaymentId,
    /// The card.
    pub gift_card_id: GiftCardId,
    /// The amount.
    #[serde(with = "decimal_string")]
    pub amount: Decimal,
    /// The amount in minor units.
    pub amount_minor: MinorUnits,
    /// The currency.
    pub currency: Currency,
    /// The balance after it.
    #[serde(with = "decimal_string")]
    pub balance_after: Decimal,
    /// The business's reference.
    #[serde(default)]
    pub reference: Option<String>,
    /// Where.
    #[serde(default)]
    pub location_id: Option<LocationId>,
    /// True in the sandbox.
    #[serde(default)]
    pub test: bool,
    /// The card after the payment.
    pub gift_card: GiftCard,
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: &str = r#""object":"gift_card","id":"gc_1","status":"active","template_id":"tpl_1",
        "pass_id":"pass_1","currency":"EUR","initial_amount":"50.00","balance":"42.50",
        "recipient":{"name":"Ana","email":"ana@example.com"},"customer_id":null,
        "customer_deleted":false,"test":true,"created_at":"2026-11-22T09:15:00.000Z",
        "claimed_at":"2026-11-22T09:20:00.000Z","depleted_at":null"#;

    #[test]
    fn a_gift_card_with_its_ledger_is_read_exactly() {
        let json = format!(
            r#"{{{CARD},"transactions":[{{"id":"gct_1","type":"spend","amount":"7.50",
            "balance_after":"42.50","created_at":"2026-11-22T09:30:00.000Z","location_id":null,
            "reference":"T-1"}}],"transactions_has_more":false}}"#
        );
        let card: GiftCardWithTransactions = serde_json::from_str(&json).unwrap();
        assert_eq!(card.gift_card.balance, Decimal::new(4250, 2));
        assert_eq!(card.gift_card.status, GiftCardStatus::Active);
        assert_eq!(card.transactions[0].kind, TransactionType::Spend);
        assert_eq!(card.transactions[0].amount.to_string(), "7.50");
    }

    #[test]
    fn an_issued_card_reports_why_its_email_did_not_go() {
        let json = format!(r#"{{{CARD},"email":{{"sent":false,"reason":"sandbox"}}}}"#);
        let issued: IssuedGiftCard = serde_json::from_str(&json).unwrap();
        assert_eq!(issued.email.reason, Some(EmailReason::Sandbox));
        assert!(!issued.email.sent);
    }

    #[test]
    fn issue_and_payment_bodies_match_the_contract() {
        let issue = NewGiftCard {
            amount: Decimal::new(2550, 2),
            currency: Currency::new("EUR").unwrap(),
            locale: "en".into(),
            recipient: Recipient {
                name: "Ana".into(),
                email: "ana@example.com".into(),
            },
        };
        assert_eq!(
            serde_json::to_string(&issue).unwrap(),
            r#"{"amount":25.5,"currency":"EUR","locale":"en","recipient":{"name":"Ana","email":"ana@example.com"}}"#
        );
        let payment = NewPayment {
            amount_minor: MinorUnits(750),
            currency: Currency::new("EUR").unwrap(),
            reference: None,
        };
        assert_eq!(
            serde_json::to_string(&payment).unwrap(),
            r#"{"amount_minor":750,"currency":"EUR"}"#
        );
    }
}
