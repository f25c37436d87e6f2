//! The stable `code` of a problem, as an enum.

use crate::macros::string_enum;

string_enum!(
    /// Every problem code of API v1. Branch on this, never on a title or detail.
    ///
    /// A code this version does not know is kept in `Unknown` and handled by its HTTP
    /// status ([`ProblemClass`]); the API only ever adds codes.
    ErrorCode else Unknown {
        /// 401: no Authorization header.
        AuthenticationRequired => "authentication_required",
        /// 401: the bearer is not a known key.
        InvalidApiKey => "invalid_api_key",
        /// 401: the key was revoked.
        ApiKeyRevoked => "api_key_revoked",
        /// 401: the key is past its expiry date.
        ApiKeyExpired => "api_key_expired",
        /// 401: no longer sent; kept because codes are never removed.
        TestKeyNotSupported => "test_key_not_supported",
        /// 401: an OAuth access token was used.
        NotSupportedYet => "not_supported_yet",
        /// 403: the owner's account is not on the Enterprise plan.
        PlanRequired => "plan_required",
        /// 403: a test key on the live base URL, or a live key on the sandbox.
        KeyModeMismatch => "key_mode_mismatch",
        /// 403: the key lacks the scope; `detail` names it.
        InsufficientScope => "insufficient_scope",
        /// 403: the key may not do this for its business.
        Forbidden => "forbidden",
        /// 404: no such id in the key's business.
        NotFound => "not_found",
        /// 400: the cursor was not issued for this list, business and filters.
        InvalidCursor => "invalid_cursor",
        /// 400: a query parameter is out of range or malformed; `param` names it.
        InvalidParameter => "invalid_parameter",
        /// 422: the body was refused; `errors` lists each field.
        ValidationFailed => "validation_failed",
        /// 400: a write without Idempotency-Key.
        IdempotencyKeyRequired => "idempotency_key_required",
        /// 422: the Idempotency-Key was used for a different request.
        IdempotencyKeyReused => "idempotency_key_reused",
        /// 409: a request with this Idempotency-Key is still processing; retry later.
        IdempotencyInProgress => "idempotency_in_progress",
        /// 409: the email is already enrolled on this pass; `detail` gives the customer id.
        CustomerExists => "customer_exists",
        /// 403: the plan's customer allowance is used.
        CustomerLimitReached => "customer_limit_reached",
        /// 409: the card was deleted or replaced.
        CardNotActive => "card_not_active",
        /// 409: more than the card holds (points, or gift-card money or sessions).
        InsufficientBalance => "insufficient_balance",
        /// 409: no reward ready to redeem.
        NoRewardAvailable => "no_reward_available",
        /// 409: the scan is refused by the card's rules; `detail` says why.
        ScanRefused => "scan_refused",
        /// 422: the payment currency differs from the card's.
        CurrencyMismatch => "currency_mismatch",
        /// 409: the gift card's recipient has not opened it yet.
        GiftCardNotClaimed => "gift_card_not_claimed",
        /// 409: the gift card is cancelled.
        GiftCardCancelled => "gift_card_cancelled",
        /// 409: the gift card's balance is 0.
        GiftCardDepleted => "gift_card_depleted",
        /// 409: the business has no pass, so no gift card can be issued.
        PassRequired => "pass_required",
        /// 403: the plan includes no messages this month.
        BroadcastNotInPlan => "broadcast_not_in_plan",
        /// 403: this month's messages are used.
        BroadcastQuotaReached => "broadcast_quota_reached",
        /// 400: the confirmation token was not issued by the service.
        ConfirmationTokenInvalid => "confirmation_token_invalid",
        /// 410: the confirmation token is older than 10 minutes.
        ConfirmationTokenExpired => "confirmation_token_expired",
        /// 409: the confirmation token was already used.
        ConfirmationTokenUsed => "confirmation_token_used",
        /// 422: the confirmed message differs from the preview.
        ConfirmationPayloadChanged => "confirmation_payload_changed",
        /// 409: more customers would receive the message than previewed.
        ConfirmationAudienceChanged => "confirmation_audience_changed",
        /// 403: the token was issued to another key or assistant.
        ConfirmationPrincipalMismatch => "confirmation_principal_mismatch",
        /// 403: the token was issued for another business.
        ConfirmationBusinessMismatch => "confirmation_business_mismatch",
        /// 409: a visit less than 15 minutes after the last; resend with `confirm_repeat`.
        RecentVisit => "recent_visit",
        /// 409: the message was sent or is being sent; it cannot be cancelled.
        BroadcastAlreadySent => "broadcast_already_sent",
        /// 429: too many requests in the window; wait Retry-After.
        RateLimited => "rate_limited",
        /// 503: the rate limit could not be checked; retry after Retry-After.
        RateLimiterUnavailable => "rate_limiter_unavailable",
        /// 503: a needed service did not answer; retry after Retry-After.
        ServiceUnavailable => "service_unavailable",
        /// 500: a failure on the service's side; quote the request id.
        InternalError => "internal_error",
    }
);

