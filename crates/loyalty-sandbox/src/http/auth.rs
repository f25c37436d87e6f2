//! Who is calling: the [`Caller`] extractor.
//!
//! Checked in this order, the first failure answers:
//!
//! 1. **credentials**: no `Authorization` header, or not `Bearer <token>` →
//!    401 authentication_required; an OAuth-looking token (`lco_...` or a JWT) →
//!    401 not_supported_yet; anything else that is not a stored key →
//!    401 invalid_api_key;
//! 2. **key state**: revoked → 401 api_key_revoked; past `expires_at` by the server's
//!    clock → 401 api_key_expired;
//! 3. **place**: a test key on `/v1` or a live key on `/sandbox/v1` →
//!    403 key_mode_mismatch;
//! 4. **plan**: the business not on `enterprise` → 403 plan_required (the key is
//!    kept and works again after an upgrade);
//! 5. **scope**: the route's scope missing → 403 insufficient_scope, `detail` names it;
//! 6. **rate limit**: 429 rate_limited with Retry-After. Requests refused by 1–5 are
//!    not counted against the key.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, MatchedPath};
use axum::http::request::Parts;
use axum::http::{Method, header};

use super::ReportSlot;
use crate::error::{ApiError, Code};
use crate::keys::{self, Bearer, Mode};
use crate::state::AppState;
use crate::store::business::{self, Business};
use crate::store::keys::{self as key_rows, Spent};
use crate::store::{Place, Scope};

/// An authenticated, authorized and counted caller.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The key's id.
    pub key_id: String,
    /// The key's visible prefix.
    pub prefix: String,
    /// Live or test.
    pub mode: Mode,
    /// The key's scopes.
    pub scopes: Vec<String>,
    /// The key's business.
    pub business: Business,
    /// The place of the request.
    pub place: Place,
}

impl Caller {
    /// The business and place the request works on.
    pub fn scope(&self) -> Scope {
        Scope {
            business_id: self.business.id.clone(),
            place: self.place,
        }
    }
}

/// The scope a route needs, from the spec's table.
pub fn required_scope(method: &Method, route: &str) -> &'static str {
    if method == Method::GET || method == Method::HEAD {
        return "read";
    }
    let route = route.strip_prefix("/sandbox").unwrap_or(route);
    match route {
        "/v1/customers" => "customers:write",
        "/v1/scans" => "scans:write",
        "/v1/gift_cards" => "gift_cards:write",
        "/v1/gift_cards/{id}/payments" => "gift_cards:spend",
        r if r.starts_with("/v1/broadcasts") => "broadcasts:send",
        _ => "read",
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let place = parts
            .extensions
            .get::<Place>()
            .copied()
            .unwrap_or(Place::Live);
        let route = parts
            .extensions
            .get::<MatchedPath>()
            .map(|m| m.as_str().to_owned())
            .unwrap_or_else(|| parts.uri.path().to_owned());
        let needed = required_scope(&parts.method, &route);
        let write = parts.method == Method::POST;

        // Addresses that keep failing are refused before any lookup.
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        let now = state.clock().now_ms();
        if let Some(ip) = peer
            && let Some(wait) = state.limiter().auth_failures_exceeded(ip, now)
        {
            return Err(ApiError::new(
                Code::RateLimited,
                "Too many failed authentications from this address; wait Retry-After seconds.",
            )
            .retry_after(wait));
        }
        let failed = |err: ApiError| {
            if let Some(ip) = peer {
                state.limiter().record_auth_failure(ip, now);
            }
            err
        };

        // 1. Credentials.
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Err(ApiError::new(
                Code::AuthenticationRequired,
                "Send Authorization: Bearer <API key>.",
            ));
        };
        let text = value.to_str().unwrap_or("").trim();
        let token = match text.split_once(' ') {
            Some((scheme, token))
                if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
            {
                token.trim().to_owned()
            }
            _ => {
                return Err(ApiError::new(
                    Code::AuthenticationRequired,
                    "Only Authorization: Bearer <API key> is accepted.",
                ));
            }
        };
        match keys::classify(&token) {
            Bearer::OAuth => {
                return Err(failed(ApiError::new(
                    Code::NotSupportedYet,
                    "OAuth access tokens are not accepted yet; use an API key.",
                )));
            }
            Bearer::Unknown => {
                return Err(failed(ApiError::new(
                    Code::InvalidApiKey,
                    "The bearer is not a known API key.",
                )));
            }
            Bearer::ApiKey(_) => {}
        }
        let hash = keys::hash(&token);
        let found = state
            .db()
            .read(move |conn| {
                let Some(key) = key_rows::find_by_hash(conn, &hash)? else {
                    return Ok(None);
                };
                let business = business::get(conn, &key.business_id)?;
                Ok(business.map(|b| (key, b)))
            })
            .await?;
        let Some((key, business)) = found else {
            return Err(failed(ApiError::new(
                Code::InvalidApiKey,
                "The bearer is not a known API key.",
            )));
        };

        // From here the key's business is known: every answer, a refusal included,
        // carries its rate-limit numbers, as GET /v1/me reports them.
        if let Some(slot) = parts.extensions.get::<ReportSlot>() {
            *slot.0.lock().unwrap_or_else(|p| p.into_inner()) =
                Some(state.limiter().peek(&key.id, business.limits, now));
        }

        // 2. Key state.
        match key.spent_at(now) {
            Some(Spent::Revoked) => {
                return Err(ApiError::new(
                    Code::ApiKeyRevoked,
                    "This API key was revoked.",
                ));
            }
            Some(Spent::Expired) => {
                return Err(ApiError::new(
                    Code::ApiKeyExpired,
                    "This API key is past its expiry.",
                ));
            }
            None => {}
        }

        // 3. Place.
        match (key.mode, place) {
            (Mode::Test, Place::Live) => {
                return Err(ApiError::new(
                    Code::KeyModeMismatch,
                    "A test key works only on the sandbox: its base URL ends in /sandbox.",
                ));
            }
            (Mode::Live, Place::Sandbox) => {
                return Err(ApiError::new(
                    Code::KeyModeMismatch,
                    "A live key never works on the sandbox; use the live base URL.",
                ));
            }
            _ => {}
        }

        // 4. Plan.
        if business.plan != "enterprise" {
            return Err(ApiError::new(
                Code::PlanRequired,
                format!(
                    "API access needs the Enterprise plan; this account is on {}.",
                    business::plan_name(&business.plan)
                ),
            ));
        }

        // 5. Scope.
        if !key.scopes.iter().any(|s| s == needed) {
            return Err(ApiError::new(
                Code::InsufficientScope,
                format!("This request needs the scope {needed}, which the key lacks."),
            ));
        }

        // 6. Rate limit.
        let counted = state
            .limiter()
            .check(&key.id, &business.id, write, business.limits, now);
        let report = match counted {
            Ok(report) | Err(report) => report,
        };
        if let Some(slot) = parts.extensions.get::<ReportSlot>() {
            *slot.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(report);
        }
        if counted.is_err() {
            return Err(ApiError::new(
                Code::RateLimited,
                "Too many requests in this window; wait Retry-After seconds.",
            )
            .retry_after(report.reset));
        }

        Ok(Caller {
            key_id: key.id,
            prefix: key.prefix,
            mode: key.mode,
            scopes: key.scopes,
            business,
            place,
        })
    }
}
