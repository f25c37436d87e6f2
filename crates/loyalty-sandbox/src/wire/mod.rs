//! The API on the wire: every answer and request body as one type, which the routes
//! answer with and the OpenAPI document describes, so the two cannot drift; the
//! control routes' answers and what events carry; and canonical JSON for fingerprints.
//!
//! This is the bottom of what the server says: the rules, `crate::views` and the
//! actions build these values, the routes send them and `crate::openapi` documents
//! them; none of it is known here. The store never names them: it holds rows.

mod answers;
pub(crate) mod control;
mod events;
pub mod json;
mod requests;

pub(crate) use answers::*;
pub(crate) use events::*;
pub(crate) use requests::*;
