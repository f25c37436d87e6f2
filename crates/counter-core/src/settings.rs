//! The till's settings, kept in its database (never the API key).

use loyalty_api::{LocationId, PassId};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

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
    /// What is allowed while offline.
    pub offline_payments: OfflinePaymentPolicy,
    /// Kiosk mode.
    pub kiosk: bool,
    /// The UI's language (a language code), when chosen.
    pub language: Option<String>,
}

const NAME: &str = "settings";

/// Reads the settings (defaults when never saved).
pub(crate) fn load(conn: &Connection) -> rusqlite::Result<Settings> {
    let text: Option<String> = conn
        .query_row("SELECT value FROM settings WHERE name = ?1", [NAME], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(text
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default())
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
        let conn = crate::db::open(&dir.path().join("till.db")).unwrap();
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
}
