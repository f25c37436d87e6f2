//! A bare Tauri 2 window with a one-line page, built from the same Cargo profile as the
//! app: the yardstick of `make measure` for start-up, memory and size.
//!
//! Its page calls `painted` on the frame after its first paint; the window then says so
//! on standard error, the marker the measurement times start-up by (the app logs
//! "first screen on display" at the same moment of its own start).

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

/// The page has been painted: say so once.
#[tauri::command]
fn painted() {
    static TOLD: std::sync::Once = std::sync::Once::new();
    TOLD.call_once(|| eprintln!("bare window: first paint"));
}

fn main() {
    tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![painted])
        .run(tauri::generate_context!())
        .expect("the Tauri runtime failed to start");
}
