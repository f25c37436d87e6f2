//! The API's sets of values as the till keeps them and the screens receive them: closed
//! enums the compiler checks, each with `Other` for a value the service adds later (the
//! API only ever adds values). Stored copies read back the same way: a value this
//! version does not know reads as `Other`, never as an error.

use serde::{Deserialize, Serialize};

/// Declares a kept value: the variants this version knows, named as the API names them,
/// plus `Other`, and the conversion from the client's open enum of the same variants.
macro_rules! kept {
    (
        $(#[$meta:meta])*
        $name:ident from $api:ident {
            $( $(#[$vmeta:meta])* $variant:ident, )+
        }
    ) => {
        for_the_ui! {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this version of the app does not know.
            #[serde(other)]
            Other,
        }
        }

        impl $name {
            /// The client's value of the same name; None for `Other`.
            pub fn to_api(self) -> Option<loyalty_api::$api> {
                match self {
                    $( Self::$variant => Some(loyalty_api::$api::$variant), )+
                    Self::Other => None,
                }
            }
        }

        impl From<&loyalty_api::$api> for $name {
            fn from(value: &loyalty_api::$api) -> Self {
                match value {
                    $( loyalty_api::$api::$variant => Self::$variant, )+
                    _ => Self::Other,
                }
            }
        }
    };
}

kept!(
    /// A loyalty card's status; only an active card accepts scans.
    CardStatus from CardStatus {
        /// Accepts scans.
        Active,
        /// Deleted.
        Deleted,
        /// Replaced by another card.
        Replaced,
    }
);

kept!(
    /// A gift card's status; only an active card can be paid with.
    GiftCardStatus from GiftCardStatus {
        /// Issued, not yet opened by the recipient.
        Issued,
        /// Opened: it can be spent.
        Active,
        /// Its balance is 0.
        Depleted,
        /// Cancelled.
        Cancelled,
    }
);

kept!(
    /// What a pass counts.
    LoyaltyType from LoyaltyType {
        /// Visits (stamps).
        Visits,
        /// Points.
        Points,
    }
);

kept!(
    /// The kind of an entry of a gift card's ledger.
    LedgerKind from TransactionType {
        /// Money taken.
        Spend,
        /// The card's issue.
        Issue,
    }
);

kept!(
    /// What a scan the service lists was.
    ScanRecordKind from ScanKind {
        /// A visit.
        Visit,
        /// Points added or deducted.
        Points,
    }
);

kept!(
    /// Where a referral stands.
    ReferralStatus from ReferralStatus {
        /// The referred person came: both got their bonus.
        Completed,
        /// Not yet.
        Pending,
    }
);

kept!(
    /// Whether a webhook endpoint receives events.
    EndpointStatus from EndpointStatus {
        /// It receives them.
        Active,
        /// Paused (after failures, or by the owner).
        Paused,
        /// Turned off.
        Disabled,
    }
);

kept!(
    /// How a webhook delivery went.
    DeliveryStatus from DeliveryStatus {
        /// The endpoint took it.
        Succeeded,
        /// It failed.
        Failed,
    }
);

kept!(
    /// Why the email of an issued gift card did not go.
    EmailReason from EmailReason {
        /// The business has no email provider.
        NotConfigured,
        /// A sandbox key: nothing is ever sent.
        Sandbox,
        /// Sending is blocked where the service runs.
        BlockedEnvironment,
        /// The address cannot receive mail.
        InvalidAddress,
        /// Too many emails for now.
        RateLimited,
        /// The email provider refused it.
        ProviderRefused,
        /// Sending failed.
        Failed,
    }
);

kept!(
    /// What a recorded scan was, as the service answered it.
    ScanKind from ScanAction {
        /// A visit.
        Visit,
        /// Points added or deducted.
        Points,
        /// A reward redeemed.
        Redeem,
    }
);

kept!(
    /// A permission of the API key.
    /// (Settings kept before this type read scopes as the API writes them: the aliases.)
    Scope from Scope {
        /// Every read.
        Read,
        /// Enrol customers.
        #[serde(alias = "customers:write")]
        CustomersWrite,
        /// Record scans.
        #[serde(alias = "scans:write")]
        ScansWrite,
        /// Issue gift cards.
        #[serde(alias = "gift_cards:write")]
        GiftCardsWrite,
        /// Take payments from gift cards.
        #[serde(alias = "gift_cards:spend")]
        GiftCardsSpend,
        /// Preview, confirm and cancel messages.
        #[serde(alias = "broadcasts:send")]
        BroadcastsSend,
    }
);

for_the_ui! {
/// What a cashier does with a loyalty card. Closed: the counter offers nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScanAction {
    /// Record a visit.
    Visit,
    /// Add points, or deduct them with a negative amount.
    Points,
    /// Redeem a reward.
    Redeem,
}
}

impl ScanAction {
    /// The action of a stored write (None for one this version never writes).
    pub fn of(action: &loyalty_api::ScanAction) -> Option<Self> {
        match action {
            loyalty_api::ScanAction::Visit => Some(Self::Visit),
            loyalty_api::ScanAction::Points => Some(Self::Points),
            loyalty_api::ScanAction::Redeem => Some(Self::Redeem),
            _ => None,
        }
    }
}

impl From<ScanAction> for loyalty_api::ScanAction {
    fn from(action: ScanAction) -> Self {
        match action {
            ScanAction::Visit => Self::Visit,
            ScanAction::Points => Self::Points,
            ScanAction::Redeem => Self::Redeem,
        }
    }
}

for_the_ui! {
/// What the key may do at this till, from its scopes: what it may not do is not offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Abilities {
    /// Read cards, customers, passes and gift cards (`read`).
    pub read: bool,
    /// Record visits, points and redemptions (`scans:write`).
    pub scan: bool,
    /// Enrol customers (`customers:write`).
    pub enrol: bool,
    /// Issue gift cards (`gift_cards:write`).
    pub issue_gift_cards: bool,
    /// Take payments from gift cards (`gift_cards:spend`).
    pub spend_gift_cards: bool,
    /// Send messages to card holders (`broadcasts:send`).
    pub send_messages: bool,
}
}

