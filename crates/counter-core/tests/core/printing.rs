//! Receipts on a fake ESC/POS printer on a loopback port: what came out on "paper" is
//! decoded and judged (each receipt once, every line within the paper, the accents,
//! the cut, the voucher's QR code), whatever the printer's state when it was made.

use std::sync::Arc;
use std::time::Duration;

use counter_core::print_jobs::JobState;
use counter_core::receipts::{Language, Paper, PrinterAddress, PrinterSetup, PrinterState};
use counter_core::{
    Counter, Error, ErrorCode, GiftCardIssue, NotAllowed, Outcome, PaymentOutcome, ScanFound,
};
use fake_printer::{BarcodeKind, Condition, FakePrinter, Receipt};
use loyalty_api::{GiftCardId, ScanAction};
use rust_decimal::Decimal;

use crate::Env;

/// A till with a manager's visit open and `printer` set up on `paper`, speaking `language`.
async fn till_with(env: &Env, printer: &FakePrinter, paper: Paper, language: Language) -> Counter {
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    counter
        .set_printer(Some(PrinterSetup {
            address: PrinterAddress::Network {
                host: "127.0.0.1".into(),
                port: printer.addr().port(),
            },
            paper,
        }))
        .unwrap();
    counter.set_language(language).unwrap();
    counter
}

/// Waits (off the runtime's threads) until `n` receipts were cut, and returns them all.
async fn receipts(printer: &Arc<FakePrinter>, n: usize, wait: Duration) -> Vec<Receipt> {
    let printer = printer.clone();
    tokio::task::spawn_blocking(move || printer.wait_for_receipts(n, wait))
        .await
        .unwrap()
        .expect("what the printer received decodes")
}

fn fits(receipt: &Receipt, paper: Paper) {
    for line in &receipt.lines {
        assert!(
            line.columns() <= paper.columns(),
            "{:?} is wider than {paper:?}",
            line.text
        );
    }
    assert!(receipt.cut, "{receipt:?}");
    assert_eq!(receipt.code_page, 19, "PC858, for the accents and €");
}

async fn pay(counter: &Counter, gift: &GiftCardId, amount: &str, ticket: &str) {
    let paid = counter
        .take_payment(gift.clone(), amount, Some(ticket.into()))
        .await
        .unwrap();
    assert!(matches!(paid, PaymentOutcome::Done { .. }), "{paid:?}");
}

