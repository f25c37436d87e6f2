//! What an outbox item asks the service to do, stored as data so it can be sent
//! again after any restart, and turned into the client's typed request on each attempt.

use jiff::Timestamp;
use loyalty_api::{
    Audience, BroadcastId, BroadcastMessage, CardId, ConfirmationToken, Currency, GiftCardId,
    MinorUnits, NewCustomer, NewGiftCard, NewPayment, NewScan, PassId, Recipient, ScanAction,
    Wallet,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A write the counter makes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Write {
    /// POST /v1/scans.
    Scan {
        /// The loyalty card.
        card_id: CardId,
        /// visit, points or redeem.
        action: ScanAction,
        /// The points (or amount) of a points scan.
        #[serde(default, with = "crate::optional_decimal")]
        amount: Option<Decimal>,
        /// A repeat visit the cashier confirmed.
        confirm_repeat: bool,
    },
    /// POST /v1/gift_cards/{id}/payments.
    Payment {
        /// The gift card.
        gift_card_id: GiftCardId,
        /// Whole minor units of the card's currency.
        amount_minor: MinorUnits,
        /// The card's currency.
        currency: Currency,
        /// The business's own ticket number.
        reference: Option<String>,
    },
    /// POST /v1/customers.
    Enrol {
        /// The pass.
        pass_id: PassId,
        /// The person's name.
        name: String,
        /// Their email.
        email: String,
        /// apple or google.
        wallet: Wallet,
        /// Send the welcome email.
        send_welcome: bool,
    },
    /// POST /v1/gift_cards.
    IssueGiftCard {
        /// The amount, in major units.
        #[serde(with = "rust_decimal::serde::str")]
        amount: Decimal,
        /// Its currency.
        currency: Currency,
        /// The email's language.
        locale: String,
        /// The recipient's name.
        recipient_name: String,
        /// The recipient's email.
        recipient_email: String,
    },
    /// POST /v1/broadcasts/confirm: a previewed message, repeated exactly, with its
    /// token (single use, 10 minutes; its `Debug` is redacted).
    ConfirmBroadcast {
        /// The pass whose card holders receive it.
        pass_id: PassId,
        /// Title.
        title: String,
        /// Body.
        body: String,
        /// Who receives it (`active`, ...).
        audience: String,
        /// When it goes out; now when None.
        scheduled_at: Option<Timestamp>,
        /// Targeting, as previewed.
        targeting: Option<serde_json::Value>,
        /// The preview's token.
        confirmation_token: ConfirmationToken,
    },
    /// POST /v1/broadcasts/{id}/cancel: a message scheduled for later, called off.
    CancelBroadcast {
        /// The id the confirm answered.
        broadcast_id: BroadcastId,
    },
}

/// The confirm body, shaped as the client sends it (message fields, then the token).
#[derive(Serialize)]
struct ConfirmBody<'a> {
    #[serde(flatten)]
    message: &'a BroadcastMessage,
    confirmation_token: &'a ConfirmationToken,
}

/// The kind of a write, for listing and counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteKind {
    /// A scan.
    Scan,
    /// A gift-card payment.
    Payment,
    /// An enrolment.
    Enrol,
    /// A gift-card issue.
    IssueGiftCard,
    /// A message confirmed.
    ConfirmBroadcast,
    /// A scheduled message cancelled.
    CancelBroadcast,
}

impl WriteKind {
    /// Money moved or promised: a payment, a gift card issued. Withdrawing one is a
    /// manager's decision.
    pub fn is_money(self) -> bool {
        matches!(self, WriteKind::Payment | WriteKind::IssueGiftCard)
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            WriteKind::Scan => "scan",
            WriteKind::Payment => "payment",
            WriteKind::Enrol => "enrol",
            WriteKind::IssueGiftCard => "issue_gift_card",
            WriteKind::ConfirmBroadcast => "confirm_broadcast",
            WriteKind::CancelBroadcast => "cancel_broadcast",
        }
    }
}

impl Write {
    /// Its kind.
    pub fn kind(&self) -> WriteKind {
        match self {
            Write::Scan { .. } => WriteKind::Scan,
            Write::Payment { .. } => WriteKind::Payment,
            Write::Enrol { .. } => WriteKind::Enrol,
            Write::IssueGiftCard { .. } => WriteKind::IssueGiftCard,
            Write::ConfirmBroadcast { .. } => WriteKind::ConfirmBroadcast,
            Write::CancelBroadcast { .. } => WriteKind::CancelBroadcast,
        }
    }

    /// Writes with the same order key are sent in the order they were made: one
    /// loyalty card's scans, one gift card's payments, one message's cancels.
    pub fn order_key(&self) -> Option<String> {
        match self {
            Write::Scan { card_id, .. } => Some(format!("card:{card_id}")),
            Write::Payment { gift_card_id, .. } => Some(format!("gift_card:{gift_card_id}")),
            Write::CancelBroadcast { broadcast_id } => Some(format!("broadcast:{broadcast_id}")),
            Write::Enrol { .. } | Write::IssueGiftCard { .. } | Write::ConfirmBroadcast { .. } => {
                None
            }
        }
    }

