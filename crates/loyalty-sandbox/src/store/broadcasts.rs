//! Messages to card holders (broadcasts), their confirmation tokens, and who a
//! message reaches.
//!
//! A token is stored as the SHA-256 of its text with what it was issued for (key,
//! business, place, the message's fingerprint, the previewed audience), so a confirm
//! can tell every refusal of the token table apart.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::Scope;
use crate::error::ApiResult;

/// Who a message goes to on a pass, beyond its audience: cards that match every
/// given condition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Targeting {
    /// Only cards with a visit (or points scan) in the last N days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visited_within_days: Option<i64>,
    /// Only cards with (true) or without (false) a reward ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_reward: Option<bool>,
}

impl Targeting {
    /// Whether no condition is set.
    pub fn is_empty(&self) -> bool {
        *self == Targeting::default()
    }
}

/// A card a message reaches through its wallet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletRecipient {
    /// The card.
    pub card_id: String,
    /// Its holder.
    pub customer_id: String,
    /// `apple` or `google`.
    pub wallet: String,
}

/// A person a message reaches by email (no active card to carry it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailRecipient {
    /// The person.
    pub customer_id: String,
    /// Their address.
    pub email: String,
}

/// Everyone a message would reach now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recipients {
    /// Active cards (wallet delivery).
    pub wallets: Vec<WalletRecipient>,
    /// People without an active card, by email (audience `all` only).
    pub emails: Vec<EmailRecipient>,
}

impl Recipients {
    /// Cards reached: the active cards.
    pub fn cards(&self) -> i64 {
        self.wallets.len() as i64
    }

