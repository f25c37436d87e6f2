//! The printer's condition and its real-time status answers (`DLE EOT n`).

/// What state the fake printer is in; the test sets it with
/// [`FakePrinter::set_condition`](crate::FakePrinter::set_condition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Prints what it receives.
    Online,
    /// Prints what it receives; the roll paper near-end sensor says the paper runs low.
    PaperNearEnd,
    /// Out of paper: keeps what it receives in its buffer and prints it when set back
    /// to [`Online`](Condition::Online) or [`PaperNearEnd`](Condition::PaperNearEnd).
    PaperOut,
    /// Cover open: buffers like [`PaperOut`](Condition::PaperOut), with other status bits.
    CoverOpen,
    /// Switched off: the port refuses connections and open connections are closed. Like a
    /// power cut, it loses what was waiting in its buffer. The same port listens again when
    /// the condition leaves `Off`.
    Off,
    /// Not an ESC/POS device: accepts connections and records the bytes, but never
    /// answers a status request and prints nothing.
    Silent,
}

impl Condition {
    /// Whether what arrives now goes to paper.
    pub(crate) fn prints(self) -> bool {
        matches!(self, Condition::Online | Condition::PaperNearEnd)
    }

    /// Whether what arrives now waits in the receive buffer.
    pub(crate) fn buffers(self) -> bool {
        matches!(self, Condition::PaperOut | Condition::CoverOpen)
    }

    /// The one-byte answer to `DLE EOT n`, or `None` if the printer says nothing.
    pub(crate) fn status_answer(self, n: u8) -> Option<u8> {
        /// The bits set in every answer.
        const FIXED: u8 = 0x12;
        let offline = self.buffers();
        let cover_open = self == Condition::CoverOpen;
        let paper_out = self == Condition::PaperOut;
        let near_end = self == Condition::PaperNearEnd;
        match (self, n) {
            (Condition::Off | Condition::Silent, _) => None,
            // Printer status: 0x08 off-line.
            (_, 1) => Some(FIXED | if offline { 0x08 } else { 0 }),
            // Off-line cause: 0x04 cover open, 0x20 stopped by paper end.
            (_, 2) => {
                Some(FIXED | if cover_open { 0x04 } else { 0 } | if paper_out { 0x20 } else { 0 })
            }
            // Error cause: none.
            (_, 3) => Some(FIXED),
            // Roll paper sensor: 0x0C near end, 0x60 paper end.
            (_, 4) => {
                Some(FIXED | if near_end { 0x0C } else { 0 } | if paper_out { 0x60 } else { 0 })
            }
            _ => None,
        }
    }
}

/// Whether `DLE EOT n` carries one more parameter byte (ink, peeler, interface status).
pub(crate) fn status_request_has_parameter(n: u8) -> bool {
    matches!(n, 7 | 8 | 18)
}

/// What one received byte turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// A byte for the print buffer.
    Data(u8),
    /// A real-time status request, `DLE EOT n`.
    Status(u8),
}

const DLE: u8 = 0x10;
const EOT: u8 = 0x04;

/// Picks the real-time status requests out of a connection's bytes as they arrive (a
/// request can be split between two reads).
#[derive(Debug, Default)]
pub(crate) struct RealTimeFilter {
    state: FilterState,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum FilterState {
    #[default]
    Data,
    /// After DLE.
    Dle,
    /// After DLE EOT, waiting for n.
    Eot,
    /// After DLE EOT n with a parameter to come.
    Parameter,
    /// After DLE EOT n: a NUL here belongs to the request.
    AfterRequest,
}

impl RealTimeFilter {
    /// Feeds one received byte; `emit` gets what it turns out to be.
    pub(crate) fn push(&mut self, byte: u8, emit: &mut impl FnMut(Event)) {
        self.state = match (self.state, byte) {
            (FilterState::Dle, EOT) => FilterState::Eot,
            (FilterState::Dle, _) => {
                emit(Event::Data(DLE));
                return self.data(byte, emit);
            }
            (FilterState::Eot, n) => {
                emit(Event::Status(n));
                if status_request_has_parameter(n) {
                    FilterState::Parameter
                } else {
                    FilterState::AfterRequest
                }
            }
            (FilterState::Parameter, _) | (FilterState::AfterRequest, 0) => FilterState::Data,
            (FilterState::Data | FilterState::AfterRequest, _) => return self.data(byte, emit),
        };
    }

