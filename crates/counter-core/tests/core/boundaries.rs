//! The till's boundaries (issue "The till's boundaries hold in Rust"): a write belongs
//! to its business, a PIN opens one action or one manager's visit, a kiosk is a kiosk
//! in the core. Each test breaks a promise the way a shop would meet it, against the
//! real server, and judges by the server's own records.

use std::time::Duration;

use counter_core::keys::KeyboardLayout;
use counter_core::pin::PinError;
use counter_core::{
    CheckIn, Config, Counter, Enrolment, Error, ErrorCode, GiftCardIssue, ItemState, NotAllowed,
    PinFor, ScanOutcome,
};
use loyalty_api::ScanAction;
use serde_json::json;

use counter_core::roles::Action;

use crate::{Env, drain, test_config};

const PIN: &str = "2468";

/// Another business on the same server, with a test key: (id, key).
async fn other_business(env: &Env) -> (String, String) {
    let business = env
        .control(
            "POST",
            "/_sandbox/businesses",
            json!({"name": "Other Shop", "pass": null}),
        )
        .await;
    let id = business["id"].as_str().unwrap().to_owned();
    let key = env
        .control(
            "POST",
            "/_sandbox/keys",
            json!({"business_id": id, "mode": "test"}),
        )
        .await;
    (id, key["key"].as_str().unwrap().to_owned())
}

fn manager_only<T: std::fmt::Debug>(result: Result<T, Error>) {
    assert!(
        matches!(result, Err(Error::Pin(PinError::ManagerOnly))),
        "{result:?}"
    );
}

