//! Decisions (filled below).
