//! Locations: counters and branches.

use jiff::Timestamp;
use serde::Deserialize;

use crate::ids::{LocationId, PassId};

/// A counter or branch (inactive ones are listed too).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Location {
    /// Its id.
    pub id: LocationId,
    /// Its name.
    pub name: String,
    /// Whether it is in use.
    pub active: bool,
    /// Street address.
    #[serde(default)]
    pub address: Option<String>,
    /// City.
    #[serde(default)]
    pub city: Option<String>,
    /// Two-letter country code.
    #[serde(default)]
    pub country: Option<String>,
    /// Latitude.
    #[serde(default)]
    pub latitude: Option<f64>,
    /// Longitude.
    #[serde(default)]
    pub longitude: Option<f64>,
    /// The pass it serves.
    #[serde(default)]
    pub pass_id: Option<PassId>,
    /// Created.
    pub created_at: Timestamp,
}
