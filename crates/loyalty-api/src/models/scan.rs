//! Scans: recorded counter events, and the scan a cashier makes.

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::customer::Card;
use crate::ids::{CardId, CustomerId, LocationId, PassId, ScanId};
use crate::macros::string_enum;
use crate::money::{decimal_number, decimal_string};

string_enum!(
    /// What a recorded scan was (its full set of values is not fixed by the spec).
    ScanKind {
        /// A visit.
        Visit => "visit",
        /// Points added or deducted.
        Points => "points",
    }
);

string_enum!(
    /// What a cashier does with a card: the `kind` of `POST /v1/scans`.
    ScanAction {
        /// Record a visit.
        Visit => "visit",
        /// Add points (a negative amount deducts).
        Points => "points",
        /// Redeem a reward.
        Redeem => "redeem",
    }
);

/// A counter event as `GET /v1/scans` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Scan {
    /// Its id.
    pub id: ScanId,
    /// When it happened.
    pub created_at: Timestamp,
    /// What it was.
    pub kind: ScanKind,
    /// The pass.
    pub pass_id: PassId,
    /// The customer (by id only once deleted).
    pub customer_id: CustomerId,
    /// Whether the customer was deleted since.
    #[serde(default)]
    pub customer_deleted: bool,
    /// Where it happened.
    #[serde(default)]
    pub location_id: Option<LocationId>,
    /// The amount, a decimal string on the wire.
    #[serde(with = "decimal_string")]
    pub amount: Decimal,
    /// Points moved.
    pub points: i64,
}

/// The body of `POST /v1/scans`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewScan {
    /// The card scanned.
    pub card_id: CardId,
    /// What to do.
    pub kind: ScanAction,
    /// Points to add (negative deducts) or a money amount; a JSON number on the wire.
    #[serde(
        serialize_with = "decimal_number::serialize_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub amount: Option<Decimal>,
    /// Records a visit even within 15 minutes of the last one (after `recent_visit`).
    pub confirm_repeat: bool,
}

impl NewScan {
    /// A visit on `card`.
    pub fn visit(card: CardId) -> Self {
        Self {
            card_id: card,
            kind: ScanAction::Visit,
            amount: None,
            confirm_repeat: false,
        }
    }

    /// `points` added to `card` (negative deducts).
    pub fn points(card: CardId, points: i64) -> Self {
        Self {
            card_id: card,
            kind: ScanAction::Points,
            amount: Some(Decimal::from(points)),
            confirm_repeat: false,
        }
    }

    /// A reward redeemed on `card`.
    pub fn redeem(card: CardId) -> Self {
        Self {
            card_id: card,
            kind: ScanAction::Redeem,
            amount: None,
            confirm_repeat: false,
        }
    }

    /// The same scan, confirmed as a new visit after a `recent_visit` answer. Send it
    /// with a new Idempotency-Key: it is a different request.
    pub fn confirm_repeat(mut self) -> Self {
        self.confirm_repeat = true;
        self
    }
}

/// The answer of `POST /v1/scans`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ScanResult {
    /// What was done.
    pub kind: ScanAction,
    /// The card.
    pub card_id: CardId,
    /// Its customer.
    pub customer_id: CustomerId,
    /// Visits added.
    #[serde(default)]
    pub visits_added: i64,
    /// Points added.
    #[serde(default)]
    pub points_added: i64,
    /// Points deducted.
    #[serde(default)]
    pub points_deducted: i64,
    /// Whether the scan earned a reward.
    #[serde(default)]
    pub reward_earned: bool,
    /// The card after the scan.
    pub card: Card,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_body_writes_its_amount_as_a_number() {
        let body = serde_json::to_value(NewScan::points(CardId::new("card_1"), -5)).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"card_id":"card_1","kind":"points","amount":-5,"confirm_repeat":false})
        );
        let body =
            serde_json::to_value(NewScan::visit(CardId::new("card_1")).confirm_repeat()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"card_id":"card_1","kind":"visit","confirm_repeat":true})
        );
    }
}
