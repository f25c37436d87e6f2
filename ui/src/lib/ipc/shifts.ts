// The till's shifts through the IPC: where they stand, opening one, the open shift's X
// report, the close that seals its Z, and the Zs sealed before (on screen, as CSV).
// Re-exported by index.ts, the one module components import.
import { call } from './call';
import type { JobId } from './bindings/JobId';
import type { ShiftStatus } from './bindings/ShiftStatus';
import type { ShiftView } from './bindings/ShiftView';
import type { XReport } from './bindings/XReport';
import type { ZSummary } from './bindings/ZSummary';
import type { ZView } from './bindings/ZView';

export type { Addendum } from './bindings/Addendum';
export type { Measure } from './bindings/Measure';
export type { ReportCell } from './bindings/ReportCell';
export type { ReportPerson } from './bindings/ReportPerson';
export type { ReportRow } from './bindings/ReportRow';
export type { ReportRows } from './bindings/ReportRows';
export type { XTaken } from './bindings/XTaken';
export type { ShiftStatus, ShiftView, XReport, ZSummary, ZView };

/** Where the till's shifts stand: the one open, and whether to offer one now. */
export function shiftStatus(): Promise<ShiftStatus> {
  return call<ShiftStatus>('shift_status');
}

/** Opens a shift (any person); the one open stays the one. */
export function openShift(): Promise<ShiftView> {
  return call<ShiftView>('open_shift');
}

/** The open shift's figures as they stand now (a manager's): nothing closes. */
export function xReport(): Promise<XReport> {
  return call<XReport>('x_report');
}

/** Closes `shift` and seals its Z (a manager's); a shift closed already answers its Z. */
export function closeShift(shift: number): Promise<ZView> {
  return call<ZView>('close_shift', { shift });
}

/** The Zs sealed before, the newest first (a manager's). */
export function zReports(): Promise<ZSummary[]> {
  return call<ZSummary[]>('z_reports');
}

/** Z `number`, with what was settled after its close (a manager's). */
export function zReport(number: number): Promise<ZView> {
  return call<ZView>('z_report', { number });
}

/** Writes Z `number` as CSV to `path`, chosen in the save dialog; answers its writes. */
export function exportZ(number: number, path: string): Promise<number> {
  return call<number>('export_z', { number, path });
}

/** Prints Z `number` again, with what was settled after its close (a manager's). */
export function printZ(number: number): Promise<JobId> {
  return call<JobId>('print_z', { number });
}
