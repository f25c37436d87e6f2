//! The workspace's crates, read from the manifests: the members of the root's
//! `[workspace]`, and each member's dependencies on the others by path.

use std::fs;
use std::path::{Path, PathBuf};

/// The quoted strings of the `members = [ … ]` array of a workspace manifest.
fn members_listed(manifest: &str) -> Vec<String> {
    let Some(start) = manifest.find("\nmembers") else {
        return Vec::new();
    };
    let after = &manifest[start..];
    let (Some(open), Some(close)) = (after.find('['), after.find(']')) else {
        return Vec::new();
    };
    after[open + 1..close]
        .split(',')
        .map(|item| item.trim().trim_matches('"').to_owned())
        .filter(|item| !item.is_empty())
        .collect()
}

/// The folder of every member of the workspace at `root` (a `dir/*` member is every
/// folder of `dir` with a `Cargo.toml`), sorted.
pub fn members(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let manifest = fs::read_to_string(root.join("Cargo.toml"))?;
    let mut found = Vec::new();
    for member in members_listed(&manifest) {
        match member.strip_suffix("/*") {
            Some(dir) => {
                for entry in fs::read_dir(root.join(dir))? {
                    let path = entry?.path();
                    if path.join("Cargo.toml").is_file() {
                        found.push(path);
                    }
                }
            }
            None => found.push(root.join(member)),
        }
    }
    found.sort();
    Ok(found)
}

/// The folders of the crates a member's manifest depends on by path (normal, dev and
/// build dependencies alike: a test's dependency is a dependency too).
pub fn path_dependencies(member: &Path) -> std::io::Result<Vec<PathBuf>> {
    let manifest = fs::read_to_string(member.join("Cargo.toml"))?;
    let mut found = Vec::new();
    let mut in_dependencies = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            // `[dependencies]`, `[dev-dependencies]`, `[target.'…'.dependencies]`...,
            // not `[lib]` or `[[bin]]`, whose `path` is a file.
            in_dependencies = line.trim_matches(['[', ']']).ends_with("dependencies");
            continue;
        }
        let Some(at) = line.find("path = \"").filter(|_| in_dependencies) else {
            continue;
        };
        let rest = &line[at + "path = \"".len()..];
        if let Some(end) = rest.find('"') {
            let dir = member.join(&rest[..end]);
            found.push(fs::canonicalize(&dir).unwrap_or(dir));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_members_array_is_read_across_lines() {
        let manifest = "[workspace]\nresolver = \"3\"\nmembers = [\n  \"src-tauri\",\n  \"crates/*\",\n]\ndefault-members = [\"x\"]\n";
        assert_eq!(members_listed(manifest), ["src-tauri", "crates/*"]);
    }
}
