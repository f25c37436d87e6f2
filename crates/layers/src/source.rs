//! Rust source as the check reads it: code only (comments, strings and char literals
//! blanked, line breaks kept, so byte offsets and line numbers stay those of the file),
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
fn inside_word(code: &str, at: usize) -> bool {
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
        let src = "use crate::a; // crate::b\nlet s = \"crate::c\"; let r = r#\"crate::d\"#;\nlet c = '\"'; fn f<'a>() {}\n/* crate::e\n */ crate::f";
        let code = code_only(src);
        assert_eq!(code.len(), src.len());
        assert_eq!(code.lines().count(), src.lines().count());
        let paths: Vec<usize> = code.match_indices("crate::").map(|(at, _)| at).collect();
        assert_eq!(paths.len(), 2, "{code}");
        assert!(code.contains("fn f<'a>()"));
        assert_eq!(line_of(&code, paths[1]), 5);
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
