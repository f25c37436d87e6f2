//! The crate's modules point one way: each uses its own layer or lower ones, never
//! a higher one (see `src/lib.rs`, "Layout"), and no answer is untyped JSON. Read
//! from the sources, like `openapi.rs` reads the router, so a `use` that points up
//! fails with its file:line.

use std::fs;
use std::path::{Path, PathBuf};

/// Every top-level module of `src/` and its layer, lowest first.
const LAYERS: &[(&str, u8)] = &[
    // 0 base: leaves
    ("ids", 0),
    ("clock", 0),
    ("money", 0),
    ("cursor", 0),
    ("keys", 0),
    ("request_id", 0),
    ("faults", 0),
    // 1 the API's wire shapes (answers, requests, events, control answers) and problems
    ("wire", 1),
    ("error", 1),
    // 2 pure rules and the values they work on
    ("rules", 2),
    // 3 rows and SQL
    ("store", 3),
    // 4 store rows as wire shapes
    ("views", 4),
    // 5 actions (one transaction each, typed answers) and webhook delivery
    ("actions", 5),
    ("webhooks", 5),
    // 6 what every request shares
    ("ratelimit", 6),
    ("state", 6),
    // 7 the background worker
    ("worker", 7),
    // 8 routes, extractors, middleware, IntoResponse
    ("http", 8),
    // 9 the OpenAPI document
    ("openapi", 9),
    // 10 the crate root (Sandbox, app) and the decisions page
    ("lib", 10),
    ("main", 10),
    ("decisions", 10),
];

/// Uses inside one layer, each pointing down within it (so no circle can form).
const SAME_LAYER: &[(&str, &str)] = &[
    ("keys", "ids"),
    ("request_id", "ids"),
    ("error", "wire"),
    ("state", "ratelimit"),
];

/// Uses that point down but are refused all the same: the store is rows and SQL only.
const FORBIDDEN: &[(&str, &str)] = &[("store", "wire")];

fn layer(module: &str) -> Option<u8> {
    LAYERS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|&(_, layer)| layer)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The length of a char literal at the start of `rest` (`'x'`, `'\n'`, `'\''`,
/// `'\u{e9}'`); None for a lifetime or a label (`'a`, `'static`).
fn char_literal(rest: &str) -> Option<usize> {
    let mut chars = rest.char_indices();
    if chars.next()?.1 != '\'' {
        return None;
    }
    if chars.next()?.1 == '\\' {
        return rest.get(3..)?.find('\'').map(|end| end + 4);
    }
    let (at, second) = chars.next()?;
    (second == '\'').then_some(at + 1)
}

/// The source with comments, strings and char literals blanked (line breaks kept).
fn code_only(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let bytes = rest.as_bytes();
        let skip = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(rest.len(), |end| end + 2)
        } else if let Some(raw) = rest.strip_prefix("r#\"") {
            raw.find("\"#").map_or(rest.len(), |end| end + 5)
        } else if bytes[0] == b'"' {
            let mut j = 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(rest.len())
        } else {
            char_literal(rest).unwrap_or(0)
        };
        if skip == 0 {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        } else {
            out.extend(
                rest[..skip]
                    .chars()
                    .map(|c| if c == '\n' { '\n' } else { ' ' }),
            );
            i += skip;
        }
    }
    out
}

/// The identifier at the start of `text` (empty when there is none).
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first name of each item of a use group, read after its `{`.
fn group_names(group: &str) -> Vec<&str> {
    let (mut names, mut depth, mut item) = (Vec::new(), 0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            ',' | '}' if depth == 0 => {
                names.push(ident(group[item..].trim_start()));
                if c == '}' {
                    break;
                }
                item = i + 1;
            }
            _ => {}
        }
    }
    names
}

/// (byte offset, name, through `super`) of each path in `code` that reaches the crate
/// root: `crate::m...`, or enough `super::` to climb out of `module` (the file's path).
fn references(code: &str, module: &[String]) -> Vec<(usize, String, bool)> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for (start, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        let before = start.checked_sub(1).map(|b| bytes[b]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':' || b == b'$')
        {
            continue; // the middle of a longer path or name
        }
        let (mut rest, mut depth) = (&code[start..], module.len());
        let through_super = rest.starts_with("super::");
        if let Some(after) = rest.strip_prefix("crate::") {
            (rest, depth) = (after, 0);
        }
        while let Some(after) = rest.strip_prefix("super::") {
            (rest, depth) = (after, depth.saturating_sub(1));
        }
        if depth > 0 {
            continue; // still inside the file's own top-level module
        }
        let names = match rest.strip_prefix('{') {
            Some(group) => group_names(group),
            None => vec![ident(rest)],
        };
        for name in names {
            if !name.is_empty() && name != "self" {
                found.push((start, name.to_owned(), through_super));
            }
        }
    }
    found.sort();
    found
}

fn sources() -> (PathBuf, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    (src, files)
}

#[test]
fn no_module_uses_a_module_above_it() {
    let (src, files) = sources();
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let mut module: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        if module.len() > 1 && module.last().is_some_and(|last| last == "mod") {
            module.pop();
        }
        let from = module[0].as_str();
        let Some(from_layer) = layer(from) else {
            wrong.push(format!(
                "src/{}: `{from}` has no layer in LAYERS",
                rel.display()
            ));
            continue;
        };
        let code = code_only(&fs::read_to_string(file).unwrap());
        for (offset, to, through_super) in references(&code, &module) {
            if to == from {
                continue;
            }
            let line = code[..offset].matches('\n').count() + 1;
            let at = format!("src/{}:{line}", rel.display());
            let listed =
                |pairs: &[(&str, &str)]| pairs.iter().any(|&(a, b)| a == from && b == to.as_str());
            match layer(&to) {
                // An item of a parent module, named from an inline `mod tests`.
                None if through_super => {}
                None => wrong.push(format!("{at}: `crate::{to}` is not a module of LAYERS")),
                Some(to_layer) if to_layer > from_layer => wrong.push(format!(
                    "{at}: `{from}` (layer {from_layer}) uses `{to}` (layer {to_layer}), above it"
                )),
                Some(to_layer) if to_layer == from_layer && !listed(SAME_LAYER) => wrong.push(
                    format!("{at}: `{from}` uses `{to}` in its own layer; not in SAME_LAYER"),
                ),
                Some(_) if listed(FORBIDDEN) => {
                    wrong.push(format!("{at}: `{from}` may not use `{to}` (FORBIDDEN)"))
                }
                Some(_) => {}
            }
        }
    }
    wrong.dedup(); // two paths on one line
    assert!(
        wrong.is_empty(),
        "{} use(s) against the layers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn answers_are_typed() {
    let (src, files) = sources();
    let refused = [
        ("http", "Json<Value>"),
        ("http", "Json<serde_json::Value>"),
        ("actions", "ApiResult<Value>"),
        ("store", "fn to_json"),
        ("", "fn answer<"),
    ];
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let code = code_only(&fs::read_to_string(file).unwrap());
        for (dir, text) in refused {
            if !rel.starts_with(dir) {
                continue;
            }
            for (offset, _) in code.match_indices(text) {
                let line = code[..offset].matches('\n').count() + 1;
                wrong.push(format!("src/{}:{line}: `{text}`", rel.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "untyped answers:\n{}", wrong.join("\n"));
}
