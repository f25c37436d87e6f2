//! The one error type of the server and its problem+json form.
//!
//! Storage and rules return [`ApiError`]; routes hand it to axum, which turns it into
//! an `application/problem+json` answer (`crate::http::problem`). A refusal carries
//! a stable [`Code`]; an internal failure is logged with its cause and answered as a
//! bare `internal_error` that says nothing of internals.

use axum::http::StatusCode;

use crate::request_id;
use crate::wire;

/// Where the `type` URLs of problems point: `{SITE_URL}/developers/errors#<code>`.
pub const SITE_URL: &str = "https://loyalty-counter.example";

/// Declares [`Code`] from one table: each code once, with its text, status and title.
///
/// Everything about a code is in its row, so a new code cannot be added with its
/// text but without its status (or left out of [`Code::from_text`]).
macro_rules! codes {
    ($( $variant:ident = $text:literal, $status:ident, $title:literal; )+) => {
        /// Every problem code the server sends, with its HTTP status.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Code {
            $(
                #[doc = concat!("`", $text, "`: ", $title, ".")]
                $variant,
            )+
        }

        impl Code {
            /// Every code, in the table's order.
            #[cfg(test)]
            const ALL: &[Code] = &[$(Code::$variant),+];

            /// The stable text clients branch on.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Code::$variant => $text, )+
                }
            }

            /// The HTTP status of the code.
            pub fn status(self) -> StatusCode {
                match self {
                    $( Code::$variant => StatusCode::$status, )+
                }
            }

            /// A short human title; clients never branch on it.
            pub fn title(self) -> &'static str {
                match self {
                    $( Code::$variant => $title, )+
                }
            }

            /// Looks a code up by its text (used by injected faults); unknown texts are kept as is.
            pub fn from_text(text: &str) -> Option<Code> {
                match text {
                    $( $text => Some(Code::$variant), )+
                    _ => None,
                }
            }
        }
    };
}

// Variant = "code text", HTTP status, "Title";
codes! {
    AuthenticationRequired = "authentication_required", UNAUTHORIZED, "Authentication required";
    InvalidApiKey = "invalid_api_key", UNAUTHORIZED, "Invalid API key";
    ApiKeyRevoked = "api_key_revoked", UNAUTHORIZED, "API key revoked";
    ApiKeyExpired = "api_key_expired", UNAUTHORIZED, "API key expired";
    NotSupportedYet = "not_supported_yet", UNAUTHORIZED, "Not supported yet";
    PlanRequired = "plan_required", FORBIDDEN, "Enterprise plan required";
    KeyModeMismatch = "key_mode_mismatch", FORBIDDEN, "Key used in the wrong place";
    InsufficientScope = "insufficient_scope", FORBIDDEN, "Insufficient scope";
    Forbidden = "forbidden", FORBIDDEN, "Forbidden";
    NotFound = "not_found", NOT_FOUND, "Not found";
    MethodNotAllowed = "method_not_allowed", METHOD_NOT_ALLOWED, "Method not allowed";
    InvalidCursor = "invalid_cursor", BAD_REQUEST, "Invalid cursor";
    InvalidParameter = "invalid_parameter", BAD_REQUEST, "Invalid parameter";
    ValidationFailed = "validation_failed", UNPROCESSABLE_ENTITY, "Validation failed";
    IdempotencyKeyRequired = "idempotency_key_required", BAD_REQUEST, "Idempotency-Key required";
    IdempotencyKeyReused = "idempotency_key_reused", UNPROCESSABLE_ENTITY, "Idempotency-Key reused";
    IdempotencyInProgress = "idempotency_in_progress", CONFLICT, "Request with this Idempotency-Key in progress";
    CustomerExists = "customer_exists", CONFLICT, "Customer exists";
    CustomerLimitReached = "customer_limit_reached", FORBIDDEN, "Customer limit reached";
    CardNotActive = "card_not_active", CONFLICT, "Card not active";
    InsufficientBalance = "insufficient_balance", CONFLICT, "Insufficient balance";
    NoRewardAvailable = "no_reward_available", CONFLICT, "No reward available";
    ScanRefused = "scan_refused", CONFLICT, "Scan refused";
    CurrencyMismatch = "currency_mismatch", UNPROCESSABLE_ENTITY, "Currency mismatch";
    GiftCardNotClaimed = "gift_card_not_claimed", CONFLICT, "Gift card not claimed";
    GiftCardCancelled = "gift_card_cancelled", CONFLICT, "Gift card cancelled";
    GiftCardDepleted = "gift_card_depleted", CONFLICT, "Gift card depleted";
    PassRequired = "pass_required", CONFLICT, "Pass required";
    RecentVisit = "recent_visit", CONFLICT, "Recent visit";
    UndoWindowPassed = "undo_window_passed", CONFLICT, "Undo window passed";
    NothingToUndo = "nothing_to_undo", CONFLICT, "Nothing to undo";
    InvalidRequest = "invalid_request", BAD_REQUEST, "Invalid request";
    RateLimited = "rate_limited", TOO_MANY_REQUESTS, "Rate limited";
    ServiceUnavailable = "service_unavailable", SERVICE_UNAVAILABLE, "Service unavailable";
    InternalError = "internal_error", INTERNAL_SERVER_ERROR, "Internal error";
    BroadcastNotInPlan = "broadcast_not_in_plan", FORBIDDEN, "Messages not in plan";
    BroadcastQuotaReached = "broadcast_quota_reached", FORBIDDEN, "Monthly messages used";
    ConfirmationTokenInvalid = "confirmation_token_invalid", BAD_REQUEST, "Invalid confirmation token";
    ConfirmationTokenExpired = "confirmation_token_expired", GONE, "Confirmation token expired";
    ConfirmationTokenUsed = "confirmation_token_used", CONFLICT, "Confirmation token used";
    ConfirmationPayloadChanged = "confirmation_payload_changed", UNPROCESSABLE_ENTITY, "Message differs from the preview";
    ConfirmationAudienceChanged = "confirmation_audience_changed", CONFLICT, "Audience larger than previewed";
    ConfirmationPrincipalMismatch = "confirmation_principal_mismatch", FORBIDDEN, "Token issued to another key";
    ConfirmationBusinessMismatch = "confirmation_business_mismatch", FORBIDDEN, "Token issued for another business";
    BroadcastAlreadySent = "broadcast_already_sent", CONFLICT, "Message already sent";
}

