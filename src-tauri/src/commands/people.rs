//! The till's people: who is at the till, signing in and locking, and the owner's
//! screens (the roster, the role table, when the till locks). Thin adapters: the core
//! decides ([`counter_core::roles`]).

use counter_core::ids::PersonId;
use counter_core::people::{LockPolicy, Person, PersonChange};
use counter_core::roles::{Action, Role, Rule, RuleLine};
use counter_core::roster_file::{RosterExported, RosterImported};
use counter_core::{Credential, SeatView};
use tauri::State;

use super::{Chosen, chosen_file};
use crate::CommandError;
use crate::strict::Strict;
use crate::till::Till;

/// Who is at the till now, and what they may do.
#[tauri::command]
pub async fn seat(till: State<'_, Till>) -> Result<SeatView, CommandError> {
    Ok(till.session().await.counter.seat()?)
}

/// The people who may sign in, for the lock screen.
#[tauri::command]
pub async fn people(till: State<'_, Till>) -> Result<Vec<Person>, CommandError> {
    Ok(till.session().await.counter.people()?)
}

/// Signs a person in (a PIN or a badge): from the lock screen, or over whoever was.
#[tauri::command]
pub async fn sign_in(
    till: State<'_, Till>,
    credential: Strict<Credential>,
) -> Result<SeatView, CommandError> {
    Ok(till.session().await.counter.sign_in(&credential.0)?)
}

/// Locks the till: the lock screen until someone signs in.
#[tauri::command]
pub async fn lock_till(till: State<'_, Till>) -> Result<(), CommandError> {
    till.session().await.counter.lock_till();
    Ok(())
}

/// The person at the till touched it: the idle lock starts again.
#[tauri::command]
pub async fn still_here(till: State<'_, Till>) -> Result<(), CommandError> {
    Ok(till.session().await.counter.still_here()?)
}

/// The roster, whole (the owner's).
#[tauri::command]
pub async fn roster(till: State<'_, Till>) -> Result<Vec<Person>, CommandError> {
    Ok(till.session().await.counter.roster()?)
}

/// Adds a person with their first PIN.
#[tauri::command]
pub async fn add_person(
    till: State<'_, Till>,
    name: String,
    role: Role,
    pin: String,
) -> Result<Person, CommandError> {
    Ok(till.session().await.counter.add_person(&name, role, &pin)?)
}

/// Renames a person, changes their role, disables or enables them.
#[tauri::command]
pub async fn change_person(
    till: State<'_, Till>,
    person: PersonId,
    change: Strict<PersonChange>,
) -> Result<Person, CommandError> {
    Ok(till
        .session()
        .await
        .counter
        .change_person(person, &change.0)?)
}

/// Gives a person a new PIN.
#[tauri::command]
pub async fn reset_person_pin(
    till: State<'_, Till>,
    person: PersonId,
    pin: String,
) -> Result<(), CommandError> {
    Ok(till
        .session()
        .await
        .counter
        .reset_person_pin(person, &pin)?)
}

/// Makes a person a new badge: printed when a receipt printer is set up; answers its
/// code and how it prints, to show.
#[tauri::command]
pub async fn make_badge(
    till: State<'_, Till>,
    person: PersonId,
) -> Result<counter_core::BadgeMade, CommandError> {
    Ok(till.session().await.counter.make_badge(person)?)
}

/// The role table, whole.
#[tauri::command]
pub async fn role_table(till: State<'_, Till>) -> Result<Vec<RuleLine>, CommandError> {
    Ok(till.session().await.counter.role_table()?)
}

/// Changes what a role may do with an action; answers the table.
#[tauri::command]
pub async fn set_rule(
    till: State<'_, Till>,
    action: Action,
    role: Role,
    rule: Rule,
) -> Result<Vec<RuleLine>, CommandError> {
    Ok(till.session().await.counter.set_rule(action, role, rule)?)
}

/// Sets when the till locks itself.
#[tauri::command]
pub async fn set_lock_policy(
    till: State<'_, Till>,
    policy: Strict<LockPolicy>,
) -> Result<(), CommandError> {
    Ok(till.session().await.counter.set_lock_policy(policy.0)?)
}

/// Names the till; answers the name as kept.
#[tauri::command]
pub async fn set_till_name(till: State<'_, Till>, name: String) -> Result<String, CommandError> {
    Ok(till.session().await.counter.set_till_name(&name)?)
}

/// Writes the roster to `path` (a `.roster` file chosen in the save dialog), signed
/// with this till's owner key, for the shop's other tills.
#[tauri::command]
pub async fn export_roster(
    till: State<'_, Till>,
    path: String,
) -> Result<RosterExported, CommandError> {
    let path = chosen_file(&path, "roster", Chosen::ToWrite)?;
    Ok(till.session().await.counter.export_roster(&path)?)
}

/// Reads the roster file at `path` (chosen in the open dialog) into this till; `trust`
/// is the key's fingerprint the owner agreed to trust, the first time.
#[tauri::command]
pub async fn import_roster(
    till: State<'_, Till>,
    path: String,
    trust: Option<String>,
) -> Result<RosterImported, CommandError> {
    let path = chosen_file(&path, "roster", Chosen::ToRead)?;
    Ok(till
        .session()
        .await
        .counter
        .import_roster(&path, trust.as_deref())?)
}
