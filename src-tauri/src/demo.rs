//! The built-in demo: the project's own local server of the API, `loyalty-sandbox`,
//! started inside the app on a loopback port with its data in the app's data folder.
//!
//! The demo business "Demo Coffee" is created on first use and reused after. Its till
//! keeps the test key it was given in the demo's own folder, so a later start needs no
//! new key: the server comes back on the port it had, where the till last reached it,
//! and takes the key again. A key is minted only when that cannot be (a new demo, the
//! port taken, a key the server no longer takes). Control routes
//! are on, on loopback only, so that the end-to-end tests can steer the demo (claim a
//! gift card, cut the network); they reach only the demo's own data.

use std::net::Ipv4Addr;
use std::path::Path;

use counter_core::secrets::KeyStore;
use loyalty_sandbox::{Mode, Running, Sandbox};
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;

/// A running demo server.
#[derive(Debug)]
pub struct DemoServer {
    sandbox: Sandbox,
    running: Running,
    business_id: String,
    /// Listening on the port `server.json` named: where the demo's till last reached it.
    on_last_port: bool,
}

/// Where the demo server can be reached, written to `demo/server.json` for tests, for
/// curious people, and for the next start (which listens on the same port). It holds
/// no key.
#[derive(Debug, Serialize, Deserialize)]
struct Address {
    root_url: String,
    sandbox_url: String,
    business_id: String,
}

impl DemoServer {
    /// Starts the demo server on 127.0.0.1, its database in `<data_dir>/demo/sandbox.db`:
    /// on the port of the last start if it is free, else on a free one. Its address is
    /// written down by [`DemoServer::write_address`], once the till may follow it.
    pub async fn start(data_dir: &Path) -> Result<Self, DemoError> {
        let dir = data_dir.join("demo");
        counter_core::private::dir(&dir).map_err(DemoError::Io)?;
        let db = dir.join("sandbox.db");
        let (sandbox, business_id) = tokio::task::spawn_blocking(move || {
            let sandbox = Sandbox::open(loyalty_sandbox::Config {
                db: Some(db),
                control: true,
                demo: false,
            })?;
            let business_id = sandbox.demo_business()?;
            Ok::<_, loyalty_sandbox::Error>((sandbox, business_id))
        })
        .await
        .map_err(|e| DemoError::Start(e.to_string()))?
        .map_err(|e| DemoError::Start(e.to_string()))?;
        let last_port = last_port(&dir.join("server.json"));
        let listener = listen(last_port).await?;
        let port = listener.local_addr().map_err(DemoError::Io)?.port();
        let running = sandbox
            .clone()
            .serve(listener)
            .await
            .map_err(|e| DemoError::Start(e.to_string()))?;
        tracing::info!(url = %running.base_url(), "demo server started");
        Ok(Self {
            sandbox,
            running,
            business_id,
            on_last_port: last_port == Some(port),
        })
    }

    /// The sandbox base URL the till connects to.
    pub fn sandbox_url(&self) -> String {
        self.running.sandbox_url()
    }

    /// Whether the key the demo's till kept in `keys` opens this server: the server is on
    /// the port the till last reached, and takes the key (a lost `sandbox.db` or a key
    /// revoked since does not). Read on a blocking thread; the key goes nowhere else.
    pub async fn takes_key_kept_in(&self, keys: KeyStore) -> Result<bool, DemoError> {
        if !self.on_last_port {
            return Ok(false);
        }
        let (sandbox, business_id) = (self.sandbox.clone(), self.business_id.clone());
        tokio::task::spawn_blocking(move || match keys.load() {
            Ok(Some((key, _))) => sandbox
                .takes_test_key(&business_id, key.expose_secret())
                .map_err(|e| DemoError::Key(e.to_string())),
            // No key kept, or one that cannot be read: a new one is minted.
            Ok(None) | Err(_) => Ok(false),
        })
        .await
        .map_err(|e| DemoError::Key(e.to_string()))?
    }

    /// A new test key with every scope for the demo business. It goes to the core and
    /// nowhere else.
    pub async fn mint_test_key(&self) -> Result<String, DemoError> {
        let (sandbox, business_id) = (self.sandbox.clone(), self.business_id.clone());
        tokio::task::spawn_blocking(move || {
            sandbox.mint_key(&business_id, Mode::Test, &loyalty_sandbox::keys::ALL_SCOPES)
        })
        .await
        .map_err(|e| DemoError::Key(e.to_string()))?
        .map(|minted| minted.key)
        .map_err(|e| DemoError::Key(e.to_string()))
    }

    /// Stops the server gracefully.
    pub async fn stop(self) {
        if let Err(e) = self.running.shutdown().await {
            tracing::warn!(error = %e, "the demo server did not stop cleanly");
        }
    }

    /// Writes the server's address to `<data_dir>/demo/server.json`: the next start
    /// listens on this port again. Only once the till no longer keeps a key for another
    /// port, or that start would send it there.
    pub fn write_address(&self, data_dir: &Path) -> Result<(), DemoError> {
        let address = Address {
            root_url: self.running.base_url(),
            sandbox_url: self.running.sandbox_url(),
            business_id: self.business_id.clone(),
        };
        let text =
            serde_json::to_string_pretty(&address).map_err(|e| DemoError::Start(e.to_string()))?;
        counter_core::private::write(&data_dir.join("demo/server.json"), text.as_bytes())
            .map_err(DemoError::Io)
    }
}

/// The port the demo server had at its last start, as `server.json` says.
fn last_port(address: &Path) -> Option<u16> {
    let text = std::fs::read(address).ok()?;
    let address: Address = serde_json::from_slice(&text).ok()?;
    let (_, port) = address.root_url.rsplit_once(':')?;
    port.parse().ok()
}

/// A loopback listener on `port` if it is free, else on a free port.
async fn listen(port: Option<u16>) -> Result<TcpListener, DemoError> {
    if let Some(port) = port {
        match TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await {
            Ok(listener) => return Ok(listener),
            Err(e) => tracing::info!(port, error = %e, "the demo's last port is taken"),
        }
    }
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .map_err(DemoError::Io)
}

/// Why the demo could not start.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// The demo's folder or port could not be used.
    #[error("the demo's files or port: {0}")]
    Io(std::io::Error),
    /// The demo server refused to start.
    #[error("the demo server did not start: {0}")]
    Start(String),
    /// The demo server could not check or mint its test key.
    #[error("the demo server could not give its till a key: {0}")]
    Key(String),
}
