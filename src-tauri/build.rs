//! Declares the app's commands so that tauri-build generates one `allow-<command>`
//! permission for each; `capabilities/default.json` grants exactly those.

fn main() {
    let commands = tauri_build::AppManifest::new().commands(&[
        "app_info",
        "connect",
        "try_demo",
        "current_connection",
    ]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(commands))
        .expect("tauri-build failed");
}
