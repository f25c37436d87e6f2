//! The cache's tests; `customer` and `cache_with` serve search's too.

use super::*;
use loyalty_api::{CustomerId, PassId};

pub(super) fn customer(id: &str, name: &str, email: &str, phone: Option<&str>) -> CustomerView {
    CustomerView {
        id: CustomerId::new(id),
        pass_id: PassId::new("pass_1"),
        name: Some(name.into()),
        email: Some(email.into()),
        phone: phone.map(Into::into),
        cards: vec![CardView {
            id: CardId::new(format!("card_{id}")),
            pass_id: PassId::new("pass_1"),
            status: crate::kinds::CardStatus::Active,
            visits: 1,
            points: 0,
            rewards_available: 0,
            rewards_redeemed: 0,
            last_visit_at: None,
            test: true,
        }],
        created_at: None,
    }
}

pub(super) fn cache_with(customers: &[CustomerView]) -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = crate::db::open_for_tests(&dir.path().join("till.db"));
    let tx = conn.transaction().unwrap();
    for c in customers {
        put_customer(&tx, c, Timestamp::UNIX_EPOCH).unwrap();
    }
    tx.commit().unwrap();
    (dir, conn)
}

#[test]
fn customers_stored_together_make_one_segment_of_the_search_index() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = crate::db::open_for_tests(&dir.path().join("till.db"));
    let page: Vec<CustomerView> = (0..100)
        .map(|n| {
            customer(
                &n.to_string(),
                &format!("Ana {n}"),
                "a@x.es",
                Some("+34 612"),
            )
        })
        .collect();
    let tx = conn.transaction().unwrap();
    put_customers(&tx, &page, Timestamp::UNIX_EPOCH).unwrap();
    tx.commit().unwrap();
    // FTS5's own table of its segments; a segment per customer is what a statement
    // savepoint between two customers' terms makes.
    let segments: i64 = conn
        .query_row(
            "SELECT count(DISTINCT segid) FROM customer_search_idx",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(segments, 1);
    assert_eq!(search(&conn, "ana", 200).unwrap().len(), 100);
    assert_eq!(
        search(&conn, "ana 42", 5).unwrap()[0].name.as_deref(),
        Some("Ana 42")
    );
}

#[test]
fn a_customer_stored_again_is_found_by_their_new_name_only() {
    let (_dir, mut conn) = cache_with(&[customer("1", "Ana López", "ana@x.es", None)]);
    let tx = conn.transaction().unwrap();
    let renamed = customer("1", "Beatriz López", "bea@x.es", None);
    put_customers(&tx, [&renamed], Timestamp::UNIX_EPOCH).unwrap();
    tx.commit().unwrap();
    assert!(
        search(&conn, "ana", 5).unwrap().is_empty(),
        "the old terms are gone"
    );
    let found = search(&conn, "lop", 5).unwrap();
    assert_eq!(found.len(), 1, "indexed once: {found:?}");
    assert_eq!(found[0].name.as_deref(), Some("Beatriz López"));
}

