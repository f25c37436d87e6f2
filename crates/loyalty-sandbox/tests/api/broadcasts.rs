//! Messages over real HTTP: every row of the confirmation-token table and of the
//! message table, quotas, schedules, revocation, and the recorded deliveries.

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::helpers::{Api, Server, Shop};

async fn now(s: &Server) -> Timestamp {
    s.ok("POST", "/clock", json!({"advance_seconds": 0})).await["now"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// Moves the server's clock to noon UTC on the first of next month and returns that
/// time, so what a test schedules minutes ahead falls in the same month whatever
/// the date the test runs on.
async fn noon_on_the_first_of_next_month(s: &Server) -> Timestamp {
    let t = now(s).await;
    let target = t
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date()
        .first_of_month()
        .checked_add(jiff::Span::new().months(1))
        .unwrap()
        .at(12, 0, 0, 0)
        .to_zoned(jiff::tz::TimeZone::UTC)
        .unwrap()
        .timestamp();
    s.advance(t.duration_until(target).as_secs() + 1).await;
    now(s).await
}

fn message(pass_id: &str) -> Value {
    json!({
        "pass_id": pass_id,
        "title": "Autumn",
        "body": "A free pastry with every coffee this week.",
        "audience": "active",
    })
}

fn with(mut base: Value, name: &str, value: Value) -> Value {
    base[name] = value;
    base
}

async fn preview(api: &Api, m: &Value) -> Value {
    api.post("/v1/broadcasts", m.clone())
        .await
        .assert_ok()
        .clone()
}

async fn confirm(api: &Api, m: &Value, token: &Value) -> crate::helpers::Answer {
    api.post(
        "/v1/broadcasts/confirm",
        with(m.clone(), "confirmation_token", token.clone()),
    )
    .await
}

fn of_kind<'a>(effects: &'a [Value], kind: &str) -> Vec<&'a Value> {
    effects.iter().filter(|e| e["kind"] == kind).collect()
}

async fn deliveries(s: &Server, shop: &Shop) -> usize {
    of_kind(&s.effects(&shop.id).await, "broadcast_delivery").len()
}

#[tokio::test]
async fn a_preview_sends_nothing_and_reports_token_quota_and_recipients() {
    let s = Server::start().await;
    let shop = s.shop(json!({"monthly_messages": 7})).await;
    let before = s.effects(&shop.id).await.len();
    let t0 = now(&s).await;
    let p = preview(&shop.test, &message(&shop.sandbox_pass_id)).await;
    assert_eq!(p["object"], "broadcast_preview");
    assert!(
        p["confirmation_token"]
            .as_str()
            .unwrap()
            .starts_with("bct_")
    );
    let expires: Timestamp = p["expires_at"].as_str().unwrap().parse().unwrap();
    let life = expires.duration_since(t0);
    assert!(life >= SignedDuration::from_mins(10) && life < SignedDuration::from_secs(605));
    assert_eq!(
        p["message"],
        json!({"title": "Autumn", "body": "A free pastry with every coffee this week.", "translated": false})
    );
    assert_eq!(p["quota"], json!({"remaining": 7, "total": 7}));
    assert_eq!(
        p["recipients"],
        json!({"audience": "active", "cards": 25, "people": 25})
    );
    assert_eq!(p["scheduled_at"], Value::Null);
    assert_eq!(
        s.effects(&shop.id).await.len(),
        before,
        "a preview records nothing"
    );
    s.stop().await;
}