/// One item of a validation_failed answer's `errors` member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field concerned (`body` for the body as a whole).
    pub param: String,
    /// A stable code: `required`, `invalid_type`, `invalid_value`, `too_long`, `invalid_json`, ...
    pub code: &'static str,
    /// A human explanation.
    pub message: String,
}

/// The members some problems add to the common ones.
#[derive(Debug, Clone, Default)]
pub struct Extra {
    /// validation_failed: one item per refused field.
    pub errors: Option<Vec<FieldError>>,
    /// insufficient_balance on a gift card: its balance.
    pub(crate) balance: Option<wire::Balance>,
    /// recent_visit: the card's last visit.
    pub last_visit_at: Option<String>,
    /// customer_exists: the existing customer.
    pub customer_id: Option<String>,
}

/// A refusal: everything an `application/problem+json` answer says.
#[derive(Debug, Clone)]
pub struct Problem {
    /// HTTP status (normally the code's own).
    pub status: StatusCode,
    /// The code text (normally a [`Code`]; injected faults may carry any text).
    pub code: String,
    /// Title shown to people.
    pub title: String,
    /// What happened, for people.
    pub detail: String,
    /// The field or parameter concerned.
    pub param: Option<String>,
    /// What some problems add: the refused fields, a gift card's balance, a card's
    /// last visit, the existing customer.
    pub extra: Extra,
    /// Seconds for a Retry-After header.
    pub retry_after: Option<u64>,
}

