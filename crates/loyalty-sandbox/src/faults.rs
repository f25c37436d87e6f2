//! Failures injected by `POST /_sandbox/faults`.
//!
//! A fault matches requests whose path, without the `/sandbox` prefix, starts with
//! its `path`. It applies to the next `count` matching requests:
//!
//! - `status` + `code`: answer that problem without doing anything (any method);
//! - `drop_after_commit: true`: do the write, commit, then close the connection with
//!   no answer (writes only, i.e. POST). The connection is closed by unwinding its
//!   task with `resume_unwind` (no panic hook, no output), so this fault needs a
//!   build that unwinds (`panic = "unwind"`, the default);
//! - `delay_ms` (an extension of the contract): hold the request that long before
//!   handling it; for writes the hold comes after the Idempotency-Key is marked in
//!   progress, so a second request with the same key meets 409 idempotency_in_progress.

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
            path: api_path(path).to_owned(),
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
        let path = api_path(path);
        let mut armed = self.armed.lock().unwrap_or_else(|p| p.into_inner());
        let index = armed.iter().position(|f| {
            f.remaining > 0
                && path.starts_with(&f.path)
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
