//! PINs at the till: where one stands, the owner's first, a manager's word approving the
//! one call waiting for it (or opening a visit of the manager's screens), and one's own
//! changed. A part of the seat (`super`): the approval is kept in its presence.

use super::*;

impl Counter {
    /// Where a PIN stands: `person`'s, or, when none is named, the only person who may
    /// give it now (the owner of a till with one person); `manager_here` says whether
    /// the manager's screens are open to the seat now.
    pub fn pin_status(&self, person: Option<PersonId>) -> Result<PinStatus, Error> {
        let approvers = self.approvers()?;
        if let Some(person) = person
            && people::get(&self.core.reader(), person)?.is_none()
        {
            return Err(crate::people::RosterError::NoSuchPerson.into());
        }
        let person = match (person, approvers.as_slice()) {
            (Some(person), _) => person,
            (None, [only]) => only.id,
            (None, _) => PersonId(1),
        };
        let (seat, _) = self.seat_now()?;
        let table = self.role_table_now()?;
        let status = pin::status(
            &self.core.reader(),
            person,
            self.core.now(),
            &self.core.uptime(),
        )?;
        Ok(PinStatus {
            manager_here: table.rule(Action::Figures, seat) == Rule::Allowed,
            approvers: approvers
                .into_iter()
                .map(|p| pin::Approver {
                    id: p.id,
                    name: p.name,
                })
                .collect(),
            ..status
        })
    }

    /// The people who may approve the call waiting for an approval (or visit the
    /// manager's screens, when none waits).
    fn approvers(&self) -> Result<Vec<Person>, Error> {
        let action = self
            .presence()
            .wanted
            .as_ref()
            .map_or(Action::Figures, |call| call.action);
        let table = self.role_table_now()?;
        Ok(self
            .enabled_people()?
            .into_iter()
            .filter(|p| table.rule(action, Seat::Person(p.role)) == Rule::Allowed)
            .collect())
    }

    /// Sets the first PIN, the owner's, and signs the owner in; refused once anyone
    /// is on the roster. A kiosk kept without a PIN (an earlier version's) is dropped:
    /// the first PIN does not turn the till into a kiosk.
    pub fn set_pin(&self, new: &str, _opens: PinFor) -> Result<(), Error> {
        self.owner()?;
        let owner = pin::set(&self.core.db(), new, self.core.now())?;
        if self.settings()?.kiosk {
            self.change_settings(|saved| saved.kiosk = false)?;
        }
        *self.presence() = Presence {
            signed_in: Some(Here {
                id: owner,
                role: Role::Owner,
            }),
            active_at: Some(self.core.uptime()),
            ..Presence::default()
        };
        Ok(())
    }

    /// A manager's word at the till, by PIN (the person chosen, or the only one who may)
    /// or badge: it approves the one call waiting for it, or opens a manager's visit.
    pub fn check_pin(
        &self,
        person: Option<PersonId>,
        pin: &str,
        opens: PinFor,
    ) -> Result<(), Error> {
        let person = match person {
            Some(person) => person,
            None => match self.approvers()?.as_slice() {
                [only] => only.id,
                [] if !people::anyone(&self.core.reader())? => {
                    return Err(PinError::NotSet.into());
                }
                _ => return Err(PinError::MayNotApprove.into()),
            },
        };
        self.approve(
            &Credential::Pin {
                person,
                pin: pin.to_owned(),
            },
            opens,
        )
    }

    /// See [`Counter::check_pin`].
    pub fn approve(&self, credential: &Credential, opens: PinFor) -> Result<(), Error> {
        self.owner()?;
        let approver = self.prove(credential)?;
        let table = self.role_table_now()?;
        let now = self.core.uptime();
        let until = after(&now, self.core.config.manager_idle);
        let mut presence = self.presence();
        let here = Here {
            id: approver.id,
            role: approver.role,
        };
        match opens {
            PinFor::Visit => {
                if table.rule(Action::Figures, Seat::Person(approver.role)) != Rule::Allowed {
                    return Err(PinError::MayNotApprove.into());
                }
                presence.visit = Some((here, until));
            }
            PinFor::OneAction => {
                let Some(wanted) = presence.wanted.take() else {
                    return Ok(());
                };
                if table.rule(wanted.action, Seat::Person(approver.role)) != Rule::Allowed {
                    presence.wanted = Some(wanted);
                    return Err(PinError::MayNotApprove.into());
                }
                presence.approved = Some((wanted, until, approver.id));
            }
        }
        Ok(())
    }

    /// Changes one's own PIN, the old one first.
    pub fn change_pin(&self, old: &str, new: &str) -> Result<(), Error> {
        self.owner()?;
        self.staff()?;
        let person = self.author()?;
        pin::change(
            &self.core.db(),
            person,
            old,
            new,
            self.core.now(),
            &self.core.uptime(),
        )?;
        Ok(())
    }
}
