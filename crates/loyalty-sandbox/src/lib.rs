//! `loyalty-sandbox`: the local server of the Loyalty Card and Gift Card Business API.
//!
//! It serves version 1 of the API (`shared/api-v1.md`) over HTTP from SQLite, with
//! both places of every business side by side: live data under `{root}/v1` for
//! `lc_live_` keys, and the business's sandbox under `{root}/sandbox/v1` for
//! `lc_test_` keys. It is the counter app's embedded demo, the server every test of
//! the project talks to, and a reference anyone can run:
//!
//! ```text
//! loyalty-sandbox [--listen ADDR] [--db PATH] [--demo] [--control]
//! ```
//!
//! Embedding it takes three calls: open, make the demo, serve.
//!
//! ```
//! use loyalty_sandbox::{Config, Sandbox};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = Sandbox::open(Config { demo: true, ..Config::default() })?;
//! let keys = sandbox.demo_keys().cloned().expect("demo keys were minted");
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let running = sandbox.serve(listener).await?;
//! // Point a client at running.sandbox_url() with keys.test_key ...
//! assert!(running.sandbox_url().ends_with("/sandbox"));
//! assert!(keys.test_key.starts_with("lc_test_"));
//! running.shutdown().await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Layers
//!
//! The modules are layers: each uses only its own layer or lower ones, and the
//! modules of one layer use each other one way only (`crates/layers` names the file
//! and line of a use that points up, in `make lint`). Bottom to top:
//!
//! 0. `ids`, `clock`, `money`, `cursor`, `keys`, `request_id`, `faults`: the base (`keys`
//!    and `request_id` use `ids`).
//! 1. [`wire`], [`error`]: the API's answer and request shapes, used both to answer
//!    and to document, and its problems.
//! 2. [`rules`]: the pure counter rules and the values they work on.
//! 3. [`store`]: rows and SQL, one module per resource; it builds no answer.
//! 4. [`views`]: each row as its wire shape.
//! 5. [`actions`], [`webhooks`]: what each write does (in one transaction, returning
//!    its typed answer); signing and posting deliveries.
//! 6. [`ratelimit`], [`state`]: what every request shares.
//! 7. [`worker`]: the background tick.
//! 8. [`http`]: routes, extractors and middleware; they hold no SQL and no rules.
//! 9. [`openapi`]: the document, generated from the routes' annotations.
//! 10. [`decisions`]: every choice the spec leaves open, written down.
//!
//! The crate root assembles them: [`app`] gives the router the document's handler.

#![warn(missing_docs)]

pub mod actions;
pub mod clock;
pub mod cursor;
pub mod decisions;
pub mod error;
pub mod faults;
pub mod http;
pub mod ids;
pub mod keys;
pub mod money;
pub mod openapi;
pub mod ratelimit;
pub mod request_id;
pub mod rules;
pub mod state;
pub mod store;
pub mod views;
pub mod webhooks;
pub mod wire;
pub mod worker;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use actions::setup::{DemoKeys, MintedKey};
pub use keys::Mode;
pub use state::AppState;
pub use store::Place;

/// The whole API, its OpenAPI document included (see [`http::app`]).
pub fn app(state: AppState) -> axum::Router {
    http::app(state, openapi::serve)
}

/// How to open a sandbox.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The SQLite file; None keeps everything in memory.
    pub db: Option<PathBuf>,
    /// Turn on the `/_sandbox` control routes.
    pub control: bool,
    /// Create (or reuse) "Demo Coffee" and mint a test and a live key.
    pub demo: bool,
}

