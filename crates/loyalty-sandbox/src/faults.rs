//! Failures injected by `POST /_sandbox/faults`.
//!
//! A fault's `path` is a route prefix matched whole segment by whole segment
//! (`/v1/gift_cards` matches `/v1/gift_cards/gc_1/payments`, `/v1/scan` matches
//! nothing). A path under `/v1` matches that route in both places (`/v1/scans` also
//! meets `/sandbox/v1/scans`), because a client's tests arm the API's path whatever
//! base URL they use; a path under `/sandbox/v1` matches the sandbox only. It applies
//! to the next `count` matching requests:
//!
//! - `status` + `code`: answer that problem without doing anything (any method);
//! - `drop_after_commit: true`: do the write, commit, then close the connection with
//!   no answer (writes only, i.e. POST). The connection is closed by unwinding its
//!   task with `resume_unwind` (no panic hook, no output), so this fault needs a
//!   build that unwinds (`panic = "unwind"`, the default);
//! - `delay_ms` (an extension of the contract): hold the request that long before
//!   handling it (any method); for writes the hold comes after the Idempotency-Key is
//!   marked in progress, so a second request with the same key meets 409
//!   idempotency_in_progress.

use std::sync::Mutex;

use axum::http::Method;

/// What a fault does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultAction {
    /// Answer this problem.
    Answer {
        /// HTTP status.
        status: u16,
        /// Problem code.
        code: String,
    },
    /// Commit the write, then drop the connection.
    DropAfterCommit,
    /// Hold the request this many milliseconds.
    Delay(u64),
}

#[derive(Debug)]
struct Fault {
    path: String,
    remaining: u64,
    action: FaultAction,
}

impl Fault {
    fn matches(&self, path: &str) -> bool {
        // A sandbox path is matched as given; an API path in either place.
        let path = if self.path.starts_with("/sandbox/") {
            path
        } else {
            api_path(path)
        };
        match path.strip_prefix(self.path.as_str()) {
            Some(rest) => rest.is_empty() || rest.starts_with('/') || self.path.is_empty(),
            None => false,
        }
    }
}

/// The armed faults.
#[derive(Debug, Default)]
pub struct Faults {
    armed: Mutex<Vec<Fault>>,
}

/// The path a fault sees: the API path without the sandbox prefix.
pub fn api_path(path: &str) -> &str {
    match path.strip_prefix("/sandbox") {
        Some(rest) if rest.starts_with('/') => rest,
        _ => path,
    }
}

impl Faults {
    /// Arms a fault for the next `count` matching requests.
    pub fn arm(&self, path: &str, count: u64, action: FaultAction) {
        let mut armed = self.armed.lock().unwrap_or_else(|p| p.into_inner());
        armed.push(Fault {
            path: path.trim_end_matches('/').to_owned(),
            remaining: count,
            action,
        });
    }

    /// Disarms every fault.
    pub fn clear(&self) {
        self.armed.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// Takes one use of the first fault that matches the request.
    pub fn take(&self, method: &Method, path: &str) -> Option<FaultAction> {
        let mut armed = self.armed.lock().unwrap_or_else(|p| p.into_inner());
        let index = armed.iter().position(|f| {
            f.remaining > 0
                && f.matches(path)
                && (f.action != FaultAction::DropAfterCommit || method == Method::POST)
        })?;
        let fault = &mut armed[index];
        fault.remaining -= 1;
        let action = fault.action.clone();
        if fault.remaining == 0 {
            armed.remove(index);
        }
        Some(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_applies_to_its_count_of_matching_requests_in_both_places() {
        let faults = Faults::default();
        faults.arm(
            "/v1/scans",
            2,
            FaultAction::Answer {
                status: 503,
                code: "service_unavailable".into(),
            },
        );
        assert!(faults.take(&Method::GET, "/v1/customers").is_none());
        assert!(faults.take(&Method::POST, "/sandbox/v1/scans").is_some());
        assert!(faults.take(&Method::POST, "/v1/scans").is_some());
        assert!(faults.take(&Method::POST, "/v1/scans").is_none());
    }

    #[test]
    fn a_fault_path_matched_any_path_with_that_text_prefix_and_armed_sandbox_paths_leaked_to_live()
    {
        let faults = Faults::default();
        let fail = || FaultAction::Answer {
            status: 500,
            code: "internal_error".into(),
        };
        faults.arm("/v1/scan", 5, fail());
        assert!(faults.take(&Method::POST, "/v1/scans").is_none());
        assert!(faults.take(&Method::POST, "/v1/scan").is_some());
        faults.clear();

        faults.arm("/v1/gift_cards", 5, fail());
        assert!(faults.take(&Method::POST, "/v1/gift_cards_x").is_none());
        assert!(
            faults
                .take(&Method::POST, "/sandbox/v1/gift_cards/gc_1/payments")
                .is_some()
        );
        faults.clear();

        faults.arm("/sandbox/v1/scans", 5, fail());
        assert!(faults.take(&Method::POST, "/v1/scans").is_none());
        assert!(faults.take(&Method::POST, "/sandbox/v1/scans").is_some());
    }

    #[test]
    fn drop_after_commit_only_meets_writes() {
        let faults = Faults::default();
        faults.arm("/v1/scans", 1, FaultAction::DropAfterCommit);
        assert!(faults.take(&Method::GET, "/v1/scans").is_none());
        assert_eq!(
            faults.take(&Method::POST, "/v1/scans"),
            Some(FaultAction::DropAfterCommit)
        );
    }
}