#[tokio::test]
async fn a_confirm_without_schedule_sends_to_every_wallet_and_tells_the_owner_naming_the_key() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    let a = confirm(&shop.test, &m, &p["confirmation_token"]).await;
    let b = a.assert_ok();
    assert_eq!(b["object"], "broadcast");
    assert!(b["id"].as_str().unwrap().starts_with("bc_"));
    assert_eq!(b["status"], "sending");
    assert_eq!(b["sent_count"], 0);
    assert_eq!(b["recipient_count"], 25);
    assert_eq!(b["scheduled_at"], Value::Null);

    let effects = s.effects(&shop.id).await;
    let sent = of_kind(&effects, "broadcast_delivery");
    assert_eq!(sent.len(), 25);
    assert!(sent.iter().all(|e| e["channel"] == "wallet"
        && e["broadcast_id"] == b["id"]
        && e["card_id"].is_string()
        && e["sent"] == false
        && e["reason"] == "sandbox"));
    let me = shop.test.get("/v1/me").await;
    let prefix = me.body["key"]["prefix"].as_str().unwrap();
    let notice = of_kind(&effects, "owner_notice");
    assert_eq!(notice.len(), 1);
    assert!(notice[0]["message"].as_str().unwrap().contains(prefix));
    let email: Vec<_> = of_kind(&effects, "email")
        .into_iter()
        .filter(|e| e["template"] == "broadcast_sent")
        .collect();
    assert_eq!(email.len(), 1);
    assert_eq!(email[0]["key_prefix"], prefix);
    assert_eq!(email[0]["key_id"], me.body["key"]["id"]);

    // Sent at once: it cannot be cancelled.
    shop.test
        .post(
            &format!("/v1/broadcasts/{}/cancel", b["id"].as_str().unwrap()),
            json!({}),
        )
        .await
        .assert_problem(409, "broadcast_already_sent");
    s.stop().await;
}

#[tokio::test]
async fn a_live_message_is_really_sent() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let pass = shop.pass_id.clone().unwrap();
    shop.live.enrol(&pass, "ada@example.com").await;
    let m = message(&pass);
    let p = preview(&shop.live, &m).await;
    assert_eq!(p["recipients"]["cards"], 1);
    confirm(&shop.live, &m, &p["confirmation_token"])
        .await
        .assert_ok();
    let effects = s.effects(&shop.id).await;
    let sent = of_kind(&effects, "broadcast_delivery");
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["sent"], true);
    assert_eq!(sent[0]["place"], "live");
    s.stop().await;
}

#[tokio::test]
async fn a_confirm_replayed_with_its_idempotency_key_sends_once() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    let body = with(m, "confirmation_token", p["confirmation_token"].clone());
    let first = shop
        .test
        .post_with("/v1/broadcasts/confirm", body.clone(), "bc-once")
        .await;
    let again = shop
        .test
        .post_with("/v1/broadcasts/confirm", body, "bc-once")
        .await;
    assert_eq!(first.assert_ok(), again.assert_ok());
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(deliveries(&s, &shop).await, 25);
    s.stop().await;
}

#[tokio::test]
async fn a_used_token_answers_409_confirmation_token_used() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_ok();
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_problem(409, "confirmation_token_used");
    assert_eq!(deliveries(&s, &shop).await, 25, "sent once");
    s.stop().await;
}

#[tokio::test]
async fn a_token_older_than_10_minutes_answers_410_and_sends_nothing() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    s.advance(10 * 60 + 1).await;
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_problem(410, "confirmation_token_expired");
    assert_eq!(deliveries(&s, &shop).await, 0);
    s.stop().await;
}

#[tokio::test]
async fn a_token_is_still_good_just_before_10_minutes() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    s.advance(10 * 60 - 5).await;
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_ok();
    s.stop().await;
}

#[tokio::test]
async fn any_change_to_the_previewed_message_answers_422_and_leaves_the_token_issued() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let t0 = now(&s).await;
    let at = |h: i64| (t0 + SignedDuration::from_hours(h)).to_string();
    let m = with(
        message(&shop.sandbox_pass_id),
        "scheduled_at",
        json!(at(48)),
    );
    let p = preview(&shop.test, &m).await;
    let other_pass = s
        .ok(
            "POST",
            "/passes",
            json!({"business_id": shop.id, "place": "sandbox", "name": "Second"}),
        )
        .await["id"]
        .clone();
    let changes = [
        with(m.clone(), "pass_id", other_pass),
        with(m.clone(), "title", json!("Winter")),
        with(m.clone(), "body", json!("Something else.")),
        with(m.clone(), "audience", json!("all")),
        with(m.clone(), "targeting", json!({"has_reward": true})),
        with(m.clone(), "scheduled_at", json!(at(49))),
        with(m.clone(), "scheduled_at", Value::Null),
    ];
    for changed in changes {
        confirm(&shop.test, &changed, &p["confirmation_token"])
            .await
            .assert_problem(422, "confirmation_payload_changed");
    }
    // The same instant written another way is the same message, and the token still works.
    let same = with(
        m.clone(),
        "scheduled_at",
        json!(
            (t0 + SignedDuration::from_hours(48))
                .to_zoned(jiff::tz::TimeZone::fixed(jiff::tz::offset(2)))
                .strftime("%Y-%m-%dT%H:%M:%S%.f%:z")
                .to_string()
        ),
    );
    let b = confirm(&shop.test, &same, &p["confirmation_token"]).await;
    assert_eq!(b.assert_ok()["status"], "scheduled");
    s.stop().await;
}

