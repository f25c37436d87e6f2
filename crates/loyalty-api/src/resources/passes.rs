//! Passes: `/v1/passes`.

use crate::client::Client;
use crate::error::Error;
use crate::ids::PassId;
use crate::models::{List, ListParams, Pass};
use crate::paginate::Pages;
use crate::response::Response;

const PATH: &[&str] = &["v1", "passes"];

/// Passes: the business's loyalty-card designs (active and archived).
#[derive(Debug, Clone, Copy)]
pub struct Passes<'c> {
    client: &'c Client,
}

impl Client {
    /// Passes: the business's loyalty-card designs (active and archived).
    pub fn passes(&self) -> Passes<'_> {
        Passes { client: self }
    }
}

impl Passes<'_> {
    /// `GET /v1/passes`: one page, newest first.
    pub async fn list(self, params: &ListParams) -> Result<Response<List<Pass>>, Error> {
        self.client.get(PATH, params).await
    }

    /// Every page of `GET /v1/passes` from `params` on; `.items()` streams the items.
    pub fn pages(self, params: ListParams) -> Pages<Pass> {
        Pages::new(self.client.clone(), PATH, params)
    }

    /// `GET /v1/passes/{id}`; 404 not_found for an unknown or another business's id.
    pub async fn get(self, id: &PassId) -> Result<Response<Pass>, Error> {
        self.client.get(&["v1", "passes", id.as_str()], &()).await
    }
}
