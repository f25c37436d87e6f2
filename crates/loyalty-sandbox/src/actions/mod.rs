//! What each write does: storage calls and rules put together, one transaction each.
//!
//! An action takes a connection inside an open transaction, the scope, validated
//! input and the time, and returns its answer as a `crate::wire` shape, or a refusal. Actions never
//! read the clock or parse HTTP; routes never write SQL.

pub mod broadcasts;
pub mod customers;
pub mod demo;
pub mod gift_cards;
pub mod scans;
pub mod setup;
pub mod undo;
