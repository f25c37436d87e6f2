//! The workspace's layers hold, and the check refuses what breaks them: small crates
//! written to a scratch folder, each with one use against the layers.

use std::fs;
use std::path::{Path, PathBuf};

#[test]
fn every_crate_of_the_workspace_reads_from_the_bottom_up() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let findings = layers::check_workspace(&root).unwrap();
    assert!(
        findings.is_empty(),
        "{} finding(s) against the layers (each crate's root declares them under `# Layers`):\n{}",
        findings.len(),
        findings.join("\n")
    );
}

/// A scratch folder of this test's own, readable by its user only (0700).
fn scratch(name: &str) -> PathBuf {
    use std::os::unix::fs::DirBuilderExt;
    let dir = std::env::temp_dir().join(format!("layers-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::DirBuilder::new().mode(0o700).create(&dir).unwrap();
    dir
}

/// A crate in a scratch folder of its own, from (file, source) pairs under `src/`.
fn scratch_crate(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = scratch(name);
    for (file, source) in files {
        let path = dir.join("src").join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, source).unwrap();
    }
    dir
}

fn findings(name: &str, files: &[(&str, &str)]) -> Vec<String> {
    let dir = scratch_crate(name, files);
    let found = layers::check_crate(&dir, "k").unwrap();
    fs::remove_dir_all(dir).unwrap();
    found
}

const ROOT: &str = "//! A crate.\n//!\n//! # Layers\n//!\n//! 0. `error`: the error.\n//! 1. `store`, `views`: rows, answers.\n//! 2. `counter`: the façade.\n\nmod counter;\nmod error;\nmod store;\nmod views;\n";

#[test]
fn layers_kept_find_nothing() {
    let found = findings(
        "kept",
        &[
            ("lib.rs", ROOT),
            ("error.rs", "pub struct Error;"),
            ("store.rs", "use crate::error::Error;\npub struct Row;"),
            ("views.rs", "use crate::{error::Error, store::Row};"),
            (
                "counter.rs",
                "use crate::views;\nfn f() -> crate::error::Error { todo!() }",
            ),
        ],
    );
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_use_of_a_higher_layer_is_named_with_its_file_and_line() {
    let found = findings(
        "up",
        &[
            ("lib.rs", ROOT),
            (
                "error.rs",
                "pub struct Error;\n\nuse crate::counter::CameraError;",
            ),
            ("store.rs", ""),
            ("views.rs", ""),
            ("counter.rs", "pub struct CameraError;"),
        ],
    );
    assert_eq!(
        found,
        ["k/src/error.rs:3: `error` (layer 0) uses `counter` (layer 2), above it"]
    );
}

#[test]
fn a_re_export_hides_no_use() {
    let root = ROOT.replace(
        "mod views;\n",
        "mod views;\npub use counter::CameraError;\n",
    );
    let found = findings(
        "reexport",
        &[
            ("lib.rs", &root),
            ("error.rs", "fn f(_: crate::CameraError) {}"),
            ("store.rs", ""),
            ("views.rs", ""),
            ("counter.rs", "pub struct CameraError;"),
        ],
    );
    assert_eq!(
        found,
        ["k/src/error.rs:1: `error` (layer 0) uses `counter` (layer 2), above it"]
    );
}

#[test]
fn two_modules_of_one_layer_that_use_each_other_are_a_circle() {
    let found = findings(
        "same",
        &[
            ("lib.rs", ROOT),
            ("error.rs", ""),
            ("store.rs", "use crate::views::Answer;"),
            (
                "views.rs",
                "pub struct Answer;\nuse crate::store::{\n    Row,\n};",
            ),
            ("counter.rs", ""),
        ],
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("store → views → store")
            && found[0].contains("k/src/store.rs:1: `store` uses `views`")
            && found[0].contains("k/src/views.rs:2: `views` uses `store`"),
        "{}",
        found[0]
    );
}

#[test]
fn files_of_one_folder_that_use_each_other_round_are_a_circle() {
    let found = findings(
        "folder",
        &[
            ("lib.rs", ROOT),
            ("error.rs", ""),
            ("store.rs", ""),
            ("views.rs", ""),
            ("counter/mod.rs", "mod a;\nmod b;\nmod c;\npub use a::A;"),
            ("counter/a.rs", "pub struct A;\nuse super::b::B;"),
            ("counter/b.rs", "pub struct B;\nuse super::c::C;"),
            (
                "counter/c.rs",
                "pub struct C;\nfn f() { let _ = super::A; }",
            ),
        ],
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("`counter`, a → b → c → a"),
        "{}",
        found[0]
    );
    assert!(
        found[0].contains("k/src/counter/c.rs:2: `c` uses `a`"),
        "{}",
        found[0]
    );
}

#[test]
fn a_test_module_uses_the_layers_of_the_module_it_is_in() {
    let found = findings(
        "tests",
        &[
            ("lib.rs", ROOT),
            (
                "error.rs",
                "#[cfg(test)]\nmod tests {\n    use super::super::counter::Counter;\n}",
            ),
            ("store.rs", ""),
            ("views.rs", ""),
            ("counter.rs", ""),
        ],
    );
    assert_eq!(
        found,
        ["k/src/error.rs:3: `error` (layer 0) uses `counter` (layer 2), above it"]
    );
}

#[test]
fn a_module_in_no_layer_and_a_layer_of_no_module_are_named() {
    let root = ROOT
        .replace("mod views;\n", "mod views;\nmod extra;\n")
        .replace("`counter`: the façade", "`counter`, `gone`: the façade");
    let found = findings(
        "undeclared",
        &[
            ("lib.rs", &root),
            ("error.rs", ""),
            ("store.rs", ""),
            ("views.rs", ""),
            ("counter.rs", ""),
            ("extra.rs", ""),
        ],
    );
    assert_eq!(
        found,
        [
            "k/src/lib.rs: `extra` is in no layer of `# Layers`",
            "k/src/lib.rs:7: `gone` is no module of the crate"
        ]
    );
}

#[test]
fn a_crate_with_modules_must_declare_its_layers() {
    let found = findings("none", &[("lib.rs", "//! A crate.\nmod a;"), ("a.rs", "")]);
    assert_eq!(
        found,
        ["k/src/lib.rs: its documentation declares no `# Layers` (its modules, bottom first)"]
    );
}

#[test]
fn crates_that_depend_on_each_other_are_a_circle() {
    let dir = scratch("crates");
    let manifest = |name: &str, other: &str, table: &str| {
        format!(
            "[package]\nname = \"{name}\"\n\n[{table}]\n{other} = {{ path = \"../{other}\" }}\n"
        )
    };
    for (name, other, table) in [
        ("camera", "frames", "dev-dependencies"),
        ("frames", "camera", "dependencies"),
    ] {
        fs::create_dir_all(dir.join("crates").join(name).join("src")).unwrap();
        fs::write(
            dir.join("crates").join(name).join("Cargo.toml"),
            manifest(name, other, table),
        )
        .unwrap();
        fs::write(
            dir.join("crates").join(name).join("src/lib.rs"),
            "//! A crate.\n",
        )
        .unwrap();
    }
    fs::write(
        dir.join("Cargo.toml"),
        "[workspace]\nmembers = [\"crates/*\"]\n",
    )
    .unwrap();
    let found = layers::check_workspace(&dir).unwrap();
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        [
            "a circle of crates through their manifests' path dependencies: crates/camera → crates/frames → crates/camera"
        ]
    );
}

#[test]
fn layers_are_numbered_from_the_bottom_in_order() {
    let root = ROOT.replace("1. `store`", "2. `store`");
    let found = findings(
        "numbers",
        &[
            ("lib.rs", &root),
            ("error.rs", ""),
            ("store.rs", ""),
            ("views.rs", ""),
            ("counter.rs", ""),
        ],
    );
    assert_eq!(
        found,
        ["k/src/lib.rs:6: layer 2 is item 1 of `# Layers`: number them 0, 1, 2… bottom first"]
    );
}

#[test]
fn a_path_an_attribute_names_as_text_is_a_use() {
    let found = findings(
        "attribute",
        &[
            ("lib.rs", ROOT),
            (
                "error.rs",
                "#[serde(with = \"crate::views::decimal\")]\nstruct E;",
            ),
            ("store.rs", ""),
            ("views.rs", "pub mod decimal {}"),
            ("counter.rs", ""),
        ],
    );
    assert_eq!(
        found,
        ["k/src/error.rs:1: `error` (layer 0) uses `views` (layer 1), above it"]
    );
}
