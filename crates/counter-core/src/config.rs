//! What the shell (or a test) sets when it opens a counter.

use std::time::Duration;

use jiff::SignedDuration;
use loyalty_api::{Jitter, RetryPolicy};
use rust_decimal::Decimal;

use crate::secrets::SecretsConfig;

/// Settings of an open counter that do not live in its database.
#[derive(Debug, Clone)]
pub struct Config {
    /// How the outbox retries: backoff with jitter; it never gives up on a retryable
    /// failure (`max_attempts` is ignored), since a queued write must not be lost.
    pub retry: RetryPolicy,
    /// The longest one request may take.
    pub request_timeout: Duration,
    /// The longest connecting may take.
    pub connect_timeout: Duration,
    /// How often GET /v1/me checks the service while offline.
    pub probe_offline: Duration,
    /// How often it checks while online and idle.
    pub probe_online: Duration,
    /// A difference between the till's clock and the service's beyond which a
    /// warning is published.
    pub max_clock_skew: SignedDuration,
    /// Past this age, an item that may have reached the service is not sent again
    /// blindly (the service remembers a key 24 hours).
    pub forget_after: SignedDuration,
    /// How long a cashier's call waits for the sender before leaving its write queued.
    pub interactive_wait: Duration,
    /// Payments above this many major units are refused as absurd.
    pub max_payment: Decimal,
    /// Where the API key is kept.
    pub secrets: SecretsConfig,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            retry: RetryPolicy {
                max_attempts: u32::MAX,
                initial_delay: Duration::from_millis(500),
                max_delay: Duration::from_secs(30),
                jitter: Jitter::Equal,
            },
            request_timeout: Duration::from_secs(15),
            connect_timeout: Duration::from_secs(5),
            probe_offline: Duration::from_secs(5),
            probe_online: Duration::from_secs(60),
            max_clock_skew: SignedDuration::from_mins(2),
            forget_after: SignedDuration::from_hours(23),
            interactive_wait: Duration::from_secs(3),
            max_payment: Decimal::from(100_000),
            secrets: SecretsConfig::default(),
        }
    }
}