#[tokio::test]
async fn a_larger_audience_than_previewed_answers_409_and_a_smaller_one_is_sent() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    let (customer, _) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "new@example.com")
        .await;
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_problem(409, "confirmation_audience_changed");
    assert_eq!(deliveries(&s, &shop).await, 0);
    // Back to the previewed size (and then one fewer): the same token now sends.
    s.ok("DELETE", &format!("/customers/{customer}"), json!(null))
        .await;
    let first = shop.test.all("/v1/customers").await[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    s.ok("DELETE", &format!("/customers/{first}"), json!(null))
        .await;
    let b = confirm(&shop.test, &m, &p["confirmation_token"]).await;
    assert_eq!(b.assert_ok()["recipient_count"], 24);
    s.stop().await;
}

#[tokio::test]
async fn another_keys_token_answers_403_principal_mismatch() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    let other = s.api("sandbox", &s.key(&shop.id, "test", None).await);
    confirm(&other, &m, &p["confirmation_token"])
        .await
        .assert_problem(403, "confirmation_principal_mismatch");
    assert_eq!(deliveries(&s, &shop).await, 0);
    // Still issued: its own key sends with it.
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_ok();
    s.stop().await;
}

#[tokio::test]
async fn another_business_token_answers_403_business_mismatch() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let theirs = s.shop(json!({})).await;
    let p = preview(&theirs.test, &message(&theirs.sandbox_pass_id)).await;
    confirm(
        &shop.test,
        &message(&shop.sandbox_pass_id),
        &p["confirmation_token"],
    )
    .await
    .assert_problem(403, "confirmation_business_mismatch");
    assert_eq!(
        deliveries(&s, &shop).await + deliveries(&s, &theirs).await,
        0
    );
    s.stop().await;
}

#[tokio::test]
async fn a_token_the_service_never_issued_answers_400() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let m = message(&shop.sandbox_pass_id);
    confirm(&shop.test, &m, &json!("bct_madeup"))
        .await
        .assert_problem(400, "confirmation_token_invalid");
    let missing = shop.test.post("/v1/broadcasts/confirm", m).await;
    missing.assert_problem(422, "validation_failed");
    assert_eq!(missing.body["errors"][0]["param"], "confirmation_token");
    assert_eq!(deliveries(&s, &shop).await, 0);
    s.stop().await;
}

#[tokio::test]
async fn a_scheduled_message_waits_for_its_time_then_goes_out_by_the_server_clock() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let t0 = now(&s).await;
    let at = t0 + SignedDuration::from_hours(2);
    let m = with(
        message(&shop.sandbox_pass_id),
        "scheduled_at",
        json!(at.to_string()),
    );
    let p = preview(&shop.test, &m).await;
    assert_eq!(
        p["scheduled_at"]
            .as_str()
            .unwrap()
            .parse::<Timestamp>()
            .unwrap(),
        at
    );
    let b = confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_ok()
        .clone();
    assert_eq!(b["status"], "scheduled");
    assert_eq!(b["sent_count"], 0);
    assert_eq!(deliveries(&s, &shop).await, 0);
    s.advance(3600).await;
    assert_eq!(deliveries(&s, &shop).await, 0, "not yet");
    s.advance(3601).await;
    assert_eq!(
        deliveries(&s, &shop).await,
        25,
        "the clock passed scheduled_at"
    );
    assert_eq!(of_kind(&s.effects(&shop.id).await, "owner_notice").len(), 1);
    // Gone out: no longer cancellable.
    shop.test
        .post(
            &format!("/v1/broadcasts/{}/cancel", b["id"].as_str().unwrap()),
            json!({}),
        )
        .await
        .assert_problem(409, "broadcast_already_sent");
    s.stop().await;
}

