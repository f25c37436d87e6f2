//! A circle in a directed graph of names, if there is one.

use std::collections::{BTreeMap, BTreeSet};

/// The names of one circle of `edges` (`a → b → … → a`, the first name repeated at
/// the end), the first met walking from each name in order; None when the graph has
/// none.
pub fn find<'a>(edges: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<Vec<&'a str>> {
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, to) in edges {
        if from != to {
            next.entry(from).or_default().insert(to);
        }
    }
    // Depth first from each name in order; a name met again on the current path
    // closes a circle.
    let mut done = BTreeSet::new();
    for &start in next.keys() {
        let mut path = vec![start];
        let mut stack = vec![next[start].iter()];
        while let Some(children) = stack.last_mut() {
            match children.next() {
                Some(&child) => {
                    if let Some(at) = path.iter().position(|&name| name == child) {
                        let mut circle = path[at..].to_vec();
                        circle.push(child);
                        return Some(circle);
                    }
                    if done.contains(child) {
                        continue;
                    }
                    path.push(child);
                    stack.push(next.get(child).map(|c| c.iter()).unwrap_or_default());
                }
                None => {
                    stack.pop();
                    if let Some(finished) = path.pop() {
                        done.insert(finished);
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_circle_is_found_whole() {
        let edges = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")];
        assert_eq!(find(edges), Some(vec!["b", "c", "d", "b"]));
    }

    #[test]
    fn a_graph_that_only_points_down_has_none() {
        let edges = [("a", "b"), ("a", "c"), ("b", "c"), ("c", "d")];
        assert_eq!(find(edges), None);
    }

    #[test]
    fn a_use_of_itself_is_no_circle() {
        assert_eq!(find([("a", "a")]), None);
    }
}