async fn state_becomes(counter: &Counter, wanted: PrinterState) {
    for _ in 0..100 {
        if counter.printer_report().await.unwrap().state == wanted {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the printer never said {wanted:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_prints_one_receipt_of_what_was_taken_and_what_is_left() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm58, Language::Fr).await;
    let gift = env.gift_card(50).await;
    pay(&counter, &gift, "20", "T-1042").await;

    let paper = receipts(&printer, 1, Duration::from_secs(10)).await;
    assert_eq!(paper.len(), 1, "{paper:#?}");
    let receipt = &paper[0];
    fits(receipt, Paper::Mm58);
    let text = receipt.text().join("\n");
    assert!(receipt.contains("PAIEMENT CARTE CADEAU"), "{text}");
    let end: String = gift
        .as_str()
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    for wanted in [
        format!("****{end}"),
        "T-1042".into(),
        "Montant débité".into(),
        "20,00 €".into(),
        "Solde restant".into(),
        "30,00 €".into(),
    ] {
        assert!(receipt.contains(&wanted), "{wanted:?} missing from\n{text}");
    }
    assert!(
        !receipt.contains(gift.as_str()),
        "the whole card id is on the receipt:\n{text}"
    );
    // The server took exactly that, once.
    let card = env.api_get(&format!("/v1/gift_cards/{gift}")).await;
    assert_eq!(card["balance"], "30.00");

    // Printed once: later rounds of the printer task send nothing more.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(printer.paper().unwrap().len(), 1);
    let jobs = counter.receipts().unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].state, JobState::Printed);
    // The preview is the same lines as the paper.
    let preview = counter.receipt_preview(jobs[0].id).unwrap();
    let previewed: Vec<String> = preview
        .lines
        .iter()
        .filter_map(|line| match line {
            counter_core::receipts::PaperLine::Text { text, .. } => Some(text.clone()),
            counter_core::receipts::PaperLine::Qr { .. } => None,
        })
        .collect();
    // The paper's last lines are the feed before the cut.
    let mut printed = receipt.text();
    while printed.last().is_some_and(|line| line.is_empty()) {
        printed.pop();
    }
    assert_eq!(previewed, printed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receipt_made_while_the_printer_is_off_prints_once_when_it_is_back() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    printer.set_condition(Condition::Off);
    let gift = env.gift_card(40).await;
    pay(&counter, &gift, "15", "A-1").await;

    state_becomes(&counter, PrinterState::Unreachable).await;
    let report = counter.printer_report().await.unwrap();
    assert_eq!(report.waiting, 1);
    assert!(printer.printed().is_empty());

    printer.set_condition(Condition::Online);
    let paper = receipts(&printer, 1, Duration::from_secs(10)).await;
    assert_eq!(paper.len(), 1);
    fits(&paper[0], Paper::Mm80);
    assert!(paper[0].contains("Balance left"), "{:?}", paper[0].text());
    assert!(paper[0].contains("€25.00"), "{:?}", paper[0].text());
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(printer.paper().unwrap().len(), 1, "printed twice");
    assert_eq!(counter.printer_report().await.unwrap().waiting, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paper_out_is_said_and_the_receipt_prints_once_paper_is_back() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    printer.set_condition(Condition::PaperOut);
    let gift = env.gift_card(40).await;
    pay(&counter, &gift, "10", "P-1").await;

    state_becomes(&counter, PrinterState::PaperOut).await;
    // Asked while out of paper, the printer was sent no job: it would keep it in its
    // buffer (lost if it is switched off) while the till counted it printed. The job
    // waits, and the printer got nothing but status requests.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(counter.printer_report().await.unwrap().waiting, 1);
    assert_eq!(counter.receipts().unwrap()[0].state, JobState::Queued);
    let received = printer.received();
    assert!(
        !received.windows(2).any(|w| w == [0x1b, b'@']),
        "a job was sent to a printer out of paper"
    );
    printer.set_condition(Condition::Online);
    let paper = receipts(&printer, 1, Duration::from_secs(10)).await;
    assert_eq!(paper.len(), 1, "{paper:#?}");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(printer.paper().unwrap().len(), 1, "printed twice");

    // The cover open is said too, and a printer that answers nothing is not sent jobs.
    printer.set_condition(Condition::CoverOpen);
    state_becomes(&counter, PrinterState::CoverOpen).await;
    printer.set_condition(Condition::Silent);
    counter.print_test().unwrap();
    state_becomes(&counter, PrinterState::NoAnswer).await;
    assert_eq!(printer.paper().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_voucher_carries_the_gift_cards_id_as_a_qr_code_the_counter_opens() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    let issued = counter
        .issue_gift_card(GiftCardIssue {
            amount: "25".into(),
            currency: "EUR".into(),
            locale: "en".into(),
            recipient_name: "Zoë Martin".into(),
            recipient_email: "zoe@example.com".into(),
        })
        .await
        .unwrap();
    let Outcome::Done { answer, .. } = issued else {
        panic!("{issued:?}");
    };
    let paper = receipts(&printer, 1, Duration::from_secs(10)).await;
    assert_eq!(paper.len(), 1);
    let voucher = &paper[0];
    fits(voucher, Paper::Mm80);
    assert!(voucher.contains("GIFT VOUCHER") && voucher.contains("€25.00"));
    assert!(voucher.contains("For Zoë Martin"), "{:?}", voucher.text());
    assert_eq!(voucher.barcodes.len(), 1);
    let qr = &voucher.barcodes[0];
    assert_eq!(qr.kind, BarcodeKind::QrModel2);
    assert_eq!(qr.data, answer.gift_card.id.as_str());

    // The code, drawn and read as a scanner would, opens that gift card at the counter.
    let scanned = fake_printer::read_drawn_qr(&qr.data).unwrap();
    match counter.read_scan(&scanned).await.unwrap() {
        ScanFound::GiftCard { id, .. } => assert_eq!(id, answer.gift_card.id),
        other => panic!("{other:?}"),
    }
}

/// Every text line of a preview, and whether it holds a QR code.
fn preview_of(counter: &Counter, job: counter_core::print_jobs::JobId) -> (String, bool) {
    let preview = counter.receipt_preview(job).unwrap();
    let mut text = String::new();
    let mut qr = false;
    for line in &preview.lines {
        match line {
            counter_core::receipts::PaperLine::Text { text: t, .. } => {
                text.push_str(t);
                text.push('\n');
            }
            counter_core::receipts::PaperLine::Qr { .. } => qr = true,
        }
    }
    (text, qr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vouchers_card_is_whole_only_on_paper_its_copy_is_a_managers_and_its_day_over_no_card() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    let issued = counter
        .issue_gift_card(GiftCardIssue {
            amount: "15".into(),
            currency: "EUR".into(),
            locale: "en".into(),
            recipient_name: "Ines".into(),
            recipient_email: "ines@example.com".into(),
        })
        .await
        .unwrap();
    let Outcome::Done { answer, .. } = issued else {
        panic!("{issued:?}");
    };
    let card = answer.gift_card.id.as_str().to_owned();
    let end = &card[card.len() - 4..];
    receipts(&printer, 1, Duration::from_secs(10)).await;
    let job = counter.receipts().unwrap()[0].id;

    // On screen, the card by its last four characters, and no QR code.
    let (text, qr) = preview_of(&counter, job);
    assert!(!qr && !text.contains(&card), "{text}");
    assert!(text.contains(&format!("****{end}")), "{text}");

    // A copy is a manager's: a cashier is refused, through the page's door and the core.
    crate::cashier_signs_in(&counter);
    let arguments = serde_json::json!({ "job": job.0 });
    assert!(matches!(
        crate::door(&counter, counter_core::roles::Action::Reprint, arguments),
        Err(Error::Pin(_))
    ));
    assert!(matches!(counter.reprint(job), Err(Error::Pin(_))));
    assert_eq!(printer.paper().unwrap().len(), 1);

    // The manager's copy says so, and is still the card (the paper may have jammed).
    crate::owner_signs_in(&counter);
    counter.reprint(job).unwrap();
    let paper = receipts(&printer, 2, Duration::from_secs(10)).await;
    assert!(paper[1].contains("COPY"), "{:?}", paper[1].text());
    assert_eq!(paper[1].barcodes.len(), 1);
    assert_eq!(paper[1].barcodes[0].data, card);

    // A day later the till keeps the card's last four alone: a copy is a record.
    counter.close().await;
    env.clock.advance(jiff::SignedDuration::from_hours(25));
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !preview_of(&counter, job).0.contains("no card") {
        assert!(
            std::time::Instant::now() < deadline,
            "the card is still kept"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let db = env.till_db();
    let kept: Vec<String> = db
        .prepare("SELECT receipt FROM print_jobs")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(kept.iter().all(|r| !r.contains(&card)), "{kept:?}");
    counter.reprint(job).unwrap();
    let paper = receipts(&printer, 3, Duration::from_secs(10)).await;
    assert!(paper[2].contains("COPY") && paper[2].contains(&format!("****{end}")));
    assert!(paper[2].barcodes.is_empty(), "a copy printed as a card");
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loyalty_slip_shows_the_progress_and_prints_again_on_request() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm58, Language::Fr).await;
    let (card, _) = env.new_visit_card().await;
    counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    counter.read_card(&card).await.unwrap();
    let slip = counter.print_slip(&card).await.unwrap();
    let paper = receipts(&printer, 1, Duration::from_secs(10)).await;
    let text = paper[0].text().join("\n");
    fits(&paper[0], Paper::Mm58);
    assert!(paper[0].contains("CARTE DE FIDÉLITÉ"), "{text}");
    assert!(paper[0].contains("1 / 10"), "{text}");
    assert!(paper[0].contains("Encore 9 visites pour"), "{text}");

    let again = counter.reprint(slip).unwrap();
    assert_ne!(again, slip);
    let paper = receipts(&printer, 2, Duration::from_secs(10)).await;
    assert_eq!(paper.len(), 2);
    // The same slip, marked as a copy.
    let copy = paper[1].text();
    assert_eq!(copy[0].trim(), "DUPLICATA");
    assert_eq!(paper[0].text(), copy[1..]);
}

/// Puts `job` where a printer that stopped answering halfway leaves it: it may have
/// printed (what the device's own test makes happen on a pseudo-terminal).
fn left_unsure(env: &Env, job: counter_core::print_jobs::JobId) {
    let db = env.till_db();
    let changed = db
        .execute(
            "UPDATE print_jobs SET state = 'unsure' WHERE id = ?1",
            [job.0],
        )
        .unwrap();
    assert_eq!(changed, 1);
}

/// A receipt that may have printed is never sent again by itself: the person at the
/// printer says it did (it stays printed, once) or has it printed again, as it was; a
/// voucher again is a manager's, as its copy is. The screens count it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receipt_that_may_have_printed_waits_for_a_persons_word() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    let (card, _) = env.new_visit_card().await;
    counter
        .record_scan(card.clone(), ScanAction::Visit, None)
        .await
        .unwrap();
    counter.read_card(&card).await.unwrap();
    let slip = counter.print_slip(&card).await.unwrap();
    receipts(&printer, 1, Duration::from_secs(10)).await;
    let issued = counter
        .issue_gift_card(GiftCardIssue {
            amount: "10".into(),
            currency: "EUR".into(),
            locale: "en".into(),
            recipient_name: "Noor".into(),
            recipient_email: "noor@example.com".into(),
        })
        .await
        .unwrap();
    assert!(matches!(issued, Outcome::Done { .. }), "{issued:?}");
    receipts(&printer, 2, Duration::from_secs(10)).await;
    let voucher = counter.receipts().unwrap()[0].id;
    left_unsure(&env, slip);
    left_unsure(&env, voucher);
    assert_eq!(counter.printer_report().await.unwrap().unsure, 2);

    // Nothing goes again by itself.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(printer.paper().unwrap().len(), 2);

    // A cashier may say a slip printed, or print it again; not a voucher again.
    crate::cashier_signs_in(&counter);
    let again = serde_json::json!({ "job": voucher.0, "printed": false });
    assert!(matches!(
        crate::door(&counter, counter_core::roles::Action::SettlePrint, again),
        Err(Error::Pin(_))
    ));
    assert!(matches!(
        counter.settle_print(voucher, false),
        Err(Error::Pin(_))
    ));
    counter.settle_print(slip, false).unwrap();
    let paper = receipts(&printer, 3, Duration::from_secs(10)).await;
    assert!(!paper[2].contains("COPY"), "{:?}", paper[2].text());
    assert_eq!(
        paper[2].text(),
        paper[0].text(),
        "the slip again, as it was"
    );

    // The voucher printed after all: said once, it stays printed, and nothing prints.
    counter.settle_print(voucher, true).unwrap();
    assert!(matches!(
        counter.settle_print(voucher, true),
        Err(Error::NotAllowed(NotAllowed::NotUnsure))
    ));
    let jobs = counter.receipts().unwrap();
    let state = |job| jobs.iter().find(|j| j.id == job).unwrap().state;
    assert_eq!(state(voucher), JobState::Printed);
    assert_eq!(state(slip), JobState::Printed);
    assert_eq!(counter.printer_report().await.unwrap().unsure, 0);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(printer.paper().unwrap().len(), 3);
    counter.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_printer_receipts_are_kept_and_printing_is_refused_in_words() {
    let env = Env::start().await;
    let counter = env.counter().await;
    let gift = env.gift_card(30).await;
    pay(&counter, &gift, "5", "K-1").await;
    let jobs = counter.receipts().unwrap();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].state, JobState::Kept);
    assert!(counter.receipt_preview(jobs[0].id).is_ok());
    let refused = counter.reprint(jobs[0].id).unwrap_err();
    assert!(
        matches!(refused, Error::NotAllowed(NotAllowed::NoPrinter)),
        "{refused:?}"
    );
    let (card, _) = env.new_card().await;
    counter.sync(None).await.unwrap();
    assert!(matches!(
        counter.print_slip(&card).await,
        Err(Error::NotAllowed(NotAllowed::NoPrinter))
    ));
    assert_eq!(
        counter
            .reprint(counter_core::print_jobs::JobId(999))
            .unwrap_err()
            .code(),
        ErrorCode::NoSuchReceipt
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cashier_without_the_pin_cannot_set_up_a_printer_and_bad_addresses_change_nothing() {
    let env = Env::start().await;
    let counter = env.counter().await;
    crate::cashier_signs_in(&counter);
    let setup = |address| PrinterSetup {
        address,
        paper: Paper::Mm80,
    };
    let cashier = counter.set_printer(Some(setup(PrinterAddress::Network {
        host: "127.0.0.1".into(),
        port: 9100,
    })));
    assert_eq!(cashier.unwrap_err().code(), ErrorCode::PinRefused);
    for bad in [
        PrinterAddress::Network {
            host: "".into(),
            port: 9100,
        },
        PrinterAddress::Network {
            host: "a b".into(),
            port: 9100,
        },
        PrinterAddress::Network {
            host: "printer".into(),
            port: 0,
        },
        PrinterAddress::Device {
            path: "/etc/passwd".into(),
        },
        // A serial line only when chosen as such; a serial line is a tty's.
        PrinterAddress::Device {
            path: "/dev/ttyUSB0".into(),
        },
        PrinterAddress::Serial {
            path: "/dev/sda".into(),
        },
    ] {
        assert_eq!(
            counter
                .set_printer(Some(setup(bad.clone())))
                .unwrap_err()
                .code(),
            ErrorCode::InvalidPrinter,
            "{bad:?}"
        );
    }
    assert_eq!(counter.printer().unwrap(), None);
    assert!(counter.print_test().is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_scanned_more_often_than_the_threshold_is_flagged_and_listed() {
    let env = Env::start().await;
    let counter = env.counter().await;
    crate::owner_signs_in(&counter);
    assert_eq!(counter.unusual_activity().unwrap().threshold, 5);
    counter.set_unusual_threshold(2).unwrap();
    assert!(counter.set_unusual_threshold(0).is_err());
    let (card, _) = env.new_card().await;
    let (calm, _) = env.new_card().await;
    counter.sync(None).await.unwrap();
    for _ in 0..3 {
        counter
            .record_scan(card.clone(), ScanAction::Points, Some(Decimal::from(5)))
            .await
            .unwrap();
    }
    counter
        .record_scan(calm.clone(), ScanAction::Points, Some(Decimal::from(5)))
        .await
        .unwrap();
    let offer = |found| match found {
        counter_core::FreshCard::Found(lookup) => {
            counter.card_offer(&lookup.card, lookup.queued_writes)
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(
        offer(counter.read_card(&card).await.unwrap()).unusual_scans,
        Some(3)
    );
    assert_eq!(
        offer(counter.read_card(&calm).await.unwrap()).unusual_scans,
        None
    );
    let listed = counter.unusual_activity().unwrap();
    assert_eq!(listed.cards.len(), 1);
    assert_eq!(listed.cards[0].card_id, card);
    assert_eq!(listed.cards[0].scans, 3);
    // Nothing is blocked: the fourth scan counts on the server.
    counter
        .record_scan(card.clone(), ScanAction::Points, Some(Decimal::from(5)))
        .await
        .unwrap();
    crate::cashier_signs_in(&counter);
    assert_eq!(
        counter.unusual_activity().unwrap_err().code(),
        ErrorCode::PinRefused
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receipt_waiting_for_the_printer_survives_the_till_closing_and_prints_once_after() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    printer.set_condition(Condition::Off);
    let gift = env.gift_card(20).await;
    pay(&counter, &gift, "5", "R-1").await;
    state_becomes(&counter, PrinterState::Unreachable).await;
    // The till goes away (closed, as a crash leaves it: the job is in SQLite already).
    counter.close().await;
    printer.set_condition(Condition::Online);
    let reopened = env.open_with(crate::test_config()).await;
    let paper = receipts(&printer, 1, Duration::from_secs(10)).await;
    assert_eq!(paper.len(), 1);
    assert!(paper[0].contains("R-1"), "{:?}", paper[0].text());
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(printer.paper().unwrap().len(), 1, "printed twice");
    assert_eq!(reopened.receipts().unwrap()[0].state, JobState::Printed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_customers_screen_shows_the_card_then_the_balance_then_welcomes_the_next() {
    use counter_core::CustomerScreen;
    let env = Env::start().await;
    let counter = env
        .counter_with(counter_core::Config {
            customer_screen_idle: Duration::from_millis(500),
            ..crate::test_config()
        })
        .await;
    counter.set_language(Language::Fr).unwrap();
    assert!(matches!(
        counter.customer_screen().unwrap(),
        CustomerScreen::Welcome {
            language: Language::Fr,
            ..
        }
    ));
    let mut events = counter.subscribe();
    let (card, _) = env.new_visit_card().await;
    counter.sync(None).await.unwrap();
    let counter_core::FreshCard::Found(lookup) = counter.read_card(&card).await.unwrap() else {
        panic!("the card was not read");
    };
    counter.card_offer(&lookup.card, 0);
    let shown = counter.customer_screen().unwrap();
    let CustomerScreen::Card { name, progress, .. } = &shown else {
        panic!("{shown:?}");
    };
    assert!(
        name.as_deref().is_some_and(|n| n.starts_with("Test ")),
        "{name:?}"
    );
    assert_eq!(progress.as_ref().map(|p| p.goal), Some(10));

    // Idle: the welcome comes back by itself, and is told.
    let welcomed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Ok(counter_core::Event::CustomerScreen(CustomerScreen::Welcome { .. })) =
                events.recv().await
            {
                return;
            }
        }
    })
    .await;
    assert!(welcomed.is_ok(), "the welcome did not come back");

    let gift = env.gift_card(30).await;
    pay(&counter, &gift, "12", "C-1").await;
    let shown = counter.customer_screen().unwrap();
    assert!(
        matches!(&shown, CustomerScreen::Balance { balance, .. } if balance == "18.00"),
        "{shown:?}"
    );
    counter.counter_idle().unwrap();
    assert!(matches!(
        counter.customer_screen().unwrap(),
        CustomerScreen::Welcome { .. }
    ));
}

/// The next report the screens are told that `wanted` accepts, within 10 s.
async fn told(
    events: &mut tokio::sync::broadcast::Receiver<counter_core::Event>,
    wanted: impl Fn(&counter_core::receipts::PrinterReport) -> bool,
) -> counter_core::receipts::PrinterReport {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, events.recv()).await {
            Ok(Ok(counter_core::Event::Printer(report))) if wanted(&report) => return report,
            Ok(Ok(counter_core::Event::Printer(report))) => seen.push(report),
            Ok(Ok(_)) | Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {}
            Ok(Err(err)) => panic!("events ended: {err}"),
            Err(_) => panic!("the screens were never told it; told {seen:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_receipt_waiting_is_counted_on_the_screens_while_the_paper_is_out() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    let mut events = counter.subscribe();
    printer.set_condition(Condition::PaperOut);
    let gift = env.gift_card(40).await;
    pay(&counter, &gift, "10", "P-1").await;
    told(&mut events, |r| {
        r.state == PrinterState::PaperOut && r.waiting == 1
    })
    .await;
    // A second receipt changes only the count: the screens are told it all the same.
    pay(&counter, &gift, "5", "P-2").await;
    told(&mut events, |r| {
        r.state == PrinterState::PaperOut && r.waiting == 2
    })
    .await;
    printer.set_condition(Condition::Online);
    told(&mut events, |r| r.waiting == 0).await;
    assert_eq!(
        receipts(&printer, 2, Duration::from_secs(10)).await.len(),
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paper_nearly_out_is_still_said_after_a_receipt_prints() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm80, Language::En).await;
    let mut events = counter.subscribe();
    printer.set_condition(Condition::PaperNearEnd);
    let gift = env.gift_card(40).await;
    pay(&counter, &gift, "10", "P-1").await;
    let after = told(&mut events, |r| r.waiting == 0).await;
    assert_eq!(
        receipts(&printer, 1, Duration::from_secs(10)).await.len(),
        1
    );
    assert_eq!(
        after.state,
        PrinterState::PaperNearEnd,
        "told {after:?} once it printed"
    );
}

/// A badge prints as a QR code that signs its person in when read at the lock screen;
/// once on paper, its code is kept nowhere in the till's file, only its digest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_badge_prints_as_a_qr_code_that_signs_its_person_in_and_is_then_kept_nowhere() {
    let env = Env::start().await;
    let printer = Arc::new(FakePrinter::start().unwrap());
    let counter = till_with(&env, &printer, Paper::Mm58, Language::Fr).await;
    let anna = counter
        .add_person(
            "Anna Berg",
            counter_core::roles::Role::Cashier,
            crate::CASHIER_PIN,
        )
        .unwrap()
        .id;
    let made = counter.make_badge(anna).unwrap();
    assert!(made.printing.is_some());
    let paper = receipts(&printer, 1, Duration::from_secs(10)).await;
    let badge = &paper[0];
    fits(badge, Paper::Mm58);
    assert!(
        badge.contains("BADGE EMPLOYÉ") && badge.contains("Anna Berg"),
        "{:?}",
        badge.text()
    );
    assert!(
        !badge.text().iter().any(|l| l.starts_with("Servi par")),
        "{:?}",
        badge.text()
    );
    assert_eq!(badge.barcodes.len(), 1);
    assert_eq!(badge.barcodes[0].kind, BarcodeKind::QrModel2);
    assert_eq!(badge.barcodes[0].data, made.code);

    // The code, as the camera or a scanner reads it, signs Anna in at the lock screen.
    let scanned = fake_printer::read_drawn_qr(&badge.barcodes[0].data).unwrap();
    counter.lock_till();
    let seat = counter
        .sign_in(&counter_core::Credential::Badge { code: scanned })
        .unwrap();
    assert_eq!(seat.person.unwrap().name, "Anna Berg");

    // Printed: the print queue keeps the code no more (the till keeps its digest on
    // Anna's line, to match a scan against).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let kept: Vec<String> = {
            let db = env.till_db();
            let mut rows = db.prepare("SELECT receipt FROM print_jobs").unwrap();
            rows.query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let printed = counter
            .receipts()
            .unwrap()
            .iter()
            .any(|job| job.state == JobState::Printed);
        if printed
            && kept
                .iter()
                .all(|receipt| !receipt.contains(&made.code[6..]))
        {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the print queue still holds the badge's code (printed: {printed})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
