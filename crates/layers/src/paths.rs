//! The paths a file names inside its own crate (`crate::…`, `super::…`, `self::…`,
//! use groups included), each made absolute from the crate root, and the inline
//! modules (`mod name { … }`) the file opens.

use crate::source::{ident, inside_word};

/// A path of the crate named in a file: where, and its segments from the crate root
/// (`crate::a::{b::C, d}` is two: `a::b::C` and `a::d`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The byte offset of the path's first segment in the file.
    pub offset: usize,
    /// The module the path is written in (the file's, or an inline one inside it).
    pub from: Vec<String>,
    /// The path's segments, from the crate root.
    pub path: Vec<String>,
    /// Written without `crate::`, `super::` or `self::` in a `use` (`use child::X;`):
    /// a path of the crate only if its first segment is a child module of `from`, an
    /// external crate's otherwise.
    pub bare: bool,
    /// The name a `use` binds it to in `from` (its last segment, or its `as` alias);
    /// None for a path named elsewhere (an expression, a type, an attribute's text).
    pub binds: Option<String>,
}

/// What a file says of the crate: its paths and its inline modules (absolute).
#[derive(Debug, Default)]
pub struct Read {
    /// Every path of the crate named in the file.
    pub references: Vec<Reference>,
    /// Every `mod name { … }` the file opens.
    pub inline_modules: Vec<Vec<String>>,
}

/// The name of the inline module whose body the `{` at byte `brace` opens, if it
/// does (`mod name {`, `pub(crate) mod name {`).
fn inline_module_at(code: &str, brace: usize) -> Option<&str> {
    let before = code[..brace].trim_end();
    let name_start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |at| at + 1);
    let name = &before[name_start..];
    let keyword = before[..name_start].trim_end();
    let is_mod = keyword.ends_with("mod")
        && !keyword[..keyword.len() - 3].ends_with(|c: char| c.is_alphanumeric() || c == '_');
    (is_mod && !name.is_empty() && name_start > 0).then_some(name)
}

/// Expands the use tree at the start of `text` under `prefix` into `out`; returns how
/// many bytes it read.
fn use_tree(text: &str, prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) -> usize {
    let mut at = text.len() - text.trim_start().len();
    let mut path = prefix.to_vec();
    loop {
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            at += 1;
            let mut read = 0;
            loop {
                let inner = &group[read..];
                let skipped =
                    inner.len() - inner.trim_start_matches([',', ' ', '\n', '\t', '\r']).len();
                read += skipped;
                if group[read..].starts_with('}') || read >= group.len() {
                    return at + read + 1;
                }
                let used = use_tree(&group[read..], &path, out);
                if used == 0 {
                    return at + read;
                }
                read += used;
            }
        }
        if rest.starts_with('*') {
            out.push((path, None));
            return at + 1;
        }
        let name = ident(rest);
        if name.is_empty() {
            if path.len() > prefix.len() {
                out.push((path, None));
            }
            return at;
        }
        at += name.len();
        if name != "self" {
            path.push(name.to_owned());
        }
        let after = &text[at..];
        let gap = after.len() - after.trim_start().len();
        match after.trim_start().strip_prefix("::") {
            Some(next) if !next.trim_start().starts_with('<') => at += gap + 2,
            _ => {
                // `as alias` belongs to this tree; the caller skips to its `,` or `}`.
                let tail = text[at..].trim_start();
                if let Some(renamed) = tail.strip_prefix("as ") {
                    let renamed = renamed.trim_start();
                    let alias = ident(renamed);
                    out.push((path, Some(alias.to_owned())));
                    return text.len() - renamed.len() + alias.len();
                }
                out.push((path, None));
                return at;
            }
        }
    }
}

/// The paths of the crate named in `code` (a file of module `module`, blanked by
/// [`code_only`](crate::source::code_only)), and the inline modules it opens.
pub fn read(code: &str, module: &[String]) -> Read {
    let mut read = Read::default();
    let bytes = code.as_bytes();
    // Inline modules: which `{` opened one, so a path knows the module it is in.
    let mut open: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let c = bytes[i];
        if c == b'{' {
            let name = inline_module_at(code, i).map(str::to_owned);
            if let Some(name) = &name {
                let mut path = current(module, &open);
                path.push(name.clone());
                read.inline_modules.push(path);
            }
            open.push(name);
        } else if c == b'}' {
            open.pop();
        } else if let Some(len) = path_start(code, i) {
            let here = current(module, &open);
            let (base, after) = resolve_start(&code[i..], &here);
            if let Some(base) = base {
                let used = push_tree(&mut read, code, i, after, &here, &base, false);
                i += after + used.max(1);
                continue;
            }
            i += len;
            continue;
        } else if let Some(len) = bare_use(code, i) {
            let here = current(module, &open);
            let used = push_tree(&mut read, code, i + len, 0, &here, &here, true);
            i += len + used.max(1);
            continue;
        }
        i += 1;
    }
    read
}