#[tokio::test]
async fn a_cancelled_message_never_goes_out_and_cancelling_again_gives_the_same_answer() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let t0 = now(&s).await;
    let m = with(
        message(&shop.sandbox_pass_id),
        "scheduled_at",
        json!((t0 + SignedDuration::from_hours(1)).to_string()),
    );
    let p = preview(&shop.test, &m).await;
    let b = confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_ok()
        .clone();
    let path = format!("/v1/broadcasts/{}/cancel", b["id"].as_str().unwrap());
    let c = shop.test.post(&path, json!({})).await.assert_ok().clone();
    assert_eq!(c["object"], "broadcast");
    assert_eq!(c["id"], b["id"]);
    assert_eq!(c["status"], "cancelled");
    assert_eq!(c["scheduled_at"], b["scheduled_at"]);
    assert!(c["cancelled_at"].is_string());
    s.advance(60).await;
    let again = shop.test.post(&path, json!({})).await;
    assert_eq!(
        again.assert_ok(),
        &c,
        "the same answer, cancelled_at unchanged"
    );
    s.advance(7200).await;
    assert_eq!(deliveries(&s, &shop).await, 0);
    // Another business's (or place's) id is not found.
    let theirs = s.shop(json!({})).await;
    theirs
        .test
        .post(&path, json!({}))
        .await
        .assert_problem(404, "not_found");
    shop.live
        .post(&path, json!({}))
        .await
        .assert_problem(404, "not_found");
    shop.test
        .post("/v1/broadcasts/bc_nope/cancel", json!({}))
        .await
        .assert_problem(404, "not_found");
    s.stop().await;
}

