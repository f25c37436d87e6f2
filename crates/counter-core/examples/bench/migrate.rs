//! Section 7 of `make bench`: a till of an earlier app with 1,000,000 customers cached,
//! opened by this one (its snapshot taken, its migrations run).
//!
//! Two earlier tills: one at schema 10, the last before the cache's own migrations (the
//! phone numbers' index of trigrams rebuilt from every customer, each card pointed at
//! its customer's row) and kept in clear, as the app kept its file then (encrypted
//! first: timed apart); and one at the schema before this app's, encrypted, as most
//! tills upgrading now are. Each is filled with SQL in the tables of its schema, then
//! opened as the app opens it (`db::open`): the snapshot (`VACUUM INTO`) and the
//! migrations are what a shop waits for at the first start of the new version.

use std::path::Path;
use std::time::Instant;

use counter_core::db::{self, SCHEMA_VERSION};
use counter_core::secrets::DatabaseKey;

use crate::Result;

/// The customers cached in the till migrated.
const CUSTOMERS: u64 = 1_000_000;

/// The last schema before the cache's own migrations.
const BEFORE_THE_CACHE_CHANGED: u32 = 10;

/// Section 7.
pub fn migration(dir: &Path) -> Result<()> {
    for from in [BEFORE_THE_CACHE_CHANGED, SCHEMA_VERSION - 1] {
        let till = dir.join(format!("till-schema-{from}"));
        std::fs::create_dir_all(&till)?;
        let path = till.join("till.db");
        let started = Instant::now();
        let conn = db::earlier_schema(&path, from as usize)?;
        fill(&conn, from)?;
        drop(conn);
        let filled = started.elapsed();
        let key = DatabaseKey::for_tests();
        // Schema 10's till was in clear; encrypting it is the new app's first step.
        let started = Instant::now();
        db::encrypt_in_place(&path, &key)?;
        let encrypted = started.elapsed();
        let size = std::fs::metadata(&path)?.len();

        let started = Instant::now();
        let conn = db::open(&path, &key)?;
        let migrated = started.elapsed();
        let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let customers: u64 = conn.query_row("SELECT count(*) FROM customers", [], |r| r.get(0))?;
        let searchable: u64 =
            conn.query_row("SELECT count(*) FROM customer_search", [], |r| r.get(0))?;
        let pointed: u64 = conn.query_row(
            "SELECT count(*) FROM cards WHERE customer_row IS NOT NULL",
            [],
            |r| r.get(0),
        )?;
        assert_eq!(found, SCHEMA_VERSION);
        assert_eq!(
            (customers, searchable, pointed),
            (CUSTOMERS, CUSTOMERS, CUSTOMERS)
        );
        let snapshots = db::snapshots::list(&path)?;
        assert_eq!(snapshots.len(), 1, "{snapshots:?}");
        let snapshot = std::fs::metadata(&snapshots[0].path)?.len();
        println!(
            "a till at schema {from} with {CUSTOMERS} customers cached ({:.0} MB; made in \
             {:.1} s): encrypted in {:.1} s; opened by this app (snapshot of {:.0} MB, then \
             migrations {from} -> {SCHEMA_VERSION}) in {:.1} s",
            size as f64 / 1e6,
            filled.as_secs_f64(),
            encrypted.as_secs_f64(),
            snapshot as f64 / 1e6,
            migrated.as_secs_f64(),
        );
        drop(conn);
        std::fs::remove_dir_all(&till)?;
    }
    Ok(())
}

/// [`CUSTOMERS`] customers, each with a card, in the tables of schema `schema`, and
/// their search index as that schema kept it.
fn fill(conn: &rusqlite::Connection, schema: u32) -> Result<()> {
    conn.execute_batch(&format!(
        "BEGIN;
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {CUSTOMERS})
         INSERT INTO customers (id, pass_id, name, email, phone, created_at)
         SELECT printf('cus_%010d', i), 'pass_bench',
                printf('Given%d Family%d', i % 4999, i % 7919),
                printf('customer%d@example.com', i),
                printf('+33 6 %02d %02d %02d %02d', i % 97, i % 89, i % 83, i % 79),
                '2026-01-01T00:00:00.000Z'
         FROM n;
         INSERT INTO cards (id, customer_id, card, stored_at)
         SELECT printf('card_%010d', rowid), id,
                json_object('id', printf('card_%010d', rowid), 'pass_id', 'pass_bench',
                            'wallet', 'apple', 'status', 'active', 'visits', rowid % 10,
                            'points', 0, 'rewards_available', 0, 'rewards_redeemed', 0,
                            'last_visit_at', NULL, 'test', json('false'),
                            'created_at', '2026-01-01T00:00:00Z'),
                '2026-01-01T00:00:00.000Z'
         FROM customers;
         COMMIT;"
    ))?;
    let digits = "replace(replace(phone, ' ', ''), '+', '')";
    if schema <= BEFORE_THE_CACHE_CHANGED {
        conn.execute_batch(&format!(
            "INSERT INTO customer_search (rowid, name, email, phone, digits)
             SELECT rowid, name, email, phone, {digits} FROM customers;"
        ))?;
    } else {
        conn.execute_batch(&format!(
            "BEGIN;
             UPDATE cards SET customer_row = (SELECT rowid FROM customers WHERE id = cards.customer_id);
             INSERT INTO customer_search (rowid, name, email) SELECT rowid, name, email FROM customers;
             INSERT INTO customer_digits (rowid, digits) SELECT rowid, {digits} FROM customers;
             COMMIT;"
        ))?;
    }
    Ok(())
}
