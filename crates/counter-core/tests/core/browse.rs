//! The manager's lists: a page, "Load more" on the cursor, the filters each list takes,
//! and a deleted customer shown as such.

use counter_core::kinds::GiftCardStatus;
use counter_core::{BrowseQuery, BrowseRow, Error};
use serde_json::json;

use crate::Env;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_load_more_filter_and_show_a_deleted_customer() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let scans = BrowseQuery::Scans {
        customer_id: None,
        kind: None,
    };
    crate::cashier_signs_in(&counter);
    assert!(matches!(
        counter.browse(&scans, None).await,
        Err(Error::Pin(_))
    ));
    crate::owner_signs_in(&counter);

    // The sandbox's 200 demo scans: a first page, then the next on its cursor.
    let first = counter.browse(&scans, None).await.unwrap();
    assert_eq!(first.rows.len(), 50);
    let cursor = first.next_cursor.clone().expect("more scans");
    let second = counter.browse(&scans, Some(&cursor)).await.unwrap();
    assert_eq!(second.rows.len(), 50);
    let id = |row: &BrowseRow| match row {
        BrowseRow::Scan { id, .. } => id.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        first
            .rows
            .iter()
            .map(id)
            .all(|a| !second.rows.iter().map(id).any(|b| a == b))
    );

    // One customer's scans, and only of the kind of their newest.
    let BrowseRow::Scan {
        customer_id, kind, ..
    } = &first.rows[0]
    else {
        unreachable!()
    };
    let theirs = BrowseQuery::Scans {
        customer_id: Some(customer_id.clone()),
        kind: Some(*kind),
    };
    let page = counter.browse(&theirs, None).await.unwrap();
    assert!(!page.rows.is_empty());
    assert!(page.rows.iter().all(|r| matches!(r,
        BrowseRow::Scan { customer_id: c, kind: k, .. } if c == customer_id && k == kind)));

    // Deleted by the business: their scans stay, marked as a deleted customer's.
    env.control(
        "DELETE",
        &format!("/_sandbox/customers/{customer_id}"),
        json!({}),
    )
    .await;
    let theirs = BrowseQuery::Scans {
        customer_id: Some(customer_id.clone()),
        kind: None,
    };
    let page = counter.browse(&theirs, None).await.unwrap();
    assert!(page.rows.iter().all(|r| matches!(
        r,
        BrowseRow::Scan {
            customer_deleted: true,
            ..
        }
    )));

    // Gift cards by state; every other list answers.
    env.gift_card(30).await;
    let active = BrowseQuery::GiftCards {
        status: Some(GiftCardStatus::Active),
    };
    let page = counter.browse(&active, None).await.unwrap();
    assert!(!page.rows.is_empty());
    assert!(page.rows.iter().all(|r| matches!(
        r,
        BrowseRow::GiftCard {
            status: GiftCardStatus::Active,
            ..
        }
    )));
    for list in [
        BrowseQuery::Customers {
            pass_id: None,
            email: None,
        },
        BrowseQuery::Locations,
        BrowseQuery::Referrals,
        BrowseQuery::WebhookEndpoints,
    ] {
        counter.browse(&list, None).await.unwrap();
    }
    // A filter value this version cannot name is refused before asking.
    let other = BrowseQuery::GiftCards {
        status: Some(GiftCardStatus::Other),
    };
    assert!(matches!(
        counter.browse(&other, None).await,
        Err(Error::NotAllowed(_))
    ));
    counter.close().await;
}
