//! Who is at the till, and what they may do: the person signed in ([`Counter::sign_in`],
//! with their PIN or their badge), a manager visiting the manager's screens over them,
//! and a manager's approval of one call at a cashier's screen. Every call of the page
//! passes [`Counter::admit`] first, which reads the role table ([`crate::roles`]); the
//! core's own methods ask [`Counter::may`] again where the write is made.
//!
//! An approval is bound to the one call it was given for: the call the core refused for
//! want of it, its action and its arguments (their digest), used once within the idle
//! time. A PIN typed with no such call waiting approves nothing.
//!
//! Idle is measured on the till's uptime ([`Clock::uptime`]): neither a change of the
//! wall clock nor a restart (which signs everyone out) can stretch it.

use std::time::Duration;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::*;
use crate::clock::Uptime;
use crate::ids::PersonId;
use crate::people::{self, LockPolicy, Person};
use crate::pin::{self, PinError, PinStatus};
use crate::roles::{Action, Role, RoleTable, Rule, Seat};

mod pins;

for_the_ui! {
/// What a right PIN opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PinFor {
    /// The one call the core refused for want of a manager's approval (issue a gift
    /// card, withdraw a payment, leave the kiosk ...), with its arguments: that call
    /// once, within the idle time.
    OneAction,
    /// A manager's visit to Figures, Messages, Lists or Settings, over the person signed
    /// in: the manager is here until they leave those screens, or do nothing for the
    /// idle time.
    Visit,
}
}

for_the_ui! {
/// How a person proves who they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "with", rename_all = "snake_case")]
pub enum Credential {
    /// Their name tapped, and their PIN.
    Pin {
        /// Who.
        person: PersonId,
        /// Their PIN.
        pin: String,
    },
    /// Their badge scanned.
    Badge {
        /// What the scanner read.
        code: String,
    },
}
}

for_the_ui! {
/// Who is at the till now and what they may do, for the page to show: the core
/// decides again on every call, whatever the page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The person whose work this is now: a manager visiting, or the person signed in.
    pub person: Option<Person>,
    /// The person signed in, when a manager visits over them.
    pub signed_in: Option<Person>,
    /// No one is on the roster yet: the owner's PIN is asked first.
    pub first_start: bool,
    /// The till is a kiosk.
    pub kiosk: bool,
    /// What each action is for this seat.
    pub rules: std::collections::BTreeMap<Action, Rule>,
    /// The till's name ("Counter 2").
    pub till_name: String,
    /// When the till locks itself.
    pub lock: LockPolicy,
}
}

/// A person at the till, as the seat keeps them.
#[derive(Debug, Clone)]
struct Here {
    id: PersonId,
    role: Role,
}

/// The call refused for want of an approval, or approved.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Call {
    action: Action,
    digest: [u8; 32],
}

/// Who is at the till now (see the module's words).
#[derive(Debug, Default)]
pub(super) struct Presence {
    signed_in: Option<Here>,
    /// The last touch of the person signed in.
    active_at: Option<Uptime>,
    /// A manager visiting, until then (moved on by each call).
    visit: Option<(Here, Uptime)>,
    /// The last call refused for want of an approval.
    wanted: Option<Call>,
    /// The call a manager approved, until then, and who approved it.
    approved: Option<(Call, Uptime, PersonId)>,
    /// Actions admitted on an approval, each for its one call's method, with who
    /// approved it.
    admitted: Vec<(Action, Uptime, PersonId)>,
}

/// Whether `now` comes before `until` (on the same boot: uptime restarts with one).
fn before(now: &Uptime, until: &Uptime) -> bool {
    now.boot == until.boot && now.since_boot < until.since_boot
}

/// `by` after `now`.
fn after(now: &Uptime, by: Duration) -> Uptime {
    Uptime {
        boot: now.boot.clone(),
        since_boot: now.since_boot.saturating_add(by),
    }
}

