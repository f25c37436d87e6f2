//! The API's resources as Rust types. Unknown fields are ignored and unknown enum
//! values kept, because v1 only ever adds them.

pub mod broadcast;
pub mod customer;
pub mod gift_card;
pub mod list;
pub mod location;
pub mod me;
pub mod pass;
pub mod referral;
pub mod scan;
pub mod stats;
pub mod webhook_endpoint;

pub use broadcast::*;
pub use customer::*;
pub use gift_card::*;
pub use list::*;
pub use location::*;
pub use me::*;
pub use pass::*;
pub use referral::*;
pub use scan::*;
pub use stats::*;
pub use webhook_endpoint::*;