impl Abilities {
    /// What a key with `scopes` may do.
    pub fn of(scopes: &[Scope]) -> Self {
        let has = |scope: Scope| scopes.contains(&scope);
        Self {
            read: has(Scope::Read),
            scan: has(Scope::ScansWrite),
            enrol: has(Scope::CustomersWrite),
            issue_gift_cards: has(Scope::GiftCardsWrite),
            spend_gift_cards: has(Scope::GiftCardsSpend),
            send_messages: has(Scope::BroadcastsSend),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_the_service_adds_later_reads_as_other_from_the_wire_and_from_storage() {
        assert_eq!(
            CardStatus::from(&loyalty_api::CardStatus::parse("frozen")),
            CardStatus::Other
        );
        assert_eq!(
            serde_json::from_str::<GiftCardStatus>("\"frozen\"").unwrap(),
            GiftCardStatus::Other
        );
        assert_eq!(
            serde_json::from_str::<GiftCardStatus>("\"active\"").unwrap(),
            GiftCardStatus::Active
        );
    }

    #[test]
    fn each_scope_grants_its_ability_and_nothing_else() {
        let only = |scope: &str| Abilities::of(&[Scope::from(&loyalty_api::Scope::parse(scope))]);
        assert_eq!(
            only("scans:write"),
            Abilities {
                scan: true,
                ..Abilities::default()
            }
        );
        assert_eq!(
            only("gift_cards:spend"),
            Abilities {
                spend_gift_cards: true,
                ..Abilities::default()
            }
        );
        assert_eq!(only("webhooks:manage"), Abilities::default());
        assert!(only("read").read);
        assert!(only("customers:write").enrol);
    }

    #[test]
    fn scopes_kept_as_the_api_writes_them_read_back() {
        let kept: Vec<Scope> =
            serde_json::from_str(r#"["scans:write", "read", "scans_write"]"#).unwrap();
        assert_eq!(kept, [Scope::ScansWrite, Scope::Read, Scope::ScansWrite]);
    }
}
