//! A typed client of the Loyalty Card and Gift Card Business API, version 1.
//!
//! This crate is the only code of the counter app that speaks HTTP to the service.
//! It is shaped after octocrab and async-stripe:
//!
//! - **Operations by resource**, reached from one [`Client`]:
//!   [`Client::me`], [`Client::passes`], [`Client::customers`], [`Client::scans`],
//!   [`Client::locations`], [`Client::referrals`], [`Client::gift_cards`],
//!   [`Client::webhook_endpoints`], [`Client::stats`], [`Client::broadcasts`].
//! - **Models apart** ([`models`]): ids are newtypes ([`CardId`] is not a
//!   [`GiftCardId`]), money is [`rust_decimal::Decimal`] read from and written as
//!   two-decimal strings, minor units are [`MinorUnits`], timestamps are
//!   [`jiff::Timestamp`]. Unknown fields are ignored and unknown enum values kept in
//!   an `Other(String)` variant, since v1 only ever adds them.
//! - **Errors are data**: an [`Error`] is either a [`TransportError`] (connect,
//!   timeout, TLS, connection closed, body cut short, not JSON...) or a [`Problem`]
//!   the service answered, whose [`ErrorCode`] is an enum with an `Unknown(String)`
//!   fallback handled by its HTTP status ([`ProblemClass`]).
//! - **Writes are idempotent by construction**: every write takes a validated
//!   [`IdempotencyKey`] from the caller; the client never invents one, so a retry can
//!   keep its key. A [`Response`] says whether it was a replay, and carries the
//!   `Request-Id`, the parsed [`RateLimit`] headers and the server's clock.
//! - **Retries are a policy** ([`RetryPolicy`]), apart from the transport, usable by
//!   an outbox that keeps its own attempt counts.
//! - **Lists page** through [`Pages`], passing each cursor back untouched.
//!
//! # Example
//!
//! Read the key's business, walk every customer, and record a visit that is retried
//! with the same Idempotency-Key if the network fails. This example runs as a doc
//! test against the project's own server, `loyalty-sandbox`, started in-process on
//! a loopback port (the hidden lines); any base URL and key work the same way.
//!
//! ```
//! use futures_util::TryStreamExt;
//! use loyalty_api::{
//!     ApiKey, Client, Customer, ErrorCode, IdempotencyKey, KeyMode, ListParams, NewScan,
//!     RetryPolicy,
//! };
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let sandbox = loyalty_sandbox::Sandbox::open(loyalty_sandbox::Config {
//! #     demo: true,
//! #     ..Default::default()
//! # })?;
//! # let test_key = sandbox.demo_keys().unwrap().test_key.clone();
//! # let running = sandbox
//! #     .serve(tokio::net::TcpListener::bind("127.0.0.1:0").await?)
//! #     .await?;
//! # let base_url = running.sandbox_url();
//! let client = Client::new(base_url, ApiKey::new(test_key)?)?;
//!
//! let me = client.me().await?;
//! assert_eq!(me.business.name, "Demo Coffee");
//! assert_eq!(me.mode, KeyMode::Test);
//!
//! // Every customer, page by page; the cursor goes back untouched.
//! let customers: Vec<Customer> = client
//!     .customers()
//!     .pages(ListParams::new().limit(10))
//!     .items()
//!     .try_collect()
//!     .await?;
//! assert_eq!(customers.len(), 25);
//!
//! // A write: the key is made (and, in an outbox, stored) before the first attempt,
//! // and every retry sends that same key.
//! let card = customers[0].cards[0].id.clone();
//! let scan = NewScan::visit(card);
//! let key = IdempotencyKey::new_v4();
//! match RetryPolicy::default()
//!     .retry_write(&key, |key| client.scans().create(key, &scan))
//!     .await
//! {
//!     Ok(result) => assert!(result.card.visits >= 1),
//!     // A second visit within 15 minutes is a question for the cashier, not a failure.
//!     Err(err) if err.code() == Some(&ErrorCode::RecentVisit) => {
//!         assert!(err.problem().unwrap().last_visit_at.is_some());
//!     }
//!     Err(err) => return Err(err.into()),
//! }
//! # running.shutdown().await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Layers
//!
//! Each module uses only its own layer or lower ones (`crates/layers` checks it in
//! `make lint`). Bottom to top:
//!
//! 0. `macros`, `money`, [`rate_limit`], `idempotency`, `retry_after`: leaves.
//! 1. `code`, `ids`, `key`: the API's error codes, ids and keys.
//! 2. `response`, `problem`: an answer's metadata, and a problem the service answered.
//! 3. `error`: the client's one error type.
//! 4. [`retry`], [`models`]: when to send again; the API's resources as types.
//! 5. `client`: the HTTP client, where every answer is decoded.
//! 6. `paginate`: walking a list page by page.
//! 7. [`resources`]: one module of operations per resource.

#![warn(missing_docs)]

mod client;
mod code;
mod error;
mod idempotency;
mod ids;
mod key;
mod macros;
pub mod models;
mod money;
mod paginate;
mod problem;
pub mod rate_limit;
pub mod resources;
mod response;
pub mod retry;
mod retry_after;

pub use client::{
    BaseUrlProblem, BuildError, Client, ClientBuilder, DEFAULT_USER_AGENT, Observer, check_base_url,
};
pub use code::{ErrorCode, ProblemClass};
pub use error::{Error, TransportError, TransportKind};
pub use idempotency::{IdempotencyKey, InvalidIdempotencyKey};
pub use ids::*;
pub use key::{ApiKey, InvalidApiKey, KeyMode};
pub use models::*;
pub use money::{Currency, InvalidCurrency, MinorUnits, Money, decimal_number, decimal_string};
pub use paginate::Pages;
pub use problem::{FieldError, Problem};
pub use rate_limit::{RateLimit, RateLimitPolicy, RateLimitState};
pub use response::Response;
pub use retry::{Decision, Jitter, RetryAfter, RetryPolicy, is_retryable};
