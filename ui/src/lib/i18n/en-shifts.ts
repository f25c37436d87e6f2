// The English words of the Shifts screen: the shift open, its X report, its close, and
// the Z reports sealed before. A part of en.ts's catalogue, kept apart to keep each
// file readable.
import type { Entry } from './strings';

export const shiftWords = {
  nav_shifts: 'Shifts',
  shifts_title: 'Shifts',
  shift_open_since: 'Shift {id} open since {at}, opened by {name}',
  shift_none_open: 'No shift is open at this till.',
  shift_open: 'Open a shift',
  shift_offer: 'No shift is open yet today. Open one now? Each write counts in the shift open when it is made.',
  shift_offer_later: 'Not now',
  shift_x: 'X report',
  shift_x_title: 'X report at {at}: nothing is closed',
  shift_close: 'Close the shift…',
  shift_close_confirm:
    'Close shift {id} and seal its Z report? Writes still waiting are counted as waiting, then added to this Z when the service settles them.',
  shift_close_yes: 'Close and seal the Z',
  shift_close_cancel: 'Keep it open',
  pin_for_shift_close: 'Close the shift',
  pin_for_shift_reports: 'See the shift reports',
  z_title: 'Z report {number}',
  z_meta: 'Shift {shift} at {till}: opened {opened} by {opener}, closed {closed} by {closer}',
  z_hash: 'Seal (SHA-256)',
  z_list_title: 'Past Z reports',
  z_list_empty: 'No Z report yet: closing a shift seals one.',
  z_list_item: 'Closed {at} by {name}',
  z_writes: { one: '{n} write', other: '{n} writes' },
  z_addenda: { one: '{n} settled after the close', other: '{n} settled after the close' },
  z_addenda_title: 'Settled after the close',
  z_addendum: 'Addendum {number}: write {item} by {person}',
  z_export: 'Export CSV',
  z_exported: { one: 'Exported: {n} write.', other: 'Exported: {n} writes.' },
  report_all: 'In all',
  report_what: 'What',
  report_confirmed: 'Confirmed',
  report_waiting: 'Waiting',
  report_refused: 'Refused or awaiting a decision',
  report_withdrawn: 'Withdrawn',
  report_people: 'By person',
  report_empty: 'Nothing was done in this shift.',
  measure_payments: 'Gift-card payments ({currency})',
  measure_issued: 'Gift cards issued ({currency})',
  measure_visits: 'Visits',
  measure_points_added: 'Points added',
  measure_points_deducted: 'Points deducted',
  measure_rewards: 'Rewards redeemed',
  measure_enrolments: 'Customers enrolled',
  not_allowed_no_shift_open: 'No shift is open at this till.',
  not_allowed_no_such_z: 'This till has no Z report with this number.',
} satisfies Record<string, Entry>;

/** The names of the Shifts screen's sentences. */
export type ShiftKey = keyof typeof shiftWords;
