//! The owner's screens: the roster (people added, renamed, given another role,
//! disabled, a new PIN, a badge), what each role may do, when the till locks itself and
//! its name. Each asks the role table first ([`Counter::permit`]); the seat itself is
//! `seat.rs`.

use serde_json::Value;

use super::*;
use crate::ids::PersonId;
use crate::people::{self, LockPolicy, Person, PersonChange};
use crate::pin;
use crate::receipts::Receipt;
use crate::roles::{Role, Rule, RuleLine};
use crate::roster_file::{self, RosterExported, RosterImported};

for_the_ui! {
/// A badge just made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadgeMade {
    /// Its code (`staff_…`): shown this once.
    pub code: String,
    /// Laid out as it prints, its QR code drawn: to show, or print elsewhere.
    pub preview: crate::receipts::Preview,
    /// Its job on the receipt printer, when one is set up.
    pub printing: Option<crate::print_jobs::JobId>,
}
}

impl Counter {
    /// The roster, whole (the owner's screen).
    pub fn roster(&self) -> Result<Vec<Person>, Error> {
        self.permit(Action::Roster)?;
        Ok(people::all(&self.core.reader())?)
    }

    /// Adds a person with their first PIN.
    pub fn add_person(&self, name: &str, role: Role, first_pin: &str) -> Result<Person, Error> {
        self.owner()?;
        self.permit(Action::AddPerson)?;
        let conn = self.core.db();
        let id = people::add(&conn, name, role, first_pin, self.core.now())?;
        Ok(people::get(&conn, id)?.ok_or(crate::people::RosterError::NoSuchPerson)?)
    }

    /// Renames a person, changes their role, disables or enables them. A person
    /// disabled signs in no more from this moment (signed out if signed in).
    pub fn change_person(&self, person: PersonId, change: &PersonChange) -> Result<Person, Error> {
        self.owner()?;
        self.permit(Action::ChangePerson)?;
        let conn = self.core.db();
        people::change(&conn, person, change)?;
        let changed =
            people::get(&conn, person)?.ok_or(crate::people::RosterError::NoSuchPerson)?;
        self.person_changed(&changed);
        Ok(changed)
    }

    /// Gives a person a new PIN, their wrong tries and lock forgotten.
    pub fn reset_person_pin(&self, person: PersonId, new: &str) -> Result<(), Error> {
        self.owner()?;
        self.permit(Action::ResetPersonPin)?;
        let conn = self.core.db();
        people::get(&conn, person)?.ok_or(crate::people::RosterError::NoSuchPerson)?;
        pin::replace(&conn, person, new)?;
        Ok(())
    }

    /// Makes a person a new badge (an earlier one opens nothing from now on): printed
    /// as a QR code on the receipt printer when one is set up, and answered laid out as
    /// it prints, to show or print elsewhere. Its code is kept nowhere once on paper.
    pub fn make_badge(&self, person: PersonId) -> Result<BadgeMade, Error> {
        self.owner()?;
        self.permit(Action::MakeBadge)?;
        let (name, code) = {
            let conn = self.core.db();
            let found = people::get(&conn, person)?.ok_or(people::RosterError::NoSuchPerson)?;
            (found.name, people::make_badge(&conn, person)?)
        };
        let badge = |heading| Receipt::Badge {
            heading,
            name: name.clone(),
            code: Some(code.clone()),
        };
        let printer = self.settings()?.printer;
        let printing = match printer {
            Some(_) => Some(self.print(false, badge)?),
            None => None,
        };
        let (heading, language) =
            crate::print_jobs::heading(&self.core.reader(), self.core.now(), None)?;
        let paper = printer.map_or(crate::receipts::Paper::default(), |p| p.paper);
        Ok(BadgeMade {
            preview: badge(heading).lay_out(paper, language, &jiff::tz::TimeZone::system()),
            code,
            printing,
        })
    }

