// The one module through which the UI calls Rust. Components import these functions and
// never call `invoke` themselves, so every command has one typed signature here.
import { invoke } from '@tauri-apps/api/core';
import { listen, type UnlistenFn } from '@tauri-apps/api/event';
import type { AnswerView } from './bindings/AnswerView';
import type { AppInfo } from './bindings/AppInfo';
import type { CardPanel } from './bindings/CardPanel';
import type { CommandError } from './bindings/CommandError';
import type { ConnectionView } from './bindings/ConnectionView';
import type { CoreEvent } from './bindings/CoreEvent';
import type { CustomerRow } from './bindings/CustomerRow';
import type { EnrolReply } from './bindings/EnrolReply';
import type { FreshCardView } from './bindings/FreshCardView';
import type { GiftCardPanel } from './bindings/GiftCardPanel';
import type { OfflinePolicyView } from './bindings/OfflinePolicyView';
import type { PassPanel } from './bindings/PassPanel';
import type { PaymentReply } from './bindings/PaymentReply';
import type { QueueItemView } from './bindings/QueueItemView';
import type { QueueStatus } from './bindings/QueueStatus';
import type { ReasonView } from './bindings/ReasonView';
import type { RefusalView } from './bindings/RefusalView';
import type { ResolutionView } from './bindings/ResolutionView';
import type { ScanRead } from './bindings/ScanRead';
import type { ScanReply } from './bindings/ScanReply';
import type { SyncView } from './bindings/SyncView';
import type { TroubleView } from './bindings/TroubleView';
import type { WriteView } from './bindings/WriteView';

export type {
  AnswerView,
  AppInfo,
  CardPanel,
  CommandError,
  ConnectionView,
  CoreEvent,
  CustomerRow,
  EnrolReply,
  FreshCardView,
  GiftCardPanel,
  OfflinePolicyView,
  PassPanel,
  PaymentReply,
  QueueItemView,
  QueueStatus,
  ReasonView,
  RefusalView,
  ResolutionView,
  ScanRead,
  ScanReply,
  SyncView,
  TroubleView,
  WriteView,
};

/** What a cashier does with a loyalty card. */
export type ScanAction = 'visit' | 'points' | 'redeem';

/** Names the app, its version and its folders. */
export function appInfo(): Promise<AppInfo> {
  return call<AppInfo>('app_info');
}

/** Checks the key with the service and keeps it if accepted. The key goes to Rust only. */
export function connect(baseUrl: string, apiKey: string): Promise<ConnectionView> {
  return call<ConnectionView>('connect', { baseUrl, apiKey });
}

/** Starts the built-in demo server and connects to it. */
export function tryDemo(): Promise<ConnectionView> {
  return call<ConnectionView>('try_demo');
}

/** The key the till is connected with, in this run or kept from the last, if any. */
export function currentConnection(): Promise<ConnectionView | null> {
  return call<ConnectionView | null>('current_connection');
}

/** What is wrong with the till's own files (key, settings, lock); empty when all is well. */
export function troubles(): Promise<TroubleView[]> {
  return call<TroubleView[]>('troubles');
}

/** Puts each damaged setting back to its default. */
export function resetDamagedSettings(): Promise<void> {
  return call<void>('reset_damaged_settings');
}

/** Opens the till again, once the other copy that owned it has closed. */
export function reopen(): Promise<void> {
  return call<void>('reopen');
}

/** Online or not and the queue's counts, for the status bar's first paint. */
export function queueStatus(): Promise<QueueStatus> {
  return call<QueueStatus>('queue_status');
}

/** The base URL this till last connected to, if any. */
export function savedBaseUrl(): Promise<string | null> {
  return call<string | null>('saved_base_url');
}

/** Forgets the key, to connect with another; queued writes wait for it. */
export function disconnect(): Promise<void> {
  return call<void>('disconnect');
}

