//! What is wrong with the till's own files, as the UI shows it: the core's
//! [`counter_core::Trouble`], exported to TypeScript. The UI says it in words and
//! offers what to do.

use serde::Serialize;
use ts_rs::TS;

/// One thing wrong with the till that a person must put right; the window opened
/// anyway, with the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum TroubleView {
    /// The key file cannot be read: connecting with a key replaces it.
    KeyFileUnreadable {
        /// The file.
        path: String,
    },
    /// The key file holds something that is not a key: connecting replaces it.
    KeyFileNotAKey {
        /// The file.
        path: String,
    },
    /// The keychain's entry holds something that is not a key: connecting replaces it.
    KeychainNotAKey,
    /// These settings could not be read and are at their defaults until reset.
    SettingsDamaged {
        /// The settings' names, as stored.
        settings: Vec<String>,
    },
    /// Another copy of the app owns this till: this window only reads the queue.
    HeldElsewhere {
        /// The till's data folder.
        path: String,
    },
}

impl From<counter_core::Trouble> for TroubleView {
    fn from(trouble: counter_core::Trouble) -> Self {
        use counter_core::Trouble;
        let path = |p: std::path::PathBuf| p.display().to_string();
        match trouble {
            Trouble::KeyFileUnreadable { path: p } => Self::KeyFileUnreadable { path: path(p) },
            Trouble::KeyFileNotAKey { path: p } => Self::KeyFileNotAKey { path: path(p) },
            Trouble::KeychainNotAKey => Self::KeychainNotAKey,
            Trouble::SettingsDamaged { settings } => Self::SettingsDamaged { settings },
            Trouble::HeldElsewhere { path: p } => Self::HeldElsewhere { path: path(p) },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_trouble_crosses_as_its_kind_with_its_data() {
        let held = TroubleView::from(counter_core::Trouble::HeldElsewhere {
            path: "/data/till".into(),
        });
        assert_eq!(
            serde_json::to_value(held).unwrap(),
            serde_json::json!({"kind": "held_elsewhere", "path": "/data/till"})
        );
        let settings = TroubleView::from(counter_core::Trouble::SettingsDamaged {
            settings: vec!["kiosk".into()],
        });
        assert_eq!(
            serde_json::to_value(settings).unwrap(),
            serde_json::json!({"kind": "settings_damaged", "settings": ["kiosk"]})
        );
        assert_eq!(
            serde_json::to_value(TroubleView::from(counter_core::Trouble::KeychainNotAKey))
                .unwrap(),
            serde_json::json!({"kind": "keychain_not_a_key"})
        );
    }
}