    /// The role table, whole.
    pub fn role_table(&self) -> Result<Vec<RuleLine>, Error> {
        self.permit(Action::RoleTable)?;
        Ok(self.role_table_now()?.lines())
    }

    /// Changes what `role` may do with `action`.
    pub fn set_rule(&self, action: Action, role: Role, rule: Rule) -> Result<Vec<RuleLine>, Error> {
        self.owner()?;
        self.permit(Action::SetRule)?;
        let mut table = self.role_table_now()?;
        table.change(action, role, rule)?;
        let conn = self.core.db();
        conn.execute(
            "DELETE FROM role_rules WHERE action = ?1 AND role = ?2",
            rusqlite::params![action.name(), role.as_str()],
        )?;
        if let Some((_, _, rule)) = table.changes().find(|(a, r, _)| *a == action && *r == role) {
            let stored = match serde_json::to_value(rule) {
                Ok(Value::String(name)) => name,
                _ => unreachable!("a rule is named by a string"),
            };
            conn.execute(
                "INSERT INTO role_rules (action, role, rule) VALUES (?1, ?2, ?3)",
                rusqlite::params![action.name(), role.as_str(), stored],
            )?;
        }
        Ok(table.lines())
    }

    /// Sets when the till locks itself.
    pub fn set_lock_policy(&self, policy: LockPolicy) -> Result<(), Error> {
        self.owner()?;
        self.permit(Action::SetLockPolicy)?;
        if !(1..=LockPolicy::LONGEST_IDLE).contains(&policy.idle_minutes) {
            return Err(NotAllowed::LockMinutesOutOfRange {
                max: LockPolicy::LONGEST_IDLE,
            }
            .into());
        }
        self.change_settings(|saved| saved.lock = policy)
    }

    /// Names the till ("Counter 2"): on its writes' references and its receipts.
    pub fn set_till_name(&self, name: &str) -> Result<String, Error> {
        self.owner()?;
        self.permit(Action::SetTillName)?;
        let name = input::text(TextField::TillName, name, 30, true)?.unwrap_or_default();
        self.core
            .db()
            .execute("UPDATE till SET name = ?1 WHERE id = 1", [&name])?;
        Ok(name)
    }

    /// Writes the roster to `path`, signed with this till's owner key (made on first
    /// use), for the shop's other tills: each person's PIN hash and badge digest, never
    /// a PIN.
    pub fn export_roster(&self, path: &Path) -> Result<RosterExported, Error> {
        self.owner()?;
        self.permit(Action::ExportRoster)?;
        let key = roster_file::owner_key(&self.data_dir).map_err(Error::Export)?;
        let (bytes, exported) = roster_file::export(&self.core.db(), &key, self.core.now())?;
        crate::private::write(path, bytes.as_ref()).map_err(Error::Export)?;
        Ok(exported)
    }

    /// Reads the roster file at `path` into this till: refused, changing nothing, when
    /// it was altered, signed by a key this till does not trust (`trust` is the
    /// fingerprint its owner agreed to, the first time), or no newer than the last.
    /// Whoever it no longer carries is disabled here, and signed out if signed in.
    pub fn import_roster(&self, path: &Path, trust: Option<&str>) -> Result<RosterImported, Error> {
        self.owner()?;
        self.permit(Action::ImportRoster)?;
        let bytes = read_at_most(path, roster_file::LARGEST_FILE).map_err(Error::Import)?;
        let conn = self.core.db();
        let imported = roster_file::import(&conn, &bytes, trust, self.core.now())?;
        for person in people::all(&conn)? {
            self.person_changed(&person);
        }
        Ok(imported)
    }
}

/// A file's bytes, refused past `largest` (a file chooser may point anywhere).
fn read_at_most(path: &Path, largest: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(largest + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > largest {
        return Err(std::io::Error::other(format!(
            "larger than {} KiB",
            largest / 1024
        )));
    }
    Ok(bytes)
}
