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
//! Record a visit, retrying with the same key if the network fails, then walk all
//! customers. (Compiled, not run: it needs a server. The integration tests in
//! `tests/api` run the same calls against the project's `loyalty-sandbox`.)
//!
//! ```no_run
//! use futures_util::TryStreamExt;
//! use loyalty_api::{
//!     ApiKey, CardId, Client, ErrorCode, IdempotencyKey, ListParams, NewScan, RetryPolicy,
//! };
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let key = ApiKey::new("lc_test_...")?;
//! let client = Client::new("http://127.0.0.1:8787/sandbox", key)?;
//!
//! let me = client.me().await?;
//! println!("{} ({})", me.business.name, me.mode);
//!
//! // The key is made, and stored, before the first attempt.
//! let idempotency_key = IdempotencyKey::new_v4();
//! let scan = NewScan::visit(CardId::new("card_123"));
//! match RetryPolicy::default()
//!     .retry_write(&idempotency_key, |k| client.scans().create(k, &scan))
//!     .await
//! {
//!     Ok(result) => println!("visits: {}", result.card.visits),
//!     Err(err) if err.code() == Some(&ErrorCode::RecentVisit) => {
//!         let last = err.problem().and_then(|p| p.last_visit_at);
//!         println!("last visit at {last:?}: ask the cashier");
//!     }
//!     Err(err) => return Err(err.into()),
//! }
//!
//! let customers: Vec<_> = client
//!     .customers()
//!     .pages(ListParams::new().limit(100))
//!     .items()
//!     .try_collect()
//!     .await?;
//! println!("{} customers", customers.len());
//! # Ok(()) }
//! ```

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

pub use client::{BuildError, Client, ClientBuilder, DEFAULT_USER_AGENT};
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
