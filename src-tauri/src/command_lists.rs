//! The app's commands are written once, as the `#[tauri::command]` functions of
//! `src/commands/`; `build.rs` reads them and makes the handler list, the table the
//! IPC's door checks calls against, and one `allow-<command>` permission of each. Two
//! more lists are written by hand: the capability that grants the permissions
//! (`capabilities/default.json`) and the page's calls (`ui/src/lib/ipc/`). This
//! test fails, naming the command and the place, as soon as one of them drifts.

use std::collections::BTreeSet;
use std::path::Path;

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The commands `build.rs` read from `src/commands/`.
fn declared() -> BTreeSet<String> {
    crate::command_table::COMMANDS
        .iter()
        .map(|command| command.name.to_owned())
        .collect()
}

/// The app's own commands `capability` grants (`allow-some-command`).
fn granted_by(capability: &str) -> BTreeSet<String> {
    let capability: serde_json::Value =
        serde_json::from_str(&read(capability)).expect("the capability is JSON");
    capability["permissions"]
        .as_array()
        .expect("permissions")
        .iter()
        .filter_map(|p| p.as_str()?.strip_prefix("allow-"))
        .map(|name| name.replace('-', "_"))
        .collect()
}

/// The commands the page calls (`call<T>('some_command', ...)`), in the modules of
/// `ui/src/lib/ipc/` (its tests and generated bindings aside).
fn called() -> BTreeSet<String> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/lib/ipc");
    let mut modules: Vec<_> = std::fs::read_dir(&folder)
        .expect("ui/src/lib/ipc is readable")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            name.ends_with(".ts") && !name.ends_with(".test.ts")
        })
        .collect();
    modules.sort();
    assert!(modules.len() >= 2, "no ipc modules in {}", folder.display());
    modules
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("a readable ipc module"))
        .collect::<String>()
        .split("call<")
        .skip(1)
        .filter_map(|rest| rest.split_once(">('").map(|(_, after)| after))
        .filter_map(|after| after.split('\'').next())
        .map(str::to_owned)
        .collect()
}

/// The commands every window's capability grants.
fn granted() -> BTreeSet<String> {
    let mut all = granted_by("capabilities/default.json");
    all.extend(granted_by("capabilities/customer.json"));
    all
}

/// The customer's screen may read what it shows and what changes it, and nothing a
/// cashier may do.
#[test]
fn the_customers_window_is_granted_what_it_shows_and_nothing_else() {
    assert_eq!(
        granted_by("capabilities/customer.json"),
        BTreeSet::from(["customer_screen".to_owned(), "page_events".to_owned()])
    );
    assert!(!granted_by("capabilities/default.json").contains("customer_screen"));
}

#[test]
fn the_command_lists_agree() {
    let declared = declared();
    assert!(declared.len() > 40, "build.rs read wrong: {declared:?}");
    for (place, names) in [
        ("capabilities/default.json", granted()),
        ("ui/src/lib/ipc/", called()),
    ] {
        let missing: Vec<_> = declared.difference(&names).collect();
        let extra: Vec<_> = names.difference(&declared).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{place} drifted from the commands of src/commands/: missing {missing:?}, not declared {extra:?}"
        );
    }
}

/// The core's role table has one line for every command, and a line that is no command
/// is one of the decisions a command makes on what it is given. `build.rs` names each
/// command's line, so a command added without one does not compile; this test reads
/// the table the other way.
#[test]
fn the_role_table_has_a_line_for_every_command_and_no_other() {
    use counter_core::roles::{Action, Role, RoleTable, Rule, Seat};
    let declared = declared();
    for command in crate::command_table::COMMANDS {
        assert_eq!(command.action.name(), command.name, "{command:?}");
    }
    let decisions = [
        Action::DiscardPaymentOrIssue,
        Action::ResendPaymentOrIssue,
        Action::PrintKept,
    ];
    for &action in Action::ALL {
        assert!(
            declared.contains(&action.name()) || decisions.contains(&action),
            "{action:?} is a line of the table and no command"
        );
    }
    // What the table says of every command, for every role, the kiosk and the lock
    // screen: the whole table, so that a change of a default shows here.
    let table = RoleTable::default();
    let seats = [
        Seat::Person(Role::Cashier),
        Seat::Person(Role::Manager),
        Seat::Person(Role::Owner),
        Seat::Kiosk,
        Seat::Locked,
    ];
    let mut written = String::new();
    for &action in Action::ALL {
        let rules: Vec<&str> = seats
            .iter()
            .map(|&seat| match table.rule(action, seat) {
                Rule::Allowed => "yes",
                Rule::WithApproval => "approval",
                Rule::Refused => "no",
            })
            .collect();
        written.push_str(&format!("{} {}\n", action.name(), rules.join(" ")));
    }
    let expected = read("tests/role-table.txt");
    assert!(
        written == expected,
        "the role table's defaults changed; if that is meant, write them to \
         src-tauri/tests/role-table.txt:\n{written}"
    );
}
