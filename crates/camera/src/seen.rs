//! A code held up to the camera is in many frames: it is read once.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long a code must be out of sight before it counts again.
pub const REPEAT_WINDOW: Duration = Duration::from_secs(4);

/// The codes seen lately, with when each was last seen.
#[derive(Debug, Default)]
pub struct Seen {
    last: HashMap<String, Instant>,
}

impl Seen {
    /// Whether `code`, seen at `now`, is a new scan: not seen within [`REPEAT_WINDOW`].
    /// A code kept in view stays one scan however long it is held there.
    pub fn is_new(&mut self, code: &str, now: Instant) -> bool {
        self.last
            .retain(|_, seen| now.saturating_duration_since(*seen) < REPEAT_WINDOW);
        self.last.insert(code.to_owned(), now).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_held_in_view_is_one_scan_and_counts_again_once_it_was_away() {
        let mut seen = Seen::default();
        let start = Instant::now();
        assert!(seen.is_new("card_a", start));
        // Held for ten seconds, seen every 100 ms: still the one scan.
        for tenth in 1..=100 {
            assert!(!seen.is_new("card_a", start + Duration::from_millis(tenth * 100)));
        }
        // Another card meanwhile is its own scan.
        assert!(seen.is_new("card_b", start + Duration::from_secs(10)));
        // Away for longer than the window: a new scan.
        let back = start + Duration::from_secs(10) + REPEAT_WINDOW + Duration::from_millis(1);
        assert!(seen.is_new("card_a", back));
    }
}
