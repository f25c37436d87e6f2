//! The printer over real TCP, driven by the `escpos` crate's network driver.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

use escpos::driver::{Driver, NetworkDriver};
use escpos::printer::Printer;
use escpos::utils::{Protocol, RealTimeStatusRequest, RealTimeStatusResponse as Status};
use fake_printer::{Condition, FakePrinter, Receipt};

const WAIT: Duration = Duration::from_secs(5);

fn driver(printer: &FakePrinter) -> NetworkDriver {
    NetworkDriver::open(
        "127.0.0.1",
        printer.addr().port(),
        Some(Duration::from_secs(2)),
    )
    .unwrap()
}

/// Sends a receipt through the crate's network driver, on a connection of its own.
fn print_receipt(printer: &FakePrinter, text: &str) {
    Printer::new(driver(printer), Protocol::default(), None)
        .init()
        .and_then(|p| p.writeln(text))
        .and_then(|p| p.print_cut())
        .unwrap();
}

/// Asks the four statuses on one connection and parses the answers with the crate.
fn statuses(driver: &NetworkDriver) -> [std::collections::HashMap<Status, bool>; 4] {
    let requests = [
        RealTimeStatusRequest::Printer,
        RealTimeStatusRequest::OfflineCause,
        RealTimeStatusRequest::ErrorCause,
        RealTimeStatusRequest::RollPaperSensor,
    ];
    let mut printer = Printer::new(driver.clone(), Protocol::default(), None);
    for request in requests {
        printer.real_time_status(request).unwrap();
    }
    printer.send_status().unwrap();
    let mut answers = [0; 4];
    let mut got = 0;
    while got < 4 {
        got += driver.read(&mut answers[got..]).unwrap();
    }
    requests.map(|request| Status::parse(request, answers[requests_index(request)]).unwrap())
}

fn requests_index(request: RealTimeStatusRequest) -> usize {
    let (n, _): (u8, u8) = request.into();
    usize::from(n - 1)
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(5));
    }
}

fn texts(receipts: &[Receipt]) -> Vec<Vec<String>> {
    receipts.iter().map(Receipt::text).collect()
}

#[test]
fn online_prints_what_it_receives() {
    let printer = FakePrinter::start().unwrap();
    assert!(printer.addr().ip().is_loopback());
    assert_eq!(printer.condition(), Condition::Online);
    print_receipt(&printer, "Bonjour");
    let paper = printer.wait_for_receipts(1, WAIT).unwrap();
    assert_eq!(texts(&paper), [["Bonjour"]]);
    assert!(paper[0].cut);
    assert_eq!(printer.received(), printer.printed());
    assert_eq!(printer.connections(), 1);
}

#[test]
fn online_answers_online_with_paper() {
    let printer = FakePrinter::start().unwrap();
    let [status, offline, error, roll] = statuses(&driver(&printer));
    assert!(status[&Status::Online]);
    assert!(offline[&Status::CoverClosed] && !offline[&Status::PrintingStopsDueToPaperEnd]);
    assert!(
        !error[&Status::UnrecoverableErrorOccurred] && !error[&Status::AutocutterErrorOccurred]
    );
    assert!(
        roll[&Status::RollPaperNearEndSensorPaperAdequate]
            && roll[&Status::RollPaperEndSensorPaperPresent]
    );
    // Status requests are received, not printed.
    assert_eq!(
        printer.received(),
        b"\x10\x04\x01\x00\x10\x04\x02\x00\x10\x04\x03\x00\x10\x04\x04\x00"
    );
    assert_eq!(printer.printed(), b"");
}

#[test]
fn near_end_prints_and_says_the_paper_runs_low() {
    let printer = FakePrinter::start().unwrap();
    printer.set_condition(Condition::PaperNearEnd);
    let [status, _, _, roll] = statuses(&driver(&printer));
    assert!(status[&Status::Online]);
    assert!(
        !roll[&Status::RollPaperNearEndSensorPaperAdequate]
            && roll[&Status::RollPaperEndSensorPaperPresent]
    );
    print_receipt(&printer, "low");
    assert_eq!(printer.wait_for_receipts(1, WAIT).unwrap().len(), 1);
}