/// Reads the use tree at byte `start + after` of `code` (a path written at `start`)
/// under `base` into `read`; returns how many bytes it read.
fn push_tree(
    read: &mut Read,
    code: &str,
    start: usize,
    after: usize,
    here: &[String],
    base: &[String],
    bare: bool,
) -> usize {
    let mut paths = Vec::new();
    let used = use_tree(&code[start + after..], base, &mut paths);
    let in_use = bare || after_use(code, start);
    for (path, alias) in paths {
        if path.is_empty() || (bare && path.len() <= base.len()) {
            continue;
        }
        let binds = in_use
            .then(|| alias.or_else(|| path.last().cloned()))
            .flatten();
        read.references.push(Reference {
            offset: start,
            from: here.to_vec(),
            path,
            bare,
            binds,
        });
    }
    used
}

/// Whether the path at byte `at` is the tree of a `use` (`use crate::…`,
/// `pub(crate) use super::…`).
fn after_use(code: &str, at: usize) -> bool {
    let before = code[..at].trim_end();
    before.ends_with("use") && !inside_word(before, before.len() - 3)
}

/// The paths of the crate that string literals of `src` name whole (`#[serde(with =
/// "crate::m")]`), each read as a path written at its quote, in module `module`.
pub fn in_strings(src: &str, module: &[String]) -> Vec<Reference> {
    let mut found = Vec::new();
    for (offset, text) in crate::source::strings(src) {
        let is_path = text
            .split("::")
            .all(|part| !part.is_empty() && ident(part) == part);
        if !is_path || path_start(text, 0).is_none() {
            continue;
        }
        let (Some(mut path), after) = resolve_start(text, module) else {
            continue;
        };
        path.extend(text[after..].split("::").map(str::to_owned));
        found.push(Reference {
            offset,
            from: module.to_vec(),
            path,
            bare: false,
            binds: None,
        });
    }
    found
}

/// The length of `use ` and the space after it when a `use` whose path is bare
/// (neither `crate::`, `super::`, `self::` nor `::`) starts at byte `at`.
fn bare_use(code: &str, at: usize) -> Option<usize> {
    let rest = code[at..].strip_prefix("use")?;
    if inside_word(code, at) {
        return None;
    }
    let path = rest.trim_start();
    let len = code.len() - at - path.len();
    let bare = len > 3
        && !["crate::", "super::", "self::", "::"]
            .iter()
            .any(|start| path.starts_with(start));
    bare.then_some(len)
}

/// The module a byte of the file is in: the file's, and the inline ones open there.
fn current(module: &[String], open: &[Option<String>]) -> Vec<String> {
    let mut path = module.to_vec();
    path.extend(open.iter().flatten().cloned());
    path
}

/// The length of `crate::`, `super::` or `self::` when a path starts at byte `at`
/// (not the middle of a longer path or name, nor a macro's `$crate::`).
fn path_start(code: &str, at: usize) -> Option<usize> {
    let rest = &code[at..];
    let len = ["crate::", "super::", "self::"]
        .iter()
        .find(|start| rest.starts_with(**start))?
        .len();
    let before = at.checked_sub(1).map(|b| code.as_bytes()[b]);
    let inside = inside_word(code, at) || before.is_some_and(|b| b == b':' || b == b'$');
    (!inside).then_some(len)
}

/// The absolute module a path's leading `crate::`, `super::`… and `self::` name, and
/// how many bytes they take; None when `super` climbs out of the crate.
fn resolve_start(text: &str, here: &[String]) -> (Option<Vec<String>>, usize) {
    let mut at = 0;
    let mut base = here.to_vec();
    if text.starts_with("crate::") {
        at = "crate::".len();
        base.clear();
    } else if text.starts_with("self::") {
        at = "self::".len();
    }
    while text[at..].starts_with("super::") {
        at += "super::".len();
        if base.pop().is_none() {
            return (None, at);
        }
    }
    (Some(base), at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::code_only;

    fn paths(src: &str, module: &[&str]) -> Vec<String> {
        let module: Vec<String> = module.iter().map(|s| s.to_string()).collect();
        read(&code_only(src), &module)
            .references
            .into_iter()
            .map(|r| format!("{} <- {}", r.path.join("::"), r.from.join("::")))
            .collect()
    }

    #[test]
    fn a_use_group_is_every_path_in_it() {
        assert_eq!(
            paths("use crate::{a::{b, c::D}, e as f, g::*};", &["x"]),
            ["a::b <- x", "a::c::D <- x", "e <- x", "g <- x"]
        );
    }

    #[test]
    fn super_climbs_from_the_file_and_its_inline_modules() {
        assert_eq!(
            paths(
                "use super::a::B;\nmod tests { use super::super::c; fn f() { self::d(); } }",
                &["m", "n"]
            ),
            [
                "m::a::B <- m::n",
                "m::c <- m::n::tests",
                "m::n::tests::d <- m::n::tests"
            ]
        );
    }

    #[test]
    fn a_path_in_an_expression_stops_at_its_call_or_generics() {
        assert_eq!(
            paths(
                "let x = crate::a::f(1); let y = crate::b::T::<u8>::new();",
                &[]
            ),
            ["a::f <- ", "b::T <- "]
        );
    }

    #[test]
    fn a_macro_crate_path_and_a_longer_name_are_not_paths() {
        assert!(paths("$crate::a::b; my_crate::c; loyalty_api::super_x", &["m"]).is_empty());
    }

    #[test]
    fn super_out_of_the_crate_is_no_path() {
        assert!(paths("use super::x;", &[]).is_empty());
    }
}
