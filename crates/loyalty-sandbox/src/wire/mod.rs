//! The API on the wire: what the server writes as JSON, below everything that
//! decides or stores it.

pub mod json;
