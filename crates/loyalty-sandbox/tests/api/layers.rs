//! Two rules of this crate's own, on top of the workspace's layers (`crates/layers`,
//! declared in `src/lib.rs`): the store is rows and SQL only, though the wire's shapes
//! sit below it; and no answer is untyped JSON. Read from the sources, like
//! `openapi.rs` reads the router, so a use against them fails with its file:line.

use std::path::Path;

use layers::modules::Crate;
use layers::source::line_of;

fn this_crate() -> Crate {
    Crate::read(Path::new(env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .expect("the crate has a src/lib.rs")
}

#[test]
fn the_store_builds_no_answer() {
    let wrong: Vec<String> = this_crate()
        .edges()
        .into_iter()
        .filter(|edge| edge.parent.is_empty() && edge.from == "store" && edge.to == "wire")
        .map(|edge| format!("{}: `store` may not use `wire`", edge.at))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn answers_are_typed() {
    let refused = [
        ("src/http", "Json<Value>"),
        ("src/http", "Json<serde_json::Value>"),
        ("src/actions", "ApiResult<Value>"),
        ("src/store", "fn to_json"),
        ("src", "fn answer<"),
    ];
    let mut wrong = Vec::new();
    for file in &this_crate().files {
        for (dir, text) in refused {
            if !file.rel.starts_with(dir) {
                continue;
            }
            for (offset, _) in file.code.match_indices(text) {
                let line = line_of(&file.code, offset);
                wrong.push(format!("{}:{line}: `{text}`", file.rel.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "untyped answers:\n{}", wrong.join("\n"));
}
