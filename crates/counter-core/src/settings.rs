//! The till's settings, kept in its database (never the API key).
//!
//! A settings row damaged by hand or by a disk is read setting by setting: what can be
//! read is kept, each setting that cannot is at its default and named in
//! [`Loaded::damaged`], so the till opens and says so instead of refusing to start.

use loyalty_api::{LocationId, PassId};
use rusqlite::{Connection, OptionalExtension, params, types::Value as SqlValue};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::payment::OfflinePaymentPolicy;

/// Everything a manager sets at this till.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The service's base URL (live, or `.../sandbox`).
    pub base_url: Option<String>,
    /// The pass new customers are enrolled on.
    pub pass_id: Option<PassId>,
    /// This till's location.
    pub location_id: Option<LocationId>,
    /// Its name, as the service gave it when a manager chose it (for the receipts).
    pub location_name: Option<String>,
    /// The receipt printer, when a manager set one up.
    pub printer: Option<crate::receipts::PrinterSetup>,
    /// The customer's screen, when a manager turned it on.
    pub customer_display: Option<crate::customer_display::CustomerDisplay>,
    /// The camera a manager chose (a V4L2 device), when not the first one found.
    pub camera: Option<String>,
    /// The keyboard layout the wedge scanner was set up for.
    pub scanner_layout: crate::keys::KeyboardLayout,
    /// More loyalty scans of one card at this till in a day than this is unusual
    /// (None: [`UNUSUAL_SCANS`]).
    pub unusual_scans: Option<u32>,
    /// How many days closed writes, receipts and gift cards keep customers' details
    /// (None: [`RETENTION_DAYS`]).
    pub retention_days: Option<u32>,
    /// What is allowed while offline.
    pub offline_payments: OfflinePaymentPolicy,
    /// Kiosk mode.
    pub kiosk: bool,
    /// When the till locks itself (the owner's choice).
    pub lock: crate::people::LockPolicy,
    /// The UI's language (a language code), when chosen.
    pub language: Option<String>,
    /// How large the screens are drawn, in per cent, when a person changed it.
    pub zoom_percent: Option<u16>,
    /// What the service said of the kept key at the last successful connect, so that a
    /// restart opens the counter of that business at once, even offline.
    pub connection: Option<KeptConnection>,
    /// Which key is kept (its fingerprint), or that it was forgotten: a key replaced or
    /// forgotten never comes back from a keychain or file that still holds it.
    pub key: crate::secrets::KeptKey,
}

/// More loyalty scans of one card at one till in a day than this is unusual, unless a
/// manager chose otherwise (Square's default).
pub const UNUSUAL_SCANS: u32 = 5;

/// How many days a closed write, a receipt and a gift card the till read keep
/// customers' details, unless a manager chose otherwise.
pub const RETENTION_DAYS: u32 = 90;
/// The longest a manager may keep them (ten years, a shop's books).
pub const MAX_RETENTION_DAYS: u32 = 3650;

/// What `GET /v1/me` said of the key when it was last accepted. Never the key itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptConnection {
    /// The business's id (None when kept by a version that did not record it: the
    /// service is asked again).
    #[serde(default)]
    pub business_id: Option<String>,
    /// The business's name.
    pub business_name: String,
    /// Whether it is a test key.
    pub test_mode: bool,
    /// The key's scopes.
    pub scopes: Vec<crate::kinds::Scope>,
}

/// The settings as read, and the ones that could not be.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Loaded {
    /// The settings; a damaged one is at its default.
    pub settings: Settings,
    /// The names of the settings that could not be read (every one of them when the
    /// row is not a JSON object at all). Empty when all is well.
    pub damaged: Vec<String>,
}

const NAME: &str = "settings";

/// Reads the settings (defaults when never saved; a damaged one at its default).
pub(crate) fn load(conn: &Connection) -> rusqlite::Result<Settings> {
    Ok(read(conn)?.settings)
}

