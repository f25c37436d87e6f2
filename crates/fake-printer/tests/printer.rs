//! The fake printer against the `escpos` crate the app prints with: its byte streams
//! decoded, its page tables checked, its network driver and status parsing over real TCP.

#[path = "printer/network.rs"]
mod network;
#[path = "printer/pages.rs"]
mod pages;
#[path = "printer/streams.rs"]
mod streams;

use std::cell::RefCell;
use std::rc::Rc;

use escpos::driver::Driver;
use escpos::errors::Result as EscposResult;
use escpos::printer::Printer;
use escpos::printer_options::PrinterOptions;
use escpos::utils::{PageCode, Protocol};

/// An `escpos` driver that keeps what the printer would have been sent.
#[derive(Clone, Default)]
struct Capture(Rc<RefCell<Vec<u8>>>);

impl Driver for Capture {
    fn name(&self) -> String {
        "capture".to_owned()
    }

    fn write(&self, data: &[u8]) -> EscposResult<()> {
        self.0.borrow_mut().extend_from_slice(data);
        Ok(())
    }

    fn read(&self, _buf: &mut [u8]) -> EscposResult<usize> {
        Ok(0)
    }

    fn flush(&self) -> EscposResult<()> {
        Ok(())
    }
}

/// The bytes the `escpos` crate sends for what `job` does with a printer.
fn crate_bytes(job: impl FnOnce(&mut Printer<Capture>) -> EscposResult<()>) -> Vec<u8> {
    crate_bytes_with(None, job)
}

/// Like [`crate_bytes`], with a page code in the printer's options.
fn crate_bytes_with(
    page_code: Option<PageCode>,
    job: impl FnOnce(&mut Printer<Capture>) -> EscposResult<()>,
) -> Vec<u8> {
    let capture = Capture::default();
    let options = PrinterOptions::new(page_code, None, 48);
    let mut printer = Printer::new(capture.clone(), Protocol::default(), Some(options));
    job(&mut printer).expect("the escpos crate builds the job");
    printer.print().expect("the capture takes it");
    capture.0.take()
}
