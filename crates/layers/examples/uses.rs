//! Prints the uses between the top-level modules of one crate, with where each is
//! written: what to read before declaring (or moving) a crate's layers.
//!
//! ```text
//! cargo run -p layers --example uses -- crates/counter-core
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use layers::modules::Crate;

fn main() -> std::io::Result<()> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".to_owned());
    let Some(krate) = Crate::read(Path::new(&dir))? else {
        eprintln!("{dir}: no src/lib.rs or src/main.rs");
        std::process::exit(2);
    };
    let mut uses: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for edge in krate.edges() {
        let parent = edge.parent.join("::");
        let from = [parent.as_str(), &edge.from].join("::");
        let to = [parent.as_str(), &edge.to].join("::");
        uses.entry((from, to)).or_default().push(edge.at);
    }
    for ((from, to), places) in uses {
        println!("{from} -> {to}    {}", places.join(" "));
    }
    Ok(())
}
