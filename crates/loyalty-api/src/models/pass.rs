//! Passes: the business's loyalty-card designs.

use jiff::Timestamp;
use serde::Deserialize;

use crate::ids::PassId;
use crate::macros::string_enum;

string_enum!(
    /// Whether a pass is in use.
    PassStatus {
        /// In use.
        Active => "active",
        /// Archived (still listed).
        Archived => "archived",
    }
);

string_enum!(
    /// What a pass counts.
    LoyaltyType {
        /// Visits (stamps).
        Visits => "visits",
        /// Points.
        Points => "points",
    }
);

/// A pass's colours (colour strings as the service sends them).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct PassColors {
    /// Accent colour.
    pub accent: Option<String>,
    /// Background colour.
    pub background: Option<String>,
    /// Foreground colour.
    pub foreground: Option<String>,
    /// Label colour.
    pub label: Option<String>,
}

/// Which wallets a pass is offered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct PassWallets {
    /// Apple Wallet.
    pub apple: bool,
    /// Google Wallet.
    pub google: bool,
}

/// A loyalty-card design of the business.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Pass {
    /// Its id.
    pub id: PassId,
    /// Its name.
    pub name: String,
    /// Active or archived.
    pub status: PassStatus,
    /// Visits or points.
    pub loyalty_type: LoyaltyType,
    /// Visits or points needed for a reward.
    pub goal: i64,
    /// The reward's title.
    pub reward_title: String,
    /// Language code.
    pub locale: String,
    /// Logo image.
    #[serde(default)]
    pub logo_url: Option<String>,
    /// Cover image.
    #[serde(default)]
    pub cover_image_url: Option<String>,
    /// Colours.
    #[serde(default)]
    pub colors: PassColors,
    /// Tier rewards; their shape is not fixed by the spec, so kept as JSON.
    #[serde(default)]
    pub tier_rewards: Vec<serde_json::Value>,
    /// Wallets offered.
    #[serde(default)]
    pub wallets: PassWallets,
    /// Created.
    pub created_at: Timestamp,
    /// Last changed.
    pub updated_at: Timestamp,
}
