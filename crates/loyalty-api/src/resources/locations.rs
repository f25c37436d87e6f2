//! Locations: `/v1/locations`.

use crate::client::Client;
use crate::error::Error;
use crate::models::{List, ListParams, Location};
use crate::paginate::Pages;
use crate::response::Response;

const PATH: &[&str] = &["v1", "locations"];

/// Locations: counters and branches, inactive ones included.
#[derive(Debug, Clone, Copy)]
pub struct Locations<'c> {
    client: &'c Client,
}

impl Client {
    /// Locations: counters and branches, inactive ones included.
    pub fn locations(&self) -> Locations<'_> {
        Locations { client: self }
    }
}

impl Locations<'_> {
    /// `GET /v1/locations`: one page, newest first.
    pub async fn list(self, params: &ListParams) -> Result<Response<List<Location>>, Error> {
        self.client.get(PATH, params).await
    }

    /// Every page of `GET /v1/locations` from `params` on; `.items()` streams the items.
    pub fn pages(self, params: ListParams) -> Pages<Location> {
        Pages::new(self.client.clone(), PATH, params)
    }
}