/** Reads scanner or keyboard input through the core's scanner rules. */
export function readScan(input: string): Promise<ScanRead> {
  return call<ScanRead>('read_scan', { input });
}

/** A card read from the service now (or why it was not). */
export function readCard(cardId: string): Promise<FreshCardView> {
  return call<FreshCardView>('read_card', { cardId });
}

/** Records a visit, points (negative deducts) or a redemption. */
export function recordScan(cardId: string, action: ScanAction, points: number | null = null): Promise<ScanReply> {
  return call<ScanReply>('record_scan', { cardId, action, points });
}

/** Records another visit after the repeat-visit question. */
export function confirmRepeatVisit(item: number): Promise<ScanReply> {
  return call<ScanReply>('confirm_repeat_visit', { item });
}

/** The queue: open writes only, or the latest of everything. */
export function queue(openOnly: boolean): Promise<QueueItemView[]> {
  return call<QueueItemView[]>('queue', { openOnly });
}

/** Sends what is queued now. */
export function sendNow(): Promise<void> {
  return call<void>('send_now');
}

/** Withdraws a write (kept in the queue's record, closed, with the note). */
export function discardItem(item: number, note: string): Promise<QueueItemView> {
  return call<QueueItemView>('discard_item', { item, note });
}

/** Sends a write that needs a decision again. */
export function retryItem(item: number): Promise<void> {
  return call<void>('retry_item', { item });
}

/** A gift card, fresh from the service or from the till's cache when offline. */
export function giftCard(id: string): Promise<GiftCardPanel> {
  return call<GiftCardPanel>('gift_card', { id });
}

/** Takes a payment from a gift card, typed in its currency. */
export function takePayment(id: string, amount: string, reference: string | null): Promise<PaymentReply> {
  return call<PaymentReply>('take_payment', { id, amount, reference });
}

/** Customers whose name, email or phone start with what was typed. */
export function searchCustomers(typed: string): Promise<CustomerRow[]> {
  return call<CustomerRow[]>('search_customers', { typed });
}

/** Syncs the customer cache; progress arrives as `sync_progress` events. */
export function syncCustomers(): Promise<SyncView> {
  return call<SyncView>('sync_customers');
}

/** A pass: its goal and reward. */
export function pass(id: string): Promise<PassPanel> {
  return call<PassPanel>('pass', { id });
}

/** The business's active passes, to enrol customers on. */
export function passes(): Promise<PassPanel[]> {
  return call<PassPanel[]>('passes');
}

/** A person to enrol on a pass. */
export type Enrolment = { passId: string; name: string; email: string; wallet: 'apple' | 'google'; sendWelcome: boolean };

/** Enrols a customer. */
export function enrol(enrolment: Enrolment): Promise<EnrolReply> {
  return call<EnrolReply>('enrol', enrolment);
}

/** What the till allows while the service cannot be reached. */
export function offlinePayments(): Promise<OfflinePolicyView> {
  return call<OfflinePolicyView>('offline_payments');
}

/** Keeps what the till allows while the service cannot be reached. */
export function saveOfflinePayments(policy: OfflinePolicyView): Promise<OfflinePolicyView> {
  return call<OfflinePolicyView>('save_offline_payments', { policy });
}

/** Listens to the core's events (connectivity, queue counts, items, sync progress). */
export function onCoreEvent(handler: (event: CoreEvent) => void): Promise<UnlistenFn> {
  return listen<CoreEvent>('core-event', (event) => handler(event.payload));
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (error) {
    throw toCommandError(error);
  }
}

/**
 * Turns whatever a failed `invoke` threw into a `CommandError`. Commands reject with a
 * `{code, message}` object; anything else (the IPC layer itself failing, a missing
 * permission) becomes `ipc_failed`, so the UI can always branch on `code`.
 */
export function toCommandError(error: unknown): CommandError {
  if (isCommandError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'ipc_failed', message, status: null, detail: null, request_id: null };
}

function isCommandError(value: unknown): value is CommandError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
