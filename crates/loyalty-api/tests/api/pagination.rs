//! Walking lists page by page.

use std::collections::HashSet;

use futures_util::TryStreamExt;
use loyalty_api::{Customer, ListParams, Scan};
use reqwest::Method;
use serde_json::json;

use crate::harness::Env;

#[tokio::test]
async fn the_25_demo_customers_come_in_pages_of_10_10_and_5() {
    let env = Env::start().await;
    let mut pages = env.client.customers().pages(ListParams::new().limit(10));
    let mut sizes = Vec::new();
    let mut ids = HashSet::new();
    let mut cursors = Vec::new();
    while let Some(page) = pages.next_page().await.unwrap() {
        sizes.push(page.data.data.len());
        ids.extend(page.data.data.iter().map(|c| c.id.clone()));
        cursors.push(page.data.next_cursor.clone());
    }
    assert_eq!(sizes, [10, 10, 5]);
    assert_eq!(ids.len(), 25);
    assert!(cursors[0].is_some() && cursors[1].is_some() && cursors[2].is_none());
    assert!(pages.next_page().await.unwrap().is_none(), "it stays done");
}

#[tokio::test]
async fn a_stream_yields_every_item_in_order() {
    let env = Env::start().await;
    let streamed: Vec<Customer> = env
        .client
        .customers()
        .pages(ListParams::new().limit(7))
        .items()
        .try_collect()
        .await
        .unwrap();
    let whole = env
        .client
        .customers()
        .list(&ListParams::new().limit(100))
        .await
        .unwrap();
    assert_eq!(streamed, whole.data.data);
}

#[tokio::test]
async fn seeded_customers_and_scans_are_all_walked() {
    let env = Env::start().await;
    let added = env
        .control(
            Method::POST,
            "/_sandbox/seed",
            Some(json!({"business_id": env.business_id, "place": "sandbox",
                "customers": 180, "scans": 150, "seed": 7})),
        )
        .await;
    let customers: Vec<Customer> = env
        .client
        .customers()
        .pages(ListParams::new().limit(100))
        .items()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(customers.len(), 25 + 180, "seed answered {added}");
    let ids: HashSet<_> = customers.iter().map(|c| &c.id).collect();
    assert_eq!(ids.len(), customers.len(), "no customer twice");

    let scans: Vec<Scan> = env
        .client
        .scans()
        .pages(ListParams::new().limit(100))
        .items()
        .try_collect()
        .await
        .unwrap();
    assert!(scans.len() >= 200 + 150, "{} scans", scans.len());
    assert!(scans.windows(2).all(|w| w[0].created_at >= w[1].created_at));
}

#[tokio::test]
async fn a_failed_page_ends_the_stream_with_the_error() {
    let env = Env::start().await;
    let mut pages = env.client.customers().pages(ListParams::new().limit(10));
    pages.next_page().await.unwrap().unwrap();
    env.fault(
        "/v1/customers",
        1,
        json!({"status": 500, "code": "internal_error"}),
    )
    .await;
    let err = pages.next_page().await.unwrap_err();
    assert_eq!(err.problem().unwrap().status, 500);
    // The same page is asked for again after an error.
    let page = pages.next_page().await.unwrap().unwrap();
    assert_eq!(page.data.data.len(), 10);

    env.fault(
        "/v1/customers",
        1,
        json!({"status": 500, "code": "internal_error"}),
    )
    .await;
    let results: Vec<_> = futures_util::StreamExt::collect::<Vec<_>>(
        env.client.customers().pages(ListParams::new()).items(),
    )
    .await;
    assert_eq!(results.len(), 1);
    assert!(results[0].is_err());
}
