//! The app's commands are written once, as the `#[tauri::command]` functions of
//! `src/commands/`. This script reads them and makes the rest from that one list:
//!
//! - one `allow-<command>` permission of each (tauri-build), which
//!   `capabilities/default.json` grants (a lib test checks the grant and the page's
//!   calls against the list);
//! - `$OUT_DIR/commands.rs`: the handler of every command (`every_command!`) and the
//!   table of every command with its line of the core's role table
//!   (`counter_core::roles::Action`) and the arguments it takes, as the page names
//!   them, that the IPC's door checks each call against (`src/door.rs`).

use std::fmt::Write as _;
use std::path::Path;

/// The argument types Tauri fills in itself: the page never sends them.
const INJECTED: &[&str] = &["State", "AppHandle", "Window", "Webview", "WebviewWindow"];

/// One command: its Rust path and the arguments the page sends.
struct Command {
    path: String,
    name: String,
    arguments: Vec<String>,
}

fn main() {
    // The version the app says it is: the package's, when a release names one.
    println!("cargo:rerun-if-env-changed=LOYALTY_COUNTER_VERSION");
    let version = std::env::var("LOYALTY_COUNTER_VERSION")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| std::env::var("CARGO_PKG_VERSION").expect("cargo sets it"));
    println!("cargo:rustc-env=LOYALTY_COUNTER_VERSION={version}");
    let commands = read_commands(Path::new("src/commands"));
    write_table(&commands);
    println!("cargo:rerun-if-changed=src/commands");
    // tauri-build keeps the names for the whole build (a build script's one run).
    let names: Vec<&'static str> = commands
        .into_iter()
        .map(|command| &*command.name.leak())
        .collect();
    let manifest = tauri_build::AppManifest::new().commands(names.leak());
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest))
        .expect("tauri-build failed");
}

/// The commands of every file of `folder`, in the order they are written (`mod.rs`
/// first, then the other files by name).
fn read_commands(folder: &Path) -> Vec<Command> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .expect("src/commands is readable")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort_by_key(|path| (path.file_stem().is_none_or(|s| s != "mod"), path.clone()));
    let mut commands = Vec::new();
    for file in files {
        let module = match file.file_stem().and_then(|s| s.to_str()) {
            Some("mod") | None => "commands".to_owned(),
            Some(stem) => format!("commands::{stem}"),
        };
        let text = std::fs::read_to_string(&file).expect("a readable command file");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for item in syntax.items {
            let syn::Item::Fn(function) = item else {
                continue;
            };
            if !function.attrs.iter().any(is_command_attribute) {
                continue;
            }
            let name = function.sig.ident.to_string();
            commands.push(Command {
                path: format!("{module}::{name}"),
                arguments: function
                    .sig
                    .inputs
                    .iter()
                    .filter_map(sent_argument)
                    .collect(),
                name,
            });
        }
    }
    assert!(!commands.is_empty(), "no #[tauri::command] in src/commands");
    commands
}

fn is_command_attribute(attribute: &syn::Attribute) -> bool {
    attribute
        .path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "command")
}

/// The name the page gives an argument (Tauri's: camelCase), unless Tauri fills it in.
fn sent_argument(input: &syn::FnArg) -> Option<String> {
    let syn::FnArg::Typed(typed) = input else {
        return None;
    };
    if let syn::Type::Path(path) = &*typed.ty
        && let Some(last) = path.path.segments.last()
        && INJECTED.iter().any(|injected| last.ident == injected)
    {
        return None;
    }
    let syn::Pat::Ident(ident) = &*typed.pat else {
        panic!("a command's argument is not a plain name");
    };
    Some(camel_case(&ident.ident.to_string()))
}

fn camel_case(snake: &str) -> String {
    let mut words = snake.split('_');
    let mut out = words.next().unwrap_or_default().to_owned();
    for word in words {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

/// A command's name as its line of the core's role table is called (`IssueGiftCard`):
/// a command without a line does not compile.
fn pascal_case(snake: &str) -> String {
    let camel = camel_case(snake);
    let mut chars = camel.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn write_table(commands: &[Command]) {
    let mut out = String::from(
        "// Generated by build.rs from the #[tauri::command] functions of src/commands/.\n\n\
         /// The handler of every command.\n\
         macro_rules! every_command {\n    () => {\n        tauri::generate_handler![\n",
    );
    for command in commands {
        writeln!(out, "            {},", command.path).expect("a string takes it");
    }
    out.push_str("        ]\n    };\n}\n\n");
    out.push_str("/// Every command, with the arguments the page sends it.\n");
    out.push_str("pub const COMMANDS: &[Command] = &[\n");
    for command in commands {
        let arguments: Vec<String> = command.arguments.iter().map(|a| format!("{a:?}")).collect();
        writeln!(
            out,
            "    Command {{ name: {:?}, action: counter_core::roles::Action::{}, arguments: &[{}] }},",
            command.name,
            pascal_case(&command.name),
            arguments.join(", ")
        )
        .expect("a string takes it");
    }
    out.push_str("];\n");
    let path =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("commands.rs");
    std::fs::write(path, out).expect("OUT_DIR is writable");
}
