//! The core's one error type, with the app's own error codes ([`ErrorCode`]) and the
//! data each error carries ([`ErrorData`]): the screens put both in the cashier's
//! language and never show the English message as the sentence.

use serde::{Deserialize, Serialize};

use crate::ids::ItemId;

mod devices;
mod input;
mod money;

pub use devices::{CameraError, PrinterAddressError};
pub use input::{InputError, TextField, shown};
pub use money::{AmountError, PolicyRefusal, ReferenceError};

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
    Input(#[from] InputError),
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
    /// Not allowed now, and why.
    #[error(transparent)]
    NotAllowed(#[from] NotAllowed),
    /// A PIN or a badge was refused.
    #[error(transparent)]
    Pin(#[from] crate::pin::PinError),
    /// A change of the roster was refused.
    #[error(transparent)]
    Roster(#[from] crate::people::RosterError),
    /// A change of the role table was refused.
    #[error(transparent)]
    Rule(#[from] crate::roles::RuleError),
    /// A roster file was refused.
    #[error(transparent)]
    RosterFile(#[from] crate::roster_file::RosterFileError),
    /// A file could not be read where the person chose.
    #[error("the file could not be read: {0}")]
    Import(std::io::Error),
    /// An export could not be written where the person chose.
    #[error("the file could not be written: {0}")]
    Export(std::io::Error),
    /// A call refused at the app's door, before any command ran.
    #[error(transparent)]
    Arguments(#[from] ArgumentsError),
    /// A printer's address was refused.
    #[error(transparent)]
    Printer(#[from] PrinterAddressError),
    /// No such receipt in the print queue.
    #[error("no such receipt")]
    NoSuchReceipt,
    /// A camera chosen, opened or read.
    #[error(transparent)]
    Camera(#[from] CameraError),
    /// A write's stored record lacks what its state promises (a done write's answer of
    /// its kind, a decision's reason): the database was changed by something else.
    #[error("write {item}: its stored {what} is missing or of another kind")]
    Stored {
        /// The outbox item.
        item: ItemId,
        /// What is missing.
        what: &'static str,
    },
}

impl From<crate::people::RosterFailure> for Error {
    fn from(failure: crate::people::RosterFailure) -> Self {
        match failure {
            crate::people::RosterFailure::Refused(refused) => Error::Roster(refused),
            crate::people::RosterFailure::Pin(pin) => pin.into(),
            crate::people::RosterFailure::Db(db) => Error::Db(db),
        }
    }
}

impl From<crate::roster_file::RosterFileFailure> for Error {
    fn from(failure: crate::roster_file::RosterFileFailure) -> Self {
        use crate::roster_file::RosterFileFailure;
        match failure {
            RosterFileFailure::Refused(refused) => Error::RosterFile(refused),
            RosterFileFailure::Roster(roster) => roster.into(),
            RosterFileFailure::Io(io) => Error::Export(io),
            RosterFileFailure::Db(db) => Error::Db(db),
        }
    }
}

impl From<crate::pin::PinFailure> for Error {
    fn from(failure: crate::pin::PinFailure) -> Self {
        match failure {
            crate::pin::PinFailure::Refused(refused) => Error::Pin(refused),
            crate::pin::PinFailure::Db(db) => Error::Db(db),
        }
    }
}

for_the_ui! {
/// Why something a person asked is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NotAllowed {
    /// A queued write that may already have reached the service cannot be withdrawn.
    #[error("this write may already have reached the service; it cannot be withdrawn")]
    MayHaveArrived,
    /// Only a write that needs a decision can be sent again.
    #[error("only a write that needs a decision can be sent again")]
    NoDecisionPending,
    /// Sending this again would get the same answer.
    #[error("sending this again would get the same answer: record another visit, or discard it")]
    SameAnswerAgain,
    /// A write a person already closed.
    #[error("this write was withdrawn at the counter; the queue keeps it")]
    Withdrawn,
    /// Only a visit refused as too recent can be confirmed as a repeat visit.
    #[error("only a visit refused as too recent can be confirmed as a repeat visit")]
    NotARecentVisit,
    /// Enrolling needs a pass, and none was chosen.
    #[error("choose the pass to enrol customers on")]
    NoPassChosen,
    /// The preview was sent already, or belongs to an earlier run: preview again.
    #[error("this preview was sent already or is from an earlier run: preview again")]
    PreviewGone,
    /// No message this till scheduled has this id.
    #[error("no message scheduled at this till has this id")]
    NotScheduledHere,
    /// Only the built-in demo offers this.
    #[error("only the built-in demo offers this")]
    NotInTheDemo,
    /// Not one of the business's passes or locations.
    #[error("not one of this business's passes or locations")]
    NotOfThisBusiness,
    /// A card none of the business's customers has (the till's copy, read up to now,
    /// knows every one): nothing was stored.
    #[error("no customer of this business has this card")]
    NotACardOfThisBusiness,
    /// A list filter with a value this version cannot ask for.
    #[error("this list cannot be filtered on that value")]
    UnknownFilter,
    /// The till is a kiosk: it checks customers in, and staff leave it with the PIN.
    #[error("this till is a kiosk: it only checks customers in; staff leave it with the PIN")]
    Kiosk,
    /// Not a currency code.
    #[error("{given:?} is not a currency code")]
    NotACurrency {
        /// What was given (cut to 8 characters).
        given: String,
    },
    /// Printing needs a printer, and none is set up at this till.
    #[error("no receipt printer is set up at this till")]
    NoPrinter,
    /// A threshold of unusual activity out of its range.
    #[error("the threshold is from 1 to {max} scans a day")]
    ThresholdOutOfRange {
        /// The most it may be.
        max: u32,
    },
    /// A retention out of its range.
    #[error("customers' details are kept from 1 to {max} days")]
    RetentionOutOfRange {
        /// The most days.
        max: u32,
    },
    /// Only a receipt waiting for the printer can be taken off the queue.
    #[error("this receipt is not waiting for the printer")]
    NotWaitingToPrint,
    /// Only a receipt that may have printed waits for a person's word on it.
    #[error("this receipt is not waiting for a word on whether it printed")]
    NotUnsure,
    /// The idle time before the till locks itself out of its range.
    #[error("the till locks after 1 to {max} minutes")]
    LockMinutesOutOfRange {
        /// The most minutes.
        max: u32,
    },
    /// Nobody is signed in at the till: a person signs in first.
    #[error("nobody is signed in at this till")]
    NotSignedIn,
    /// No shift is open at this till (closed already, or never opened).
    #[error("no shift is open at this till")]
    NoShiftOpen,
    /// No Z of this till has this number.
    #[error("no Z report of this till has this number")]
    NoSuchZ,
    /// The person's role may not do this at this till ([`crate::roles`]).
    #[error("this person's role may not do {action:?} here")]
    RoleMayNot {
        /// What was refused.
        action: crate::roles::Action,
    },
}
}

for_the_ui! {
/// Why the page's call was refused at the app's door (the IPC), before any command
/// ran: the same answer for a malformed call whatever the command. Nothing a caller
/// sent is echoed beyond a few dozen characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ArgumentsError {
    /// The call is larger than any command takes.
    #[error("the call is {bytes} bytes; the most a command takes is {limit}")]
    TooLarge {
        /// The call's size.
        bytes: u64,
        /// The most the door takes.
        limit: u64,
    },
    /// The call nests objects or lists deeper than any command's arguments do.
    #[error("the call nests deeper than {limit} levels")]
    TooDeep {
        /// The deepest the door takes.
        limit: u32,
    },
    /// The call is not JSON (or holds text JSON cannot carry, such as half of a
    /// surrogate pair).
    #[error("the call is not JSON")]
    NotJson,
    /// The call is not an object of named arguments.
    #[error("the call's arguments are not an object of named arguments")]
    NotAnObject,
    /// No command has this name.
    #[error("no command is called {command:?}")]
    NoSuchCommand {
        /// The name (cut to 64 characters).
        command: String,
    },
    /// An argument the command does not take.
    #[error("{command} takes no argument {argument:?}")]
    Unknown {
        /// The command.
        command: String,
        /// The argument (cut to 64 characters).
        argument: String,
    },
    /// An argument missing, or not of the type the command takes.
    #[error("{command}: {problem}")]
    Invalid {
        /// The command.
        command: String,
        /// The argument, when the decoder named it.
        argument: Option<String>,
        /// What the decoder said (cut to 160 characters).
        problem: String,
    },
}
}

for_the_ui! {
/// The app's own error codes, one list: each has its words in the UI's languages.
/// (When the service refused, its own problem code travels beside `ServiceRefused`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Another copy of the app holds the till.
    AlreadyOpen,
    /// The till's own storage failed.
    StorageFailed,
    /// No key is connected.
    NotConnected,
    /// The service refused: see its problem.
    ServiceRefused,
    /// The service could not be reached.
    ServiceUnreachable,
    /// The base URL cannot be used.
    InvalidBaseUrl,
    /// The key's text is not a key.
    InvalidApiKey,
    /// The key could not be kept.
    KeyStorageFailed,
    /// A typed amount was refused.
    InvalidAmount,
    /// A payment's reference was refused.
    InvalidReference,
    /// Not a loyalty card.
    InvalidCard,
    /// Not a gift card.
    InvalidGiftCard,
    /// Not a pass.
    InvalidPass,
    /// Points that do not fit.
    InvalidPoints,
    /// A typed text was refused.
    InvalidText,
    /// The offline policy refuses the payment.
    OfflinePaymentRefused,
    /// A gift card the till does not know, offline.
    GiftCardUnknown,
    /// No such write in the queue.
    NoSuchItem,
    /// Not allowed now.
    NotAllowed,
    /// A PIN or a badge was refused.
    PinRefused,
    /// A change of the roster was refused.
    RosterRefused,
    /// A change of the role table was refused.
    RuleRefused,
    /// A roster file was refused.
    RosterFileRefused,
    /// A file could not be read.
    ImportFailed,
    /// A period of days was refused.
    InvalidPeriod,
    /// An export could not be written.
    ExportFailed,
    /// The built-in demo did not start.
    DemoFailed,
    /// The app's folders are unavailable.
    AppDirUnavailable,
    /// The call did not reach the app (the IPC layer refused it).
    IpcFailed,
    /// The call was refused at the app's door: arguments missing, unknown or malformed.
    InvalidArguments,
    /// A printer's address was refused.
    InvalidPrinter,
    /// No such receipt in the print queue.
    NoSuchReceipt,
    /// Not a camera's device.
    InvalidCamera,
    /// The camera could not be opened or stopped working.
    CameraFailed,
}
}

for_the_ui! {
/// What an error carries for its words: the refused input's figures, limits and names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "reason", rename_all = "snake_case")]
pub enum ErrorData {
    /// Why an amount was refused.
    Amount(AmountError),
    /// Why an input was refused.
    Input(InputError),
    /// Why a reference was refused.
    Reference(ReferenceError),
    /// Why the offline policy refuses.
    Policy(PolicyRefusal),
    /// Why it is not allowed now.
    NotAllowed(NotAllowed),
    /// Why a base URL cannot be used.
    BaseUrl(loyalty_api::BaseUrlProblem),
    /// Why a PIN or a badge was refused.
    Pin(crate::pin::PinError),
    /// Why a change of the roster was refused.
    Roster(crate::people::RosterError),
    /// Why a roster file was refused.
    RosterFile(crate::roster_file::RosterFileError),
    /// Why a change of the role table was refused.
    Rule(crate::roles::RuleError),
    /// Why a call was refused at the app's door.
    Arguments(ArgumentsError),
    /// Why a printer's address was refused.
    Printer(PrinterAddressError),
}
}

impl Error {
    /// A stable code for the UI to branch on.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Lock(_) => ErrorCode::AlreadyOpen,
            Error::Open(_) | Error::Db(_) => ErrorCode::StorageFailed,
            Error::NotConnected => ErrorCode::NotConnected,
            Error::Api(err) if err.problem().is_some() => ErrorCode::ServiceRefused,
            Error::Api(_) => ErrorCode::ServiceUnreachable,
            Error::Client(_) => ErrorCode::InvalidBaseUrl,
            Error::Key(_) => ErrorCode::InvalidApiKey,
            Error::Secrets(_) => ErrorCode::KeyStorageFailed,
            Error::Amount(_) => ErrorCode::InvalidAmount,
            Error::Reference(_) => ErrorCode::InvalidReference,
            Error::Input(input) => match input {
                InputError::NotACard { .. } => ErrorCode::InvalidCard,
                InputError::NotAGiftCard { .. } => ErrorCode::InvalidGiftCard,
                InputError::NotAPass { .. } => ErrorCode::InvalidPass,
                InputError::PointsMismatch { .. } | InputError::PointsOutOfRange { .. } => {
                    ErrorCode::InvalidPoints
                }
                InputError::Empty { .. }
                | InputError::TooLong { .. }
                | InputError::ControlCharacter { .. }
                | InputError::NotAnEmail { .. }
                | InputError::NotALanguage { .. }
                | InputError::UnknownWallet
                | InputError::UnknownAction => ErrorCode::InvalidText,
                InputError::NotADate { .. }
                | InputError::PeriodBackwards
                | InputError::PeriodTooLong { .. } => ErrorCode::InvalidPeriod,
            },
            Error::OfflinePolicy(_) => ErrorCode::OfflinePaymentRefused,
            Error::GiftCardUnknown => ErrorCode::GiftCardUnknown,
            Error::NoSuchItem => ErrorCode::NoSuchItem,
            Error::NotAllowed(_) => ErrorCode::NotAllowed,
            Error::Pin(_) => ErrorCode::PinRefused,
            Error::Roster(_) => ErrorCode::RosterRefused,
            Error::RosterFile(_) => ErrorCode::RosterFileRefused,
            Error::Import(_) => ErrorCode::ImportFailed,
            Error::Rule(_) => ErrorCode::RuleRefused,
            Error::Export(_) => ErrorCode::ExportFailed,
            Error::Stored { .. } => ErrorCode::StorageFailed,
            Error::Arguments(_) => ErrorCode::InvalidArguments,
            Error::Printer(_) => ErrorCode::InvalidPrinter,
            Error::NoSuchReceipt => ErrorCode::NoSuchReceipt,
            Error::Camera(camera) => match camera {
                CameraError::NotACamera { .. } => ErrorCode::InvalidCamera,
                CameraError::Failed => ErrorCode::CameraFailed,
            },
        }
    }

    /// The data the error's words need, when it has any.
    pub fn data(&self) -> Option<ErrorData> {
        match self {
            Error::Amount(e) => Some(ErrorData::Amount(e.clone())),
            Error::Input(e) => Some(ErrorData::Input(e.clone())),
            Error::Reference(e) => Some(ErrorData::Reference(e.clone())),
            Error::OfflinePolicy(e) => Some(ErrorData::Policy(e.clone())),
            Error::NotAllowed(e) => Some(ErrorData::NotAllowed(e.clone())),
            Error::Pin(e) => Some(ErrorData::Pin(e.clone())),
            Error::Roster(e) => Some(ErrorData::Roster(e.clone())),
            Error::RosterFile(e) => Some(ErrorData::RosterFile(e.clone())),
            Error::Rule(e) => Some(ErrorData::Rule(e.clone())),
            Error::Arguments(e) => Some(ErrorData::Arguments(e.clone())),
            Error::Printer(e) => Some(ErrorData::Printer(e.clone())),
            Error::Client(loyalty_api::BuildError::BaseUrl { reason, .. }) => {
                Some(ErrorData::BaseUrl(*reason))
            }
            _ => None,
        }
    }
}
