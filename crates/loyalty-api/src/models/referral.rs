//! Referrals: one customer bringing another.

use jiff::Timestamp;
use serde::Deserialize;

use crate::ids::{CustomerId, PassId, ReferralId};
use crate::macros::string_enum;

string_enum!(
    /// A referral's status.
    ReferralStatus {
        /// The referred customer joined and the bonuses were given.
        Completed => "completed",
        /// Not completed yet.
        Pending => "pending",
    }
);

/// A referral (deleted customers appear by id only).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Referral {
    /// Its id.
    pub id: ReferralId,
    /// The pass.
    pub pass_id: PassId,
    /// Its status.
    pub status: ReferralStatus,
    /// Created.
    pub created_at: Timestamp,
    /// Completed.
    #[serde(default)]
    pub completed_at: Option<Timestamp>,
    /// Who referred.
    #[serde(default)]
    pub referrer_customer_id: Option<CustomerId>,
    /// Who was referred.
    #[serde(default)]
    pub referred_customer_id: Option<CustomerId>,
    /// The referrer's bonus.
    #[serde(default)]
    pub referrer_bonus: i64,
    /// The referred customer's bonus.
    #[serde(default)]
    pub referred_bonus: i64,
    /// Whether the referrer was deleted.
    #[serde(default)]
    pub referrer_deleted: bool,
    /// Whether the referred customer was deleted.
    #[serde(default)]
    pub referred_deleted: bool,
}
