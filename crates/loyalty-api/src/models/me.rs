//! `GET /v1/me`: the key's own details.

use serde::Deserialize;

use crate::ids::{BusinessId, KeyId};
use crate::key::KeyMode;
use crate::macros::string_enum;

string_enum!(
    /// A permission of a key. (The till kept scopes as `customers_write` before it kept
    /// the API's own texts: the aliases.)
    Scope {
        /// All GET endpoints.
        Read => "read",
        /// Enrol customers.
        CustomersWrite => "customers:write" | alias "customers_write",
        /// Record scans.
        ScansWrite => "scans:write" | alias "scans_write",
        /// Issue gift cards.
        GiftCardsWrite => "gift_cards:write" | alias "gift_cards_write",
        /// Take payments from gift cards.
        GiftCardsSpend => "gift_cards:spend" | alias "gift_cards_spend",
        /// Preview, confirm and cancel messages.
        BroadcastsSend => "broadcasts:send" | alias "broadcasts_send",
    }
);

string_enum!(
    /// The plan of the account that owns the key; only Enterprise has API access.
    Plan {
        /// Free.
        Free => "free",
        /// Pro.
        Pro => "pro",
        /// Enterprise: API access.
        Enterprise => "enterprise",
    }
);

/// The business that owns the key.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct BusinessRef {
    /// Its id.
    pub id: BusinessId,
    /// Its name.
    pub name: String,
}

/// The key itself, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct KeyRef {
    /// Its id.
    pub id: KeyId,
    /// The visible start of the key text.
    pub prefix: String,
}

/// The key's rate limits per window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct RateLimits {
    /// Requests per window for the whole business.
    pub requests_per_business: u64,
    /// Requests per window for this key.
    pub requests_per_key: u64,
    /// The window's length in seconds.
    pub window_seconds: u64,
    /// Writes per window for this key.
    pub writes_per_key: u64,
}

/// The answer of `GET /v1/me`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Me {
    /// The business the key belongs to.
    pub business: BusinessRef,
    /// The key.
    pub key: KeyRef,
    /// Live or test.
    pub mode: KeyMode,
    /// The plan.
    pub plan: Plan,
    /// The plan's human name.
    pub plan_name: String,
    /// The rate limits.
    pub rate_limits: RateLimits,
    /// What the key may do.
    pub scopes: Vec<Scope>,
}

impl Me {
    /// Whether the key holds `scope`.
    pub fn has_scope(&self, scope: &Scope) -> bool {
        self.scopes.contains(scope)
    }
}