    /// People reached: distinct holders of those cards, plus the email-only people.
    pub fn people(&self) -> i64 {
        let mut ids: Vec<&str> = self
            .wallets
            .iter()
            .map(|w| w.customer_id.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        (ids.len() + self.emails.len()) as i64
    }

    /// Deliveries: one per card, one per email-only person.
    pub fn deliveries(&self) -> i64 {
        (self.wallets.len() + self.emails.len()) as i64
    }
}

/// Who a message on `pass_id` reaches at `now_ms`. Deleted customers never.
pub fn recipients(
    conn: &Connection,
    scope: &Scope,
    pass_id: &str,
    audience: &str,
    targeting: &Targeting,
    now_ms: i64,
) -> ApiResult<Recipients> {
    let since = targeting
        .visited_within_days
        .map(|days| now_ms - days * 24 * 60 * 60 * 1000);
    let mut stmt = conn.prepare_cached(
        "SELECT k.id, k.customer_id, k.wallet FROM cards k JOIN customers c ON c.id = k.customer_id \
         WHERE k.business_id = ?1 AND k.place = ?2 AND k.pass_id = ?3 AND k.status = 'active' \
         AND c.deleted_at IS NULL \
         AND (?4 IS NULL OR (k.last_visit_at IS NOT NULL AND k.last_visit_at >= ?4)) \
         AND (?5 IS NULL OR (?5 = 1 AND k.rewards_available > 0) OR (?5 = 0 AND k.rewards_available = 0)) \
         ORDER BY k.created_at, k.id",
    )?;
    let wallets = stmt
        .query_map(
            params![
                scope.business_id,
                scope.place.as_str(),
                pass_id,
                since,
                targeting.has_reward
            ],
            |r| {
                Ok(WalletRecipient {
                    card_id: r.get(0)?,
                    customer_id: r.get(1)?,
                    wallet: r.get(2)?,
                })
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    let mut emails = Vec::new();
    if audience == "all" && targeting.is_empty() {
        let mut stmt = conn.prepare_cached(
            "SELECT c.id, c.email FROM customers c WHERE c.business_id = ?1 AND c.place = ?2 \
             AND c.pass_id = ?3 AND c.deleted_at IS NULL AND c.email IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM cards k WHERE k.customer_id = c.id AND k.status = 'active') \
             ORDER BY c.created_at, c.id",
        )?;
        emails = stmt
            .query_map(
                params![scope.business_id, scope.place.as_str(), pass_id],
                |r| {
                    Ok(EmailRecipient {
                        customer_id: r.get(0)?,
                        email: r.get(1)?,
                    })
                },
            )?
            .collect::<Result<Vec<_>, _>>()?;
    }
    Ok(Recipients { wallets, emails })
}

/// A confirmation token as stored.
#[derive(Debug, Clone)]
pub struct Token {
    /// Business it was issued for.
    pub business_id: String,
    /// Place it was issued in.
    pub place: String,
    /// Key it was issued to.
    pub key_id: String,
    /// Fingerprint of the previewed message.
    pub fingerprint: Vec<u8>,
    /// Cards previewed.
    pub cards: i64,
    /// People previewed.
    pub people: i64,
    /// End of its life.
    pub expires_at: i64,
    /// When it was used.
    pub used_at: Option<i64>,
}

/// Stores a new token under the hash of its text.
pub fn insert_token(
    conn: &Connection,
    hash: &[u8],
    scope: &Scope,
    t: &Token,
    now_ms: i64,
) -> ApiResult<()> {
    conn.execute(
        "INSERT INTO broadcast_tokens (token_hash, business_id, place, key_id, fingerprint, cards, people, expires_at, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            hash,
            scope.business_id,
            scope.place.as_str(),
            t.key_id,
            t.fingerprint,
            t.cards,
            t.people,
            t.expires_at,
            now_ms
        ],
    )?;
    Ok(())
}

/// The token with this hash, if the service issued it.
pub fn find_token(conn: &Connection, hash: &[u8]) -> ApiResult<Option<Token>> {
    Ok(conn
        .query_row(
            "SELECT business_id, place, key_id, fingerprint, cards, people, expires_at, used_at \
             FROM broadcast_tokens WHERE token_hash = ?1",
            [hash],
            |r| {
                Ok(Token {
                    business_id: r.get(0)?,
                    place: r.get(1)?,
                    key_id: r.get(2)?,
                    fingerprint: r.get(3)?,
                    cards: r.get(4)?,
                    people: r.get(5)?,
                    expires_at: r.get(6)?,
                    used_at: r.get(7)?,
                })
            },
        )
        .optional()?)
}

/// Marks a token used.
pub fn use_token(conn: &Connection, hash: &[u8], now_ms: i64) -> ApiResult<()> {
    conn.execute(
        "UPDATE broadcast_tokens SET used_at = ?2 WHERE token_hash = ?1",
        params![hash, now_ms],
    )?;
    Ok(())
}

/// A stored message.
#[derive(Debug, Clone)]
pub struct Broadcast {
    /// Id (`bc_...`).
    pub id: String,
    /// Business and place.
    pub scope: Scope,
    /// Pass whose holders receive it.
    pub pass_id: String,
    /// The key that confirmed it.
    pub key_id: String,
    /// That key's visible prefix.
    pub key_prefix: String,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// `active` or `all`.
    pub audience: String,
    /// Conditions on cards.
    pub targeting: Targeting,
    /// `sending`, `scheduled`, `sent` or `cancelled`.
    pub status: String,
    /// When it was scheduled for.
    pub scheduled_at: Option<i64>,
    /// When it goes (or went) out: the month it counts in.
    pub goes_out_at: i64,
    /// Recipients (deliveries) when confirmed or sent.
    pub recipient_count: i64,
    /// Deliveries made.
    pub sent_count: i64,
    /// When it went out.
    pub sent_at: Option<i64>,
    /// When it was cancelled.
    pub cancelled_at: Option<i64>,
    /// When it was confirmed.
    pub created_at: i64,
}

const COLUMNS: &str = "id, business_id, place, pass_id, key_id, key_prefix, title, body, audience, targeting, \
    status, scheduled_at, goes_out_at, recipient_count, sent_count, sent_at, cancelled_at, created_at";

fn from_row(r: &Row<'_>) -> rusqlite::Result<Broadcast> {
    let targeting: Option<String> = r.get(9)?;
    Ok(Broadcast {
        id: r.get(0)?,
        scope: Scope {
            business_id: r.get(1)?,
            place: super::Place::parse(&r.get::<_, String>(2)?).unwrap_or(super::Place::Live),
        },
        pass_id: r.get(3)?,
        key_id: r.get(4)?,
        key_prefix: r.get(5)?,
        title: r.get(6)?,
        body: r.get(7)?,
        audience: r.get(8)?,
        targeting: targeting
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default(),
        status: r.get(10)?,
        scheduled_at: r.get(11)?,
        goes_out_at: r.get(12)?,
        recipient_count: r.get(13)?,
        sent_count: r.get(14)?,
        sent_at: r.get(15)?,
        cancelled_at: r.get(16)?,
        created_at: r.get(17)?,
    })
}

/// Stores a message.
pub fn insert(conn: &Connection, b: &Broadcast) -> ApiResult<()> {
    conn.execute(
        &format!(
            "INSERT INTO broadcasts ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
        ),
        params![
            b.id,
            b.scope.business_id,
            b.scope.place.as_str(),
            b.pass_id,
            b.key_id,
            b.key_prefix,
            b.title,
            b.body,
            b.audience,
            serde_json::to_string(&b.targeting)?,
            b.status,
            b.scheduled_at,
            b.goes_out_at,
            b.recipient_count,
            b.sent_count,
            b.sent_at,
            b.cancelled_at,
            b.created_at
        ],
    )?;
    Ok(())
}

/// Writes the state of a message back (status, counts, times).
pub fn save_state(conn: &Connection, b: &Broadcast) -> ApiResult<()> {
    conn.execute(
        "UPDATE broadcasts SET status = ?2, recipient_count = ?3, sent_count = ?4, sent_at = ?5, \
         cancelled_at = ?6 WHERE id = ?1",
        params![
            b.id,
            b.status,
            b.recipient_count,
            b.sent_count,
            b.sent_at,
            b.cancelled_at
        ],
    )?;
    Ok(())
}

/// A message of the scope.
pub fn get(conn: &Connection, scope: &Scope, id: &str) -> ApiResult<Option<Broadcast>> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT {COLUMNS} FROM broadcasts WHERE id = ?1 AND business_id = ?2 AND place = ?3"
            ),
            params![id, scope.business_id, scope.place.as_str()],
            from_row,
        )
        .optional()?)
}

