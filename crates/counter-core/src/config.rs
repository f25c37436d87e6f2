//! What the shell (or a test) sets when it opens a counter.

use std::time::Duration;

use jiff::SignedDuration;
use loyalty_api::{Jitter, RetryPolicy};

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
    /// How long a cashier's call waits for its write's answer: past it, the write
    /// shows as saved and queued, and its answer arrives later (events).
    pub interactive_wait: Duration,
    /// The longest wait the till accepts from the service (`Retry-After`, a rate-limit
    /// reset) or imposes on one failing item; anything longer is cut to this.
    pub max_service_wait: Duration,
    /// Where the API key is kept.
    pub secrets: SecretsConfig,
    /// How long a manager on a manager's screen counts as here without doing anything
    /// (and how long a PIN asked for one action waits for it).
    pub manager_idle: Duration,
    /// How long the customer's screen shows a card or a balance before it welcomes the
    /// next customer, when the counter shows nothing newer.
    pub customer_screen_idle: Duration,
    /// How the database is kept on the disk: encrypted, always, in the app.
    pub at_rest: AtRest,
}

/// How the till's database is kept on the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AtRest {
    /// Encrypted (SQLCipher), under the key the till keeps where its API key is.
    #[default]
    Encrypted,
    /// In clear, for `make bench` alone: what encryption costs is measured against the
    /// same till without it. A file already encrypted is not opened so.
    InClearForMeasures,
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
            interactive_wait: Duration::from_secs(2),
            max_service_wait: Duration::from_secs(300),
            secrets: SecretsConfig::default(),
            manager_idle: MANAGER_IDLE,
            customer_screen_idle: Duration::from_secs(30),
            at_rest: AtRest::Encrypted,
        }
    }
}

/// How long a manager who entered the PIN counts as here without doing anything.
pub const MANAGER_IDLE: Duration = Duration::from_secs(5 * 60);
