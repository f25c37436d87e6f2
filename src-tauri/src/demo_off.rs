//! A build without the built-in demo (the `demo` feature off): no local server is
//! linked, `--demo` is refused before any window, Connect offers no demo, and a call
//! that would start one says this build has none. The same surface as `demo.rs`.

use std::convert::Infallible;
use std::path::Path;

use counter_core::secrets::KeyStore;

/// A demo server: none can run in this build.
#[derive(Debug)]
pub struct DemoServer(Infallible);

impl DemoServer {
    /// Refused: this build has no demo.
    pub async fn start(_data_dir: &Path) -> Result<Self, DemoError> {
        Err(DemoError::NotBuiltIn)
    }

    /// Never called: no demo server exists.
    pub fn sandbox_url(&self) -> String {
        match self.0 {}
    }

    /// Never called: no demo server exists.
    pub async fn takes_key_kept_in(&self, _keys: KeyStore) -> Result<bool, DemoError> {
        match self.0 {}
    }

    /// Never called: no demo server exists.
    pub async fn mint_test_key(&self) -> Result<String, DemoError> {
        match self.0 {}
    }

    /// Never called: no demo server exists.
    pub async fn stop(self) {
        match self.0 {}
    }

    /// Never called: no demo server exists.
    pub fn write_address(&self, _data_dir: &Path) -> Result<(), DemoError> {
        match self.0 {}
    }
}

/// Why the demo could not start.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// This build was made without the demo.
    #[error("this build of the app has no built-in demo")]
    NotBuiltIn,
}
