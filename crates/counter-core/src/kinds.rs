//! The API's sets of values, as the till keeps them and the screens receive them: the
//! client's own types (`loyalty_api`), closed enums the compiler checks, each with
//! `Other` for a value the service adds later. Stored copies read back the same way: a
//! value this version does not know reads as `Other`, never as an error. What the key
//! may do at this till is read from its scopes here.

use serde::{Deserialize, Serialize};

pub use loyalty_api::{
    CardStatus, DeliveryStatus, EmailReason, EndpointStatus, GiftCardStatus, LoyaltyType,
    ReferralStatus, ScanAction, ScanKind, Scope, TransactionType, Wallet,
};

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
        assert_eq!(CardStatus::parse("frozen"), CardStatus::Other);
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
        let only = |scope: &str| Abilities::of(&[Scope::parse(scope)]);
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
    fn scopes_kept_by_earlier_versions_read_back() {
        let kept: Vec<Scope> =
            serde_json::from_str(r#"["scans:write", "read", "scans_write"]"#).unwrap();
        assert_eq!(kept, [Scope::ScansWrite, Scope::Read, Scope::ScansWrite]);
    }
}
