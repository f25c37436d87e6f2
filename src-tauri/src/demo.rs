//! The built-in demo: the project's own local server of the API, `loyalty-sandbox`,
//! started inside the app on a loopback port with its data in the app's data folder.
//!
//! The demo business "Demo Coffee" is created on first use and reused after. Its till
//! keeps the test key it was given in the demo's own folder, so a later start needs no
//! new key: the server comes back on the port it had, where the till last reached it.
//! A key is minted only when that cannot be (a new demo, the port taken). Control routes
//! are on, on loopback only, so that the end-to-end tests can steer the demo (claim a
//! gift card, cut the network); they reach only the demo's own data.

use std::net::Ipv4Addr;
use std::path::Path;

use loyalty_sandbox::{DemoBusiness, Mode, Running, Sandbox};
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;

/// A running demo server.
#[derive(Debug)]
pub struct DemoServer {
    sandbox: Sandbox,
    running: Running,
    business: DemoBusiness,
    /// On the port of the last start, for the business of the last start.
    where_it_was: bool,
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
    /// on the port of the last start if it is free, else on a free one.
    pub async fn start(data_dir: &Path) -> Result<Self, DemoError> {
        let dir = data_dir.join("demo");
        std::fs::create_dir_all(&dir).map_err(DemoError::Io)?;
        let address = dir.join("server.json");
        let db = dir.join("sandbox.db");
        let (sandbox, business) = tokio::task::spawn_blocking(move || {
            let sandbox = Sandbox::open(loyalty_sandbox::Config {
                db: Some(db),
                control: true,
                demo: false,
            })?;
            let business = sandbox.demo_business()?;
            Ok::<_, loyalty_sandbox::Error>((sandbox, business))
        })
        .await
        .map_err(|e| DemoError::Start(e.to_string()))?
        .map_err(|e| DemoError::Start(e.to_string()))?;
        let previous = previous_port(&address);
        let listener = listen(previous).await?;
        let port = listener.local_addr().map_err(DemoError::Io)?.port();
        let where_it_was = !business.created && previous == Some(port);
        let running = sandbox
            .clone()
            .serve(listener)
            .await
            .map_err(|e| DemoError::Start(e.to_string()))?;
        let server = Self {
            sandbox,
            running,
            business,
            where_it_was,
        };
        server.write_address(&address)?;
        tracing::info!(url = %server.running.base_url(), "demo server started");
        Ok(server)
    }

    /// The sandbox base URL the till connects to.
    pub fn sandbox_url(&self) -> String {
        self.running.sandbox_url()
    }

    /// Whether `base_url` is where this server serves the sandbox.
    pub fn serves(&self, base_url: &str) -> bool {
        base_url.trim_end_matches('/') == self.sandbox_url().trim_end_matches('/')
    }

    /// Whether the server is where the demo's till last reached it, holding the same
    /// business: then the key the till kept still opens it.
    pub fn is_where_it_was(&self) -> bool {
        self.where_it_was
    }

    /// A new test key with every scope for the demo business. It goes to the core and
    /// nowhere else.
    pub async fn mint_test_key(&self) -> Result<String, DemoError> {
        let sandbox = self.sandbox.clone();
        let business_id = self.business.id.clone();
        tokio::task::spawn_blocking(move || {
            sandbox.mint_key(&business_id, Mode::Test, &loyalty_sandbox::keys::ALL_SCOPES)
        })
        .await
        .map_err(|e| DemoError::Start(e.to_string()))?
        .map(|minted| minted.key)
        .map_err(|e| DemoError::Start(e.to_string()))
    }

    /// Stops the server gracefully.
    pub async fn stop(self) {
        if let Err(e) = self.running.shutdown().await {
            tracing::warn!(error = %e, "the demo server did not stop cleanly");
        }
    }

    fn write_address(&self, path: &Path) -> Result<(), DemoError> {
        let address = Address {
            root_url: self.running.base_url(),
            sandbox_url: self.running.sandbox_url(),
            business_id: self.business.id.clone(),
        };
        let text =
            serde_json::to_string_pretty(&address).map_err(|e| DemoError::Start(e.to_string()))?;
        std::fs::write(path, text).map_err(DemoError::Io)
    }
}

/// The port the demo server had at its last start, as `server.json` says.
fn previous_port(address: &Path) -> Option<u16> {
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
}
