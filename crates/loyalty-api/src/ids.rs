//! Id newtypes, so that a card id cannot be passed where a gift-card id is meant.

use crate::macros::id_type;

id_type!(
    /// The id of a business (`GET /v1/me` names it).
    BusinessId
);
id_type!(
    /// The id of an API key (not its secret text).
    KeyId
);
id_type!(
    /// The id of a pass, a loyalty-card design.
    PassId
);
id_type!(
    /// The id of a customer: one person on one pass.
    CustomerId
);
id_type!(
    /// The id of a loyalty card (a customer's card on a pass); what a scan names.
    CardId
);
id_type!(
    /// The id of a recorded counter scan.
    ScanId
);
id_type!(
    /// The id of a location, a counter or branch.
    LocationId
);
id_type!(
    /// The id of a referral.
    ReferralId
);
id_type!(
    /// The id of a gift card.
    GiftCardId
);
id_type!(
    /// The id of an entry of a gift card's ledger.
    GiftCardTransactionId
);
id_type!(
    /// The id of a payment taken from a gift card.
    PaymentId
);
id_type!(
    /// The id of a webhook endpoint.
    WebhookEndpointId
);
id_type!(
    /// The id of a message to card holders (a broadcast).
    BroadcastId
);
id_type!(
    /// The id of a gift-card template.
    TemplateId
);

/// An opaque list cursor: passed back exactly as the API returned it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Cursor(String);

impl Cursor {
    /// Wraps a cursor text the API returned earlier (for example one stored by a caller).
    pub fn new(cursor: impl Into<String>) -> Self {
        Self(cursor.into())
    }

    /// The cursor's text, untouched.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_its_text_on_the_wire() {
        let id: CardId = serde_json::from_str("\"card_123\"").unwrap();
        assert_eq!(id, CardId::new("card_123"));
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"card_123\"");
        assert_eq!(id.to_string(), "card_123");
    }
}
