//! `GET /v1/me`.

use crate::client::Client;
use crate::error::Error;
use crate::models::Me;
use crate::response::Response;

impl Client {
    /// `GET /v1/me`: the key's business, mode, scopes, plan and rate limits.
    pub async fn me(&self) -> Result<Response<Me>, Error> {
        self.get(&["v1", "me"], &()).await
    }
}