/// Messages of the scope that count in `[start_ms, end_ms)`: not cancelled, going
/// out in that span.
pub fn count_in(conn: &Connection, scope: &Scope, start_ms: i64, end_ms: i64) -> ApiResult<i64> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM broadcasts WHERE business_id = ?1 AND place = ?2 \
         AND status != 'cancelled' AND goes_out_at >= ?3 AND goes_out_at < ?4",
        params![scope.business_id, scope.place.as_str(), start_ms, end_ms],
        |r| r.get(0),
    )?)
}

/// Whether a scheduled message's time has come: what [`due`] would find, without
/// reading it.
pub fn any_due(conn: &Connection, now_ms: i64) -> ApiResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM broadcasts WHERE status = 'scheduled' AND scheduled_at <= ?1)",
        [now_ms],
        |r| r.get(0),
    )?)
}

/// Scheduled messages whose time has come, oldest first.
pub fn due(conn: &Connection, now_ms: i64) -> ApiResult<Vec<Broadcast>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM broadcasts WHERE status = 'scheduled' AND scheduled_at <= ?1 \
         ORDER BY scheduled_at, id"
    ))?;
    let rows = stmt.query_map([now_ms], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Cancels every scheduled message of a key; returns how many.
pub fn cancel_scheduled_by_key(conn: &Connection, key_id: &str, now_ms: i64) -> ApiResult<usize> {
    Ok(conn.execute(
        "UPDATE broadcasts SET status = 'cancelled', cancelled_at = ?2 \
         WHERE key_id = ?1 AND status = 'scheduled'",
        params![key_id, now_ms],
    )?)
}
