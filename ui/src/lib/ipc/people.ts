// The till's people through the IPC: who is at the till, signing in and locking, a
// manager's badge, and the owner's screens (the roster, the role table, when the till
// locks, its name, the roster's files for the shop's other tills). Re-exported by index.ts, the one module components import.
import { call } from './call';
import type { Action } from './bindings/Action';
import type { BadgeMade } from './bindings/BadgeMade';
import type { Credential } from './bindings/Credential';
import type { LockPolicy } from './bindings/LockPolicy';
import type { Person } from './bindings/Person';
import type { PersonChange } from './bindings/PersonChange';
import type { PersonId } from './bindings/PersonId';
import type { PinFor } from './bindings/PinFor';
import type { Role } from './bindings/Role';
import type { RosterExported } from './bindings/RosterExported';
import type { RosterImported } from './bindings/RosterImported';
import type { Rule } from './bindings/Rule';
import type { RuleLine } from './bindings/RuleLine';
import type { SeatView } from './bindings/SeatView';

/** A manager's badge scanned at a cashier's screen: as a right PIN. */
export function approveWithBadge(code: string, opens: PinFor): Promise<void> {
  return call<void>('approve_with_badge', { code, opens });
}

/** Who is at the till now, and what they may do. */
export function seat(): Promise<SeatView> {
  return call<SeatView>('seat');
}

/** The people who may sign in, for the lock screen. */
export function people(): Promise<Person[]> {
  return call<Person[]>('people');
}

/** Signs a person in (a PIN or a badge), from the lock screen or over whoever was. */
export function signIn(credential: Credential): Promise<SeatView> {
  return call<SeatView>('sign_in', { credential });
}

/** Locks the till: the lock screen until someone signs in. */
export function lockTill(): Promise<void> {
  return call<void>('lock_till');
}

/** The person at the till touched it: the idle lock starts again. */
export function stillHere(): Promise<void> {
  return call<void>('still_here');
}

/** The roster, whole (the owner's). */
export function roster(): Promise<Person[]> {
  return call<Person[]>('roster');
}

/** Adds a person with their first PIN. */
export function addPerson(name: string, role: Role, pin: string): Promise<Person> {
  return call<Person>('add_person', { name, role, pin });
}

/** Renames a person, changes their role, disables or enables them. */
export function changePerson(person: PersonId, change: PersonChange): Promise<Person> {
  return call<Person>('change_person', { person, change });
}

/** Gives a person a new PIN. */
export function resetPersonPin(person: PersonId, pin: string): Promise<void> {
  return call<void>('reset_person_pin', { person, pin });
}

/** Makes a person a new badge; its code, to print or show. */
export function makeBadge(person: PersonId): Promise<BadgeMade> {
  return call<BadgeMade>('make_badge', { person });
}

/** The role table, whole. */
export function roleTable(): Promise<RuleLine[]> {
  return call<RuleLine[]>('role_table');
}

/** Changes what a role may do with an action; the table as it now stands. */
export function setRule(action: Action, role: Role, rule: Rule): Promise<RuleLine[]> {
  return call<RuleLine[]>('set_rule', { action, role, rule });
}

/** Sets when the till locks itself. */
export function setLockPolicy(policy: LockPolicy): Promise<void> {
  return call<void>('set_lock_policy', { policy });
}

/** Names the till; the name as kept. */
export function setTillName(name: string): Promise<string> {
  return call<string>('set_till_name', { name });
}

/** Writes the roster to `path` (a `.roster` file), signed with this till's key. */
export function exportRoster(path: string): Promise<RosterExported> {
  return call<RosterExported>('export_roster', { path });
}

/** Reads the roster file at `path`; `trust` is the key's fingerprint the owner agreed to
 * trust, the first time. */
export function importRoster(path: string, trust: string | null): Promise<RosterImported> {
  return call<RosterImported>('import_roster', { path, trust });
}
