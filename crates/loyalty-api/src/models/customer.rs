//! Customers and their loyalty cards.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::ids::{CardId, CustomerId, PassId};
use crate::macros::string_enum;

string_enum!(
    /// The wallet a card lives in.
    Wallet {
        /// Apple Wallet.
        Apple => "apple",
        /// Google Wallet.
        Google => "google",
    }
);

string_enum!(
    /// A loyalty card's status; only an active card accepts scans.
    CardStatus {
        /// Accepts scans.
        Active => "active",
        /// Deleted.
        Deleted => "deleted",
        /// Replaced by another card.
        Replaced => "replaced",
    }
);

/// A customer's card on a pass.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Card {
    /// Its id: what a scan names.
    pub id: CardId,
    /// The pass it belongs to.
    pub pass_id: PassId,
    /// The wallet it lives in.
    pub wallet: Wallet,
    /// Its status.
    pub status: CardStatus,
    /// Visits counted.
    pub visits: i64,
    /// Points held.
    pub points: i64,
    /// Rewards ready to redeem.
    pub rewards_available: i64,
    /// Rewards redeemed so far.
    pub rewards_redeemed: i64,
    /// The last visit.
    #[serde(default)]
    pub last_visit_at: Option<Timestamp>,
    /// True for a sandbox card.
    #[serde(default)]
    pub test: bool,
    /// Created.
    pub created_at: Timestamp,
}

impl Card {
    /// Whether the card accepts scans.
    pub fn is_active(&self) -> bool {
        self.status == CardStatus::Active
    }
}

/// One person on one pass.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Customer {
    /// Its id.
    pub id: CustomerId,
    /// The pass.
    pub pass_id: PassId,
    /// Name, if known.
    #[serde(default)]
    pub name: Option<String>,
    /// Email, if known.
    #[serde(default)]
    pub email: Option<String>,
    /// Phone, if known.
    #[serde(default)]
    pub phone: Option<String>,
    /// The customer's cards.
    #[serde(default)]
    pub cards: Vec<Card>,
    /// Created.
    #[serde(default)]
    pub created_at: Option<Timestamp>,
    /// Last changed.
    #[serde(default)]
    pub updated_at: Option<Timestamp>,
}

/// The body of `POST /v1/customers`: enrols a person as the pass's join form does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewCustomer {
    /// The pass to join.
    pub pass_id: PassId,
    /// The person's name.
    pub name: String,
    /// The person's email (unique per pass).
    pub email: String,
    /// The wallet for the new card.
    pub wallet: Wallet,
    /// Whether to send the welcome message (nothing is sent otherwise).
    pub send_welcome: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_customer_with_an_unknown_card_status_and_extra_fields_is_read() {
        let customer: Customer = serde_json::from_str(
            r#"{"object":"customer","id":"cus_1","pass_id":"pass_1","name":null,"email":"a@b.c",
                "phone":null,"created_at":"2026-11-22T09:15:00.000Z","updated_at":null,"loyalty_tier":"gold",
                "cards":[{"id":"card_1","pass_id":"pass_1","wallet":"huawei","status":"frozen",
                  "visits":3,"points":0,"rewards_available":0,"rewards_redeemed":1,
                  "last_visit_at":null,"test":true,"created_at":"2026-11-22T09:15:00.000Z"}]}"#,
        )
        .unwrap();
        let card = &customer.cards[0];
        assert_eq!(card.wallet, Wallet::Other);
        assert_eq!(card.status, CardStatus::Other);
        assert!(!card.is_active());
        assert_eq!(customer.email.as_deref(), Some("a@b.c"));
    }
}
