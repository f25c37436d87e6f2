//! The id of the request being answered.
//!
//! The outermost middleware makes one per request and runs the rest of the request
//! inside a task-local scope, so any error turned into a problem deep inside a
//! handler can quote it without threading it through every call.

use std::future::Future;

use crate::ids;

tokio::task_local! {
    static REQUEST_ID: String;
}

/// A fresh request id: `req_` and 24 base62 characters.
pub fn new() -> String {
    ids::new_id("req")
}

/// Runs `fut` with `id` as the current request id.
pub async fn scope<F: Future>(id: String, fut: F) -> F::Output {
    REQUEST_ID.scope(id, fut).await
}

/// The current request id (or `req_unknown` outside a request).
pub fn current() -> String {
    REQUEST_ID
        .try_with(Clone::clone)
        .unwrap_or_else(|_| String::from("req_unknown"))
}
