//! Declares the app's commands so that tauri-build generates one `allow-<command>`
//! permission for each; `capabilities/default.json` grants exactly those.

fn main() {
    let commands = tauri_build::AppManifest::new().commands(&[
        "app_info",
        "check_base_url",
        "check_amount",
        "connect",
        "try_demo",
        "disconnect",
        "saved_base_url",
        "current_connection",
        "troubles",
        "reset_damaged_settings",
        "reopen",
        "queue_status",
        "read_scan",
        "read_card",
        "record_scan",
        "confirm_repeat_visit",
        "queue",
        "send_now",
        "discard_item",
        "retry_item",
        "gift_card",
        "take_payment",
        "search_customers",
        "sync_customers",
        "offline_payments",
        "save_offline_payments",
        "pass",
        "passes",
        "enrol",
        "pin_status",
        "set_pin",
        "check_pin",
        "change_pin",
        "manager_leaves",
        "issue_choices",
        "issue_gift_card",
        "history",
        "export_history",
        "figures",
    ]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(commands))
        .expect("tauri-build failed");
}
