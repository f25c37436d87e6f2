//! Webhook endpoints: `/v1/webhook_endpoints` (read only).

use crate::client::Client;
use crate::error::Error;
use crate::models::{List, ListParams, WebhookEndpoint};
use crate::paginate::Pages;
use crate::response::Response;

const PATH: &[&str] = &["v1", "webhook_endpoints"];

/// Webhook endpoints, read only (managed in the dashboard).
#[derive(Debug, Clone, Copy)]
pub struct WebhookEndpoints<'c> {
    client: &'c Client,
}

impl Client {
    /// Webhook endpoints, read only (managed in the dashboard).
    pub fn webhook_endpoints(&self) -> WebhookEndpoints<'_> {
        WebhookEndpoints { client: self }
    }
}

impl WebhookEndpoints<'_> {
    /// `GET /v1/webhook_endpoints`: one page, newest first.
    pub async fn list(self, params: &ListParams) -> Result<Response<List<WebhookEndpoint>>, Error> {
        self.client.get(PATH, params).await
    }

    /// Every page of `GET /v1/webhook_endpoints` from `params` on; `.items()` streams the items.
    pub fn pages(self, params: ListParams) -> Pages<WebhookEndpoint> {
        Pages::new(self.client.clone(), PATH, params)
    }
}