fn kiosk_refuses<T: std::fmt::Debug>(result: Result<T, Error>) {
    assert!(
        matches!(result, Err(Error::NotAllowed(NotAllowed::Kiosk))),
        "{result:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_belongs_to_its_business() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let (first_id, first_key) = env.mint_key().await;
    let counter = env.open_with(test_config()).await;
    counter
        .connect(&env.sandbox_url(), &first_key)
        .await
        .unwrap();
    crate::cashier_signs_in(&counter);

    // The kept key is revoked; a visit made now waits in the queue.
    env.control(
        "POST",
        &format!("/_sandbox/keys/{first_id}/revoke"),
        json!({}),
    )
    .await;
    let queued = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    let ScanOutcome::Queued { item, .. } = queued else {
        panic!("not queued: {queued:?}");
    };

    // A cashier pastes another business's key: Connect says what waits and for whom,
    // and asks for the manager.
    let (other_id, other_key) = other_business(&env).await;
    let gate = counter.connect_gate().unwrap();
    assert!(gate.needs_manager);
    assert_eq!(gate.waiting.len(), 1);
    assert_eq!(gate.waiting[0].count, 1);
    let waiting_for = gate.waiting[0].business.clone().unwrap();
    assert_eq!(
        (waiting_for.id.as_str(), waiting_for.name.as_str()),
        (env.business_id.as_str(), "Café Test")
    );
    manager_only(counter.connect(&env.sandbox_url(), &other_key).await);
    assert_eq!(counter.connection().unwrap().business_name, "Café Test");

    // The manager decides: the till now works for the other business, and the visit
    // waits for a key of its own, untouched, saying for whom.
    let connecting = |key: &str| json!({"baseUrl": env.sandbox_url(), "apiKey": key});
    crate::approved(&counter, Action::Connect, connecting(&other_key));
    let connected = counter
        .connect(&env.sandbox_url(), &other_key)
        .await
        .unwrap();
    assert_eq!(connected.business_name, "Other Shop");
    assert_eq!(connected.business_id.as_deref(), Some(other_id.as_str()));
    counter.send_now();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let waiting = counter.item(item).unwrap();
    assert_eq!(waiting.state, ItemState::Queued, "{waiting:?}");
    assert_eq!(
        counter.waits_for(&waiting).unwrap().map(|b| b.name),
        Some("Café Test".to_owned())
    );
    assert!(env.scans_of(&customer).await.is_empty());
    // The PIN opened that one connection: the next asks again.
    manager_only(counter.connect(&env.sandbox_url(), &env.key).await);

    // A key of the visit's own business: it goes, once.
    crate::approved(&counter, Action::Connect, connecting(&env.key));
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    drain(&counter).await;
    assert_eq!(counter.item(item).unwrap().state, ItemState::Done);
    assert_eq!(env.scans_of(&customer).await, [("visit".to_owned(), 0)]);
    assert_eq!(
        counter.waits_for(&counter.item(item).unwrap()).unwrap(),
        None
    );
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_stored_before_owners_were_recorded_belong_to_the_business_the_till_was_connected_to()
 {
    let mut env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    env.stop().await;
    let queued = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    let ScanOutcome::Queued { item, .. } = queued else {
        panic!("not queued: {queued:?}");
    };
    counter.close().await;
    // As an earlier version left the file: no owner on the write, no business id kept.
    {
        let db = env.till_db();
        db.execute("UPDATE outbox SET owner = NULL", []).unwrap();
        db.execute(
            "UPDATE settings SET value = json_remove(value, '$.connection.business_id')
             WHERE name = 'settings'",
            [],
        )
        .unwrap();
    }
    env.restart().await;
    let counter = env.open_with(test_config()).await;
    drain(&counter).await;
    assert_eq!(counter.item(item).unwrap().state, ItemState::Done);
    assert_eq!(env.scans_of(&customer).await, [("visit".to_owned(), 0)]);
    assert_eq!(
        counter.connection().unwrap().business_id.as_deref(),
        Some(env.business_id.as_str())
    );
    counter.close().await;
}

/// A manager's word opens the one call it was given for, or a manager's visit. A PIN
/// typed at a cashier's screen approves the call the core refused for want of it, with
/// those arguments, once: not another call, not the same call with other arguments
/// (another amount), not a call made after the idle time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pin_opens_one_call_or_one_managers_visit() {
    let env = Env::start().await;
    // The manager's idle (five minutes) is measured on the till's clock, moved here.
    let counter = env.counter().await;
    let idle = counter_core::MANAGER_IDLE;
    counter
        .set_lock_policy(counter_core::people::LockPolicy {
            idle_minutes: 60,
            after_gift_card_payment: false,
        })
        .unwrap();
    crate::cashier_signs_in(&counter);
    let issue = |amount: &str| GiftCardIssue {
        amount: amount.into(),
        currency: "EUR".into(),
        locale: "en".into(),
        recipient_name: "Ada".into(),
        recipient_email: "ada@example.com".into(),
    };
    let call = |amount: &str| json!({"issue": issue(amount)});
    let issued_on_server = || async {
        env.api_get("/v1/gift_cards?limit=100").await["data"]
            .as_array()
            .unwrap()
            .len()
    };
    let before = issued_on_server().await;

    // Without a manager: refused, in the core as at the door.
    manager_only(counter.issue_gift_card(issue("20")).await);
    manager_only(crate::door(&counter, Action::IssueGiftCard, call("20")));
    assert!(!counter.pin_status(None).unwrap().manager_here);

    // Approved for 20: a call of 500 is not that call, and uses the approval up.
    counter.check_pin(None, PIN, PinFor::OneAction).unwrap();
    manager_only(crate::door(&counter, Action::IssueGiftCard, call("500")));
    manager_only(crate::door(&counter, Action::IssueGiftCard, call("20")));
    // Approved for 20, admitted for 20: one card, and the next issue asks again.
    crate::approved(&counter, Action::IssueGiftCard, call("20"));
    counter.issue_gift_card(issue("20")).await.unwrap();
    manager_only(counter.issue_gift_card(issue("20")).await);
    manager_only(crate::door(&counter, Action::IssueGiftCard, call("20")));
    // An approval of one kind of call opens no other.
    crate::approved(&counter, Action::IssueGiftCard, call("20"));
    manager_only(counter.set_offline_payments(Default::default()));
    assert_eq!(issued_on_server().await, before + 1);

    // A manager's visit lasts while they work, and ends on leaving.
    counter.check_pin(None, PIN, PinFor::Visit).unwrap();
    assert!(counter.pin_status(None).unwrap().manager_here);
    for _ in 0..3 {
        env.clock.pass(idle * 2 / 3);
        counter.still_here().unwrap();
        counter.set_offline_payments(Default::default()).unwrap();
    }
    counter.manager_leaves();
    manager_only(counter.set_offline_payments(Default::default()));

    // ... and after the idle time, whatever the wall clock says; an approval lapses too.
    counter.check_pin(None, PIN, PinFor::Visit).unwrap();
    env.clock.advance(jiff::SignedDuration::from_hours(-2));
    env.clock.pass(idle - Duration::from_secs(1));
    assert!(counter.pin_status(None).unwrap().manager_here);
    env.clock.pass(Duration::from_secs(2));
    assert!(!counter.pin_status(None).unwrap().manager_here);
    manager_only(counter.set_offline_payments(Default::default()));
    manager_only(crate::door(&counter, Action::IssueGiftCard, call("20")));
    counter.check_pin(None, PIN, PinFor::OneAction).unwrap();
    env.clock.pass(idle + Duration::from_secs(1));
    manager_only(crate::door(&counter, Action::IssueGiftCard, call("20")));
    manager_only(counter.issue_gift_card(issue("20")).await);
    assert_eq!(issued_on_server().await, before + 1);
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kiosk_is_a_kiosk_in_the_core() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    // A manager was here when the kiosk turned on: they are forgotten.
    counter.set_kiosk(true).unwrap();
    assert!(!counter.pin_status(None).unwrap().manager_here);

    kiosk_refuses(
        counter
            .record_scan(card.clone(), ScanAction::Visit, None)
            .await,
    );
    kiosk_refuses(counter.connect(&env.sandbox_url(), &env.key).await);
    kiosk_refuses(counter.disconnect());
    kiosk_refuses(counter.take_payment(gift.clone(), "5", None).await);
    kiosk_refuses(counter.open_gift_card(&gift).await);
    kiosk_refuses(counter.read_card(&card).await);
    kiosk_refuses(counter.identify(card.as_str()).await);
    kiosk_refuses(counter.lookup_card(&card));
    kiosk_refuses(counter.search("Test", 10));
    kiosk_refuses(counter.queue(false, 10));
    kiosk_refuses(counter.history("2026-11-01", "2026-11-02", None, 10));
    kiosk_refuses(counter.passes().await);
    kiosk_refuses(counter.set_offline_payments(Default::default()));
    kiosk_refuses(counter.change_pin(PIN, "1357"));
    kiosk_refuses(counter.sync(Some(1)).await);
    kiosk_refuses(counter.people());
    kiosk_refuses(counter.sign_in(&counter_core::Credential::Pin {
        person: counter_core::ids::PersonId(1),
        pin: PIN.to_owned(),
    }));
    kiosk_refuses(
        counter
            .issue_gift_card(GiftCardIssue {
                amount: "20".into(),
                currency: "EUR".into(),
                locale: "en".into(),
                recipient_name: "Ada".into(),
                recipient_email: "ada@example.com".into(),
            })
            .await,
    );
    assert_eq!(
        kiosk_code(counter.search("Test", 10)),
        ErrorCode::NotAllowed
    );

    // What a kiosk does: a customer checks in.
    let counted = counter.check_in(card.as_str()).await.unwrap();
    assert!(matches!(counted, CheckIn::Counted { .. }), "{counted:?}");
    assert_eq!(env.scans_of(&customer).await, [("visit".to_owned(), 0)]);
    assert!(env.spends_of(&gift).await.is_empty());

    // Leaving takes the PIN.
    manager_only(counter.set_kiosk(false));
    crate::approved(&counter, Action::SetKiosk, json!({"on": false}));
    counter.set_kiosk(false).unwrap();
    crate::owner_signs_in(&counter);
    assert!(counter.search("Test", 10).is_ok());
    counter.close().await;
}

fn kiosk_code<T>(result: Result<T, Error>) -> ErrorCode {
    result.err().expect("refused").code()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kiosk_check_ins_made_offline_count_once_and_ask_no_one() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    counter.start_as_kiosk().unwrap();

    // Offline, a customer checks in three times: one is saved, the others are told.
    env.stop().await;
    let saved = counter.check_in(card.as_str()).await.unwrap();
    assert!(matches!(saved, CheckIn::Saved { .. }), "{saved:?}");
    for _ in 0..2 {
        let again = counter.check_in(card.as_str()).await.unwrap();
        assert_eq!(again, CheckIn::AlreadyCheckedIn { at: None });
    }
    assert_eq!(counter.counts().unwrap().queued, 1);
    env.restart().await;
    counter.send_now();
    drain(&counter).await;
    assert_eq!(env.scans_of(&customer).await, [("visit".to_owned(), 0)]);

    // Offline again a minute later: a check-in waits, and the service finds it too
    // recent when it goes. It is closed as already checked in, asking no one.
    env.stop().await;
    let saved = counter.check_in(card.as_str()).await.unwrap();
    assert!(matches!(saved, CheckIn::Saved { .. }), "{saved:?}");
    env.restart().await;
    counter.send_now();
    drain(&counter).await;
    let counts = counter.counts().unwrap();
    assert_eq!((counts.queued, counts.needs_decision), (0, 0));
    assert_eq!(env.scans_of(&customer).await, [("visit".to_owned(), 0)]);
    crate::approved(&counter, Action::SetKiosk, json!({"on": false}));
    counter.set_kiosk(false).unwrap();
    crate::owner_signs_in(&counter);
    let closed = counter
        .queue(false, 10)
        .unwrap()
        .into_iter()
        .find(|item| item.state == ItemState::Refused)
        .expect("the second check-in is closed");
    assert!(closed.kiosk);
    assert!(!counter.choices(&closed).confirm_repeat);
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sending_a_gift_card_again_is_the_managers_and_shows_the_card_probably_issued() {
    let env = Env::start().await;
    let (_, first_key) = env.mint_key().await;
    // Retries far apart: what happens between attempts is the test's.
    let patient = Config {
        retry: loyalty_api::RetryPolicy {
            initial_delay: Duration::from_secs(60),
            max_delay: Duration::from_secs(60),
            ..test_config().retry
        },
        probe_offline: Duration::from_secs(600),
        probe_online: Duration::from_secs(600),
        ..test_config()
    };
    let counter = env.open_with(patient).await;
    counter
        .connect(&env.sandbox_url(), &first_key)
        .await
        .unwrap();
    crate::owner_signs_in(&counter);
    let cards_for_grace = || async {
        env.api_get("/v1/gift_cards?limit=100").await["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|card| card["recipient"]["email"] == "grace@example.com")
            .count()
    };

    // The card is issued, and its answer lost.
    env.fault(json!({"path": "/v1/gift_cards", "count": 1, "drop_after_commit": true}))
        .await;
    let issued = counter
        .issue_gift_card(GiftCardIssue {
            amount: "30".into(),
            currency: "EUR".into(),
            locale: "en".into(),
            recipient_name: "Grace".into(),
            recipient_email: "grace@example.com".into(),
        })
        .await
        .unwrap();
    let counter_core::Outcome::Queued { item } = issued else {
        panic!("the answer was not lost: {issued:?}");
    };
    assert_eq!(cards_for_grace().await, 1);

    // The key is replaced: the issue, which may have arrived under the first key,
    // waits for a person.
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    counter.send_now();
    crate::wait_for_state(&counter, item, ItemState::NeedsDecision).await;
    let waiting = counter.item(item).unwrap();
    let choices = counter.choices(&waiting);
    assert!(choices.send_again && choices.send_again_needs_manager);

    // A cashier cannot send it again, at the door or in the core; the manager sees the
    // card it probably issued, and withdraws it on her screen.
    crate::cashier_signs_in(&counter);
    manager_only(crate::door(
        &counter,
        Action::RetryItem,
        json!({"item": item}),
    ));
    manager_only(counter.retry_item(item));
    assert_eq!(counter.item(item).unwrap().state, ItemState::NeedsDecision);
    let probably = counter.probably_issued(item).await.unwrap();
    assert_eq!(probably.len(), 1, "{probably:?}");
    assert_eq!(probably[0].amount, "30.00");
    assert_eq!(probably[0].recipient_name.as_deref(), Some("Grace"));
    let withdraw = json!({"item": item, "note": "issued already: this is probably it"});
    crate::approved(&counter, Action::DiscardItem, withdraw);
    counter
        .discard(item, "issued already: this is probably it")
        .unwrap();
    counter.send_now();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(cards_for_grace().await, 1, "one card, never two");
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_replaced_or_forgotten_never_comes_back_at_the_next_start() {
    let env = Env::start().await;
    let (_, first_key) = env.mint_key().await;
    let counter = env.open_with(test_config()).await;
    counter
        .connect(&env.sandbox_url(), &first_key)
        .await
        .unwrap();
    crate::manager_for_one_action(&counter);
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    counter.close().await;
    // Where the key is kept still holds the replaced one (a keychain that would not
    // forget it, a file left behind).
    let file = env.till_dir().join("api-key");
    std::fs::write(&file, &first_key).unwrap();
    let counter = env.open_with(test_config()).await;
    assert_eq!(counter.connection(), None, "the replaced key is not used");
    assert!(!file.exists(), "and it is removed");
    counter.close().await;

    // Forgotten by the manager, then found again where it was kept.
    let counter = env.counter().await;
    crate::manager_for_one_action(&counter);
    counter.disconnect().unwrap();
    counter.close().await;
    std::fs::write(&file, &env.key).unwrap();
    let counter = env.open_with(test_config()).await;
    assert_eq!(counter.connection(), None, "the forgotten key is not used");
    assert!(!file.exists());
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_the_key_caused_never_closes_a_write() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    // A key of the business that may only read: the visit is refused 403
    // insufficient_scope, which says nothing of the visit itself.
    let read_only = env
        .control(
            "POST",
            "/_sandbox/keys",
            json!({"business_id": env.business_id, "mode": "test", "scopes": ["read"]}),
        )
        .await;
    let counter = env.open_with(test_config()).await;
    counter
        .connect(&env.sandbox_url(), read_only["key"].as_str().unwrap())
        .await
        .unwrap();
    let outcome = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    let ScanOutcome::Queued { item, .. } = outcome else {
        panic!("closed by the key's refusal: {outcome:?}");
    };
    tokio::time::sleep(Duration::from_secs(1)).await;
    let waiting = counter.item(item).unwrap();
    assert_eq!(waiting.state, ItemState::Queued, "{waiting:?}");
    assert!(env.scans_of(&customer).await.is_empty());

    // A key that may: it goes, once.
    crate::manager_for_one_action(&counter);
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    drain(&counter).await;
    assert_eq!(counter.item(item).unwrap().state, ItemState::Done);
    assert_eq!(env.scans_of(&customer).await, [("visit".to_owned(), 0)]);
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_no_customer_of_this_business_has_is_refused_before_anything_is_stored() {
    let mut env = Env::start().await;
    let counter = env.counter().await;
    counter.sync(None).await.unwrap();
    let nowhere = loyalty_api::CardId::new(format!("card_{}", "Q".repeat(24)));

    // While the service answers, the till's copy (read up to now) knows every card of
    // the business: a card none of its customers has is refused, and nothing is stored.
    let refused = counter
        .record_scan(nowhere.clone(), ScanAction::Visit, None)
        .await;
    assert!(
        matches!(
            refused,
            Err(Error::NotAllowed(NotAllowed::NotACardOfThisBusiness))
        ),
        "{refused:?}"
    );
    assert!(counter.queue(false, 10).unwrap().is_empty());

    // A card enrolled since the till's last walk is found, and its visit counts.
    let (card, customer) = env.new_visit_card().await;
    let counted = counter
        .record_scan(card, ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(counted, ScanOutcome::Done { .. }), "{counted:?}");
    assert_eq!(env.scans_of(&customer).await.len(), 1);

    // A pass of no business of this key's: the enrolment is refused, nothing stored.
    let refused = counter
        .enrol(Enrolment {
            pass_id: Some(loyalty_api::PassId::new(format!("pass_{}", "Q".repeat(24)))),
            name: "Nobody".into(),
            email: "nobody@example.com".into(),
            wallet: "apple".into(),
            send_welcome: false,
        })
        .await;
    assert!(
        matches!(
            refused,
            Err(Error::NotAllowed(NotAllowed::NotOfThisBusiness))
        ),
        "{refused:?}"
    );
    assert_eq!(counter.queue(false, 10).unwrap().len(), 1);

    // At the kiosk: not a card of this shop, said to the customer; nothing stored.
    crate::owner_signs_in(&counter);
    counter.set_kiosk(true).unwrap();
    assert_eq!(
        counter.check_in(nowhere.as_str()).await.unwrap(),
        CheckIn::NotOurs
    );
    crate::approved(&counter, Action::SetKiosk, json!({"on": false}));
    counter.set_kiosk(false).unwrap();
    crate::owner_signs_in(&counter);
    assert_eq!(counter.queue(false, 10).unwrap().len(), 1);

    // Offline the till cannot tell (a card enrolled elsewhere today may be real): the
    // visit waits, and the service decides when it goes.
    env.stop().await;
    let waiting = counter
        .record_scan(nowhere, ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(waiting, ScanOutcome::Queued { .. }), "{waiting:?}");
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_manager_chooses_the_camera_and_the_scanners_layout_and_a_device_that_is_not_one_changes_nothing()
 {
    let env = Env::start().await;
    let counter = env.counter().await;
    // A cashier.
    crate::cashier_signs_in(&counter);
    assert_eq!(
        counter
            .set_camera(Some("/dev/video0".into()))
            .unwrap_err()
            .code(),
        ErrorCode::PinRefused
    );
    // Whoever asks, what is not a camera's device is refused before the PIN.
    for bad in [
        "/dev/sda",
        "/etc/passwd",
        "/dev/video",
        "/dev/video0/../sda",
        "video0",
    ] {
        assert_eq!(
            counter.set_camera(Some(bad.into())).unwrap_err().code(),
            ErrorCode::InvalidCamera,
            "{bad}"
        );
    }
    assert_eq!(counter.camera_choice().unwrap(), None);
    assert_eq!(
        counter
            .set_scanner_layout(KeyboardLayout::Fr)
            .unwrap_err()
            .code(),
        ErrorCode::PinRefused
    );
    assert_eq!(counter.scanner_layout().unwrap(), KeyboardLayout::Us);
    // The manager signs in.
    crate::owner_signs_in(&counter);
    counter.set_scanner_layout(KeyboardLayout::Fr).unwrap();
    assert_eq!(counter.scanner_layout().unwrap(), KeyboardLayout::Fr);
    counter.set_camera(Some(" /dev/video2 ".into())).unwrap();
    assert_eq!(
        counter.camera_choice().unwrap().as_deref(),
        Some("/dev/video2")
    );
    // At the kiosk, the customer may use the camera the till has, not choose it or
    // list the computer's.
    counter.set_kiosk(true).unwrap();
    kiosk_refuses(counter.set_camera(None));
    kiosk_refuses(counter.camera_choice());
    kiosk_refuses(counter.set_scanner_layout(KeyboardLayout::Us));
    kiosk_refuses(counter.scanner_layout());
    assert_eq!(
        counter.chosen_camera().unwrap().as_deref(),
        Some("/dev/video2")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_business_or_a_forgotten_key_leaves_no_customer_of_the_first_at_the_till() {
    let env = Env::start().await;
    let (card, _) = env.new_visit_card().await;
    let gift = env.gift_card(10).await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    counter.sync(None).await.unwrap();
    counter.read_card(&card).await.unwrap();
    counter.open_gift_card(&gift).await.unwrap();
    let found = |counter: &Counter| counter.search("Test", 50).unwrap().len();
    assert!(found(&counter) > 0);
    // A walk interrupted half-way: it must not resume under another key.
    env.new_card().await;

    // Connected to another business: the first's customers, cards and gift cards are
    // gone from the till, from its search index too.
    let (_, other_key) = other_business(&env).await;
    counter
        .connect(&env.sandbox_url(), &other_key)
        .await
        .unwrap();
    assert_eq!(found(&counter), 0);
    assert!(counter.gift_card(&gift).unwrap().is_none());
    let db = env.till_db();
    for table in [
        "customers",
        "cards",
        "gift_cards",
        "customer_search",
        "sync_state",
    ] {
        let n: i64 = db
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0, "{table} still holds the first business's rows");
    }

    // Back to the first business, and its key forgotten: nothing of it stays either.
    counter.connect(&env.sandbox_url(), &env.key).await.unwrap();
    counter.sync(None).await.unwrap();
    assert!(found(&counter) > 0);
    // A snapshot taken before an upgrade holds the business's customers too.
    let snapshots = env.till_dir().join("snapshots");
    std::fs::create_dir_all(&snapshots).unwrap();
    std::fs::write(
        snapshots.join("till-2026-11-01T09-00-00Z-schema15.db"),
        b"x",
    )
    .unwrap();
    counter.disconnect().unwrap();
    assert_eq!(found(&counter), 0);
    assert_eq!(
        std::fs::read_dir(&snapshots).unwrap().count(),
        0,
        "a snapshot of the forgotten business is left"
    );
    // The till's database holds no customer's email any more.
    assert!(
        !env.till_holds("@example.com"),
        "a customer's email is still in the till"
    );
    counter.close().await;
}
