//! A bare Tauri 2 window with a one-line page, built from the same Cargo profile as the
//! app: the yardstick of `make measure` for start-up, memory and size.
//!
//! Its page calls `painted` on the frame after its first paint; the window then says so
//! on standard error, the marker the measurement times start-up by (the app logs
//! "first screen on display" at the same moment of its own start).

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

/// The page has been painted, `page_millis` after it began to load: say so once, with
/// the time since `main` (as the app's "first screen on display" does).
#[tauri::command]
fn painted(page_millis: u32, started: tauri::State<'_, Started>) {
    static TOLD: std::sync::Once = std::sync::Once::new();
    TOLD.call_once(|| {
        let millis = started.0.elapsed().as_millis();
        eprintln!("bare window: first paint millis={millis} page_millis={page_millis}");
    });
}

/// When `main` began.
struct Started(std::time::Instant);

fn main() {
    let started = Started(std::time::Instant::now());
    tauri::Builder::default()
        .manage(started)
        .invoke_handler(tauri::generate_handler![painted])
        .run(tauri::generate_context!())
        .expect("the Tauri runtime failed to start");
}
