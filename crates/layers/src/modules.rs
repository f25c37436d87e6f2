//! One crate's modules and the uses between them: each use of a path that leaves the
//! module it is written in becomes an edge between the two siblings that hold its two
//! ends, at the level of the modules they share.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::paths::{self, Reference};
use crate::source::{code_only, line_of};

/// A source file of the crate, read.
#[derive(Debug)]
pub struct File {
    /// The file's path, from the crate's folder.
    pub rel: PathBuf,
    /// Its module's path from the crate root (empty for the root).
    pub module: Vec<String>,
    /// The file's code, blanked by [`code_only`].
    pub code: String,
    /// The paths of the crate it names.
    pub references: Vec<Reference>,
}

/// One use between two sibling modules: `parent::from` names something in
/// `parent::to`, at `file:line`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The module both ends are in (empty: the crate root).
    pub parent: Vec<String>,
    /// The sibling the use is written in.
    pub from: String,
    /// The sibling it names.
    pub to: String,
    /// Where the use is written (`src/…:line`).
    pub at: String,
}

/// A crate's source files and modules.
#[derive(Debug)]
pub struct Crate {
    /// The crate's root file (`src/lib.rs`, or `src/main.rs` for a binary alone).
    pub root: PathBuf,
    /// Every file of the crate's module tree.
    pub files: Vec<File>,
    /// Every module: the files' and the inline ones (`mod name { … }`).
    pub modules: BTreeSet<Vec<String>>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries = fs::read_dir(dir)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<Vec<_>, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The module a file of `src/` holds (`a/b.rs` and `a/b/mod.rs` are `a::b`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut module: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if module
        .last()
        .is_some_and(|last| last == "mod" || last == "lib" || last == "main")
    {
        module.pop();
    }
    module
}

impl Crate {
    /// Reads the crate in folder `dir`; None when it has no `src/lib.rs` nor
    /// `src/main.rs`. A library's `main.rs` and `src/bin/` are crates of their own that
    /// use the library from outside: they are not read.
    pub fn read(dir: &Path) -> std::io::Result<Option<Self>> {
        let src = dir.join("src");
        let root = if src.join("lib.rs").is_file() {
            src.join("lib.rs")
        } else if src.join("main.rs").is_file() {
            src.join("main.rs")
        } else {
            return Ok(None);
        };
        let mut paths = Vec::new();
        rust_files(&src, &mut paths)?;
        let mut files = Vec::new();
        let mut modules = BTreeSet::from([Vec::new()]);
        for path in paths {
            let in_src = path.strip_prefix(&src).unwrap_or(&path);
            let other_root = in_src == Path::new("main.rs") && path != root;
            if other_root || in_src.starts_with("bin") {
                continue;
            }
            let module = module_of(in_src);
            let src = fs::read_to_string(&path)?;
            let code = code_only(&src);
            let mut read = paths::read(&code, &module);
            // A path written as text in an attribute; inline modules aside (rare there),
            // it is the file's module's.
            read.references.extend(paths::in_strings(&src, &module));
            modules.insert(module.clone());
            // An inline `mod tests` is part of the module it tests: its uses are that
            // module's (its `super::` still climbs from it).
            let not_tests = |inline: &Vec<String>| inline.last().is_some_and(|n| n != "tests");
            modules.extend(read.inline_modules.into_iter().filter(not_tests));
            files.push(File {
                rel: path.strip_prefix(dir).unwrap_or(&path).to_owned(),
                module,
                code,
                references: read.references,
            });
        }
        // A bare `use first::…` is the crate's when `first` is a child module; a use
        // written in an inline `mod tests` is its module's.
        for file in &mut files {
            file.references.retain(|reference| {
                !reference.bare || modules.contains(&reference.path[..reference.from.len() + 1])
            });
            for reference in &mut file.references {
                while !modules.contains(&reference.from) {
                    reference.from.pop();
                }
            }
        }
        Ok(Some(Self {
            root: root.strip_prefix(dir).unwrap_or(&root).to_owned(),
            files,
            modules,
        }))
    }

    /// The crate's top-level modules (the root's children).
    pub fn top_level(&self) -> impl Iterator<Item = &str> {
        self.modules
            .iter()
            .filter(|module| module.len() == 1)
            .map(|module| module[0].as_str())
    }

    /// The longest module that starts `path` (at least the root).
    fn module_of_path<'p>(&self, path: &'p [String]) -> &'p [String] {
        (0..=path.len())
            .rev()
            .map(|len| &path[..len])
            .find(|prefix| self.modules.contains(*prefix))
            .unwrap_or(&[])
    }

    /// Where `name`, an item of module `module`, comes from when the module takes it
    /// from elsewhere (`use other::Name;`, `pub use other::Name;`).
    fn imported(&self, module: &[String], name: &str) -> Option<&[String]> {
        self.files
            .iter()
            .filter(|file| file.module == module)
            .flat_map(|file| &file.references)
            .filter(|reference| reference.from == module)
            .filter(|reference| reference.binds.as_deref() == Some(name))
            .map(|reference| reference.path.as_slice())
            .find(|path| !(path.len() == module.len() + 1 && path.starts_with(module)))
    }

    /// The module a path names, following a name its ancestors bring in from
    /// elsewhere (so a re-export hides no use).
    fn named_module(&self, path: &[String]) -> Vec<String> {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let module = self.module_of_path(&path).to_vec();
            let Some(name) = path.get(module.len()) else {
                return module;
            };
            match self.imported(&module, name) {
                Some(source) => {
                    let mut resolved = source.to_vec();
                    resolved.extend_from_slice(&path[module.len() + 1..]);
                    path = resolved;
                }
                None => return module,
            }
        }
        self.module_of_path(&path).to_vec()
    }

    /// Every use between two sibling modules, in file order.
    pub fn edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        for file in &self.files {
            for reference in &file.references {
                let from = &reference.from;
                let to = self.named_module(&reference.path);
                let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if shared == from.len() || shared == to.len() {
                    continue; // a module and its own ancestors or descendants
                }
                let at = format!(
                    "{}:{}",
                    file.rel.display(),
                    line_of(&file.code, reference.offset)
                );
                let edge = Edge {
                    parent: from[..shared].to_vec(),
                    from: from[shared].clone(),
                    to: to[shared].clone(),
                    at,
                };
                if edges.last() != Some(&edge) {
                    edges.push(edge);
                }
            }
        }
        edges
    }
}
