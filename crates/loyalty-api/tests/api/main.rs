//! Integration tests of `loyalty-api` against the project's real local server,
//! `loyalty-sandbox`, started in-process on a loopback port with its control routes
//! (real HTTP; no mocks). What the real server never does (garbage bodies, cut
//! bodies, hanging) is played by tiny raw TCP servers in `transport`.

mod harness;

mod broadcasts;
mod idempotency;
mod pagination;
mod problems;
mod rate_limits;
mod reads;
mod stats;
mod transport;
mod writes;
