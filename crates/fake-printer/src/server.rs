//! The printer's network side: a raw port on loopback, like a network printer's 9100.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::status::{Condition, Event, RealTimeFilter};
use crate::{DecodeError, Receipt, decode};

/// How often the listening thread looks for new connections.
const ACCEPT_POLL: Duration = Duration::from_millis(2);
/// How often [`FakePrinter::wait_for_receipts`] looks at the paper.
const PAPER_POLL: Duration = Duration::from_millis(10);
/// How long a status answer may wait for a client that does not read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(1);
/// How long leaving [`Condition::Off`] tries to listen on the port again.
const REBIND_PATIENCE: Duration = Duration::from_secs(2);

/// A fake thermal receipt printer listening on a loopback port.
///
/// It records every byte it receives, answers real-time status requests (`DLE EOT n`)
/// from the [`Condition`] the test sets, and keeps what went to paper, which
/// [`paper`](FakePrinter::paper) decodes into receipts. Like a real Epson-compatible
/// printer, what it receives while it cannot print (paper out, cover open) waits in its
/// buffer and is printed once it can print again.
///
/// Its threads stop when it is dropped; the port refuses connections from then on.
pub struct FakePrinter {
    shared: Arc<Mutex<State>>,
    addr: SocketAddr,
    acceptor: Option<JoinHandle<()>>,
}

/// Everything the printer's threads share, behind one lock.
struct State {
    condition: Condition,
    /// `None` while [`Condition::Off`] and once stopping.
    listener: Option<TcpListener>,
    /// The open connections, to close them when switched off or dropped.
    streams: Vec<(u64, TcpStream)>,
    workers: Vec<JoinHandle<()>>,
    received: Vec<u8>,
    printed: Vec<u8>,
    /// Received while it could not print, printed when it can.
    buffered: Vec<u8>,
    connections: usize,
    stopping: bool,
}

impl State {
    /// Records a received byte's fate under the current condition, collecting answers.
    fn take(&mut self, event: Event, answers: &mut Vec<u8>) {
        match event {
            Event::Data(byte) if self.condition.prints() => self.printed.push(byte),
            Event::Data(byte) if self.condition.buffers() => self.buffered.push(byte),
            Event::Data(_) => {}
            Event::Status(n) => answers.extend(self.condition.status_answer(n)),
        }
    }

    /// Closes every open connection (their threads then end).
    fn close_connections(&mut self) {
        for (_, stream) in self.streams.drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

fn lock(shared: &Mutex<State>) -> MutexGuard<'_, State> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

impl FakePrinter {
    /// Starts a printer on `127.0.0.1`, on a port the system picks, [`Condition::Online`].
    ///
    /// # Errors
    ///
    /// The port cannot be bound or the listening thread cannot start.
    pub fn start() -> io::Result<FakePrinter> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Mutex::new(State {
            condition: Condition::Online,
            listener: Some(listener),
            streams: Vec::new(),
            workers: Vec::new(),
            received: Vec::new(),
            printed: Vec::new(),
            buffered: Vec::new(),
            connections: 0,
            stopping: false,
        }));
        let acceptor = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(format!("fake-printer-{}", addr.port()))
                .spawn(move || accept_loop(&shared))?
        };
        Ok(FakePrinter {
            shared,
            addr,
            acceptor: Some(acceptor),
        })
    }

    /// The printer's address; it stays the same for the printer's life, even across
    /// [`Condition::Off`].
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Puts the printer in a condition, at once.
    ///
    /// Back to [`Online`](Condition::Online) or [`PaperNearEnd`](Condition::PaperNearEnd),
    /// it prints what waited in its buffer. [`Off`](Condition::Off) stops listening, closes
    /// the open connections and empties the buffer; leaving `Off` listens on the same port
    /// again before this returns.
    ///
    /// # Panics
    ///
    /// Leaving `Off`, if the port cannot be bound again within two seconds (another
    /// socket took it).
    pub fn set_condition(&self, condition: Condition) {
        let mut state = lock(&self.shared);
        let before = std::mem::replace(&mut state.condition, condition);
        if condition == Condition::Off && before != Condition::Off {
            state.listener = None;
            state.close_connections();
            state.buffered.clear();
        }
        if before == Condition::Off && condition != Condition::Off {
            state.listener = Some(listen_again(self.addr));
        }
        if condition.prints() {
            let buffered = std::mem::take(&mut state.buffered);
            state.printed.extend(buffered);
        }
    }

    /// The printer's condition.
    pub fn condition(&self) -> Condition {
        lock(&self.shared).condition
    }

    /// Every byte received on any connection, in the order they arrived, status requests
    /// included.
    pub fn received(&self) -> Vec<u8> {
        lock(&self.shared).received.clone()
    }

    /// The bytes that went to paper: what was received while it could print, and what
    /// waited in the buffer, without the status requests.
    pub fn printed(&self) -> Vec<u8> {
        lock(&self.shared).printed.clone()
    }

    /// What is on paper so far, decoded: `decode(&self.printed())`.
    ///
    /// # Errors
    ///
    /// The printed bytes do not decode (see [`decode`]); a job still arriving can end in
    /// the middle of a command.
    pub fn paper(&self) -> Result<Vec<Receipt>, DecodeError> {
        decode(&self.printed())
    }

    /// How many connections the printer accepted (it accepts within a few milliseconds
    /// of a client's connect).
    pub fn connections(&self) -> usize {
        lock(&self.shared).connections
    }

    /// Waits until at least `n` receipts were cut, or `timeout` passed, and returns what
    /// is on paper either way: the caller asserts the count.
    ///
    /// It blocks the calling thread. From an async test whose printing runs on the same
    /// runtime, call it where it cannot stall that runtime (a blocking task, or a
    /// multi-thread runtime).
    ///
    /// # Errors
    ///
    /// The printed bytes still do not decode when the wait ends.
    pub fn wait_for_receipts(
        &self,
        n: usize,
        timeout: Duration,
    ) -> Result<Vec<Receipt>, DecodeError> {
        let deadline = Instant::now() + timeout;
        loop {
            let paper = self.paper();
            let cut = paper
                .as_ref()
                .map_or(0, |receipts| receipts.iter().filter(|r| r.cut).count());
            if cut >= n || Instant::now() >= deadline {
                return paper;
            }
            thread::sleep(PAPER_POLL);
        }
    }
}

