//! The app's commands are named in four places that must agree: `build.rs` (the list:
//! tauri-build makes one `allow-<command>` permission of each), the capability that
//! grants them (`capabilities/default.json`), the handler list in `lib.rs`, and the
//! page's calls (`ui/src/lib/ipc/index.ts`). Tauri needs each of them written out; this
//! test fails, naming the command and the place, as soon as one drifts from `build.rs`.

use std::collections::BTreeSet;
use std::path::Path;

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text between `start` and the first `end` after it.
fn between<'t>(text: &'t str, start: &str, end: &str) -> &'t str {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}")) + start.len();
    let to = text[from..]
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} after {start:?}"));
    &text[from..from + to]
}

/// The commands `build.rs` declares.
fn declared() -> BTreeSet<String> {
    between(&read("build.rs"), ".commands(&[", "]")
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The app's own commands the capability grants (`allow-some-command`).
fn granted() -> BTreeSet<String> {
    let capability: serde_json::Value =
        serde_json::from_str(&read("capabilities/default.json")).expect("the capability is JSON");
    capability["permissions"]
        .as_array()
        .expect("permissions")
        .iter()
        .filter_map(|p| p.as_str()?.strip_prefix("allow-"))
        .map(|name| name.replace('-', "_"))
        .collect()
}

/// The commands `lib.rs` hands to `generate_handler!`, by their last path segment.
fn handled() -> BTreeSet<String> {
    between(&read("src/lib.rs"), "generate_handler![", "]")
        .split(',')
        .filter_map(|path| path.trim().rsplit("::").next())
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The commands the page calls (`call<T>('some_command', ...)`).
fn called() -> BTreeSet<String> {
    read("../ui/src/lib/ipc/index.ts")
        .split("call<")
        .skip(1)
        .filter_map(|rest| rest.split_once(">('").map(|(_, after)| after))
        .filter_map(|after| after.split('\'').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_four_command_lists_agree() {
    let declared = declared();
    assert!(declared.len() > 40, "build.rs read wrong: {declared:?}");
    for (place, names) in [
        ("capabilities/default.json", granted()),
        ("the handler list in src/lib.rs", handled()),
        ("ui/src/lib/ipc/index.ts", called()),
    ] {
        let missing: Vec<_> = declared.difference(&names).collect();
        let extra: Vec<_> = names.difference(&declared).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{place} drifted from build.rs: missing {missing:?}, not declared {extra:?}"
        );
    }
}