impl ErrorCode {
    /// The HTTP status the spec gives this code, or None for a code this client does
    /// not know.
    pub fn status(&self) -> Option<u16> {
        use ErrorCode::*;
        Some(match self {
            AuthenticationRequired
            | InvalidApiKey
            | ApiKeyRevoked
            | ApiKeyExpired
            | TestKeyNotSupported
            | NotSupportedYet => 401,
            PlanRequired
            | KeyModeMismatch
            | InsufficientScope
            | Forbidden
            | CustomerLimitReached
            | BroadcastNotInPlan
            | BroadcastQuotaReached
            | ConfirmationPrincipalMismatch
            | ConfirmationBusinessMismatch => 403,
            NotFound => 404,
            InvalidCursor
            | InvalidParameter
            | IdempotencyKeyRequired
            | ConfirmationTokenInvalid => 400,
            ConfirmationTokenExpired => 410,
            ValidationFailed
            | IdempotencyKeyReused
            | CurrencyMismatch
            | ConfirmationPayloadChanged => 422,
            IdempotencyInProgress
            | CustomerExists
            | CardNotActive
            | InsufficientBalance
            | NoRewardAvailable
            | ScanRefused
            | GiftCardNotClaimed
            | GiftCardCancelled
            | GiftCardDepleted
            | PassRequired
            | ConfirmationTokenUsed
            | ConfirmationAudienceChanged
            | RecentVisit
            | BroadcastAlreadySent => 409,
            RateLimited => 429,
            RateLimiterUnavailable | ServiceUnavailable => 503,
            InternalError => 500,
            Unknown(_) => return None,
        })
    }

    /// The service refuses the key itself (unknown, revoked, expired, wrong place, plan):
    /// every request with it would get the same answer, and nothing was done. A client
    /// keeps its writes for a key that works rather than closing them.
    pub fn refuses_the_key(&self) -> bool {
        use ErrorCode::*;
        matches!(
            self,
            AuthenticationRequired
                | InvalidApiKey
                | ApiKeyRevoked
                | ApiKeyExpired
                | TestKeyNotSupported
                | NotSupportedYet
                | PlanRequired
                | KeyModeMismatch
        )
    }

