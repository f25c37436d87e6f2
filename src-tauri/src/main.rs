// Keeps a console window from opening next to the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // Before anything else: `--help`, `--version` and a bad option end here, without a
    // window or a display (exit 0, or 2 with what is wrong).
    let cli = loyalty_counter_lib::Cli::read();
    loyalty_counter_lib::run(cli);
}
