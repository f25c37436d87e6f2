//! Messages to card holders: preview, confirm, cancel, and the release of
//! scheduled ones.
//!
//! A preview sends nothing: it counts the recipients, reports the month's quota and
//! issues a confirmation token (`bct_` and 32 base62 characters, stored as its
//! SHA-256) bound to the key, the business and place, and the message's
//! fingerprint. A confirm checks the token in the order of the spec's table
//! (unknown, other business, other key, used, expired, payload changed), then the
//! plan and the quota, then the audience, and only then sends: every refusal leaves
//! the token issued (unless used) and sends nothing.
//!
//! Delivery is simulated inside the transaction that sends: one
//! `broadcast_delivery` effect per recipient (its active card's wallet, or email
//! for a person without an active card when the audience is `all`), an
//! `owner_notice` and an owner `email` naming the key. A message sent at once is
//! answered `sending` with `sent_count` 0 (the state at the moment of the confirm)
//! and stored `sent` with its counts once the transaction commits; a scheduled one
//! is `scheduled` until [`release_due`] sends it.

use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};
use rusqlite::Connection;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::clock::format_ms;
use crate::error::{ApiError, ApiResult, Code};
use crate::ids;
use crate::store::broadcasts::{self, Broadcast, Recipients, Targeting, Token};
use crate::store::business::Business;
use crate::store::effects::{self, EffectKind};
use crate::store::{Scope, passes};
use crate::wire;
use crate::wire::json::canonical_json;

/// How long a confirmation token lives.
pub const TOKEN_LIFE_MS: i64 = 10 * 60 * 1000;

/// A message as previewed, and as a confirm must repeat it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The pass whose card holders receive it.
    pub pass_id: String,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// `active` or `all`.
    pub audience: String,
    /// Conditions on cards.
    pub targeting: Targeting,
    /// When it goes out; at once when None.
    pub scheduled_at: Option<i64>,
}

impl Message {
    /// SHA-256 of the message's canonical JSON: the same message (key order, an
    /// absent versus an empty targeting, and the spelling of the same instant do
    /// not matter) has the same fingerprint.
    pub fn fingerprint(&self) -> Vec<u8> {
        let canonical = canonical_json(&json!({
            "pass_id": self.pass_id,
            "title": self.title,
            "body": self.body,
            "audience": self.audience,
            "targeting": self.targeting,
            "scheduled_at": self.scheduled_at,
        }));
        Sha256::digest(canonical.as_bytes()).to_vec()
    }
}

/// The key a request came with.
#[derive(Debug, Clone)]
pub struct Principal {
    /// Key id.
    pub key_id: String,
    /// Its visible prefix.
    pub prefix: String,
}

/// The calendar month (in the business's time zone) holding `at_ms`, as
/// `[start, end)` in milliseconds.
pub fn month_of(time_zone: &str, at_ms: i64) -> ApiResult<(i64, i64)> {
    let tz = TimeZone::get(time_zone).unwrap_or(TimeZone::UTC);
    let at = Timestamp::from_millisecond(at_ms).map_err(ApiError::internal)?;
    let date = at.to_zoned(tz.clone()).date().first_of_month();
    let start = date.to_zoned(tz.clone()).map_err(ApiError::internal)?;
    let end = date
        .checked_add(1.month())
        .and_then(|d| d.to_zoned(tz))
        .map_err(ApiError::internal)?;
    Ok((
        start.timestamp().as_millisecond(),
        end.timestamp().as_millisecond(),
    ))
}

/// The month's quota for a message going out at `goes_out_at`: (remaining, total);
/// refuses when the plan has no messages or the month is used up.
fn quota(
    conn: &Connection,
    scope: &Scope,
    business: &Business,
    goes_out_at: i64,
) -> ApiResult<(i64, i64)> {
    let total = business.monthly_messages;
    if total <= 0 {
        return Err(ApiError::new(
            Code::BroadcastNotInPlan,
            "The plan includes no messages this month.",
        ));
    }
    let (start, end) = month_of(&business.time_zone, goes_out_at)?;
    let used = broadcasts::count_in(conn, scope, start, end)?;
    let remaining = (total - used).max(0);
    if remaining == 0 {
        return Err(ApiError::new(
            Code::BroadcastQuotaReached,
            format!(
                "This month's {total} messages are used (scheduled ones count in the month they go out)."
            ),
        ));
    }
    Ok((remaining, total))
}

fn recipients_of(
    conn: &Connection,
    scope: &Scope,
    m: &Message,
    now_ms: i64,
) -> ApiResult<Recipients> {
    if passes::get(conn, scope, &m.pass_id)?.is_none() {
        return Err(ApiError::not_found("pass", &m.pass_id).param("pass_id"));
    }
    broadcasts::recipients(conn, scope, &m.pass_id, &m.audience, &m.targeting, now_ms)
}

fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// POST /v1/broadcasts: previews a message; sends nothing.
pub(crate) fn preview(
    conn: &Connection,
    scope: &Scope,
    business: &Business,
    principal: &Principal,
    m: &Message,
    now_ms: i64,
) -> ApiResult<wire::BroadcastPreview> {
    let recipients = recipients_of(conn, scope, m, now_ms)?;
    let (remaining, total) = quota(conn, scope, business, m.scheduled_at.unwrap_or(now_ms))?;
    let token = format!("bct_{}", ids::base62(32));
    let expires_at = now_ms + TOKEN_LIFE_MS;
    broadcasts::insert_token(
        conn,
        &token_hash(&token),
        scope,
        &Token {
            business_id: scope.business_id.clone(),
            place: scope.place.as_str().to_owned(),
            key_id: principal.key_id.clone(),
            fingerprint: m.fingerprint(),
            cards: recipients.cards(),
            people: recipients.people(),
            expires_at,
            used_at: None,
        },
        now_ms,
    )?;
    Ok(wire::BroadcastPreview {
        object: "broadcast_preview".into(),
        confirmation_token: token,
        expires_at: format_ms(expires_at),
        message: wire::PreviewMessage {
            title: m.title.clone(),
            body: m.body.clone(),
            translated: false,
        },
        quota: wire::Quota { remaining, total },
        recipients: wire::PreviewRecipients {
            audience: m.audience.clone(),
            cards: recipients.cards(),
            people: recipients.people(),
        },
        scheduled_at: m.scheduled_at.map(format_ms),
    })
}

/// POST /v1/broadcasts/confirm: checks the token and sends (or schedules) the message.
pub(crate) fn confirm(
    conn: &Connection,
    scope: &Scope,
    business: &Business,
    principal: &Principal,
    m: &Message,
    token: &str,
    now_ms: i64,
) -> ApiResult<wire::Broadcast> {
    let hash = token_hash(token);
    let Some(stored) = broadcasts::find_token(conn, &hash)? else {
        return Err(ApiError::new(
            Code::ConfirmationTokenInvalid,
            "This confirmation token was not issued by the service.",
        )
        .param("confirmation_token"));
    };
    if stored.business_id != scope.business_id || stored.place != scope.place.as_str() {
        return Err(ApiError::new(
            Code::ConfirmationBusinessMismatch,
            "This confirmation token was issued for another business.",
        )
        .param("confirmation_token"));
    }
    if stored.key_id != principal.key_id {
        return Err(ApiError::new(
            Code::ConfirmationPrincipalMismatch,
            "This confirmation token was issued to another key.",
        )
        .param("confirmation_token"));
    }
    if stored.used_at.is_some() {
        return Err(ApiError::new(
            Code::ConfirmationTokenUsed,
            "This confirmation token was already used.",
        )
        .param("confirmation_token"));
    }
    if now_ms > stored.expires_at {
        return Err(ApiError::new(
            Code::ConfirmationTokenExpired,
            "This confirmation token is older than 10 minutes; preview the message again.",
        )
        .param("confirmation_token"));
    }
    if stored.fingerprint != m.fingerprint() {
        return Err(ApiError::new(
            Code::ConfirmationPayloadChanged,
            "The pass, title, body, audience, targeting or schedule differ from the preview.",
        ));
    }
    let recipients = recipients_of(conn, scope, m, now_ms)?;
    let goes_out_at = m.scheduled_at.unwrap_or(now_ms).max(now_ms);
    quota(conn, scope, business, goes_out_at)?;
    if recipients.cards() > stored.cards || recipients.people() > stored.people {
        return Err(ApiError::new(
            Code::ConfirmationAudienceChanged,
            format!(
                "The message would now reach {} cards ({} people); {} cards ({} people) were previewed. Preview it again.",
                recipients.cards(),
                recipients.people(),
                stored.cards,
                stored.people
            ),
        ));
    }
    broadcasts::use_token(conn, &hash, now_ms)?;
    let scheduled = m.scheduled_at.is_some_and(|at| at > now_ms);
    let mut b = Broadcast {
        id: ids::new_id("bc"),
        scope: scope.clone(),
        pass_id: m.pass_id.clone(),
        key_id: principal.key_id.clone(),
        key_prefix: principal.prefix.clone(),
        title: m.title.clone(),
        body: m.body.clone(),
        audience: m.audience.clone(),
        targeting: m.targeting,
        status: if scheduled { "scheduled" } else { "sending" }.into(),
        scheduled_at: m.scheduled_at,
        goes_out_at,
        recipient_count: recipients.deliveries(),
        sent_count: 0,
        sent_at: None,
        cancelled_at: None,
        created_at: now_ms,
    };
    broadcasts::insert(conn, &b)?;
    let answer = wire::Broadcast {
        object: "broadcast".into(),
        id: b.id.clone(),
        status: b.status.clone(),
        recipient_count: Some(b.recipient_count),
        sent_count: Some(0),
        scheduled_at: b.scheduled_at.map(format_ms),
        cancelled_at: None,
    };
    if !scheduled {
        deliver(conn, &mut b, &recipients, now_ms)?;
    }
    Ok(answer)
}

