//! Integration tests of loyalty-sandbox over real HTTP, against a server on port 0
//! (in-process, or the real binary where the command line matters).

mod auth;
mod binary;
mod broadcasts;
mod control;
mod customers;
mod gift_cards;
mod headers;
mod helpers;
mod idempotency;
mod layers;
mod lists;
mod numbers;
mod openapi;
mod reads;
mod scans;
mod stats;
mod validation;
mod webhooks;
