//! The schema and its migrations, versioned by `PRAGMA user_version`.
//!
//! Times are INTEGER milliseconds since the Unix epoch (by the server's clock).
//! Rows of both places live in the same tables, told apart by `place`.

use rusqlite::{Connection, OptionalExtension};

use super::OpenError;
use crate::ids;

/// The schema version this server writes.
pub const VERSION: i64 = 3;

const V1: &str = r#"
CREATE TABLE meta (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
CREATE TABLE businesses (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    plan                  TEXT NOT NULL,
    time_zone             TEXT NOT NULL,
    customer_limit        INTEGER NOT NULL,
    monthly_messages      INTEGER NOT NULL,
    requests_per_key      INTEGER NOT NULL,
    requests_per_business INTEGER NOT NULL,
    writes_per_key        INTEGER NOT NULL,
    window_seconds        INTEGER NOT NULL,
    is_demo               INTEGER NOT NULL DEFAULT 0,
    created_at            INTEGER NOT NULL
);
CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id),
    mode        TEXT NOT NULL,
    hash        BLOB NOT NULL UNIQUE,
    prefix      TEXT NOT NULL,
    scopes      TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER,
    revoked_at  INTEGER
);
CREATE TABLE passes (
    id              TEXT PRIMARY KEY,
    business_id     TEXT NOT NULL REFERENCES businesses(id),
    place           TEXT NOT NULL,
    name            TEXT NOT NULL,
    status          TEXT NOT NULL,
    loyalty_type    TEXT NOT NULL,
    goal            INTEGER NOT NULL,
    reward_title    TEXT NOT NULL,
    locale          TEXT NOT NULL,
    logo_url        TEXT,
    cover_image_url TEXT,
    accent          TEXT NOT NULL,
    background      TEXT NOT NULL,
    foreground      TEXT NOT NULL,
    label           TEXT NOT NULL,
    wallet_apple    INTEGER NOT NULL,
    wallet_google   INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX passes_list ON passes(business_id, place, created_at DESC, id DESC);
CREATE TABLE customers (
    id          TEXT PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id),
    place       TEXT NOT NULL,
    pass_id     TEXT NOT NULL REFERENCES passes(id),
    name        TEXT,
    email       TEXT,
    email_norm  TEXT,
    phone       TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    deleted_at  INTEGER
);
CREATE INDEX customers_list ON customers(business_id, place, created_at DESC, id DESC);
CREATE INDEX customers_email ON customers(pass_id, email_norm);
CREATE TABLE cards (
    id                TEXT PRIMARY KEY,
    customer_id       TEXT NOT NULL REFERENCES customers(id),
    business_id       TEXT NOT NULL,
    place             TEXT NOT NULL,
    pass_id           TEXT NOT NULL,
    wallet            TEXT NOT NULL,
    status            TEXT NOT NULL,
    visits            INTEGER NOT NULL DEFAULT 0,
    points            INTEGER NOT NULL DEFAULT 0,
    rewards_available INTEGER NOT NULL DEFAULT 0,
    rewards_redeemed  INTEGER NOT NULL DEFAULT 0,
    last_visit_at     INTEGER,
    created_at        INTEGER NOT NULL
);
CREATE INDEX cards_customer ON cards(customer_id, created_at);
CREATE TABLE scans (
    id            TEXT PRIMARY KEY,
    business_id   TEXT NOT NULL,
    place         TEXT NOT NULL,
    pass_id       TEXT NOT NULL,
    card_id       TEXT NOT NULL REFERENCES cards(id),
    customer_id   TEXT NOT NULL,
    kind          TEXT NOT NULL,
    amount        TEXT NOT NULL,
    points        INTEGER NOT NULL,
    visits_added  INTEGER NOT NULL,
    reward_earned INTEGER NOT NULL,
    location_id   TEXT,
    card_before   TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    voided_at     INTEGER
);
CREATE INDEX scans_list ON scans(business_id, place, created_at DESC, id DESC);
CREATE INDEX scans_card ON scans(card_id, created_at DESC);
CREATE TABLE locations (
    id          TEXT PRIMARY KEY,
    business_id TEXT NOT NULL,
    place       TEXT NOT NULL,
    pass_id     TEXT,
    name        TEXT NOT NULL,
    active      INTEGER NOT NULL,
    address     TEXT,
    city        TEXT,
    country     TEXT,
    latitude    REAL,
    longitude   REAL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX locations_list ON locations(business_id, place, created_at DESC, id DESC);
CREATE TABLE referrals (
    id                   TEXT PRIMARY KEY,
    business_id          TEXT NOT NULL,
    place                TEXT NOT NULL,
    pass_id              TEXT NOT NULL,
    status               TEXT NOT NULL,
    referrer_customer_id TEXT NOT NULL,
    referred_customer_id TEXT NOT NULL,
    referrer_bonus       INTEGER NOT NULL,
    referred_bonus       INTEGER NOT NULL,
    created_at           INTEGER NOT NULL,
    completed_at         INTEGER
);
CREATE INDEX referrals_list ON referrals(business_id, place, created_at DESC, id DESC);
CREATE TABLE gift_cards (
    id              TEXT PRIMARY KEY,
    business_id     TEXT NOT NULL,
    place           TEXT NOT NULL,
    pass_id         TEXT,
    template_id     TEXT NOT NULL,
    currency        TEXT NOT NULL,
    exponent        INTEGER NOT NULL,
    initial_minor   INTEGER NOT NULL,
    balance_minor   INTEGER NOT NULL CHECK (balance_minor >= 0),
    status          TEXT NOT NULL,
    recipient_name  TEXT,
    recipient_email TEXT,
    customer_id     TEXT,
    locale          TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    claimed_at      INTEGER,
    depleted_at     INTEGER,
    cancelled_at    INTEGER
);
CREATE INDEX gift_cards_list ON gift_cards(business_id, place, created_at DESC, id DESC);
CREATE TABLE gift_card_transactions (
    id                  TEXT PRIMARY KEY,
    gift_card_id        TEXT NOT NULL REFERENCES gift_cards(id),
    type                TEXT NOT NULL,
    amount_minor        INTEGER NOT NULL,
    balance_after_minor INTEGER NOT NULL,
    reference           TEXT,
    location_id         TEXT,
    created_at          INTEGER NOT NULL,
    voided_at           INTEGER
);
CREATE INDEX gift_card_transactions_card ON gift_card_transactions(gift_card_id, created_at DESC, id DESC);
CREATE TABLE webhook_endpoints (
    id                   TEXT PRIMARY KEY,
    business_id          TEXT NOT NULL,
    url                  TEXT NOT NULL,
    secret               TEXT NOT NULL,
    events               TEXT NOT NULL,
    format               TEXT NOT NULL,
    test_events          INTEGER NOT NULL,
    status               TEXT NOT NULL,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    failing_since        INTEGER,
    last_success_at      INTEGER,
    paused_at            INTEGER,
    paused_reason        TEXT,
    last_delivery_at     INTEGER,
    last_delivery_status TEXT,
    last_delivery_http   INTEGER,
    created_at           INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints(business_id, created_at DESC, id DESC);
CREATE TABLE events (
    id          TEXT PRIMARY KEY,
    business_id TEXT NOT NULL,
    place       TEXT NOT NULL,
    type        TEXT NOT NULL,
    livemode    INTEGER NOT NULL,
    data        TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX events_business ON events(business_id, created_at, id);
CREATE TABLE effects (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL UNIQUE,
    business_id TEXT NOT NULL,
    place       TEXT NOT NULL,
    kind        TEXT NOT NULL,
    at          INTEGER NOT NULL,
    details     TEXT NOT NULL
);
CREATE INDEX effects_business ON effects(business_id, seq);
CREATE TABLE idempotency (
    api_key_id   TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    fingerprint  BLOB NOT NULL,
    status       INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    body         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (api_key_id, idem_key)
);
"#;

/// Version 2 (part 2): messages and their confirmation tokens, webhook deliveries
/// and the worker's position in the events table.
const V2: &str = r#"
CREATE TABLE broadcast_tokens (
    token_hash   BLOB PRIMARY KEY,
    business_id  TEXT NOT NULL,
    place        TEXT NOT NULL,
    key_id       TEXT NOT NULL,
    fingerprint  BLOB NOT NULL,
    cards        INTEGER NOT NULL,
    people       INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    used_at      INTEGER,
    created_at   INTEGER NOT NULL
);
CREATE TABLE broadcasts (
    id              TEXT PRIMARY KEY,
    business_id     TEXT NOT NULL,
    place           TEXT NOT NULL,
    pass_id         TEXT NOT NULL,
    key_id          TEXT NOT NULL,
    key_prefix      TEXT NOT NULL,
    title           TEXT NOT NULL,
    body            TEXT NOT NULL,
    audience        TEXT NOT NULL,
    targeting       TEXT,
    status          TEXT NOT NULL,
    scheduled_at    INTEGER,
    goes_out_at     INTEGER NOT NULL,
    recipient_count INTEGER NOT NULL,
    sent_count      INTEGER NOT NULL,
    sent_at         INTEGER,
    cancelled_at    INTEGER,
    created_at      INTEGER NOT NULL
);
CREATE INDEX broadcasts_month ON broadcasts(business_id, place, goes_out_at);
CREATE INDEX broadcasts_due ON broadcasts(status, scheduled_at);
CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    event_id        TEXT NOT NULL REFERENCES events(id),
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints(id),
    business_id     TEXT NOT NULL,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_http       INTEGER,
    created_at      INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
-- Stats: returning customers look for a customer's earlier scans.
CREATE INDEX scans_customer ON scans(customer_id, created_at);
-- Events recorded before deliveries existed are not sent.
INSERT INTO meta (name, value) SELECT 'webhook_fanout_rowid', COALESCE(MAX(rowid), 0) FROM events;
"#;

/// Businesses whose cards and gift cards have ids without a type prefix.
const V3: &str = r#"
ALTER TABLE businesses ADD COLUMN plain_ids INTEGER NOT NULL DEFAULT 0;
"#;

/// Brings the database to [`VERSION`].
pub fn migrate(conn: &mut Connection) -> Result<(), OpenError> {
    let current: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > VERSION {
        return Err(OpenError::TooNew(current, VERSION));
    }
    if current < 1 {
        let tx = conn.transaction()?;
        tx.execute_batch(V1)?;
        tx.execute(
            "INSERT INTO meta (name, value) VALUES ('cursor_secret', ?1)",
            [ids::random_bytes(32)],
        )?;
        tx.pragma_update(None, "user_version", 1)?;
        tx.commit()?;
    }
    if current < 2 {
        let tx = conn.transaction()?;
        tx.execute_batch(V2)?;
        tx.pragma_update(None, "user_version", 2)?;
        tx.commit()?;
    }
    if current < 3 {
        let tx = conn.transaction()?;
        tx.execute_batch(V3)?;
        tx.pragma_update(None, "user_version", 3)?;
        tx.commit()?;
    }
    Ok(())
}

/// The secret that signs cursors, made once when the database was created.
pub fn cursor_secret(conn: &Connection) -> Result<Vec<u8>, OpenError> {
    let secret: Option<Vec<u8>> = conn
        .query_row(
            "SELECT value FROM meta WHERE name = 'cursor_secret'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    Ok(secret.unwrap_or_else(|| ids::random_bytes(32)))
}
