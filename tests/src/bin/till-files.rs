//! `till-files [ROOT]`: the check of what the tills the end-to-end suite ran left on
//! the disk ([`loyalty_counter_e2e::till_files`]), over every home under ROOT
//! (`target/e2e-home` by default). Exit 0 when nothing is found, 1 with each problem.

use std::path::PathBuf;
use std::process::ExitCode;

use loyalty_counter_e2e::till_files::{Findings, check, data_folders};

fn main() -> ExitCode {
    let root = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| loyalty_counter_e2e::workspace_root().join("target/e2e-home"));
    let mut found = Findings::default();
    let folders = match data_folders(&root) {
        Ok(folders) => folders,
        Err(error) => {
            eprintln!("till-files: {}: {error}", root.display());
            return ExitCode::FAILURE;
        }
    };
    for data in &folders {
        if let Err(error) = check(data, &mut found) {
            found
                .problems
                .push(format!("{}: could not be read: {error}", data.display()));
        }
    }
    for problem in &found.problems {
        eprintln!("till-files: {problem}");
    }
    println!(
        "till-files: {} app data folders, {} files read, {} tills opened with their key: {} problems",
        folders.len(),
        found.files,
        found.tills,
        found.problems.len()
    );
    if found.problems.is_empty() && !folders.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