/// Errors of the embedding API.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database could not be opened or migrated.
    #[error("opening the database: {0}")]
    Open(#[from] store::OpenError),
    /// An operation failed.
    #[error("{0}")]
    Api(#[from] error::ApiError),
    /// Serving failed.
    #[error("serving: {0}")]
    Io(#[from] std::io::Error),
}

/// An opened sandbox, ready to serve.
#[derive(Debug, Clone)]
pub struct Sandbox {
    state: AppState,
    demo: Option<DemoKeys>,
}

impl Sandbox {
    /// Opens (creating or migrating) the database, and with `demo` makes sure the
    /// "Demo Coffee" business exists and mints fresh keys for it.
    pub fn open(config: Config) -> Result<Sandbox, Error> {
        let db = store::Db::open(config.db.as_deref())?;
        let mut sandbox = Sandbox {
            state: AppState::new(db, config.control),
            demo: None,
        };
        if config.demo {
            sandbox.demo = Some(sandbox.ensure_demo()?);
        }
        Ok(sandbox)
    }

    /// The shared state (database, clock, limits).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// The router of the whole API, to serve yourself.
    pub fn router(&self) -> axum::Router {
        app(self.state.clone())
    }

    /// The keys minted at open with `demo: true`.
    pub fn demo_keys(&self) -> Option<&DemoKeys> {
        self.demo.as_ref()
    }

    /// Finds or creates "Demo Coffee" and mints a new test key and live key (all scopes).
    pub fn ensure_demo(&self) -> Result<DemoKeys, Error> {
        let now = self.state.clock().now_ms();
        Ok(self
            .state
            .db()
            .blocking(|conn| store::write_now(conn, |tx| actions::setup::ensure_demo(tx, now)))?)
    }

    /// Finds or creates "Demo Coffee" without minting keys, and answers its id: for an
    /// embedder that keeps the key it minted in an earlier run ([`Sandbox::mint_key`]
    /// mints one, [`Sandbox::takes_test_key`] says whether a kept one still works).
    pub fn demo_business(&self) -> Result<String, Error> {
        let now = self.state.clock().now_ms();
        Ok(self.state.db().blocking(|conn| {
            store::write_now(conn, |tx| actions::setup::find_or_create_demo(tx, now))
        })?)
    }

    /// Whether `key` is a test key of `business_id` that this sandbox still takes: known,
    /// not revoked, not expired.
    pub fn takes_test_key(&self, business_id: &str, key: &str) -> Result<bool, Error> {
        let now = self.state.clock().now_ms();
        let hash = keys::hash(key);
        let row = self
            .state
            .db()
            .blocking(|conn| store::keys::find_by_hash(conn, &hash))?;
        Ok(row.is_some_and(|row| {
            row.business_id == business_id && row.mode == Mode::Test && row.spent_at(now).is_none()
        }))
    }

    /// Mints a key for a business with the given scopes.
    pub fn mint_key(
        &self,
        business_id: &str,
        mode: Mode,
        scopes: &[&str],
    ) -> Result<MintedKey, Error> {
        let now = self.state.clock().now_ms();
        let scopes: Vec<String> = scopes.iter().map(|s| s.to_string()).collect();
        Ok(self.state.db().blocking(|conn| {
            store::write_now(conn, |tx| {
                actions::setup::mint_key(tx, business_id, mode, &scopes, None, now)
            })
        })?)
    }

    /// Serves on `listener` in a background task until [`Running::shutdown`].
    pub async fn serve(self, listener: TcpListener) -> Result<Running, Error> {
        let addr = listener.local_addr()?;
        let (tx, rx) = oneshot::channel::<()>();
        let router = self.router();
        let worker = worker::spawn(self.state.clone());
        let task = tokio::spawn(serve_until(listener, router, async move {
            let _ = rx.await;
        }));
        Ok(Running {
            addr,
            shutdown: Some(tx),
            task,
            worker,
        })
    }
}

/// Serves `router` on `listener` until `signal` completes, then finishes the
/// requests in progress and returns.
pub async fn serve_until(
    listener: TcpListener,
    router: axum::Router,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // The peer address feeds the limit on failed authentications.
    let service = router.into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(signal)
        .await
}

/// A sandbox serving in the background.
#[derive(Debug)]
pub struct Running {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
    worker: JoinHandle<()>,
}

impl Running {
    /// The address it listens on (the real port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://HOST:PORT`: the live base URL (`{root}`).
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://HOST:PORT/sandbox`: the sandbox base URL.
    pub fn sandbox_url(&self) -> String {
        format!("{}/sandbox", self.base_url())
    }

    /// Stops accepting, lets requests in progress finish, and waits for the end.
    pub async fn shutdown(mut self) -> Result<(), Error> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        self.worker.abort();
        match (&mut self.task).await {
            Ok(result) => Ok(result?),
            Err(join) => Err(Error::Io(std::io::Error::other(join.to_string()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_demo_key_is_taken_until_revoked_and_only_by_the_sandbox_that_minted_it() {
        let sandbox = Sandbox::open(Config::default()).unwrap();
        let demo = sandbox.demo_business().unwrap();
        assert_eq!(
            sandbox.demo_business().unwrap(),
            demo,
            "found again, not made twice"
        );
        let kept = sandbox
            .mint_key(&demo, Mode::Test, &keys::ALL_SCOPES)
            .unwrap();
        assert!(sandbox.takes_test_key(&demo, &kept.key).unwrap());

        let live = sandbox.mint_key(&demo, Mode::Live, &["read"]).unwrap();
        assert!(
            !sandbox.takes_test_key(&demo, &live.key).unwrap(),
            "a live key"
        );
        assert!(
            !sandbox.takes_test_key("biz_other", &kept.key).unwrap(),
            "another business"
        );
        let other = Sandbox::open(Config::default()).unwrap();
        let other_demo = other.demo_business().unwrap();
        assert!(
            !other.takes_test_key(&other_demo, &kept.key).unwrap(),
            "another sandbox"
        );

        sandbox
            .state()
            .db()
            .blocking(|conn| store::keys::revoke(conn, &kept.id, 0))
            .unwrap();
        assert!(
            !sandbox.takes_test_key(&demo, &kept.key).unwrap(),
            "revoked"
        );
    }
}
