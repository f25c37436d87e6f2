//! Declares the window's one command, as the app declares its own.

fn main() {
    let commands = tauri_build::AppManifest::new().commands(&["painted"]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(commands))
        .expect("tauri-build failed");
}