impl fmt::Debug for FakePrinter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = lock(&self.shared);
        f.debug_struct("FakePrinter")
            .field("addr", &self.addr)
            .field("condition", &state.condition)
            .field("connections", &state.connections)
            .field("received", &state.received.len())
            .field("printed", &state.printed.len())
            .field("buffered", &state.buffered.len())
            .finish()
    }
}

impl Drop for FakePrinter {
    fn drop(&mut self) {
        {
            let mut state = lock(&self.shared);
            state.stopping = true;
            state.listener = None;
            state.close_connections();
        }
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
        let workers = std::mem::take(&mut lock(&self.shared).workers);
        for worker in workers {
            let _ = worker.join();
        }
    }
}

/// Binds the port again after [`Condition::Off`] (Linux's `SO_REUSEADDR`, which std sets,
/// lets it bind while the closed connections linger in `TIME_WAIT`).
fn listen_again(addr: SocketAddr) -> TcpListener {
    let deadline = Instant::now() + REBIND_PATIENCE;
    loop {
        match TcpListener::bind(addr)
            .and_then(|listener| listener.set_nonblocking(true).map(|()| listener))
        {
            Ok(listener) => return listener,
            Err(error) if Instant::now() >= deadline => {
                panic!("the fake printer cannot listen on {addr} again: {error}")
            }
            Err(_) => thread::sleep(Duration::from_millis(10)),
        }
    }
}

/// Accepts connections until the printer stops; each gets its own thread.
fn accept_loop(shared: &Arc<Mutex<State>>) {
    let mut next_id = 0;
    loop {
        {
            let mut state = lock(shared);
            if state.stopping {
                return;
            }
            while let Some(Ok((stream, _))) = state.listener.as_ref().map(TcpListener::accept) {
                next_id += 1;
                if let Some(worker) = open_connection(shared, &mut state, next_id, stream) {
                    state.connections += 1;
                    state.workers.push(worker);
                }
            }
            state.workers.retain(|worker| !worker.is_finished());
        }
        thread::sleep(ACCEPT_POLL);
    }
}

/// Registers an accepted connection and starts its thread (`None` if it could not).
fn open_connection(
    shared: &Arc<Mutex<State>>,
    state: &mut State,
    id: u64,
    stream: TcpStream,
) -> Option<JoinHandle<()>> {
    stream.set_nonblocking(false).ok()?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT)).ok()?;
    let registered = stream.try_clone().ok()?;
    let worker = {
        let shared = Arc::clone(shared);
        thread::Builder::new()
            .name(format!("fake-printer-connection-{id}"))
            .spawn(move || serve(&shared, id, stream))
            .ok()?
    };
    state.streams.push((id, registered));
    Some(worker)
}

/// Reads one connection until the client closes it or the printer closes it.
fn serve(shared: &Mutex<State>, id: u64, mut stream: TcpStream) {
    let mut filter = RealTimeFilter::default();
    let mut buffer = [0; 4096];
    loop {
        let n = match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut answers = Vec::new();
        {
            let mut state = lock(shared);
            state.received.extend_from_slice(&buffer[..n]);
            for &byte in &buffer[..n] {
                filter.push(byte, &mut |event| state.take(event, &mut answers));
            }
        }
        if !answers.is_empty() && stream.write_all(&answers).is_err() {
            break;
        }
    }
    let mut state = lock(shared);
    filter.finish(&mut |event| state.take(event, &mut Vec::new()));
    state.streams.retain(|(open, _)| *open != id);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printer_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<FakePrinter>();
    }

    #[test]
    fn debug_shows_the_address_and_condition() {
        let printer = FakePrinter::start().unwrap();
        printer.set_condition(Condition::CoverOpen);
        let debug = format!("{printer:?}");
        assert!(debug.contains(&printer.addr().to_string()), "{debug}");
        assert!(debug.contains("CoverOpen"), "{debug}");
    }
}