#[test]
fn a_forgotten_customer_leaves_no_card_and_nothing_in_either_index() {
    let (_dir, mut conn) = cache_with(&[
        customer("1", "Ana", "a@x.es", Some("+44 7700 900123")),
        customer("2", "Bea", "b@x.es", Some("+44 7700 900456")),
    ]);
    let tx = conn.transaction().unwrap();
    forget_customer(&tx, &CustomerId::new("1")).unwrap();
    tx.execute("UPDATE customers SET walk = 0", []).unwrap();
    tx.execute("UPDATE customers SET walk = 1 WHERE id = '2'", [])
        .unwrap();
    assert_eq!(forget_unseen(&tx, 2).unwrap(), 1);
    tx.commit().unwrap();
    for index in ["customer_search", "customer_digits", "cards"] {
        let rows: i64 = conn
            .query_row(&format!("SELECT count(*) FROM {index}"), [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 0, "{index}");
    }
}

/// Stores `card` of `customer` as a scan's answer does, whether the customer is
/// cached or not.
fn scanned(conn: &mut Connection, customer: &str, card: &str) {
    let tx = conn.transaction().unwrap();
    let mut view = super::tests::customer(customer, "", "", None)
        .cards
        .remove(0);
    view.id = CardId::new(card);
    put_card(
        &tx,
        &CustomerId::new(customer),
        &view,
        Timestamp::UNIX_EPOCH,
        true,
    )
    .unwrap();
    tx.commit().unwrap();
}

/// The service no longer has `customer`: the cache forgets them.
fn forgotten(conn: &mut Connection, customer: &str) {
    let tx = conn.transaction().unwrap();
    forget_customer(&tx, &CustomerId::new(customer)).unwrap();
    tx.commit().unwrap();
}

/// A scan of `card` finds it in the cache.
fn cached(conn: &Connection, card: &str) -> bool {
    lookup_card(conn, &CardId::new(card)).unwrap().is_some()
}

fn card_ids(conn: &Connection, customer: &str) -> Vec<String> {
    super::customer(conn, &CustomerId::new(customer))
        .unwrap()
        .map(|c| c.card_ids.iter().map(|id| id.as_str().to_owned()).collect())
        .unwrap_or_default()
}

#[test]
fn a_card_scanned_before_its_customer_was_cached_is_theirs_and_goes_with_them() {
    let (_dir, mut conn) = cache_with(&[customer("1", "Ana", "a@x.es", None)]);
    scanned(&mut conn, "1", "card_1b");
    scanned(&mut conn, "2", "card_2b");
    assert!(
        lookup_card(&conn, &CardId::new("card_2b"))
            .unwrap()
            .unwrap()
            .customer
            .is_none()
    );
    assert_eq!(card_ids(&conn, "1"), ["card_1", "card_1b"]);

    // Bea is cached (her page lists only her first card): the scanned one is hers too.
    let tx = conn.transaction().unwrap();
    put_customer(
        &tx,
        &customer("2", "Bea", "b@x.es", None),
        Timestamp::UNIX_EPOCH,
    )
    .unwrap();
    tx.commit().unwrap();
    assert_eq!(card_ids(&conn, "2"), ["card_2", "card_2b"]);

    forgotten(&mut conn, "2");
    assert!(!cached(&conn, "card_2") && !cached(&conn, "card_2b"));
    assert_eq!(card_ids(&conn, "1"), ["card_1", "card_1b"]);
}

#[test]
fn a_customer_the_service_no_longer_has_takes_a_scanned_card_with_them_uncached() {
    let (_dir, mut conn) = cache_with(&[customer("1", "Ana", "a@x.es", None)]);
    scanned(&mut conn, "2", "card_2");
    forgotten(&mut conn, "2");
    assert!(!cached(&conn, "card_2"));
    assert!(cached(&conn, "card_1"));
}

#[test]
fn a_card_is_found_with_its_customer() {
    let (_dir, conn) = cache_with(&[customer("1", "Ana", "a@x.es", None)]);
    let found = lookup_card(&conn, &CardId::new("card_1")).unwrap().unwrap();
    assert_eq!(found.customer.unwrap().name.as_deref(), Some("Ana"));
    assert!(!found.provisional);
    assert!(
        lookup_card(&conn, &CardId::new("card_x"))
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_download_does_not_replace_a_card_with_queued_writes() {
    let (_dir, mut conn) = cache_with(&[customer("1", "Ana", "a@x.es", None)]);
    let write = crate::outbox::Write::Scan {
        card_id: CardId::new("card_1"),
        action: loyalty_api::ScanAction::Visit,
        amount: None,
        confirm_repeat: false,
    };
    let key = loyalty_api::IdempotencyKey::new("k-1").unwrap();
    store::enqueue(
        &conn,
        &write,
        &key,
        Timestamp::UNIX_EPOCH,
        None,
        store::Made {
            person: Some(crate::pin::set(&conn, "2468", Timestamp::UNIX_EPOCH).unwrap()),
            ..Default::default()
        },
    )
    .unwrap();
    let mut newer = customer("1", "Ana", "a@x.es", None);
    newer.cards[0].visits = 0;
    let tx = conn.transaction().unwrap();
    put_customer(&tx, &newer, Timestamp::UNIX_EPOCH).unwrap();
    tx.commit().unwrap();
    let found = lookup_card(&conn, &CardId::new("card_1")).unwrap().unwrap();
    assert_eq!(found.card.visits, 1, "the local copy is kept");
    assert!(found.provisional);
    assert_eq!(found.queued_writes, 1);
}

#[test]
fn customers_cached_before_the_phone_index_are_found_by_name_and_by_phone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("till.db");
    {
        // A file at schema 10: two customers, indexed with the digit tails.
        let tx = crate::db::at_schema(&path, 10);
        for (id, name, phone) in [
            ("cus_1", "Ana López", Some("+44 (7700) 900-123")),
            ("cus_2", "Bea Ruiz", None),
        ] {
            tx.execute(
                "INSERT INTO customers (id, pass_id, name, phone) VALUES (?1, 'pass_1', ?2, ?3)",
                rusqlite::params![id, name, phone],
            )
            .unwrap();
            tx.execute(
                "INSERT INTO customer_search (rowid, name, email, phone, digits)
                 VALUES (last_insert_rowid(), ?1, '', coalesce(?2, ''), '')",
                rusqlite::params![name, phone],
            )
            .unwrap();
        }
    }
    let conn = crate::db::open_for_tests(&path);
    let found = |typed: &str| -> Vec<String> {
        search(&conn, typed, 10)
            .unwrap()
            .into_iter()
            .map(|c| c.id.as_str().to_owned())
            .collect()
    };
    assert_eq!(found("lop"), ["cus_1"]);
    assert_eq!(found("ruiz"), ["cus_2"]);
    assert_eq!(found("7700900123"), ["cus_1"]);
    assert_eq!(found("0012"), ["cus_1"]);
}

#[test]
fn cards_cached_before_they_pointed_to_their_customers_row_are_still_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("till.db");
    {
        // A file at schema 11: a customer with two cards, and a card whose customer
        // is not cached.
        let tx = crate::db::at_schema(&path, 11);
        tx.execute(
            "INSERT INTO customers (id, pass_id, name) VALUES ('cus_1', 'pass_1', 'Ana')",
            [],
        )
        .unwrap();
        for (card, customer) in [
            ("card_b", "cus_1"),
            ("card_a", "cus_1"),
            ("card_c", "cus_2"),
        ] {
            tx.execute(
                "INSERT INTO cards (id, customer_id, card, stored_at)
                 VALUES (?1, ?2, '{}', '2026-11-27T10:00:00Z')",
                [card, customer],
            )
            .unwrap();
        }
    }
    let conn = crate::db::open_for_tests(&path);
    let ana = super::customer(&conn, &CustomerId::new("cus_1"))
        .unwrap()
        .unwrap();
    let ids: Vec<&str> = ana.card_ids.iter().map(|c| c.as_str()).collect();
    assert_eq!(ids, ["card_a", "card_b"]);
    let without: Option<String> = conn
        .query_row(
            "SELECT id FROM cards WHERE customer_row IS NULL AND customer_id = 'cus_2'",
            [],
            |r| r.get(0),
        )
        .optional()
        .unwrap();
    assert_eq!(without.as_deref(), Some("card_c"));
}