    /// Every code this client knows, for tests and exhaustive tables.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::AuthenticationRequired,
        ErrorCode::InvalidApiKey,
        ErrorCode::ApiKeyRevoked,
        ErrorCode::ApiKeyExpired,
        ErrorCode::TestKeyNotSupported,
        ErrorCode::NotSupportedYet,
        ErrorCode::PlanRequired,
        ErrorCode::KeyModeMismatch,
        ErrorCode::InsufficientScope,
        ErrorCode::Forbidden,
        ErrorCode::NotFound,
        ErrorCode::InvalidCursor,
        ErrorCode::InvalidParameter,
        ErrorCode::ValidationFailed,
        ErrorCode::IdempotencyKeyRequired,
        ErrorCode::IdempotencyKeyReused,
        ErrorCode::IdempotencyInProgress,
        ErrorCode::CustomerExists,
        ErrorCode::CustomerLimitReached,
        ErrorCode::CardNotActive,
        ErrorCode::InsufficientBalance,
        ErrorCode::NoRewardAvailable,
        ErrorCode::ScanRefused,
        ErrorCode::CurrencyMismatch,
        ErrorCode::GiftCardNotClaimed,
        ErrorCode::GiftCardCancelled,
        ErrorCode::GiftCardDepleted,
        ErrorCode::PassRequired,
        ErrorCode::BroadcastNotInPlan,
        ErrorCode::BroadcastQuotaReached,
        ErrorCode::ConfirmationTokenInvalid,
        ErrorCode::ConfirmationTokenExpired,
        ErrorCode::ConfirmationTokenUsed,
        ErrorCode::ConfirmationPayloadChanged,
        ErrorCode::ConfirmationAudienceChanged,
        ErrorCode::ConfirmationPrincipalMismatch,
        ErrorCode::ConfirmationBusinessMismatch,
        ErrorCode::RecentVisit,
        ErrorCode::BroadcastAlreadySent,
        ErrorCode::RateLimited,
        ErrorCode::RateLimiterUnavailable,
        ErrorCode::ServiceUnavailable,
        ErrorCode::InternalError,
    ];
}

/// What a problem means for the caller, decided by its HTTP status. This is how a
/// code the client does not know is handled, as the spec asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemClass {
    /// 400: the request is malformed; sending it again will not help.
    BadRequest,
    /// 401: the key is missing, unknown, revoked or expired: ask for a new key.
    Authentication,
    /// 403: the key may not do this (plan, scope, mode, quota).
    Permission,
    /// 404: no such object in the key's business.
    NotFound,
    /// 409: the state of the object refuses the request (or a request is in flight).
    Conflict,
    /// 410: the thing referred to has expired.
    Gone,
    /// 422: the request's content is refused.
    Unprocessable,
    /// 429: too many requests; wait and retry.
    RateLimited,
    /// 5xx: the service failed; retrying may help.
    Server,
    /// Any other status.
    Other,
}

impl ProblemClass {
    /// The class of an HTTP status.
    pub fn of_status(status: u16) -> Self {
        match status {
            400 => Self::BadRequest,
            401 => Self::Authentication,
            403 => Self::Permission,
            404 => Self::NotFound,
            409 => Self::Conflict,
            410 => Self::Gone,
            422 => Self::Unprocessable,
            429 => Self::RateLimited,
            500..=599 => Self::Server,
            _ => Self::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_code_reads_back_as_itself_with_a_status() {
        for code in ErrorCode::ALL {
            let read: ErrorCode = serde_json::from_value(serde_json::json!(code.as_str())).unwrap();
            assert_eq!(&read, code);
            assert!(!matches!(read, ErrorCode::Unknown(_)));
            assert!(code.status().is_some(), "{code}");
        }
        assert_eq!(ErrorCode::ALL.len(), 43);
    }

    #[test]
    fn an_unknown_code_is_kept_and_has_no_status_of_its_own() {
        let code = ErrorCode::parse("loyalty_overflow");
        assert_eq!(code, ErrorCode::Unknown("loyalty_overflow".into()));
        assert_eq!(code.as_str(), "loyalty_overflow");
        assert_eq!(code.status(), None);
    }

    #[test]
    fn codes_have_the_status_of_the_spec_table() {
        assert_eq!(ErrorCode::RecentVisit.status(), Some(409));
        assert_eq!(ErrorCode::ConfirmationTokenExpired.status(), Some(410));
        assert_eq!(ErrorCode::CurrencyMismatch.status(), Some(422));
        assert_eq!(ErrorCode::RateLimiterUnavailable.status(), Some(503));
        assert_eq!(ErrorCode::CustomerLimitReached.status(), Some(403));
    }

    #[test]
    fn a_status_is_classified_for_codes_the_client_does_not_know() {
        assert_eq!(ProblemClass::of_status(401), ProblemClass::Authentication);
        assert_eq!(ProblemClass::of_status(409), ProblemClass::Conflict);
        assert_eq!(ProblemClass::of_status(502), ProblemClass::Server);
        assert_eq!(ProblemClass::of_status(418), ProblemClass::Other);
    }
}
