// The receipt printer, receipts and their previews, the customer's screen and unusual
// activity: the commands of the till's counter-side extras, one typed function each.
import { call } from './call';
import type { CustomerDisplay } from './bindings/CustomerDisplay';
import type { CustomerScreen } from './bindings/CustomerScreen';
import type { ItemId } from './bindings/ItemId';
import type { JobId } from './bindings/JobId';
import type { Language } from './bindings/Language';
import type { MonitorView } from './bindings/MonitorView';
import type { Preview } from './bindings/Preview';
import type { PrintJob } from './bindings/PrintJob';
import type { PrinterReport } from './bindings/PrinterReport';
import type { PrinterSetup } from './bindings/PrinterSetup';
import type { UnusualActivity } from './bindings/UnusualActivity';

/** The receipt printer set up at this till, if any. */
export function printer(): Promise<PrinterSetup | null> {
  return call<PrinterSetup | null>('printer');
}

/** Sets up the receipt printer, or none (a manager's). */
export function setPrinter(setup: PrinterSetup | null): Promise<void> {
  return call<void>('set_printer', { setup });
}

/** The printer's state, asked now, and the receipts waiting for it. */
export function printerReport(): Promise<PrinterReport> {
  return call<PrinterReport>('printer_report');
}

/** Prints a test page (a manager's). */
export function printTest(): Promise<JobId> {
  return call<JobId>('print_test');
}

/** Prints a loyalty card's slip: the customer's progress to their reward. */
export function printSlip(card: string): Promise<JobId> {
  return call<JobId>('print_slip', { card });
}

/** Prints a receipt again, as a new job. */
export function reprint(job: JobId): Promise<JobId> {
  return call<JobId>('reprint', { job });
}

/** A person's word on a receipt that may have printed: it did, or print it again. */
export function settlePrint(job: JobId, printed: boolean): Promise<void> {
  return call<void>('settle_print', { job, printed });
}

/** Takes a receipt off the printer's queue unprinted (a manager's). */
export function cancelPrint(job: JobId): Promise<void> {
  return call<void>('cancel_print', { job });
}

/** This till's receipts, newest first. */
export function receipts(): Promise<PrintJob[]> {
  return call<PrintJob[]>('receipts');
}

/** The receipt a write's answer made (a payment's, a voucher), if any. */
export function receiptOf(item: ItemId): Promise<JobId | null> {
  return call<JobId | null>('receipt_of', { item });
}

/** A receipt laid out exactly as it prints. */
export function receiptPreview(job: JobId): Promise<Preview> {
  return call<Preview>('receipt_preview', { job });
}

/** Tells the till the language it speaks: receipts print in it. */
export function setTillLanguage(language: Language): Promise<void> {
  return call<void>('set_till_language', { language });
}

/** What the customer's screen shows now (its window's first paint; events follow). */
export function customerScreen(): Promise<CustomerScreen> {
  return call<CustomerScreen>('customer_screen');
}

/** The counter shows nothing any more: the customer's screen welcomes the next one. */
export function counterIdle(): Promise<void> {
  return call<void>('counter_idle');
}

/** The computer's monitors, for the customer's screen. */
export function monitors(): Promise<MonitorView[]> {
  return call<MonitorView[]>('monitors');
}

/** Where the customer's screen is, when it is on. */
export function customerDisplay(): Promise<CustomerDisplay | null> {
  return call<CustomerDisplay | null>('customer_display');
}

/** Turns the customer's screen on, on a monitor, or off (a manager's). */
export function setCustomerDisplay(display: CustomerDisplay | null): Promise<void> {
  return call<void>('set_customer_display', { display });
}

/** The cards scanned unusually often at this till today (a manager's). */
export function unusualActivity(): Promise<UnusualActivity> {
  return call<UnusualActivity>('unusual_activity');
}

/** How many days closed writes, receipts and gift cards keep customers' details. */
export function retention(): Promise<number> {
  return call<number>('retention');
}

/** Sets how many days customers' details are kept (a manager's). */
export function setRetention(days: number): Promise<void> {
  return call<void>('set_retention', { days });
}

/** How many loyalty scans of one card in a day are unusual (a manager's). */
export function setUnusualThreshold(threshold: number): Promise<void> {
  return call<void>('set_unusual_threshold', { threshold });
}
