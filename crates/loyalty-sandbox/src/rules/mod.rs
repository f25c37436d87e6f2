//! The counter's rules, as pure functions of a card and a request.
//!
//! No SQL and no clock here: storage loads the card, a rule decides, storage writes
//! what the rule decided. That keeps the rules unit-testable to the millisecond.

pub mod payment;
pub mod scan;
pub mod stats_period;