#[tokio::test]
async fn revoking_the_key_cancels_what_it_scheduled() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let minted = s
        .ok(
            "POST",
            "/keys",
            json!({"business_id": shop.id, "mode": "test"}),
        )
        .await;
    let key = s.api("sandbox", minted["key"].as_str().unwrap());
    let t0 = now(&s).await;
    let m = with(
        message(&shop.sandbox_pass_id),
        "scheduled_at",
        json!((t0 + SignedDuration::from_hours(1)).to_string()),
    );
    let p = preview(&key, &m).await;
    let b = confirm(&key, &m, &p["confirmation_token"])
        .await
        .assert_ok()
        .clone();
    // One scheduled by another key stays.
    let p2 = preview(&shop.test, &m).await;
    confirm(&shop.test, &m, &p2["confirmation_token"])
        .await
        .assert_ok();
    s.ok(
        "POST",
        &format!("/keys/{}/revoke", minted["id"].as_str().unwrap()),
        json!({}),
    )
    .await;
    let c = shop
        .test
        .post(
            &format!("/v1/broadcasts/{}/cancel", b["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(
        c.assert_ok()["status"],
        "cancelled",
        "already cancelled by the revocation"
    );
    s.advance(7200).await;
    assert_eq!(
        deliveries(&s, &shop).await,
        25,
        "only the other key's message went out"
    );
    s.stop().await;
}

#[tokio::test]
async fn no_messages_in_the_plan_answers_403_broadcast_not_in_plan() {
    let s = Server::start().await;
    let shop = s.shop(json!({"monthly_messages": 0})).await;
    let m = message(&shop.sandbox_pass_id);
    shop.test
        .post("/v1/broadcasts", m.clone())
        .await
        .assert_problem(403, "broadcast_not_in_plan");
    // A token issued before the plan lost its messages is refused the same way.
    s.ok(
        "PATCH",
        &format!("/businesses/{}", shop.id),
        json!({"monthly_messages": 5}),
    )
    .await;
    let p = preview(&shop.test, &m).await;
    s.ok(
        "PATCH",
        &format!("/businesses/{}", shop.id),
        json!({"monthly_messages": 0}),
    )
    .await;
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_problem(403, "broadcast_not_in_plan");
    assert_eq!(deliveries(&s, &shop).await, 0);
    s.stop().await;
}

#[tokio::test]
async fn the_months_quota_counts_sent_and_scheduled_messages_but_not_cancelled_ones() {
    let s = Server::start().await;
    let shop = s.shop(json!({"monthly_messages": 2})).await;
    // The shop's month is UTC's. Run at the start of a month by the server's clock:
    // on the wall clock's date, "in a minute" fell in the next month during the
    // last minute of a month, and this test failed.
    let t0 = noon_on_the_first_of_next_month(&s).await;
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    assert_eq!(p["quota"], json!({"remaining": 2, "total": 2}));
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_ok();
    // Scheduled later this month: a scheduled one counts in the month it goes out.
    let in_a_minute = with(
        m.clone(),
        "scheduled_at",
        json!((t0 + SignedDuration::from_secs(60)).to_string()),
    );
    let p = preview(&shop.test, &in_a_minute).await;
    assert_eq!(p["quota"]["remaining"], 1);
    let scheduled = confirm(&shop.test, &in_a_minute, &p["confirmation_token"])
        .await
        .assert_ok()
        .clone();
    shop.test
        .post("/v1/broadcasts", m.clone())
        .await
        .assert_problem(403, "broadcast_quota_reached");
    // Cancelled: it stops counting.
    shop.test
        .post(
            &format!(
                "/v1/broadcasts/{}/cancel",
                scheduled["id"].as_str().unwrap()
            ),
            json!({}),
        )
        .await
        .assert_ok();
    let p = preview(&shop.test, &m).await;
    assert_eq!(p["quota"]["remaining"], 1);
    // A token previewed with room is refused at confirm once the month is used up.
    let p2 = preview(&shop.test, &m).await;
    confirm(&shop.test, &m, &p["confirmation_token"])
        .await
        .assert_ok();
    confirm(&shop.test, &m, &p2["confirmation_token"])
        .await
        .assert_problem(403, "broadcast_quota_reached");
    s.stop().await;
}

#[tokio::test]
async fn a_scheduled_message_counts_in_the_month_it_goes_out() {
    let s = Server::start().await;
    let shop = s
        .shop(json!({"monthly_messages": 1, "time_zone": "Europe/Paris"}))
        .await;
    let tz = jiff::tz::TimeZone::get("Europe/Paris").unwrap();
    let t0 = now(&s).await;
    let next_month = t0
        .to_zoned(tz.clone())
        .date()
        .first_of_month()
        .checked_add(jiff::Span::new().months(1))
        .unwrap();
    let next_at = next_month.to_zoned(tz).unwrap().timestamp() + SignedDuration::from_hours(12);
    let later = with(
        message(&shop.sandbox_pass_id),
        "scheduled_at",
        json!(next_at.to_string()),
    );
    let p = preview(&shop.test, &later).await;
    confirm(&shop.test, &later, &p["confirmation_token"])
        .await
        .assert_ok();
    // This month still has its one message.
    let m = message(&shop.sandbox_pass_id);
    let p = preview(&shop.test, &m).await;
    assert_eq!(p["quota"], json!({"remaining": 1, "total": 1}));
    // Next month's is used.
    let also_later = with(
        m,
        "scheduled_at",
        json!((next_at + SignedDuration::from_hours(24)).to_string()),
    );
    shop.test
        .post("/v1/broadcasts", also_later)
        .await
        .assert_problem(403, "broadcast_quota_reached");
    s.stop().await;
}

#[tokio::test]
async fn audience_all_reaches_people_without_an_active_card_by_email() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (customer, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "grace@example.com")
        .await;
    s.ok(
        "POST",
        &format!("/cards/{card}/status"),
        json!({"status": "replaced"}),
    )
    .await;
    let active = preview(&shop.test, &message(&shop.sandbox_pass_id)).await;
    assert_eq!(
        active["recipients"],
        json!({"audience": "active", "cards": 25, "people": 25})
    );
    let m = with(message(&shop.sandbox_pass_id), "audience", json!("all"));
    let p = preview(&shop.test, &m).await;
    assert_eq!(
        p["recipients"],
        json!({"audience": "all", "cards": 25, "people": 26})
    );
    let b = confirm(&shop.test, &m, &p["confirmation_token"]).await;
    assert_eq!(b.assert_ok()["recipient_count"], 26);
    let effects = s.effects(&shop.id).await;
    let emails: Vec<_> = of_kind(&effects, "broadcast_delivery")
        .into_iter()
        .filter(|e| e["channel"] == "email")
        .collect();
    assert_eq!(emails.len(), 1);
    assert_eq!(emails[0]["customer_id"], customer);
    assert_eq!(emails[0]["to"], "grace@example.com");
    s.stop().await;
}