    fn data(&mut self, byte: u8, emit: &mut impl FnMut(Event)) {
        if byte == DLE {
            self.state = FilterState::Dle;
        } else {
            self.state = FilterState::Data;
            emit(Event::Data(byte));
        }
    }

    /// The connection ended: the start of a request that never finished is data.
    pub(crate) fn finish(&mut self, emit: &mut impl FnMut(Event)) {
        match std::mem::take(&mut self.state) {
            FilterState::Dle => emit(Event::Data(DLE)),
            FilterState::Eot => {
                emit(Event::Data(DLE));
                emit(Event::Data(EOT));
            }
            FilterState::Data | FilterState::Parameter | FilterState::AfterRequest => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(chunks: &[&[u8]]) -> Vec<Event> {
        let mut filter = RealTimeFilter::default();
        let mut events = Vec::new();
        let mut emit = |event| events.push(event);
        for chunk in chunks {
            for &byte in *chunk {
                filter.push(byte, &mut emit);
            }
        }
        filter.finish(&mut emit);
        events
    }

    #[test]
    fn every_answer_has_the_fixed_bits() {
        for condition in [
            Condition::Online,
            Condition::PaperNearEnd,
            Condition::PaperOut,
            Condition::CoverOpen,
        ] {
            for n in 1..=4 {
                let answer = condition.status_answer(n).unwrap();
                assert_eq!(answer & 0x93, 0x12, "{condition:?} n={n}: 0x{answer:02X}");
            }
        }
    }

    #[test]
    fn answers_match_the_condition() {
        let answers = |c: Condition| {
            (1..=4)
                .map(|n| c.status_answer(n).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(answers(Condition::Online), [0x12, 0x12, 0x12, 0x12]);
        assert_eq!(answers(Condition::PaperNearEnd), [0x12, 0x12, 0x12, 0x1E]);
        assert_eq!(answers(Condition::PaperOut), [0x1A, 0x32, 0x12, 0x72]);
        assert_eq!(answers(Condition::CoverOpen), [0x1A, 0x16, 0x12, 0x12]);
    }

    #[test]
    fn off_and_silent_never_answer() {
        for n in 0..=u8::MAX {
            assert_eq!(Condition::Off.status_answer(n), None);
            assert_eq!(Condition::Silent.status_answer(n), None);
        }
        assert_eq!(Condition::Online.status_answer(5), None);
    }

    #[test]
    fn a_status_request_and_its_nul_are_not_data() {
        use Event::{Data, Status};
        assert_eq!(
            filter(&[b"a\x10\x04\x01\x00b"]),
            [Data(b'a'), Status(1), Data(b'b')]
        );
        assert_eq!(filter(&[b"\x10\x04\x04b"]), [Status(4), Data(b'b')]);
        assert_eq!(filter(&[b"\x10\x04\x07\x01\x00"]), [Status(7), Data(0)]);
    }

    #[test]
    fn a_request_split_between_reads_is_still_a_request() {
        use Event::{Data, Status};
        assert_eq!(
            filter(&[b"a\x10", b"\x04", b"\x02", b"\x00b"]),
            [Data(b'a'), Status(2), Data(b'b')]
        );
    }

    #[test]
    fn a_dle_not_followed_by_eot_is_data() {
        use Event::Data;
        assert_eq!(
            filter(&[b"\x10a\x10\x10"]),
            [Data(0x10), Data(b'a'), Data(0x10), Data(0x10)]
        );
        assert_eq!(filter(&[b"\x10\x04"]), [Data(0x10), Data(0x04)]);
    }
}