/// The digest of a call's arguments, the same whatever the order of their names.
fn digest(arguments: &Value) -> [u8; 32] {
    fn canonical(value: &Value, out: &mut String) {
        match value {
            Value::Object(fields) => {
                let mut names: Vec<&String> = fields.keys().collect();
                names.sort();
                out.push('{');
                for name in names {
                    out.push_str(&Value::String(name.clone()).to_string());
                    out.push(':');
                    canonical(&fields[name], out);
                    out.push(',');
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for item in items {
                    canonical(item, out);
                    out.push(',');
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = String::new();
    canonical(arguments, &mut text);
    Sha256::digest(text.as_bytes()).into()
}

impl Counter {
    fn presence(&self) -> std::sync::MutexGuard<'_, Presence> {
        self.presence
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The role table of this till: the defaults and the owner's changes.
    pub(crate) fn role_table_now(&self) -> Result<RoleTable, Error> {
        let conn = self.core.reader();
        let mut statement = conn.prepare_cached("SELECT action, role, rule FROM role_rules")?;
        let changes = statement
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RoleTable::with_changes(changes.into_iter().filter_map(
            |(action, role, rule)| {
                let rule = serde_json::from_value(Value::String(rule)).ok()?;
                Some(((Action::of_command(&action)?, Role::parse(&role)?), rule))
            },
        )))
    }

    /// The seat now, the idle lock applied. The person whose work this is: a manager
    /// visiting, else the person signed in.
    fn seat_now(&self) -> Result<(Seat, Option<PersonId>), Error> {
        if self.kiosk_on.load(Ordering::SeqCst) {
            return Ok((Seat::Kiosk, None));
        }
        if self.owner().is_err() {
            return Ok((Seat::ReadingOnly, None));
        }
        let now = self.core.uptime();
        let idle = self.lock_policy()?.idle();
        let mut presence = self.presence();
        if let Some((_, until)) = &presence.visit
            && !before(&now, until)
        {
            presence.visit = None;
        }
        if let Some(active_at) = &presence.active_at
            && !before(&now, &after(active_at, idle))
        {
            *presence = Presence::default();
        }
        let here = presence
            .visit
            .as_ref()
            .map(|(here, _)| here)
            .or(presence.signed_in.as_ref())
            .map(|here| (Seat::Person(here.role), Some(here.id)));
        drop(presence);
        Ok(match here {
            Some(here) => here,
            None if people::anyone(&self.core.reader())? => (Seat::Locked, None),
            None => (Seat::FirstStart, None),
        })
    }

    /// The person a write made now belongs to: refused while nobody is signed in.
    pub(crate) fn author(&self) -> Result<PersonId, Error> {
        match self.seat_now()? {
            (_, Some(person)) => Ok(person),
            (Seat::Kiosk, None) => Err(NotAllowed::Kiosk.into()),
            _ => Err(NotAllowed::NotSignedIn.into()),
        }
    }

    /// What the page's call of `action` with `arguments` may do: every call passes
    /// here first (the shell's door). A call a manager must approve is refused until
    /// one does, and remembered as the call a PIN typed next approves.
    pub fn admit(&self, action: Action, arguments: &Value) -> Result<(), Error> {
        let action = self.refine(action, arguments)?;
        let (seat, _) = self.seat_now()?;
        let rule = self.role_table_now()?.rule(action, seat);
        let now = self.core.uptime();
        let mut presence = self.presence();
        match rule {
            Rule::Allowed => Ok(()),
            Rule::Refused => Err(match seat {
                Seat::Locked | Seat::FirstStart => NotAllowed::NotSignedIn,
                Seat::Kiosk => NotAllowed::Kiosk,
                Seat::ReadingOnly => {
                    return Err(LockError::AlreadyOwned(self.data_dir.clone()).into());
                }
                Seat::Person(_) => NotAllowed::RoleMayNot { action },
            }
            .into()),
            Rule::WithApproval => {
                let call = Call {
                    action,
                    digest: digest(arguments),
                };
                match presence.approved.take() {
                    Some((approved, until, by)) if approved == call && before(&now, &until) => {
                        presence.admitted.push((action, until, by));
                        Ok(())
                    }
                    _ => {
                        presence.wanted = Some(call);
                        Err(PinError::ManagerOnly.into())
                    }
                }
            }
        }
    }

    /// The action a call really is, where what it may do depends on what it is given:
    /// withdrawing or sending again money (a payment, a gift card issued) is a
    /// manager's; connecting in place of a kept key, or while writes wait, too.
    fn refine(&self, action: Action, arguments: &Value) -> Result<Action, Error> {
        let item = || {
            arguments
                .get("item")
                .and_then(Value::as_i64)
                .and_then(|id| store::get(&self.core.reader(), ItemId(id)).ok().flatten())
        };
        Ok(match action {
            Action::DiscardItem if item().is_some_and(|i| i.write.kind().is_money()) => {
                Action::DiscardPaymentOrIssue
            }
            Action::RetryItem if item().is_some_and(|i| i.write.kind().is_money()) => {
                Action::ResendPaymentOrIssue
            }
            Action::Connect | Action::TryDemo if self.connect_gate()?.needs_manager => {
                Action::Disconnect
            }
            Action::Reprint => match arguments.get("job").and_then(Value::as_i64) {
                Some(job) => self.reprinting_action(crate::print_jobs::JobId(job))?,
                None => Action::Reprint,
            },
            Action::SettlePrint => match (
                arguments.get("job").and_then(Value::as_i64),
                arguments.get("printed").and_then(Value::as_bool),
            ) {
                (Some(job), Some(printed)) => self
                    .settling_action(crate::print_jobs::JobId(job), printed)
                    .unwrap_or(Action::SettlePrint),
                _ => Action::SettlePrint,
            },
            other => other,
        })
    }

    /// Goes on only when the seat may do `action` now: by its role, or on the approval
    /// [`Counter::admit`] took for this call (used up here).
    pub(crate) fn permit(&self, action: Action) -> Result<(), Error> {
        self.permit_answered(action).map(|_| ())
    }

    /// As [`Counter::permit`], and answers who answers for it: the manager who
    /// approved it, else the person at the till (refused while nobody is signed in).
    pub(crate) fn permit_as(&self, action: Action) -> Result<PersonId, Error> {
        self.permit_answered(action)?
            .ok_or_else(|| NotAllowed::NotSignedIn.into())
    }

    fn permit_answered(&self, action: Action) -> Result<Option<PersonId>, Error> {
        let (seat, person) = self.seat_now()?;
        match self.role_table_now()?.rule(action, seat) {
            Rule::Allowed => Ok(person),
            Rule::Refused => Err(match seat {
                Seat::Kiosk => NotAllowed::Kiosk,
                Seat::Person(_) => NotAllowed::RoleMayNot { action },
                Seat::ReadingOnly => {
                    return Err(LockError::AlreadyOwned(self.data_dir.clone()).into());
                }
                Seat::Locked | Seat::FirstStart => NotAllowed::NotSignedIn,
            }
            .into()),
            Rule::WithApproval => {
                let now = self.core.uptime();
                let mut presence = self.presence();
                presence
                    .admitted
                    .retain(|(_, until, _)| before(&now, until));
                match presence.admitted.iter().position(|(a, _, _)| *a == action) {
                    Some(at) => Ok(Some(presence.admitted.remove(at).2)),
                    None => Err(PinError::ManagerOnly.into()),
                }
            }
        }
    }

    /// Whether [`Counter::may`] would go on now, using nothing up: for an action that
    /// asks the service something first.
    pub(crate) fn permit_now(&self, action: Action) -> Result<(), Error> {
        let (seat, _) = self.seat_now()?;
        match self.role_table_now()?.rule(action, seat) {
            Rule::Allowed => Ok(()),
            Rule::WithApproval
                if self
                    .presence()
                    .admitted
                    .iter()
                    .any(|(a, until, _)| *a == action && before(&self.core.uptime(), until)) =>
            {
                Ok(())
            }
            _ => Err(PinError::ManagerOnly.into()),
        }
    }

    /// Who is at the till now, and what they may do.
    pub fn seat(&self) -> Result<SeatView, Error> {
        let (seat, person) = self.seat_now()?;
        let table = self.role_table_now()?;
        let (till_name, lock) = (self.till_name()?, self.lock_policy()?);
        let signed_in = self.presence().signed_in.as_ref().map(|here| here.id);
        let visiting = signed_in.filter(|id| Some(*id) != person);
        let conn = self.core.reader();
        Ok(SeatView {
            person: person
                .map(|id| people::get(&conn, id))
                .transpose()?
                .flatten(),
            signed_in: visiting
                .map(|id| people::get(&conn, id))
                .transpose()?
                .flatten(),
            first_start: seat == Seat::FirstStart,
            kiosk: seat == Seat::Kiosk,
            rules: Action::ALL
                .iter()
                .map(|&action| (action, table.rule(action, seat)))
                .collect(),
            till_name,
            lock,
        })
    }

    /// The people who may sign in, for the lock screen (no one disabled). Not at a
    /// kiosk: a customer's page learns no staff names.
    pub fn people(&self) -> Result<Vec<Person>, Error> {
        self.staff()?;
        self.enabled_people()
    }

    /// Everyone who may sign in (no one disabled).
    fn enabled_people(&self) -> Result<Vec<Person>, Error> {
        Ok(people::all(&self.core.reader())?
            .into_iter()
            .filter(|person| !person.disabled)
            .collect())
    }

    /// Signs a person in, by their PIN (wrong tries lock it, per person) or their badge.
    /// From the lock screen, or over whoever was signed in: switching is signing in.
    pub fn sign_in(&self, credential: &Credential) -> Result<SeatView, Error> {
        self.owner()?;
        if self.kiosk_on.load(Ordering::SeqCst) {
            return Err(NotAllowed::Kiosk.into());
        }
        let person = self.prove(credential)?;
        let now = self.core.uptime();
        *self.presence() = Presence {
            signed_in: Some(Here {
                id: person.id,
                role: person.role,
            }),
            active_at: Some(now),
            ..Presence::default()
        };
        self.seat()
    }

    /// Who `credential` proves, when they may sign in.
    fn prove(&self, credential: &Credential) -> Result<Person, Error> {
        let conn = self.core.db();
        match credential {
            Credential::Pin { person, pin } => {
                pin::check(&conn, *person, pin, self.core.now(), &self.core.uptime())?;
                Ok(people::get(&conn, *person)?.ok_or(PinError::NotSet)?)
            }
            Credential::Badge { code } => match crate::scanner::read(code) {
                crate::scanner::Scanned::Badge { code } => {
                    Ok(people::by_badge(&conn, &code)?.ok_or(PinError::UnknownBadge)?)
                }
                _ => Err(PinError::UnknownBadge.into()),
            },
        }
    }

    /// The person at the till touched it (a key, a tap): the idle lock, and a manager's
    /// visit, start again. Nothing when the till has locked already.
    pub fn still_here(&self) -> Result<(), Error> {
        self.seat_now()?;
        let now = self.core.uptime();
        let idle = self.core.config.manager_idle;
        let mut presence = self.presence();
        if presence.signed_in.is_some() {
            presence.active_at = Some(now.clone());
        }
        if let Some((_, until)) = &mut presence.visit {
            *until = after(&now, idle);
        }
        Ok(())
    }

    /// The app leaves `other` (the demo's till, or the shop's) for this one: a till with
    /// no one on its roster yet takes `other`'s (names, roles, PIN hashes, badges), and
    /// whoever was signed in there is signed in here, when this till knows them alike
    /// (same place on the roster, name and role, not disabled). Not a command: the shell
    /// does it as it switches tills, within one run of the app.
    pub fn carry_people_from(&self, other: &Counter) -> Result<(), Error> {
        self.owner()?;
        if !people::anyone(&self.core.reader())? {
            let rows = people::rows(&other.core.reader())?;
            people::put_rows(&self.core.db(), &rows)?;
        }
        let Some(there) = other.presence().signed_in.clone() else {
            return Ok(());
        };
        let (Some(here), Some(then)) = (
            people::get(&self.core.reader(), there.id)?,
            people::get(&other.core.reader(), there.id)?,
        ) else {
            return Ok(());
        };
        if here.name == then.name && here.role == then.role && !here.disabled {
            *self.presence() = Presence {
                signed_in: Some(there),
                active_at: Some(self.core.uptime()),
                ..Presence::default()
            };
        }
        Ok(())
    }

    /// A person the owner changed: disabled, they are signed out at once (and a visit of
    /// theirs ends); given another role, the seat has it from now on.
    pub(super) fn person_changed(&self, changed: &Person) {
        let mut presence = self.presence();
        let affected = |here: &Option<Here>| here.as_ref().is_some_and(|h| h.id == changed.id);
        if affected(&presence.signed_in)
            || presence
                .visit
                .as_ref()
                .is_some_and(|(h, _)| h.id == changed.id)
        {
            if changed.disabled {
                *presence = Presence::default();
            } else {
                if let Some(here) = presence.signed_in.as_mut().filter(|h| h.id == changed.id) {
                    here.role = changed.role;
                }
                if let Some((here, _)) = presence.visit.as_mut().filter(|(h, _)| h.id == changed.id)
                {
                    here.role = changed.role;
                }
            }
        }
    }

    /// Locks the till: nobody is signed in until someone signs in again.
    pub fn lock_till(&self) {
        *self.presence() = Presence::default();
    }

    /// The manager left the manager's screens: the person signed in is back, and the
    /// next manager's screen or action asks again.
    pub fn manager_leaves(&self) {
        let mut presence = self.presence();
        presence.visit = None;
        presence.approved = None;
        presence.wanted = None;
    }

    /// A manager's decision the shell carries out (the demo's reset).
    pub fn manager_decides(&self, action: Action) -> Result<(), Error> {
        self.staff()?;
        self.permit(action)
    }

    /// Whether this till may be left for another (the demo's, for a real one).
    pub fn may_be_left(&self) -> Result<(), Error> {
        self.staff()?;
        match self.seat_now()?.0 {
            Seat::FirstStart => Ok(()),
            _ => self.permit(Action::Disconnect),
        }
    }

    /// Goes on only when the till is not a kiosk: a kiosk checks customers in and
    /// nothing else, whatever its page asks ([`NotAllowed::Kiosk`]).
    pub fn staff(&self) -> Result<(), Error> {
        if self.kiosk_on.load(Ordering::SeqCst) {
            Err(NotAllowed::Kiosk.into())
        } else {
            Ok(())
        }
    }

    /// When the till locks itself.
    pub fn lock_policy(&self) -> Result<LockPolicy, Error> {
        Ok(self.settings()?.lock)
    }

    /// Locks the till after a gift-card payment, when the owner chose so.
    pub(crate) fn after_gift_card_payment(&self) -> Result<(), Error> {
        if self.lock_policy()?.after_gift_card_payment {
            self.lock_till();
        }
        Ok(())
    }

    /// The till's name.
    pub fn till_name(&self) -> Result<String, Error> {
        Ok(self
            .core
            .reader()
            .query_row("SELECT name FROM till WHERE id = 1", [], |r| r.get(0))?)
    }
}
