//! Customers: `/v1/customers`.

use crate::client::Client;
use crate::error::Error;
use crate::idempotency::IdempotencyKey;
use crate::ids::CustomerId;
use crate::models::{Customer, List, ListParams, NewCustomer};
use crate::paginate::Pages;
use crate::response::Response;

const PATH: &[&str] = &["v1", "customers"];

/// Customers with their cards (deleted customers are never listed).
#[derive(Debug, Clone, Copy)]
pub struct Customers<'c> {
    client: &'c Client,
}

impl Client {
    /// Customers with their cards (deleted customers are never listed).
    pub fn customers(&self) -> Customers<'_> {
        Customers { client: self }
    }
}

impl Customers<'_> {
    /// `GET /v1/customers`: one page, newest first.
    pub async fn list(self, params: &ListParams) -> Result<Response<List<Customer>>, Error> {
        self.client.get(PATH, params).await
    }

    /// Every page of `GET /v1/customers` from `params` on; `.items()` streams the items.
    pub fn pages(self, params: ListParams) -> Pages<Customer> {
        Pages::new(self.client.clone(), PATH, params)
    }

    /// `GET /v1/customers/{id}`; 404 not_found for a deleted, unknown or other business's id.
    pub async fn get(self, id: &CustomerId) -> Result<Response<Customer>, Error> {
        self.client
            .get(&["v1", "customers", id.as_str()], &())
            .await
    }

    /// `POST /v1/customers`: enrols a person on a pass; answers the customer with its
    /// new card. 409 customer_exists when the email is already on the pass.
    pub async fn create(
        self,
        key: &IdempotencyKey,
        customer: &NewCustomer,
    ) -> Result<Response<Customer>, Error> {
        self.client.post(PATH, key, customer).await
    }
}