impl Problem {
    /// The problem body, with the request id that answered it.
    pub(crate) fn body(&self, request_id: &str) -> wire::Problem {
        let extra = self.extra.clone();
        wire::Problem {
            r#type: format!("{SITE_URL}/developers/errors#{}", self.code),
            title: self.title.clone(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.clone(),
            param: self.param.clone(),
            request_id: request_id.to_owned(),
            errors: extra.errors.map(|errors| {
                errors
                    .into_iter()
                    .map(|e| wire::FieldError {
                        param: e.param,
                        code: e.code.to_owned(),
                        message: e.message,
                    })
                    .collect()
            }),
            balance: extra.balance,
            last_visit_at: extra.last_visit_at,
            customer_id: extra.customer_id,
        }
    }
}

/// The error of every operation of the server.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A refusal with a stable code, answered as a problem.
    #[error("{}: {}", .0.code, .0.detail)]
    Refused(Box<Problem>),
    /// A failure on the server's side; the cause is logged, never answered.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Shorthand for results of the server's operations.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// A refusal with `code` and `detail`.
    pub fn new(code: Code, detail: impl Into<String>) -> Self {
        ApiError::Refused(Box::new(Problem {
            status: code.status(),
            code: code.as_str().to_owned(),
            title: code.title().to_owned(),
            detail: detail.into(),
            param: None,
            extra: Extra::default(),
            retry_after: None,
        }))
    }

    /// Names the field or parameter concerned.
    pub fn param(mut self, param: impl Into<String>) -> Self {
        if let ApiError::Refused(p) = &mut self {
            p.param = Some(param.into());
        }
        self
    }

    /// Adds an extra member to the problem body.
    pub fn extra(mut self, add: impl FnOnce(&mut Extra)) -> Self {
        if let ApiError::Refused(p) = &mut self {
            add(&mut p.extra);
        }
        self
    }

    /// Adds a Retry-After header.
    pub fn retry_after(mut self, seconds: u64) -> Self {
        if let ApiError::Refused(p) = &mut self {
            p.retry_after = Some(seconds);
        }
        self
    }

    /// 404 not_found for an id that does not exist in the caller's business and place.
    pub fn not_found(what: &str, id: &str) -> Self {
        ApiError::new(Code::NotFound, format!("No {what} with id {id}."))
    }

    /// 422 validation_failed listing each refused field.
    pub fn validation(errors: Vec<FieldError>) -> Self {
        let detail = match errors.as_slice() {
            [one] => format!("{}: {}", one.param, one.message),
            many => format!("{} fields were refused.", many.len()),
        };
        let param = errors.first().map(|e| e.param.clone());
        let err = ApiError::new(Code::ValidationFailed, detail).extra(|x| x.errors = Some(errors));
        match param {
            Some(p) => err.param(p),
            None => err,
        }
    }

    /// 400 invalid_parameter naming the query parameter.
    pub fn invalid_parameter(param: &str, detail: impl Into<String>) -> Self {
        ApiError::new(Code::InvalidParameter, detail).param(param)
    }

    /// 400 invalid_request for a control route's body.
    pub fn invalid_request(detail: impl Into<String>) -> Self {
        ApiError::new(Code::InvalidRequest, detail)
    }

    /// An internal failure with its cause (logged, not answered).
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        ApiError::Internal(cause.to_string())
    }

    /// The problem this error is answered with.
    pub fn problem(&self) -> Problem {
        match self {
            ApiError::Refused(p) => (**p).clone(),
            ApiError::Internal(cause) => {
                tracing::error!(request_id = %request_id::current(), %cause, "internal error");
                match ApiError::new(
                    Code::InternalError,
                    "The server failed to answer. Quote the request_id when reporting it.",
                ) {
                    ApiError::Refused(p) => *p,
                    ApiError::Internal(_) => unreachable!("new always builds a refusal"),
                }
            }
        }
    }

    /// The code text of the answer.
    pub fn code(&self) -> String {
        match self {
            ApiError::Refused(p) => p.code.clone(),
            ApiError::Internal(_) => Code::InternalError.as_str().to_owned(),
        }
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(err: rusqlite::Error) -> Self {
        ApiError::Internal(format!("sqlite: {err}"))
    }
}

impl From<serde_json::Error> for ApiError {
    fn from(err: serde_json::Error) -> Self {
        ApiError::Internal(format!("json: {err}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_from_its_own_text() {
        for &code in Code::ALL {
            assert_eq!(Code::from_text(code.as_str()), Some(code), "{code:?}");
        }
        assert_eq!(Code::from_text("teapot"), None);
    }

    #[test]
    fn a_refusal_carries_its_codes_status_text_and_title() {
        let ApiError::Refused(p) = ApiError::new(Code::RecentVisit, "Too soon.") else {
            panic!("new builds a refusal");
        };
        assert_eq!(p.status, StatusCode::CONFLICT);
        assert_eq!(p.code, "recent_visit");
        assert_eq!(p.title, "Recent visit");
    }
}
