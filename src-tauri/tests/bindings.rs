//! Files the UI reads that are generated from Rust, so the two sides cannot drift.
//! `make test` fails when a regenerated file differs from the committed one.

use std::path::Path;

/// The problem codes of the API client, with their HTTP status, for the UI's messages.
#[test]
fn the_problem_codes_are_exported_for_the_ui() {
    let codes: Vec<_> = loyalty_api::ErrorCode::ALL
        .iter()
        .map(|code| serde_json::json!({ "code": code.as_str(), "status": code.status() }))
        .collect();
    let text = serde_json::to_string_pretty(&codes).expect("codes serialize") + "\n";
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/lib/ipc/bindings/problem-codes.json");
    std::fs::write(&path, text).expect("write problem-codes.json");
}