#[tokio::test]
async fn targeting_narrows_the_recipients_to_matching_cards() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let (_, card) = shop
        .test
        .enrol(&shop.sandbox_pass_id, "ready@example.com")
        .await;
    for _ in 0..10 {
        shop.test
            .post(
                "/v1/scans",
                json!({"card_id": card, "kind": "visit", "confirm_repeat": true}),
            )
            .await
            .assert_ok();
    }
    let with_reward = preview(
        &shop.test,
        &with(
            message(&shop.sandbox_pass_id),
            "targeting",
            json!({"has_reward": true}),
        ),
    )
    .await;
    let customers = shop.test.all("/v1/customers").await;
    let ready = customers
        .iter()
        .filter(|c| {
            c["cards"][0]["status"] == "active"
                && c["cards"][0]["rewards_available"].as_i64().unwrap() > 0
        })
        .count() as i64;
    assert!(ready >= 1);
    assert_eq!(with_reward["recipients"]["cards"], ready);
    let recent = preview(
        &shop.test,
        &with(
            message(&shop.sandbox_pass_id),
            "targeting",
            json!({"visited_within_days": 1}),
        ),
    )
    .await;
    let t0 = now(&s).await;
    let day_ago = t0 - SignedDuration::from_hours(24);
    let visited = customers
        .iter()
        .filter(|c| {
            c["cards"][0]["last_visit_at"]
                .as_str()
                .is_some_and(|t| t.parse::<Timestamp>().unwrap() >= day_ago)
        })
        .count() as i64;
    assert_eq!(recent["recipients"]["cards"], visited);
    s.stop().await;
}

#[tokio::test]
async fn message_bodies_are_validated() {
    let s = Server::start().await;
    let shop = s.shop(json!({})).await;
    let t0 = now(&s).await;
    let m = message(&shop.sandbox_pass_id);
    let cases = [
        (with(m.clone(), "audience", json!("everyone")), "audience"),
        (with(m.clone(), "title", json!("x".repeat(101))), "title"),
        (with(m.clone(), "body", json!("")), "body"),
        (
            with(
                m.clone(),
                "scheduled_at",
                json!((t0 - SignedDuration::from_mins(1)).to_string()),
            ),
            "scheduled_at",
        ),
        (
            with(
                m.clone(),
                "scheduled_at",
                json!((t0 + SignedDuration::from_hours(24 * 366)).to_string()),
            ),
            "scheduled_at",
        ),
        (
            with(m.clone(), "scheduled_at", json!("tomorrow")),
            "scheduled_at",
        ),
        (
            with(m.clone(), "targeting", json!({"city": "Paris"})),
            "targeting.city",
        ),
        (
            with(m.clone(), "targeting", json!({"visited_within_days": 0})),
            "targeting.visited_within_days",
        ),
        (with(m.clone(), "targeting", json!([1])), "targeting"),
    ];
    for (body, param) in cases {
        let a = shop.test.post("/v1/broadcasts", body).await;
        a.assert_problem(422, "validation_failed");
        assert_eq!(a.body["errors"][0]["param"], param, "{}", a.body);
    }
    shop.test
        .post("/v1/broadcasts", with(m, "pass_id", json!("pass_nope")))
        .await
        .assert_problem(404, "not_found");
    // The scope is broadcasts:send.
    let reader = s.api(
        "sandbox",
        &s.key(&shop.id, "test", Some(json!(["read"]))).await,
    );
    reader
        .post("/v1/broadcasts", message(&shop.sandbox_pass_id))
        .await
        .assert_problem(403, "insufficient_scope");
    s.stop().await;
}