    pub(crate) fn new_scan(&self) -> Option<NewScan> {
        match self {
            Write::Scan {
                card_id,
                action,
                amount,
                confirm_repeat,
            } => Some(NewScan {
                card_id: card_id.clone(),
                kind: *action,
                amount: *amount,
                confirm_repeat: *confirm_repeat,
            }),
            _ => None,
        }
    }

    pub(crate) fn new_payment(&self) -> Option<(GiftCardId, NewPayment)> {
        match self {
            Write::Payment {
                gift_card_id,
                amount_minor,
                currency,
                reference,
            } => Some((
                gift_card_id.clone(),
                NewPayment {
                    amount_minor: *amount_minor,
                    currency: currency.clone(),
                    reference: reference.clone(),
                },
            )),
            _ => None,
        }
    }

    pub(crate) fn new_customer(&self) -> Option<NewCustomer> {
        match self {
            Write::Enrol {
                pass_id,
                name,
                email,
                wallet,
                send_welcome,
            } => Some(NewCustomer {
                pass_id: pass_id.clone(),
                name: name.clone(),
                email: email.clone(),
                wallet: *wallet,
                send_welcome: *send_welcome,
            }),
            _ => None,
        }
    }

    pub(crate) fn new_gift_card(&self) -> Option<NewGiftCard> {
        match self {
            Write::IssueGiftCard {
                amount,
                currency,
                locale,
                recipient_name,
                recipient_email,
            } => Some(NewGiftCard {
                amount: *amount,
                currency: currency.clone(),
                locale: locale.clone(),
                recipient: Recipient {
                    name: recipient_name.clone(),
                    email: recipient_email.clone(),
                },
            }),
            _ => None,
        }
    }

    pub(crate) fn broadcast(&self) -> Option<(BroadcastMessage, ConfirmationToken)> {
        match self {
            Write::ConfirmBroadcast {
                pass_id,
                title,
                body,
                audience,
                scheduled_at,
                targeting,
                confirmation_token,
            } => Some((
                BroadcastMessage {
                    pass_id: pass_id.clone(),
                    title: title.clone(),
                    body: body.clone(),
                    audience: Audience::parse(audience),
                    scheduled_at: *scheduled_at,
                    targeting: targeting.clone(),
                },
                confirmation_token.clone(),
            )),
            _ => None,
        }
    }

    /// The exact JSON body the client sends for this write.
    pub fn body(&self) -> String {
        let value = match self {
            Write::Scan { .. } => serde_json::to_string(&self.new_scan()),
            Write::Payment { .. } => serde_json::to_string(&self.new_payment().map(|p| p.1)),
            Write::Enrol { .. } => serde_json::to_string(&self.new_customer()),
            Write::IssueGiftCard { .. } => serde_json::to_string(&self.new_gift_card()),
            Write::ConfirmBroadcast { .. } => {
                let (message, token) = self.broadcast().expect("a confirm");
                serde_json::to_string(&ConfirmBody {
                    message: &message,
                    confirmation_token: &token,
                })
            }
            // The API takes an empty object.
            Write::CancelBroadcast { .. } => Ok("{}".to_owned()),
        };
        value.expect("request bodies always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_write_reads_back_to_the_same_body() {
        let write = Write::Scan {
            card_id: CardId::new("card_1"),
            action: ScanAction::Points,
            amount: Some(Decimal::new(-5, 0)),
            confirm_repeat: false,
        };
        let stored = serde_json::to_string(&write).unwrap();
        let back: Write = serde_json::from_str(&stored).unwrap();
        assert_eq!(back, write);
        assert_eq!(
            back.body(),
            r#"{"card_id":"card_1","kind":"points","amount":-5,"confirm_repeat":false}"#
        );
    }

    #[test]
    fn a_message_confirm_keeps_its_token_out_of_debug_but_in_the_body() {
        let write = Write::ConfirmBroadcast {
            pass_id: PassId::new("pass_1"),
            title: "Hi".into(),
            body: "Free coffee".into(),
            audience: "active".into(),
            scheduled_at: None,
            targeting: None,
            confirmation_token: ConfirmationToken::new("tok_secret"),
        };
        assert!(!format!("{write:?}").contains("tok_secret"));
        assert_eq!(
            write.body(),
            r#"{"pass_id":"pass_1","title":"Hi","body":"Free coffee","audience":"active","confirmation_token":"tok_secret"}"#
        );
        let back: Write = serde_json::from_str(&serde_json::to_string(&write).unwrap()).unwrap();
        assert_eq!(back.body(), write.body());
    }

    #[test]
    fn scans_of_one_card_share_an_order_key_and_enrolments_have_none() {
        let scan = |card: &str| Write::Scan {
            card_id: CardId::new(card),
            action: ScanAction::Visit,
            amount: None,
            confirm_repeat: false,
        };
        assert_eq!(scan("card_1").order_key(), scan("card_1").order_key());
        assert_ne!(scan("card_1").order_key(), scan("card_2").order_key());
        let enrol = Write::Enrol {
            pass_id: PassId::new("pass_1"),
            name: "Ana".into(),
            email: "ana@example.com".into(),
            wallet: Wallet::Apple,
            send_welcome: false,
        };
        assert_eq!(enrol.order_key(), None);
    }
}
