//! The till's schema, as the migrations that build it, run in order by `PRAGMA
//! user_version`.

use rusqlite::OptionalExtension as _;

use super::{Connection, OpenError};

/// Every migration, in order; migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: the outbox, settings, and the customer cache.
    r#"
    CREATE TABLE outbox (
        id                  INTEGER PRIMARY KEY AUTOINCREMENT,
        kind                TEXT NOT NULL,
        idempotency_key     TEXT NOT NULL UNIQUE,
        order_key           TEXT,
        write               TEXT NOT NULL,
        body                TEXT NOT NULL,
        state               TEXT NOT NULL,
        created_at          TEXT NOT NULL,
        attempts            INTEGER NOT NULL DEFAULT 0,
        first_attempt_at    TEXT,
        last_attempt_at     TEXT,
        may_have_arrived_at TEXT,
        answer              TEXT,
        replayed            INTEGER NOT NULL DEFAULT 0,
        problem_code        TEXT,
        problem_detail      TEXT,
        request_id          TEXT,
        reason              TEXT,
        last_error          TEXT,
        closed_at           TEXT,
        resolution          TEXT,
        replaces            INTEGER REFERENCES outbox(id)
    );
    CREATE INDEX outbox_by_state ON outbox(state, id);
    CREATE INDEX outbox_by_order_key ON outbox(order_key, state);

    CREATE TABLE settings (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );

    CREATE TABLE customers (
        id         TEXT PRIMARY KEY,
        pass_id    TEXT NOT NULL,
        name       TEXT,
        email      TEXT,
        phone      TEXT,
        created_at TEXT
    );
    CREATE TABLE cards (
        id          TEXT PRIMARY KEY,
        customer_id TEXT NOT NULL,
        card        TEXT NOT NULL,
        stored_at   TEXT NOT NULL
    );
    CREATE INDEX cards_by_customer ON cards(customer_id);
    CREATE VIRTUAL TABLE customer_search USING fts5(
        name, email, phone, digits,
        tokenize = "unicode61 remove_diacritics 2",
        prefix = '1 2 3'
    );
    CREATE TABLE gift_cards (
        id        TEXT PRIMARY KEY,
        gift_card TEXT NOT NULL,
        read_at   TEXT NOT NULL
    );
    CREATE TABLE sync_state (
        list        TEXT PRIMARY KEY,
        cursor      TEXT,
        done        INTEGER NOT NULL DEFAULT 0,
        finished    INTEGER NOT NULL DEFAULT 0,
        last_total  INTEGER,
        newest_id   TEXT,
        newest_at   TEXT,
        walk_newest_id TEXT,
        walk_newest_at TEXT
    );
    "#,
    // 2: which full walk last saw each customer, so a finished walk can forget the
    // customers the service no longer lists (deleted ones).
    r#"
    ALTER TABLE customers ADD COLUMN walk INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_state ADD COLUMN walk INTEGER NOT NULL DEFAULT 0;
    "#,
    // 3: an outbox item's reason and resolution become data (JSON) instead of English
    // sentences; the sentences earlier versions stored are read into their kind.
    r#"
    UPDATE outbox SET reason = CASE
        WHEN reason LIKE '%15 minutes%'
            THEN json_object('kind', 'recent_visit', 'last_visit_at', NULL)
        WHEN reason LIKE '%24 hours%' AND may_have_arrived_at IS NOT NULL
            THEN json_object('kind', 'key_may_be_forgotten',
                             'first_attempt_at', may_have_arrived_at, 'hours', 23)
        WHEN reason LIKE '%stored body%'
            THEN json_object('kind', 'body_changed')
        ELSE json_object('kind', 'answer_unreadable', 'error', reason)
    END
    WHERE reason IS NOT NULL AND NOT json_valid(reason);
    UPDATE outbox SET resolution = CASE
        WHEN resolution LIKE 'repeat visit confirmed as #%'
            THEN json_object('kind', 'repeat_confirmed',
                             'replacement', CAST(substr(resolution, 28) AS INTEGER))
        WHEN resolution LIKE 'discarded: %'
            THEN json_object('kind', 'discarded', 'note', substr(resolution, 12))
        WHEN resolution = 'discarded'
            THEN json_object('kind', 'discarded', 'note', '')
        ELSE json_object('kind', 'discarded', 'note', resolution)
    END
    WHERE resolution IS NOT NULL AND NOT json_valid(resolution);
    "#,
    // 4: what each attempt was sent with, so that a write which may have reached the
    // service is never sent under another API key, and its age is measured on the
    // service's clock: the fingerprint of the key (never the key) and the service's
    // time of the last attempt, copied to `arrived_*` for the first attempt that may
    // have arrived. `resend_approved`: a person chose to send it again after the
    // 23-hour rule or a key change stopped it.
    r#"
    ALTER TABLE outbox ADD COLUMN attempt_key TEXT;
    ALTER TABLE outbox ADD COLUMN attempt_service_at TEXT;
    ALTER TABLE outbox ADD COLUMN arrived_key TEXT;
    ALTER TABLE outbox ADD COLUMN arrived_service_at TEXT;
    ALTER TABLE outbox ADD COLUMN resend_approved INTEGER NOT NULL DEFAULT 0;
    "#,
    // 5: how many items are in each state, kept by triggers in the same transaction as
    // every change, so the status bar's counts cost one row read however long the
    // queue is (counting 10,000 queued rows after every write made an enqueue slower
    // as the queue grew).
    r#"
    CREATE TABLE outbox_counts (state TEXT PRIMARY KEY, n INTEGER NOT NULL);
    INSERT INTO outbox_counts (state, n) VALUES
        ('queued', 0), ('sending', 0), ('done', 0), ('refused', 0), ('needs_decision', 0);
    UPDATE outbox_counts SET n = (SELECT count(*) FROM outbox WHERE outbox.state = outbox_counts.state);
    CREATE TRIGGER outbox_counts_insert AFTER INSERT ON outbox BEGIN
        UPDATE outbox_counts SET n = n + 1 WHERE state = NEW.state;
    END;
    CREATE TRIGGER outbox_counts_update AFTER UPDATE OF state ON outbox
    WHEN OLD.state <> NEW.state BEGIN
        UPDATE outbox_counts SET n = n - 1 WHERE state = OLD.state;
        UPDATE outbox_counts SET n = n + 1 WHERE state = NEW.state;
    END;
    CREATE TRIGGER outbox_counts_delete AFTER DELETE ON outbox BEGIN
        UPDATE outbox_counts SET n = n - 1 WHERE state = OLD.state;
    END;
    "#,
    // 6: the passes the till has read, so that what a card counts (and so what the
    // counter offers) is known offline and after a restart.
    r#"
    CREATE TABLE passes (id TEXT PRIMARY KEY, pass TEXT NOT NULL, read_at TEXT NOT NULL);
    "#,
    // 7: the manager's PIN, as an Argon2id hash, with its wrong tries and the moment a
    // lock began (so a restart does not lift it).
    r#"
    CREATE TABLE manager_pin (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        hash TEXT NOT NULL,
        failures INTEGER NOT NULL DEFAULT 0,
        locked_at TEXT
    );
    "#,
    // 8: the outbox rebuilt with fewer pages to write per enqueue (each is a WAL frame
    // to write and sync): no AUTOINCREMENT (items are never deleted, so an id is never
    // reused without it, and `sqlite_sequence` no longer changes on every write) and no
    // UNIQUE index on the Idempotency-Key (nothing looks an item up by its key; keys are
    // random UUIDs). Same columns, same ids, same indexes and counting triggers.
    r#"
    CREATE TABLE outbox_rebuilt (
        id                  INTEGER PRIMARY KEY,
        kind                TEXT NOT NULL,
        idempotency_key     TEXT NOT NULL,
        order_key           TEXT,
        write               TEXT NOT NULL,
        body                TEXT NOT NULL,
        state               TEXT NOT NULL,
        created_at          TEXT NOT NULL,
        attempts            INTEGER NOT NULL DEFAULT 0,
        first_attempt_at    TEXT,
        last_attempt_at     TEXT,
        may_have_arrived_at TEXT,
        answer              TEXT,
        replayed            INTEGER NOT NULL DEFAULT 0,
        problem_code        TEXT,
        problem_detail      TEXT,
        request_id          TEXT,
        reason              TEXT,
        last_error          TEXT,
        closed_at           TEXT,
        resolution          TEXT,
        replaces            INTEGER REFERENCES outbox(id),
        attempt_key         TEXT,
        attempt_service_at  TEXT,
        arrived_key         TEXT,
        arrived_service_at  TEXT,
        resend_approved     INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO outbox_rebuilt SELECT * FROM outbox;
    DROP TABLE outbox;
    ALTER TABLE outbox_rebuilt RENAME TO outbox;
    DELETE FROM sqlite_sequence WHERE name = 'outbox';
    CREATE INDEX outbox_by_state ON outbox(state, id);
    CREATE INDEX outbox_by_order_key ON outbox(order_key, state);
    CREATE TRIGGER outbox_counts_insert AFTER INSERT ON outbox BEGIN
        UPDATE outbox_counts SET n = n + 1 WHERE state = NEW.state;
    END;
    CREATE TRIGGER outbox_counts_update AFTER UPDATE OF state ON outbox
    WHEN OLD.state <> NEW.state BEGIN
        UPDATE outbox_counts SET n = n - 1 WHERE state = OLD.state;
        UPDATE outbox_counts SET n = n + 1 WHERE state = NEW.state;
    END;
    CREATE TRIGGER outbox_counts_delete AFTER DELETE ON outbox BEGIN
        UPDATE outbox_counts SET n = n - 1 WHERE state = OLD.state;
    END;
    "#,
    // 9: a write belongs to the business it was made for (its id, mode and service, as
    // `GET /v1/me` told them), and a customer's own check-in at a kiosk is marked as one.
    // Writes stored before have no owner until the till learns its business, which then
    // owns them (`outbox::store::stamp_unowned`). Lock-outs of the PIN grow, and are
    // measured on the computer's boot clock, not the wall clock.
    r#"
    CREATE TABLE owners (
        id            INTEGER PRIMARY KEY,
        business_id   TEXT NOT NULL,
        test_mode     INTEGER NOT NULL,
        service       TEXT NOT NULL,
        business_name TEXT NOT NULL,
        UNIQUE (business_id, test_mode, service)
    );
    ALTER TABLE outbox ADD COLUMN owner INTEGER REFERENCES owners(id);
    ALTER TABLE outbox ADD COLUMN kiosk INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE manager_pin ADD COLUMN locks INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE manager_pin ADD COLUMN lock_ms INTEGER;
    ALTER TABLE manager_pin ADD COLUMN lock_boot TEXT;
    ALTER TABLE manager_pin ADD COLUMN lock_uptime_ms INTEGER;
    ALTER TABLE manager_pin ADD COLUMN lock_served_ms INTEGER NOT NULL DEFAULT 0;
    "#,
    // 10: the print queue. A job made by a write's answer names that write, once.
    r#"
    CREATE TABLE print_jobs (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        receipt     TEXT NOT NULL,
        kind        TEXT NOT NULL,
        language    TEXT NOT NULL,
        state       TEXT NOT NULL,
        source_item INTEGER UNIQUE REFERENCES outbox(id),
        reprint_of  INTEGER REFERENCES print_jobs(id),
        created_at  TEXT NOT NULL,
        printed_at  TEXT,
        attempts    INTEGER NOT NULL DEFAULT 0,
        last_error  TEXT
    );
    CREATE INDEX print_jobs_by_state ON print_jobs(state, id);
    "#,
    // 11: a phone number is searched by its digits alone, in an index of their own of
    // trigrams (every three digits in a row), in place of the search index's columns
    // of the phone's words and of its digit tails. A digit query longer than the
    // prefix indexes (3) made FTS5 merge every word and every tail starting with it:
    // at 1,000,000 customers, hundreds of milliseconds a keystroke. The digits here are
    // the phone's without its spaces and signs; the next full walk stores each customer
    // again with exactly the digits the app keeps (`cache::digits`).
    r#"
    DROP TABLE customer_search;
    CREATE VIRTUAL TABLE customer_search USING fts5(
        name, email,
        tokenize = "unicode61 remove_diacritics 2",
        prefix = '1 2 3'
    );
    INSERT INTO customer_search (rowid, name, email)
        SELECT rowid, coalesce(name, ''), coalesce(email, '') FROM customers;
    CREATE VIRTUAL TABLE customer_digits USING fts5(
        digits,
        tokenize = "trigram",
        detail = none
    );
    INSERT INTO customer_digits (rowid, digits)
        SELECT rowid, replace(replace(replace(replace(replace(replace(replace(
                   coalesce(phone, ''), ' ', ''), '+', ''), '-', ''), '(', ''), ')', ''), '.', ''),
                   '/', '')
        FROM customers;
    "#,
    // 12: a card points to its customer's row as well as to their id, and is found by the
    // row. A first sync appends customers, so their rows come in order and the index
    // grows at its end; the index by the customer's id (random) had every page of a walk
    // rewrite about a hundred of its leaves at random places, a quarter of what a walk
    // wrote to the disk. A card whose customer is not cached (read by a scan) has no row
    // until they are, and is found by the id in a small index of such cards alone.
    r#"
    ALTER TABLE cards ADD COLUMN customer_row INTEGER;
    UPDATE cards SET customer_row = (SELECT rowid FROM customers WHERE id = cards.customer_id);
    DROP INDEX cards_by_customer;
    CREATE INDEX cards_by_customer_row ON cards(customer_row);
    CREATE INDEX cards_without_customer ON cards(customer_id) WHERE customer_row IS NULL;
    "#,
    // 13: the till's people. The manager's PIN becomes the owner's seat, named "Owner"
    // until renamed, with its wrong tries and its lock; each person has their own. A
    // badge is kept as its SHA-256 (the badge itself is a key to the till). The till has
    // an id of its own, made here once, and a name the owner gives it. From now on each
    // write names who made it at which till (a kiosk's check-in names no person); the
    // writes from before name neither: "this till, before staff seats".
    r#"
    CREATE TABLE people (
        id             INTEGER PRIMARY KEY,
        name           TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
        role           TEXT NOT NULL CHECK (role IN ('cashier', 'manager', 'owner')),
        hash           TEXT NOT NULL,
        failures       INTEGER NOT NULL DEFAULT 0,
        locks          INTEGER NOT NULL DEFAULT 0,
        lock_ms        INTEGER,
        lock_served_ms INTEGER NOT NULL DEFAULT 0,
        lock_boot      TEXT,
        lock_uptime_ms INTEGER,
        locked_at      TEXT,
        badge          TEXT UNIQUE,
        disabled       INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
        created_at     TEXT NOT NULL
    );
    INSERT INTO people (id, name, role, hash, failures, locks, lock_ms, lock_served_ms,
                        lock_boot, lock_uptime_ms, locked_at, created_at)
        SELECT 1, 'Owner', 'owner', hash, failures, locks, lock_ms, lock_served_ms,
               lock_boot, lock_uptime_ms, locked_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
        FROM manager_pin;
    DROP TABLE manager_pin;
    CREATE TABLE role_rules (
        action TEXT NOT NULL,
        role   TEXT NOT NULL CHECK (role IN ('cashier', 'manager')),
        rule   TEXT NOT NULL CHECK (rule IN ('allowed', 'with_approval', 'refused')),
        PRIMARY KEY (action, role)
    );
    CREATE TABLE till (
        id      INTEGER PRIMARY KEY CHECK (id = 1),
        till_id TEXT NOT NULL,
        name    TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 30)
    );
    INSERT INTO till (id, till_id, name) VALUES (1, lower(hex(randomblob(16))), 'Counter 1');
    ALTER TABLE outbox ADD COLUMN person INTEGER REFERENCES people(id);
    ALTER TABLE outbox ADD COLUMN till TEXT;
    CREATE TRIGGER outbox_says_who BEFORE INSERT ON outbox
        WHEN NEW.till IS NULL OR (NEW.person IS NULL AND NEW.kiosk = 0)
    BEGIN
        SELECT RAISE(ABORT, 'a write names its till, and the person who made it');
    END;
    "#,
    // 14: the till numbers its payments (their reference says which till and which
    // number); each person has an id of their own on every till the owner's roster file
    // reaches, and the key whose file brought them; the owner's key this till trusts.
    r#"
    ALTER TABLE till ADD COLUMN tickets INTEGER NOT NULL DEFAULT 0 CHECK (tickets >= 0);
    ALTER TABLE till ADD COLUMN rosters_signed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE people ADD COLUMN uid TEXT;
    ALTER TABLE people ADD COLUMN signer TEXT;
    UPDATE people SET uid = lower(hex(randomblob(16)));
    CREATE UNIQUE INDEX people_uid ON people (uid);
    CREATE TRIGGER people_uid AFTER INSERT ON people WHEN NEW.uid IS NULL
    BEGIN
        UPDATE people SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id;
    END;
    CREATE TABLE roster_signer (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        key        TEXT NOT NULL,
        trusted_at TEXT NOT NULL,
        sequence   INTEGER NOT NULL
    );
    "#,
    // 15: a gift card's id is kept whole only while a write still needs it: a closed
    // write keeps its last four and a keyed hash under this till's own key (`kept`);
    // the cached gift cards are kept by that hash (emptied here: a cache, read again
    // when a card is scanned). Writes closed before are brought along by the core. A
    // closed write past the retention keeps no customer's details (`redacted`).
    r#"
    ALTER TABLE till ADD COLUMN card_key TEXT NOT NULL DEFAULT '';
    UPDATE till SET card_key = lower(hex(randomblob(32)));
    ALTER TABLE outbox ADD COLUMN ids_kept INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX outbox_ids_whole ON outbox (id) WHERE ids_kept = 0 AND closed_at IS NOT NULL;
    ALTER TABLE outbox ADD COLUMN redacted INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX outbox_unredacted ON outbox (closed_at) WHERE redacted = 0 AND closed_at IS NOT NULL;
    ALTER TABLE print_jobs ADD COLUMN redacted INTEGER NOT NULL DEFAULT 0;
    DELETE FROM gift_cards;
    "#,
    // 16: shifts. One at most is open; each write belongs to the shift open when it was
    // stored (none before this version: those writes belong to no shift). A closed
    // shift keeps its sealed Z: its number (from 1, without gaps), its content and its
    // hash, chained to the previous Z's.
    r#"
    CREATE TABLE shifts (
        id        INTEGER PRIMARY KEY,
        opened_at TEXT NOT NULL,
        opened_by INTEGER NOT NULL REFERENCES people(id),
        closed_at TEXT,
        closed_by INTEGER REFERENCES people(id),
        z_number  INTEGER UNIQUE CHECK (z_number >= 1),
        z         TEXT,
        z_hash    TEXT,
        CHECK ((closed_at IS NULL) = (z_number IS NULL)),
        CHECK ((closed_at IS NULL) = (z IS NULL AND z_hash IS NULL))
    );
    CREATE UNIQUE INDEX shifts_one_open ON shifts ((closed_at IS NULL)) WHERE closed_at IS NULL;
    ALTER TABLE outbox ADD COLUMN shift INTEGER REFERENCES shifts(id);
    CREATE INDEX outbox_by_shift ON outbox (shift, id) WHERE shift IS NOT NULL;
    "#,
    // 17: what the service's records say of each confirmed write of a shift (matched,
    // missing, different, no record to check), found at the close or after it.
    r#"
    CREATE TABLE checks (
        item       INTEGER PRIMARY KEY REFERENCES outbox(id),
        result     TEXT NOT NULL,
        checked_at TEXT NOT NULL
    );
    "#,
    // 18: the X reports taken during each shift (when, by whom, how many writes), for
    // the history beside the Zs.
    r#"
    CREATE TABLE x_reports (
        id       INTEGER PRIMARY KEY,
        shift    INTEGER NOT NULL REFERENCES shifts(id),
        taken_at TEXT NOT NULL,
        taken_by INTEGER REFERENCES people(id),
        writes   INTEGER NOT NULL
    );
    CREATE INDEX x_reports_by_shift ON x_reports (shift, id);
    "#,
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Runs the migrations the file has not had yet, all in one transaction with the
/// version bump, with foreign keys not enforced (turn them on after).
pub fn migrate(conn: &mut Connection) -> Result<(), OpenError> {
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(OpenError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    // SQLite builds here enforce foreign keys from the start: not while tables are
    // rebuilt (the caller turns them on again).
    conn.pragma_update(None, "foreign_keys", "OFF")?;
    // Every migration the file needs in one transaction: one that fails leaves the file
    // at the schema it had, not half-way.
    let tx = conn.transaction()?;
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        tx.execute_batch(sql)?;
        // A reference left dangling by a migration fails it (and it is rolled back).
        let dangling: Option<String> = tx
            .prepare("PRAGMA foreign_key_check")?
            .query_row([], |r| r.get(0))
            .optional()?;
        if let Some(table) = dangling {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                Some(format!(
                    "migration {} left a dangling reference in {table}",
                    index + 1
                )),
            )
            .into());
        }
        tx.pragma_update(None, "user_version", index as u32 + 1)?;
    }
    tx.commit()?;
    Ok(())
}

