//! A shop is a team: each person signs in, the till locks itself, every write says
//! who made it at which till, and what each role may do is the owner's table, held in
//! the core whatever the page sends. Against the real server, judged by its records
//! and the till's own file.

use std::time::Duration;

use counter_core::ids::PersonId;
use counter_core::people::{LockPolicy, PersonChange};
use counter_core::pin::PinError;
use counter_core::roles::{Action, Role, Rule};
use counter_core::{Credential, Error, GiftCardIssue, NotAllowed, PaymentOutcome, ScanOutcome};
use loyalty_api::ScanAction;
use serde_json::json;

use crate::{CASHIER_PIN, Env, PIN, drain};

fn not_signed_in<T: std::fmt::Debug>(result: Result<T, Error>) {
    assert!(
        matches!(result, Err(Error::NotAllowed(NotAllowed::NotSignedIn))),
        "{result:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_till_locks_itself_after_the_idle_time_the_owner_chose_on_its_own_clock() {
    let env = Env::start().await;
    let (card, customer) = env.new_visit_card().await;
    let counter = env.counter().await;
    counter
        .set_lock_policy(LockPolicy {
            idle_minutes: 2,
            after_gift_card_payment: false,
        })
        .unwrap();
    // Nothing out of range is kept.
    for minutes in [0, 241] {
        assert!(
            counter
                .set_lock_policy(LockPolicy {
                    idle_minutes: minutes,
                    after_gift_card_payment: true,
                })
                .is_err()
        );
    }
    assert_eq!(counter.lock_policy().unwrap().idle_minutes, 2);
    crate::cashier_signs_in(&counter);

    // Touches keep it open; the wall clock moved back and forth changes nothing.
    for _ in 0..3 {
        env.clock.pass(Duration::from_secs(119));
        env.clock.advance(jiff::SignedDuration::from_hours(-1));
        counter.still_here().unwrap();
        assert_eq!(counter.seat().unwrap().person.unwrap().name, "Anna");
    }
    // Two minutes without one: locked, and a write is refused, stored nowhere.
    env.clock.advance(jiff::SignedDuration::from_hours(5));
    env.clock.pass(Duration::from_secs(121));
    assert_eq!(counter.seat().unwrap().person, None);
    not_signed_in(
        counter
            .record_scan(card.clone(), ScanAction::Visit, None)
            .await,
    );
    not_signed_in(counter.admit(Action::RecordScan, &json!({})));
    assert!(counter.queue(false, 10).unwrap().is_empty());
    assert!(env.scans_of(&customer).await.is_empty());
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_till_locks_after_each_gift_card_payment_when_the_owner_chose_so() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    counter
        .set_lock_policy(LockPolicy {
            idle_minutes: 5,
            after_gift_card_payment: true,
        })
        .unwrap();
    let anna = crate::cashier_signs_in(&counter);
    let paid = counter.take_payment(gift.clone(), "5", None).await.unwrap();
    assert!(matches!(paid, PaymentOutcome::Done { .. }), "{paid:?}");
    assert_eq!(
        counter.seat().unwrap().person,
        None,
        "locked after the payment"
    );
    // The payment is Anna's, whatever came after.
    let item = &counter.queue(false, 10);
    assert!(item.is_ok());
    assert_eq!(made_by(&env, 1), (Some(anna.0), true));
    assert_eq!(env.spends_of(&gift).await.len(), 1);
    counter.close().await;
}

/// Who made item `id`, and whether it names a till, read from the till's own file.
fn made_by(env: &Env, id: i64) -> (Option<i64>, bool) {
    let db = env.till_db();
    db.query_row(
        "SELECT person, till IS NOT NULL AND till = (SELECT till_id FROM till) FROM outbox
         WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

/// Three people take turns at one till over writes made online and offline, with a
/// restart and a switch while writes wait: each write stays its maker's, and the
/// server holds each once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_write_says_who_made_it_and_at_which_till() {
    let mut env = Env::start().await;
    let (card, customer) = env.new_card().await;
    let mut counter = env.counter().await;
    let ben = counter.add_person("Ben", Role::Manager, "8642").unwrap().id;
    let anna = crate::cashier_signs_in(&counter);
    let people = [(anna, CASHIER_PIN), (ben, "8642"), (PersonId(1), PIN)];
    let mut expected = Vec::new();
    for turn in 0..12 {
        if turn == 4 {
            env.stop().await;
        }
        if turn == 8 {
            // Writes wait; the till restarts, and whoever comes signs in again.
            counter.close().await;
            env.restart().await;
            counter = env.open_bare(crate::test_config()).await;
        }
        let (person, pin) = people[turn % 3];
        counter
            .sign_in(&Credential::Pin {
                person,
                pin: pin.to_owned(),
            })
            .unwrap();
        let outcome = counter
            .record_scan(card.clone(), ScanAction::Points, Some(1.into()))
            .await
            .unwrap();
        assert!(
            matches!(
                outcome,
                ScanOutcome::Done { .. } | ScanOutcome::Queued { .. }
            ),
            "{outcome:?}"
        );
        expected.push(person.0);
    }
    drain(&counter).await;
    for (n, person) in expected.iter().enumerate() {
        assert_eq!(
            made_by(&env, n as i64 + 1),
            (Some(*person), true),
            "write {}",
            n + 1
        );
    }
    // Each once on the server.
    let scans = env.scans_of(&customer).await;
    assert_eq!(scans.len(), expected.len(), "{scans:?}");
    counter.close().await;
}

/// A badge signs its person in; a customer's card signs no one in; a disabled
/// person's badge opens nothing, and their past writes keep their name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_badge_signs_its_person_in_and_a_customers_card_signs_no_one_in() {
    let env = Env::start().await;
    let (card, _) = env.new_visit_card().await;
    let counter = env.counter().await;
    let anna = counter
        .add_person("Anna Berg", Role::Cashier, CASHIER_PIN)
        .unwrap()
        .id;
    let badge = counter.make_badge(anna).unwrap().code;
    counter.lock_till();
    for not_a_badge in [card.as_str(), "staff_nothere2345678", "", "   "] {
        assert!(
            matches!(
                counter.sign_in(&Credential::Badge {
                    code: not_a_badge.to_owned()
                }),
                Err(Error::Pin(PinError::UnknownBadge))
            ),
            "{not_a_badge:?}"
        );
        assert_eq!(counter.seat().unwrap().person, None);
    }
    // As the scanner types it: Enter after.
    let seat = counter
        .sign_in(&Credential::Badge {
            code: format!("{badge}\r"),
        })
        .unwrap();
    assert_eq!(seat.person.unwrap().name, "Anna Berg");
    let scanned = counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    assert!(matches!(scanned, ScanOutcome::Done { .. }), "{scanned:?}");
    // A badge scanned at the counter is no card.
    assert!(matches!(
        counter.read_scan(&badge).await.unwrap(),
        counter_core::ScanFound::NotACard {
            reason: counter_core::scanner::NotACard::StaffBadge
        }
    ));
    crate::owner_signs_in(&counter);
    counter
        .change_person(anna, &PersonChange::Disabled { disabled: true })
        .unwrap();
    assert!(matches!(
        counter.sign_in(&Credential::Badge { code: badge }),
        Err(Error::Pin(PinError::UnknownBadge))
    ));
    assert_eq!(made_by(&env, 1), (Some(anna.0), true));
    counter.close().await;
}

/// The owner's table holds in the core: a cashier the owner lets issue gift cards
/// issues without an approval; one the owner refuses it to is refused, at the door and
/// where the write is made, and no approval opens it; only the owner changes the
/// table or the roster.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owners_table_holds_in_the_core() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let ben = counter.add_person("Ben", Role::Manager, "8642").unwrap().id;
    let issue = GiftCardIssue {
        amount: "10".into(),
        currency: "EUR".into(),
        locale: "en".into(),
        recipient_name: "Ada".into(),
        recipient_email: "ada@example.com".into(),
    };
    let call = json!({ "issue": issue });
    counter
        .set_rule(Action::IssueGiftCard, Role::Cashier, Rule::Allowed)
        .unwrap();
    crate::cashier_signs_in(&counter);
    counter.admit(Action::IssueGiftCard, &call).unwrap();
    counter.issue_gift_card(issue.clone()).await.unwrap();

    crate::owner_signs_in(&counter);
    counter
        .set_rule(Action::IssueGiftCard, Role::Cashier, Rule::Refused)
        .unwrap();
    crate::cashier_signs_in(&counter);
    let role_may_not = |result: Result<(), Error>| {
        assert!(
            matches!(
                result,
                Err(Error::NotAllowed(NotAllowed::RoleMayNot {
                    action: Action::IssueGiftCard
                }))
            ),
            "{result:?}"
        );
    };
    role_may_not(counter.admit(Action::IssueGiftCard, &call));
    // The owner's PIN typed on her screen approves nothing the table refuses.
    counter
        .check_pin(Some(PersonId(1)), PIN, counter_core::PinFor::OneAction)
        .unwrap();
    role_may_not(counter.admit(Action::IssueGiftCard, &call));
    role_may_not(counter.issue_gift_card(issue.clone()).await.map(drop));

    // A manager changes neither the table nor the roster.
    counter
        .sign_in(&Credential::Pin {
            person: ben,
            pin: "8642".into(),
        })
        .unwrap();
    for action in [
        Action::SetRule,
        Action::AddPerson,
        Action::ChangePerson,
        Action::Roster,
    ] {
        assert!(
            matches!(
                counter.admit(action, &json!({})),
                Err(Error::NotAllowed(NotAllowed::RoleMayNot { .. }))
            ),
            "{action:?}"
        );
    }
    assert!(counter.add_person("Eve", Role::Owner, "1111").is_err());
    assert!(
        counter
            .set_rule(Action::IssueGiftCard, Role::Cashier, Rule::Allowed)
            .is_err()
    );
    assert!(
        counter
            .change_person(ben, &PersonChange::Role { role: Role::Owner })
            .is_err()
    );
    assert_eq!(counter.people().unwrap().len(), 3);
    let issued = env.api_get("/v1/gift_cards?limit=100").await["data"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(issued, 1, "one card, issued while the table allowed it");
    counter.close().await;
}

/// A payment's reference names the till and its number (the cashier's ticket after it),
/// so the business tells its tills apart in the service's ledger; the card's ledger at
/// the till says who took each of this till's payments, and the receipt who served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_names_its_till_and_number_and_its_receipt_and_ledger_who_took_it() {
    let env = Env::start().await;
    let gift = env.gift_card(50).await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    counter.set_till_name("Counter 2").unwrap();
    crate::cashier_signs_in(&counter);
    let first = counter
        .take_payment(gift.clone(), "12.50", Some(" T-7 ".into()))
        .await
        .unwrap();
    // A payment refused before it is stored takes no number.
    assert!(
        counter
            .take_payment(gift.clone(), "500", None)
            .await
            .is_err()
    );
    crate::owner_signs_in(&counter);
    counter.take_payment(gift.clone(), "1", None).await.unwrap();

    // The service's own ledger.
    let card = env.api_get(&format!("/v1/gift_cards/{gift}")).await;
    let mut references: Vec<&str> = card["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["type"] == "spend")
        .map(|t| t["reference"].as_str().unwrap())
        .collect();
    references.reverse();
    assert_eq!(references, ["Counter 2 #1 · T-7", "Counter 2 #2"]);

    let (_, ledger) = counter.read_gift_card(&gift).await.unwrap();
    let takers: Vec<Option<&str>> = ledger
        .iter()
        .filter(|e| e.kind == counter_core::kinds::TransactionType::Spend)
        .map(|e| e.made_by.as_deref())
        .collect();
    assert_eq!(takers, [Some("Owner"), Some("Anna")], "newest first");

    let PaymentOutcome::Done { item, .. } = first else {
        panic!("{first:?}")
    };
    let job = counter.receipt_of(item).unwrap().expect("a receipt kept");
    let lines: Vec<String> = counter
        .receipt_preview(job)
        .unwrap()
        .lines
        .into_iter()
        .filter_map(|line| match line {
            counter_core::receipts::PaperLine::Text { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    assert!(lines.contains(&"Served by Anna".to_owned()), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.ends_with("Counter 2 #1 · T-7")),
        "{lines:#?}"
    );
}
