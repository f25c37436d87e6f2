//! How large the till draws its screens: the zoom a person chooses with Ctrl+plus,
//! Ctrl+minus and Ctrl+0, kept in the settings so that the till opens at it again.
//! The steps are a browser's, from half size to three times.

use serde::{Deserialize, Serialize};

/// The zoom levels, in per cent, smallest first.
pub const LEVELS: [u16; 13] = [50, 67, 75, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300];

/// The zoom a till has until a person changes it.
pub const NORMAL: u16 = 100;

for_the_ui! {
/// A change of zoom a person asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoomChange {
    /// One step larger (Ctrl+plus).
    In,
    /// One step smaller (Ctrl+minus).
    Out,
    /// Back to normal size (Ctrl+0).
    Reset,
}
}

/// The level after `change` from `current` (a level kept by hand that is not one of
/// [`LEVELS`] moves to the next one in that direction).
pub fn after(current: u16, change: ZoomChange) -> u16 {
    match change {
        ZoomChange::Reset => NORMAL,
        ZoomChange::In => LEVELS
            .into_iter()
            .find(|&level| level > current)
            .unwrap_or(LEVELS[LEVELS.len() - 1]),
        ZoomChange::Out => LEVELS
            .into_iter()
            .rev()
            .find(|&level| level < current)
            .unwrap_or(LEVELS[0]),
    }
}

/// A kept level the till can use: one of [`LEVELS`], else normal size.
pub fn usable(kept: Option<u16>) -> u16 {
    kept.filter(|level| LEVELS.contains(level))
        .unwrap_or(NORMAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_moves_a_step_at_a_time_between_half_and_three_times() {
        assert_eq!(after(100, ZoomChange::In), 110);
        assert_eq!(after(175, ZoomChange::In), 200);
        assert_eq!(after(300, ZoomChange::In), 300);
        assert_eq!(after(100, ZoomChange::Out), 90);
        assert_eq!(after(50, ZoomChange::Out), 50);
        assert_eq!(after(250, ZoomChange::Reset), 100);
        // Between levels: to the next one in that direction.
        assert_eq!(after(105, ZoomChange::In), 110);
        assert_eq!(after(105, ZoomChange::Out), 100);
        let mut level = NORMAL;
        for _ in 0..5 {
            level = after(level, ZoomChange::In);
        }
        assert_eq!(level, 200, "five steps from normal is twice the size");
    }

    #[test]
    fn a_kept_level_that_is_not_a_step_is_normal_size() {
        assert_eq!(usable(Some(200)), 200);
        assert_eq!(usable(Some(0)), NORMAL);
        assert_eq!(usable(Some(9999)), NORMAL);
        assert_eq!(usable(None), NORMAL);
    }
}
