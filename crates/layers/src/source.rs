//! Rust source as the check reads it: code only (comments, strings and char literals
//! blanked byte for byte, line breaks kept, so offsets and line numbers stay the file's),
//! and the identifiers in it.

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

/// The length of a raw string at the start of `rest` (`r"…"`, `r#"…"#`, `br##"…"##`).
fn raw_string(rest: &str) -> Option<usize> {
    let after_r = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'))?;
    let hashes = after_r.len() - after_r.trim_start_matches('#').len();
    let body = after_r[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body
        .find(&close)
        .map_or(body.len(), |end| end + close.len());
    Some(rest.len() - body.len() + end)
}

/// The length of a plain string at the start of `rest` (`"…"`, escapes honoured).
fn string(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut j = 1;
    while j < bytes.len() && bytes[j] != b'"' {
        j += if bytes[j] == b'\\' { 2 } else { 1 };
    }
    Some((j + 1).min(rest.len()))
}

/// Whether byte `at` of `code` continues an identifier that began before it.
pub fn inside_word(code: &str, at: usize) -> bool {
    at.checked_sub(1)
        .map(|before| code.as_bytes()[before])
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The source with comments, strings and char literals blanked (line breaks kept).
pub fn code_only(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let skip = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(rest.len(), |end| end + 2)
        } else {
            (!inside_word(src, i))
                .then(|| raw_string(rest))
                .flatten()
                .or_else(|| string(rest))
                .or_else(|| char_literal(rest))
                .unwrap_or(0)
        };
        if skip == 0 {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        } else {
            // As many spaces as the blanked text has bytes: offsets stay the file's.
            for c in rest[..skip].chars() {
                match c {
                    '\n' => out.push('\n'),
                    _ => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
                }
            }
            i += skip;
        }
    }
    out
}

/// The contents of every plain string literal of `src` (not in a comment), with the
/// byte offset of its opening quote: where an attribute names a path as text
/// (`#[serde(with = "crate::m")]`).
pub fn strings(src: &str) -> Vec<(usize, &str)> {
    let code = code_only(src);
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(at) = src[i..].find('"').map(|at| at + i) {
        // A quote that code_only blanked, with the code before it kept as is, opens a
        // string (a comment's quote has its comment's start blanked before it too).
        let opens = code.as_bytes()[at] == b' '
            && !inside_word(src, at)
            && code[..at].trim_end().len() == src[..at].trim_end().len();
        match (opens, string(&src[at..])) {
            (true, Some(len)) if len >= 2 => {
                found.push((at, &src[at + 1..at + len - 1]));
                i = at + len;
            }
            _ => i = at + 1,
        }
    }
    found
}

/// The identifier at the start of `text` (empty when there is none).
pub fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The line (from 1) of byte `offset` in `code`.
pub fn line_of(code: &str, offset: usize) -> usize {
    code[..offset].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_strings_and_chars_are_blanked_and_lines_kept() {
        let src = "use crate::a; // crate::b é\nlet s = \"crate::c\"; let r = r#\"crate::d\"#;\nlet c = '\"'; fn f<'a>() {}\n/* crate::e\n */ crate::f";
        let code = code_only(src);
        assert_eq!(code.len(), src.len());
        assert_eq!(code.lines().count(), src.lines().count());
        let paths: Vec<usize> = code.match_indices("crate::").map(|(at, _)| at).collect();
        assert_eq!(paths.len(), 2, "{code}");
        assert!(code.contains("fn f<'a>()"));
        assert_eq!(line_of(&code, paths[1]), 5);
    }

    #[test]
    fn strings_are_found_outside_comments_only() {
        let src = "#[serde(with = \"crate::a\")] // \"crate::b\"\nlet s = \"x\";";
        let found: Vec<&str> = strings(src).into_iter().map(|(_, s)| s).collect();
        assert_eq!(found, ["crate::a", "x"]);
    }

    #[test]
    fn a_raw_string_with_quotes_inside_is_one_string() {
        let code = code_only("r##\"a \"# crate::x\"## crate::y");
        assert!(!code.contains("crate::x"));
        assert!(code.contains("crate::y"));
    }

    #[test]
    fn an_identifier_ending_in_r_is_not_a_raw_string() {
        let code = code_only("for\"x\" + bar\"crate::z\"");
        assert!(!code.contains("crate::z"), "{code}");
    }
}
