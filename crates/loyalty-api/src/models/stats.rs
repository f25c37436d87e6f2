//! Period statistics.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

/// Figures for whole days in the business's time zone, as the dashboard shows them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Stats {
    /// First day, included.
    pub from: Date,
    /// Last day, included.
    pub to: Date,
    /// The business's time zone.
    pub time_zone: String,
    /// Scans.
    pub scans: i64,
    /// Visits.
    pub visits: i64,
    /// Customers with activity.
    pub active_customers: i64,
    /// Customers who came back.
    pub returning_customers: i64,
    /// Customers who joined.
    pub new_customers: i64,
    /// Rewards earned.
    pub rewards_earned: i64,
    /// Rewards redeemed.
    pub rewards_redeemed: i64,
    /// Gift cards issued.
    pub gift_cards_issued: i64,
}

/// The query of `GET /v1/stats`; with neither day, the last 30 days.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StatsParams {
    /// First day, included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Date>,
    /// Last day, included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Date>,
}
