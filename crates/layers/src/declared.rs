//! The layers a crate's root declares in its documentation, under a `# Layers`
//! heading, bottom first, one numbered item a layer, its modules named first:
//!
//! ```text
//! //! # Layers
//! //!
//! //! 0. `ids`, `clock`: leaves.
//! //! 1. [`store`] and [`views`]: rows, and the rows as answers.
//! ```
//!
//! The names end at the first word that is not one (here the colon); what follows is
//! for the reader.

/// The modules of each declared layer, bottom first, with the line that declares it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// (layer number, module names, line of the root file).
    pub layers: Vec<(u32, Vec<String>, usize)>,
}

impl Declared {
    /// The layer of a top-level module, if declared.
    pub fn layer(&self, module: &str) -> Option<u32> {
        self.layers
            .iter()
            .find(|(_, names, _)| names.iter().any(|name| name == module))
            .map(|&(layer, _, _)| layer)
    }
}

/// The names at the start of an item's text: `` `a`, [`b`] and `c`: … `` → a, b, c.
fn leading_names(mut text: &str) -> Vec<String> {
    let mut names = Vec::new();
    loop {
        text = text.trim_start();
        text = text.strip_prefix("and ").unwrap_or(text).trim_start();
        let (inner, bracketed) = match text.strip_prefix("[`") {
            Some(inner) => (inner, true),
            None => match text.strip_prefix('`') {
                Some(inner) => (inner, false),
                None => return names,
            },
        };
        let Some(end) = inner.find('`') else {
            return names;
        };
        let name = &inner[..end];
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return names;
        }
        names.push(name.to_owned());
        text = &inner[end + 1..];
        if bracketed {
            let Some(after) = text.strip_prefix(']') else {
                return names;
            };
            text = after;
        }
        text = text.strip_prefix(',').unwrap_or(text);
    }
}

/// The layers declared in the inner doc comments (`//!`) of a crate's root file, or
/// None when it has no `# Layers` heading.
pub fn read(root_src: &str) -> Option<Declared> {
    let mut declared = None::<Declared>;
    // The item being read: its layer, its text so far (continuation lines joined), its
    // line.
    let mut item: Option<(u32, String, usize)> = None;
    let finish = |declared: &mut Option<Declared>, item: &mut Option<(u32, String, usize)>| {
        if let (Some(declared), Some((layer, text, line))) = (declared.as_mut(), item.take()) {
            declared.layers.push((layer, leading_names(&text), line));
        }
    };
    for (index, line) in root_src.lines().enumerate() {
        let Some(doc) = line.trim_start().strip_prefix("//!") else {
            if declared.is_some() || !line.trim().is_empty() && !line.starts_with("#!") {
                break;
            }
            continue;
        };
        if item.is_some() && doc.starts_with("  ") && !doc.trim().is_empty() {
            if let Some((_, text, _)) = item.as_mut() {
                text.push(' ');
                text.push_str(doc.trim());
            }
            continue;
        }
        finish(&mut declared, &mut item);
        let doc = doc.trim();
        if let Some(heading) = doc.strip_prefix('#') {
            if declared.is_some() {
                break;
            }
            if heading.trim_start_matches('#').trim() == "Layers" {
                declared = Some(Declared::default());
            }
            continue;
        }
        if declared.is_none() {
            continue;
        }
        if let Some((number, text)) = doc.split_once(". ")
            && let Ok(layer) = number.parse::<u32>()
        {
            item = Some((layer, text.to_owned(), index + 1));
        }
    }
    finish(&mut declared, &mut item);
    declared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_item_names_its_modules_before_its_words() {
        let src = "//! The crate.\n//!\n//! # Layers\n//!\n//! 0. `ids`, `clock`: leaves, not `store`.\n//! 1. [`store`] and [`views`] (rows): see `ids`.\n//!    More words, `x`.\n//! 2. `a`, `b`,\n//!    `c`: names go on.\n//!\n//! # Example\n//! 3. `late`\n\nmod ids;";
        let declared = read(src).unwrap();
        assert_eq!(
            declared.layers,
            [
                (0, vec!["ids".to_owned(), "clock".to_owned()], 5),
                (1, vec!["store".to_owned(), "views".to_owned()], 6),
                (2, vec!["a".to_owned(), "b".to_owned(), "c".to_owned()], 8)
            ]
        );
        assert_eq!(declared.layer("views"), Some(1));
        assert_eq!(declared.layer("late"), None);
    }

    #[test]
    fn a_root_without_the_heading_declares_nothing() {
        assert_eq!(read("//! # Layout\n//! 0. `a`\nmod a;"), None);
    }
}
