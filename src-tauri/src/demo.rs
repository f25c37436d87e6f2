//! The built-in demo: the project's own local server of the API, `loyalty-sandbox`,
//! started inside the app on a loopback port with its data in the app's data folder.
//!
//! The demo business "Demo Coffee" is created on first use and reused after; each start
//! mints a fresh test key for this run (the server keeps only hashes of keys, so an old
//! key cannot be shown again). Control routes are on, on loopback only, so that the
//! end-to-end tests can steer the demo (claim a gift card, cut the network); they reach
//! only the demo's own data.

use std::path::{Path, PathBuf};

use loyalty_sandbox::{Config, Running, Sandbox};
use serde::Serialize;

/// A running demo server.
#[derive(Debug)]
pub struct DemoServer {
    running: Running,
    business_id: String,
    test_key: String,
}

/// Where the demo server can be reached, written to `demo/server.json` for tests and
/// curious people. It holds no key.
#[derive(Debug, Serialize)]
struct Address<'a> {
    root_url: &'a str,
    sandbox_url: &'a str,
    business_id: &'a str,
}

impl DemoServer {
    /// Starts the demo server on 127.0.0.1 with a free port, its database in
    /// `<data_dir>/demo/sandbox.db`.
    pub async fn start(data_dir: &Path) -> Result<Self, DemoError> {
        let dir = data_dir.join("demo");
        std::fs::create_dir_all(&dir).map_err(DemoError::Io)?;
        let db = dir.join("sandbox.db");
        let sandbox = tokio::task::spawn_blocking(move || {
            let sandbox = Sandbox::open(Config {
                db: Some(db),
                control: true,
                demo: false,
            })?;
            let keys = sandbox.ensure_demo()?;
            Ok::<_, loyalty_sandbox::Error>((sandbox, keys))
        })
        .await
        .map_err(|e| DemoError::Start(e.to_string()))?;
        let (sandbox, keys) = sandbox.map_err(|e| DemoError::Start(e.to_string()))?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(DemoError::Io)?;
        let running = sandbox
            .serve(listener)
            .await
            .map_err(|e| DemoError::Start(e.to_string()))?;
        let server = Self {
            running,
            business_id: keys.business_id,
            test_key: keys.test_key,
        };
        server.write_address(&dir.join("server.json"))?;
        tracing::info!(url = %server.running.base_url(), "demo server started");
        Ok(server)
    }

    /// The sandbox base URL the till connects to.
    pub fn sandbox_url(&self) -> String {
        self.running.sandbox_url()
    }

    /// The demo's test key. It goes to the core and nowhere else.
    pub fn test_key(&self) -> &str {
        &self.test_key
    }

    /// Stops the server gracefully.
    pub async fn stop(self) {
        if let Err(e) = self.running.shutdown().await {
            tracing::warn!(error = %e, "the demo server did not stop cleanly");
        }
    }

    fn write_address(&self, path: &PathBuf) -> Result<(), DemoError> {
        let root_url = self.running.base_url();
        let sandbox_url = self.running.sandbox_url();
        let address = Address {
            root_url: &root_url,
            sandbox_url: &sandbox_url,
            business_id: &self.business_id,
        };
        let text =
            serde_json::to_string_pretty(&address).map_err(|e| DemoError::Start(e.to_string()))?;
        std::fs::write(path, text).map_err(DemoError::Io)
    }
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
