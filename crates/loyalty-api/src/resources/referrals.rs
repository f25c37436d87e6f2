//! Referrals: `/v1/referrals`.

use crate::client::Client;
use crate::error::Error;
use crate::models::{List, ListParams, Referral};
use crate::paginate::Pages;
use crate::response::Response;

const PATH: &[&str] = &["v1", "referrals"];

/// Referrals between customers.
#[derive(Debug, Clone, Copy)]
pub struct Referrals<'c> {
    client: &'c Client,
}

impl Client {
    /// Referrals between customers.
    pub fn referrals(&self) -> Referrals<'_> {
        Referrals { client: self }
    }
}

impl Referrals<'_> {
    /// `GET /v1/referrals`: one page, newest first.
    pub async fn list(self, params: &ListParams) -> Result<Response<List<Referral>>, Error> {
        self.client.get(PATH, params).await
    }

    /// Every page of `GET /v1/referrals` from `params` on; `.items()` streams the items.
    pub fn pages(self, params: ListParams) -> Pages<Referral> {
        Pages::new(self.client.clone(), PATH, params)
    }
}
