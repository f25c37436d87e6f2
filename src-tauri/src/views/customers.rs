//! The customers screen: search rows (an enrolment answers with one) and the sync.

use counter_core::SyncReport;
use counter_core::cache::CustomerSummary;

use super::exported;

exported! {
/// A customer as search lists them.
pub struct CustomerRow {
    /// Their id.
    pub id: String,
    /// Name.
    pub name: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Their cards.
    pub card_ids: Vec<String>,
}
}

impl From<&CustomerSummary> for CustomerRow {
    fn from(c: &CustomerSummary) -> Self {
        Self {
            id: c.id.as_str().to_owned(),
            name: c.name.clone(),
            email: c.email.clone(),
            phone: c.phone.clone(),
            card_ids: c.card_ids.iter().map(|c| c.as_str().to_owned()).collect(),
        }
    }
}

exported! {
/// How far the customer cache is.
pub struct SyncView {
    /// Customers stored by this call.
    #[ts(type = "number")]
    pub stored: u64,
    /// Customers in the cache now.
    #[ts(type = "number")]
    pub cached: u64,
    /// The full walk is complete.
    pub finished: bool,
}
}

impl From<SyncReport> for SyncView {
    fn from(r: SyncReport) -> Self {
        Self {
            stored: r.stored,
            cached: r.cached,
            finished: r.finished,
        }
    }
}
