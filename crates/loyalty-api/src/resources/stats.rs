//! `GET /v1/stats`.

use crate::client::Client;
use crate::error::Error;
use crate::models::{Stats, StatsParams};
use crate::response::Response;

impl Client {
    /// `GET /v1/stats`: figures for whole days `from` to `to` (both included) in the
    /// business's time zone; the last 30 days when both are None.
    pub async fn stats(&self, params: StatsParams) -> Result<Response<Stats>, Error> {
        self.get(&["v1", "stats"], &params).await
    }
}
