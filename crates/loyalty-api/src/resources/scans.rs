//! Scans: `/v1/scans`.

use crate::client::Client;
use crate::error::Error;
use crate::idempotency::IdempotencyKey;
use crate::models::{List, ListParams, NewScan, Scan, ScanResult};
use crate::paginate::Pages;
use crate::response::Response;

const PATH: &[&str] = &["v1", "scans"];

/// Counter scans: the recorded ones, and recording a new one.
#[derive(Debug, Clone, Copy)]
pub struct Scans<'c> {
    client: &'c Client,
}

impl Client {
    /// Counter scans: the recorded ones, and recording a new one.
    pub fn scans(&self) -> Scans<'_> {
        Scans { client: self }
    }
}

impl Scans<'_> {
    /// `GET /v1/scans`: one page, newest first.
    pub async fn list(self, params: &ListParams) -> Result<Response<List<Scan>>, Error> {
        self.client.get(PATH, params).await
    }

    /// Every page of `GET /v1/scans` from `params` on; `.items()` streams the items.
    pub fn pages(self, params: ListParams) -> Pages<Scan> {
        Pages::new(self.client.clone(), PATH, params)
    }

    /// `POST /v1/scans`: records a visit, points added or deducted, or a redeemed
    /// reward. A visit within 15 minutes of the last answers 409 recent_visit (with
    /// `last_visit_at`) unless the scan has `confirm_repeat`.
    pub async fn create(
        self,
        key: &IdempotencyKey,
        scan: &NewScan,
    ) -> Result<Response<ScanResult>, Error> {
        self.client.post(PATH, key, scan).await
    }
}