#[test]
fn cover_open_says_offline_with_the_cover_open_and_keeps_the_job() {
    let printer = FakePrinter::start().unwrap();
    printer.set_condition(Condition::CoverOpen);
    let [status, offline, _, roll] = statuses(&driver(&printer));
    assert!(!status[&Status::Online]);
    assert!(!offline[&Status::CoverClosed] && !offline[&Status::PrintingStopsDueToPaperEnd]);
    assert!(roll[&Status::RollPaperEndSensorPaperPresent]);
    print_receipt(&printer, "kept");
    wait_until("the job", || printer.received().ends_with(b"\x1dVA\x00"));
    assert_eq!(printer.paper().unwrap(), []);
    printer.set_condition(Condition::Online);
    assert_eq!(texts(&printer.paper().unwrap()), [["kept"]]);
}

#[test]
fn paper_out_keeps_a_job_and_prints_it_once_back_online() {
    let printer = FakePrinter::start().unwrap();
    printer.set_condition(Condition::PaperOut);
    let driver = driver(&printer);
    let [status, offline, _, roll] = statuses(&driver);
    assert!(!status[&Status::Online]);
    assert!(offline[&Status::PrintingStopsDueToPaperEnd] && offline[&Status::CoverClosed]);
    assert!(!roll[&Status::RollPaperEndSensorPaperPresent]);

    print_receipt(&printer, "Ticket 7");
    wait_until("the job", || printer.received().ends_with(b"\x1dVA\x00"));
    assert_eq!(printer.printed(), b"");
    assert_eq!(printer.paper().unwrap(), []);

    printer.set_condition(Condition::Online);
    // The same connection now hears that it is online.
    assert!(statuses(&driver)[0][&Status::Online]);
    let paper = printer.wait_for_receipts(1, WAIT).unwrap();
    assert_eq!(texts(&paper), [["Ticket 7"]]);
    thread::sleep(Duration::from_millis(100));
    assert_eq!(printer.paper().unwrap().len(), 1, "printed once");
}

#[test]
fn a_job_sent_again_after_paper_out_prints_twice() {
    let printer = FakePrinter::start().unwrap();
    printer.set_condition(Condition::PaperOut);
    print_receipt(&printer, "Twice");
    wait_until("the job", || printer.received().ends_with(b"\x1dVA\x00"));
    printer.set_condition(Condition::Online);
    print_receipt(&printer, "Twice");
    let paper = printer.wait_for_receipts(2, WAIT).unwrap();
    assert_eq!(texts(&paper), [["Twice"], ["Twice"]]);
    assert_eq!(printer.connections(), 2);
}

#[test]
fn off_refuses_connections_and_the_same_address_accepts_again() {
    let printer = FakePrinter::start().unwrap();
    let addr = printer.addr();
    let mut open = TcpStream::connect(addr).unwrap();
    wait_until("the connection", || printer.connections() == 1);

    printer.set_condition(Condition::Off);
    let refused = TcpStream::connect(addr).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::ConnectionRefused);
    // The open connection was closed.
    open.set_read_timeout(Some(WAIT)).unwrap();
    assert!(matches!(open.read(&mut [0; 1]), Ok(0) | Err(_)));

    printer.set_condition(Condition::Online);
    assert_eq!(printer.addr(), addr);
    print_receipt(&printer, "Back");
    assert_eq!(
        texts(&printer.wait_for_receipts(1, WAIT).unwrap()),
        [["Back"]]
    );
}

#[test]
fn silent_never_answers_and_prints_nothing() {
    let printer = FakePrinter::start().unwrap();
    printer.set_condition(Condition::Silent);
    let mut stream = TcpStream::connect(printer.addr()).unwrap();
    stream.write_all(b"\x10\x04\x01\x00").unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let error = stream.read(&mut [0; 1]).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
        "{error}"
    );

    print_receipt(&printer, "lost");
    wait_until("the job", || printer.received().ends_with(b"\x1dVA\x00"));
    assert!(printer.received().starts_with(b"\x10\x04\x01\x00"));
    assert_eq!(printer.printed(), b"");
    printer.set_condition(Condition::Online);
    assert_eq!(printer.paper().unwrap(), []);
}

#[test]
fn dropping_the_printer_stops_it_even_with_a_client_connected() {
    let printer = FakePrinter::start().unwrap();
    let addr = printer.addr();
    let mut client = TcpStream::connect(addr).unwrap();
    wait_until("the connection", || printer.connections() == 1);
    drop(printer);
    assert_eq!(
        TcpStream::connect(addr).unwrap_err().kind(),
        ErrorKind::ConnectionRefused
    );
    client.set_read_timeout(Some(WAIT)).unwrap();
    assert!(matches!(client.read(&mut [0; 1]), Ok(0) | Err(_)));
}
