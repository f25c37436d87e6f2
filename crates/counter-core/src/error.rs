//! The core's one error type. The shell sends `{code, message}` to the UI, which
//! branches on [`Error::code`], never on the message.

use crate::payment::{AmountError, PolicyRefusal, ReferenceError};

/// Why a call of the core failed. Outcomes a cashier expects (queued, refused by the
/// service, needs confirmation) are not errors: they are the calls' answers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Another process owns this till's data.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    /// The database could not be opened.
    #[error(transparent)]
    Open(#[from] crate::db::OpenError),
    /// The database failed.
    #[error("the till's database: {0}")]
    Db(#[from] rusqlite::Error),
    /// The till is not connected to the service (no key yet).
    #[error("this till is not connected to the service yet")]
    NotConnected,
    /// The service refused or could not be reached for a call that needs it now.
    #[error(transparent)]
    Api(#[from] loyalty_api::Error),
    /// The client could not be built (a malformed base URL).
    #[error(transparent)]
    Client(#[from] loyalty_api::BuildError),
    /// The key text is not usable.
    #[error(transparent)]
    Key(#[from] loyalty_api::InvalidApiKey),
    /// The key could not be kept.
    #[error(transparent)]
    Secrets(#[from] crate::secrets::SecretsError),
    /// A typed amount was refused.
    #[error(transparent)]
    Amount(#[from] AmountError),
    /// An input refused before anything was stored or sent.
    #[error(transparent)]
    Input(#[from] crate::input::InputError),
    /// A payment's reference the service would refuse.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// An offline payment is outside the manager's policy.
    #[error(transparent)]
    OfflinePolicy(#[from] PolicyRefusal),
    /// A gift card the till has never read, while the service cannot be reached.
    #[error("this gift card's balance is unknown at this till and the service cannot be reached")]
    GiftCardUnknown,
    /// No such outbox item.
    #[error("no such item in the queue")]
    NoSuchItem,
    /// The item is not in a state that allows this.
    #[error("{0}")]
    NotAllowed(String),
}

impl Error {
    /// A stable code for the UI to branch on.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Lock(_) => "already_open",
            Error::Open(_) | Error::Db(_) => "storage_failed",
            Error::NotConnected => "not_connected",
            Error::Api(err) if err.problem().is_some() => "service_refused",
            Error::Api(_) => "service_unreachable",
            Error::Client(_) => "invalid_base_url",
            Error::Key(_) => "invalid_api_key",
            Error::Secrets(_) => "key_storage_failed",
            Error::Amount(_) => "invalid_amount",
            Error::Reference(_) => "invalid_reference",
            Error::Input(input) => {
                use crate::input::InputError as E;
                match input {
                    E::NotACard { .. } => "invalid_card",
                    E::NotAGiftCard { .. } => "invalid_gift_card",
                    E::NotAPass { .. } => "invalid_pass",
                    E::PointsMismatch { .. } | E::PointsOutOfRange { .. } => "invalid_points",
                    E::Empty { .. }
                    | E::TooLong { .. }
                    | E::ControlCharacter { .. }
                    | E::NotAnEmail { .. }
                    | E::NotALanguage { .. }
                    | E::UnknownWallet { .. } => "invalid_text",
                }
            }
            Error::OfflinePolicy(_) => "offline_payment_refused",
            Error::GiftCardUnknown => "gift_card_unknown",
            Error::NoSuchItem => "no_such_item",
            Error::NotAllowed(_) => "not_allowed",
        }
    }
}
