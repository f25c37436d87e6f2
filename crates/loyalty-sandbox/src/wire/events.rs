//! What events carry.

use serde::Serialize;

/// The `data` of an event about one resource: the resource as it was answered.
#[derive(Debug, Serialize)]
pub(crate) struct EventData<'a, T> {
    pub(crate) object: &'a T,
}