/// Reads the settings, and names the ones that could not be read.
pub(crate) fn read(conn: &Connection) -> rusqlite::Result<Loaded> {
    let stored: Option<SqlValue> = conn
        .query_row("SELECT value FROM settings WHERE name = ?1", [NAME], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(match stored {
        None => Loaded::default(),
        Some(SqlValue::Text(text)) => parse(&text),
        // Not even text: nothing in it can be read.
        Some(_) => parse(""),
    })
}

fn parse(text: &str) -> Loaded {
    let Ok(Value::Object(stored)) = serde_json::from_str::<Value>(text) else {
        return Loaded {
            settings: Settings::default(),
            damaged: names(),
        };
    };
    let mut readable = Map::new();
    let mut damaged = Vec::new();
    for (name, value) in stored {
        // Each setting alone over the defaults: one bad value spoils only itself.
        let alone = Value::Object(Map::from_iter([(name.clone(), value.clone())]));
        if serde_json::from_value::<Settings>(alone).is_ok() {
            readable.insert(name, value);
        } else {
            damaged.push(name);
        }
    }
    Loaded {
        settings: serde_json::from_value(Value::Object(readable)).unwrap_or_default(),
        damaged,
    }
}

/// Every setting's name, as stored.
fn names() -> Vec<String> {
    match serde_json::to_value(Settings::default()) {
        Ok(Value::Object(fields)) => fields.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// Saves the settings.
pub(crate) fn save(conn: &Connection, settings: &Settings) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO settings (name, value) VALUES (?1, ?2)
         ON CONFLICT(name) DO UPDATE SET value = ?2",
        params![
            NAME,
            serde_json::to_string(settings).expect("settings serialize")
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_defaults_until_saved_and_read_back_as_saved() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::db::open_for_tests(&dir.path().join("till.db"));
        assert_eq!(load(&conn).unwrap(), Settings::default());
        let settings = Settings {
            base_url: Some("http://127.0.0.1:8787/sandbox".into()),
            kiosk: true,
            language: Some("es".into()),
            ..Settings::default()
        };
        save(&conn, &settings).unwrap();
        assert_eq!(load(&conn).unwrap(), settings);
    }

    fn store(conn: &Connection, value: impl rusqlite::ToSql) {
        conn.execute(
            "INSERT INTO settings (name, value) VALUES ('settings', ?1)
             ON CONFLICT(name) DO UPDATE SET value = ?1",
            [value],
        )
        .unwrap();
    }

    #[test]
    fn one_damaged_setting_is_at_its_default_and_named_while_the_others_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::db::open_for_tests(&dir.path().join("till.db"));
        store(
            &conn,
            r#"{"base_url":"http://127.0.0.1:9/sandbox","kiosk":"yes","language":"fr"}"#,
        );
        let loaded = read(&conn).unwrap();
        assert_eq!(loaded.damaged, ["kiosk"]);
        assert_eq!(
            loaded.settings,
            Settings {
                base_url: Some("http://127.0.0.1:9/sandbox".into()),
                language: Some("fr".into()),
                ..Settings::default()
            }
        );
    }

    #[test]
    fn a_row_that_is_not_json_or_not_text_names_every_setting_and_reads_as_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::db::open_for_tests(&dir.path().join("till.db"));
        store(&conn, "{\"base_url\": \"http://trunc");
        let loaded = read(&conn).unwrap();
        assert_eq!(loaded.settings, Settings::default());
        assert!(loaded.damaged.contains(&"base_url".to_owned()));
        assert!(loaded.damaged.contains(&"connection".to_owned()));
        store(&conn, vec![0u8, 159, 146, 150]);
        assert_eq!(read(&conn).unwrap().damaged, names());
        // Saving the settings as read puts the row right.
        save(&conn, &loaded.settings).unwrap();
        assert!(read(&conn).unwrap().damaged.is_empty());
    }
}