/// Records the deliveries and the owner's notice and email, and marks the message sent.
fn deliver(
    conn: &Connection,
    b: &mut Broadcast,
    recipients: &Recipients,
    now_ms: i64,
) -> ApiResult<()> {
    let scope = b.scope.clone();
    for w in &recipients.wallets {
        effects::record(
            conn,
            &scope,
            EffectKind::BroadcastDelivery,
            json!({
                "broadcast_id": b.id,
                "channel": "wallet",
                "card_id": w.card_id,
                "customer_id": w.customer_id,
                "wallet": w.wallet,
            }),
            now_ms,
        )?;
    }
    for e in &recipients.emails {
        effects::record(
            conn,
            &scope,
            EffectKind::BroadcastDelivery,
            json!({
                "broadcast_id": b.id,
                "channel": "email",
                "customer_id": e.customer_id,
                "to": e.email,
            }),
            now_ms,
        )?;
    }
    let sent = recipients.deliveries();
    let message = format!(
        "The message \"{}\" went to {sent} card holders, sent with API key {} ({}).",
        b.title, b.key_prefix, b.key_id
    );
    effects::record(
        conn,
        &scope,
        EffectKind::OwnerNotice,
        json!({
            "message": message,
            "broadcast_id": b.id,
            "key_id": b.key_id,
            "key_prefix": b.key_prefix,
        }),
        now_ms,
    )?;
    effects::record(
        conn,
        &scope,
        EffectKind::Email,
        json!({
            "to": "owner",
            "template": "broadcast_sent",
            "broadcast_id": b.id,
            "key_id": b.key_id,
            "key_prefix": b.key_prefix,
            "message": message,
        }),
        now_ms,
    )?;
    b.status = "sent".into();
    b.recipient_count = sent;
    b.sent_count = sent;
    b.sent_at = Some(now_ms);
    broadcasts::save_state(conn, b)
}

/// POST /v1/broadcasts/{id}/cancel.
pub(crate) fn cancel(
    conn: &Connection,
    scope: &Scope,
    id: &str,
    now_ms: i64,
) -> ApiResult<wire::Broadcast> {
    let Some(mut b) = broadcasts::get(conn, scope, id)? else {
        return Err(ApiError::not_found("broadcast", id));
    };
    match b.status.as_str() {
        "scheduled" => {
            b.status = "cancelled".into();
            b.cancelled_at = Some(now_ms);
            broadcasts::save_state(conn, &b)?;
        }
        "cancelled" => {}
        _ => {
            return Err(ApiError::new(
                Code::BroadcastAlreadySent,
                "This message was sent or is being sent; it cannot be cancelled.",
            ));
        }
    }
    Ok(wire::Broadcast {
        object: "broadcast".into(),
        id: b.id.clone(),
        status: b.status.clone(),
        recipient_count: None,
        sent_count: None,
        scheduled_at: b.scheduled_at.map(format_ms),
        cancelled_at: b.cancelled_at.map(format_ms),
    })
}

/// Sends every scheduled message whose time has come (to the audience of that
/// moment); returns how many went out.
pub fn release_due(conn: &Connection, now_ms: i64) -> ApiResult<usize> {
    let due = broadcasts::due(conn, now_ms)?;
    for mut b in due.iter().cloned() {
        let recipients = broadcasts::recipients(
            conn,
            &b.scope,
            &b.pass_id,
            &b.audience,
            &b.targeting,
            now_ms,
        )?;
        deliver(conn, &mut b, &recipients, now_ms)?;
    }
    Ok(due.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message() -> Message {
        Message {
            pass_id: "pass_1".into(),
            title: "Hi".into(),
            body: "Free coffee".into(),
            audience: "active".into(),
            targeting: Targeting::default(),
            scheduled_at: None,
        }
    }

    #[test]
    fn the_fingerprint_changes_with_every_part_of_the_message() {
        let base = message().fingerprint();
        assert_eq!(base, message().fingerprint());
        let changes = [
            Message {
                title: "Ho".into(),
                ..message()
            },
            Message {
                audience: "all".into(),
                ..message()
            },
            Message {
                scheduled_at: Some(1),
                ..message()
            },
            Message {
                targeting: Targeting {
                    has_reward: Some(true),
                    ..Targeting::default()
                },
                ..message()
            },
        ];
        for changed in changes {
            assert_ne!(changed.fingerprint(), base, "{changed:?}");
        }
    }

    #[test]
    fn a_month_is_the_calendar_month_of_the_business_zone() {
        // 2026-11-30T23:30:00Z is already December in Paris.
        let at = "2026-11-30T23:30:00Z"
            .parse::<Timestamp>()
            .unwrap()
            .as_millisecond();
        let (start, end) = month_of("Europe/Paris", at).unwrap();
        assert_eq!(format_ms(start), "2026-11-30T23:00:00.000Z");
        assert_eq!(format_ms(end), "2026-12-31T23:00:00.000Z");
    }
}
