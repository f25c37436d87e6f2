//! The customers screen: search rows, the sync, and the answer to an enrolment.

use counter_core::cache::CustomerSummary;
use counter_core::{EnrolOutcome, ItemId, SyncReport};

use super::{ReasonView, RefusalView, exported, small};

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
    pub stored: u32,
    /// Customers in the cache now.
    pub cached: u32,
    /// The full walk is complete.
    pub finished: bool,
}
}

impl From<SyncReport> for SyncView {
    fn from(r: SyncReport) -> Self {
        Self {
            stored: small(r.stored),
            cached: small(r.cached),
            finished: r.finished,
        }
    }
}

exported! {
/// The answer to an enrolment.
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum EnrolReply {
    /// Enrolled: the new customer with their card.
    Enrolled {
        /// The outbox item.
        item: ItemId,
        /// The customer.
        customer: CustomerRow,
    },
    /// The email is already enrolled on this pass: that customer opens instead.
    AlreadyEnrolled {
        /// The outbox item (refused: nothing was created).
        item: ItemId,
        /// The existing customer, read from the service now when it answers.
        customer: CustomerRow,
    },
    /// Stored; it goes when the service answers.
    Queued {
        /// The outbox item.
        item: ItemId,
    },
    /// Refused.
    Refused {
        /// The outbox item.
        item: ItemId,
        /// Why.
        refusal: RefusalView,
    },
    /// A person must decide.
    NeedsDecision {
        /// The outbox item.
        item: ItemId,
        /// Why.
        reason: ReasonView,
    },
}
}

impl From<EnrolOutcome> for EnrolReply {
    fn from(outcome: EnrolOutcome) -> Self {
        match outcome {
            EnrolOutcome::Enrolled { item, customer } => EnrolReply::Enrolled {
                item,
                customer: CustomerRow::from(&customer),
            },
            EnrolOutcome::AlreadyEnrolled { item, customer } => EnrolReply::AlreadyEnrolled {
                item,
                customer: CustomerRow::from(&customer),
            },
            EnrolOutcome::Queued { item } => EnrolReply::Queued { item },
            EnrolOutcome::Refused { item, refusal } => EnrolReply::Refused {
                item,
                refusal: RefusalView::from(&refusal),
            },
            EnrolOutcome::NeedsDecision { item, reason } => EnrolReply::NeedsDecision {
                item,
                reason: ReasonView::from(&reason),
            },
        }
    }
}
