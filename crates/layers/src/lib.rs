//! `layers`: every crate of the workspace reads from the bottom up.
//!
//! A crate's root declares its top-level modules as layers, bottom first, under a
//! `# Layers` heading of its documentation (the one place they are written; see
//! [`declared`]). The check reads every member's sources and refuses, naming the file
//! and line:
//!
//! - a use of a module in a higher layer;
//! - a circle: modules of one layer, or sibling modules inside any module, that use
//!   each other round (within a layer, or among a folder's files, a use may point
//!   either way, but never all the way back);
//! - a top-level module in no layer, or a layer naming no module;
//! - a circle of crates through their path dependencies (dev-dependencies included).
//!
//! A use is any path of the crate the code names (`crate::`, `super::`, `self::`, use
//! groups, paths in expressions and types, a bare `use` of a child module, a path an
//! attribute names as text such as `#[serde(with = "crate::m")]`), followed through the
//! `use` lines of the modules it passes, aliases included (a re-export hides no use). A
//! module's use of its own ancestors or descendants is no edge: a folder's `mod.rs` and
//! its files are one module.
//!
//! What a reading of the text cannot see, it does not claim: a sibling named bare after
//! a glob (`use super::*;` then `scans::f()`), a glob re-export (`pub use m::*`), a
//! macro's `$crate::` paths, code brought in by `include!`, and an item defined in a
//! `mod.rs` or the root that two of its children use round. It reads each member's
//! `src/` (a library's `main.rs` and `src/bin/` are crates of their own).
//!
//! `make lint` runs it (`cargo test -p layers`), and so does `make test`.
//!
//! ```
//! // This crate keeps its own layers (below); the workspace's are checked alike.
//! let findings = layers::check_crate(std::path::Path::new("."), "crates/layers").unwrap();
//! assert!(findings.is_empty(), "{}", findings.join("\n"));
//! ```
//!
//! # Layers
//!
//! 0. `source`, `circle`: Rust code blanked to its code; a circle in a graph.
//! 1. `paths`, `declared`, `workspace`: what a file names, what a root declares, what
//!    the manifests list.
//! 2. `modules`: a crate's modules and the edges between them.

pub mod circle;
pub mod declared;
pub mod modules;
pub mod paths;
pub mod source;
pub mod workspace;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use modules::{Crate, Edge};

/// What is wrong with the layers of the crate in folder `dir`, each finding starting
/// with its place (`shown/src/…:line`, `shown` standing for `dir`).
pub fn check_crate(dir: &Path, shown: &str) -> std::io::Result<Vec<String>> {
    let Some(krate) = Crate::read(dir)? else {
        return Ok(Vec::new());
    };
    let root = format!("{shown}/{}", krate.root.display());
    let top: Vec<&str> = krate.top_level().collect();
    if top.is_empty() {
        return Ok(Vec::new());
    }
    let Some(declared) = declared::read(&fs::read_to_string(dir.join(&krate.root))?) else {
        return Ok(vec![format!(
            "{root}: its documentation declares no `# Layers` (its modules, bottom first)"
        )]);
    };
    let mut findings = Vec::new();
    for module in &top {
        if declared.layer(module).is_none() {
            findings.push(format!("{root}: `{module}` is in no layer of `# Layers`"));
        }
    }
    let mut seen = Vec::new();
    for (index, (layer, _, line)) in declared.layers.iter().enumerate() {
        if usize::try_from(*layer).ok() != Some(index) {
            findings.push(format!(
                "{root}:{line}: layer {layer} is item {index} of `# Layers`: number them 0, 1, 2… bottom first"
            ));
        }
    }
    for (layer, names, line) in &declared.layers {
        if names.is_empty() {
            findings.push(format!("{root}:{line}: layer {layer} names no module"));
        }
        for name in names {
            if !top.contains(&name.as_str()) {
                findings.push(format!("{root}:{line}: `{name}` is no module of the crate"));
            }
            if seen.contains(&name) {
                findings.push(format!("{root}:{line}: `{name}` is in two layers"));
            }
            seen.push(name);
        }
    }

    let edges = krate.edges();
    let mut kept: BTreeMap<&[String], Vec<&Edge>> = BTreeMap::new();
    for edge in &edges {
        let at = format!("{shown}/{}", edge.at);
        if edge.parent.is_empty() {
            let (from, to) = (declared.layer(&edge.from), declared.layer(&edge.to));
            if let (Some(from_layer), Some(to_layer)) = (from, to)
                && to_layer > from_layer
            {
                findings.push(format!(
                    "{at}: `{}` (layer {from_layer}) uses `{}` (layer {to_layer}), above it",
                    edge.from, edge.to
                ));
                continue;
            }
        }
        kept.entry(&edge.parent).or_default().push(edge);
    }
    for (parent, edges) in kept {
        let pairs = edges.iter().map(|e| (e.from.as_str(), e.to.as_str()));
        let Some(circle) = circle::find(pairs) else {
            continue;
        };
        let steps: Vec<String> = circle
            .windows(2)
            .filter_map(|pair| {
                let edge = edges
                    .iter()
                    .find(|e| e.from == pair[0] && e.to == pair[1])?;
                Some(format!(
                    "{shown}/{}: `{}` uses `{}`",
                    edge.at, pair[0], pair[1]
                ))
            })
            .collect();
        let within = match parent.is_empty() {
            true => "the crate root".to_owned(),
            false => format!("`{}`", parent.join("::")),
        };
        findings.push(format!(
            "a circle among the modules of {within}, {}:\n    {}",
            circle.join(" → "),
            steps.join("\n    ")
        ));
    }
    Ok(findings)
}

/// What is wrong with the layers of every member of the workspace at `root`, and
/// with the crates' dependencies on one another.
pub fn check_workspace(root: &Path) -> std::io::Result<Vec<String>> {
    let root = fs::canonicalize(root)?;
    let members = workspace::members(&root)?;
    let mut findings = Vec::new();
    let mut depends = Vec::new();
    for member in &members {
        let shown = member
            .strip_prefix(&root)
            .unwrap_or(member)
            .display()
            .to_string();
        findings.extend(check_crate(member, &shown)?);
        for dependency in workspace::path_dependencies(member)? {
            let name = dependency.strip_prefix(&root).unwrap_or(&dependency);
            depends.push((shown.clone(), name.display().to_string()));
        }
    }
    let pairs = depends.iter().map(|(a, b)| (a.as_str(), b.as_str()));
    if let Some(circle) = circle::find(pairs) {
        findings.push(format!(
            "a circle of crates through their manifests' path dependencies: {}",
            circle.join(" → ")
        ));
    }
    Ok(findings)
}