/// A file at `path` as an earlier app left it: the first `version` migrations, for
/// the tests of what the later ones bring along (of the outbox, the cache...).
#[cfg(test)]
pub(crate) fn at_schema(path: &std::path::Path, version: usize) -> Connection {
    earlier_schema(path, version).unwrap()
}

/// A new file at `path` with the tables an earlier app made, the first `version`
/// migrations, in clear (as the app kept its file before it encrypted it): for what
/// `make bench` measures of a migration.
#[doc(hidden)]
pub fn earlier_schema(path: &std::path::Path, version: usize) -> rusqlite::Result<Connection> {
    let mut conn = Connection::open(path)?;
    let tx = conn.transaction()?;
    for sql in &MIGRATIONS[..version.min(MIGRATIONS.len())] {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", version as u32)?;
    tx.commit()?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::open;
    use crate::secrets::DatabaseKey;

    #[test]
    fn the_rebuilt_outbox_keeps_every_item_its_ids_counts_and_references() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        {
            // A file at schema 7: two items, the second replacing the first.
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &MIGRATIONS[..7] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", 7).unwrap();
            for (key, state, replaces) in [("k1", "refused", None), ("k2", "queued", Some(1))] {
                tx.execute(
                    "INSERT INTO outbox (kind, idempotency_key, order_key, write, body, state,
                                         created_at, replaces)
                     VALUES ('scan', ?1, 'card:card_1', '{}', '{}', ?2, '2026-11-23T10:00:00Z', ?3)",
                    rusqlite::params![key, state, replaces],
                )
                .unwrap();
            }
            tx.commit().unwrap();
        }
        let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
        let rows: Vec<(i64, String, Option<i64>)> = conn
            .prepare("SELECT id, idempotency_key, replaces FROM outbox ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            rows,
            [(1, "k1".to_owned(), None), (2, "k2".to_owned(), Some(1))]
        );
        let queued: i64 = conn
            .query_row(
                "SELECT n FROM outbox_counts WHERE state = 'queued'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(queued, 1, "the counts survive the rebuild");
        // The next item follows the last; the triggers count it; a reference to no
        // item is still refused.
        conn.execute(
            "INSERT INTO outbox (kind, idempotency_key, write, body, state, created_at,
                                 kiosk, till)
             VALUES ('scan', 'k3', '{}', '{}', 'queued', '2026-11-23T10:01:00Z', 1, 't')",
            [],
        )
        .unwrap();
        assert_eq!(conn.last_insert_rowid(), 3);
        let queued: i64 = conn
            .query_row(
                "SELECT n FROM outbox_counts WHERE state = 'queued'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(queued, 2);
        assert!(
            conn.execute(
                "INSERT INTO outbox (kind, idempotency_key, write, body, state, created_at,
                                     replaces, kiosk, till)
                 VALUES ('scan', 'k4', '{}', '{}', 'queued', '2026-11-23T10:02:00Z', 99, 1, 't')",
                [],
            )
            .is_err(),
            "a replacement of no item is refused"
        );
    }

    #[test]
    fn a_file_from_a_newer_app_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("till.db");
        let conn = open(&path, &DatabaseKey::for_tests()).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(conn);
        assert!(matches!(
            open(&path, &DatabaseKey::for_tests()),
            Err(OpenError::TooNew { .. })
        ));
    }
}
