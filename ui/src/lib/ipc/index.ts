// The one module through which the UI calls Rust. Components import these functions and
// never call `invoke` themselves, so every command has one typed signature here.
import { call, toCommandError } from './call';
export * from './people';
export * from './shifts';
import type { KeyPress } from './bindings/KeyPress';
import type { PageAtRest } from './bindings/PageAtRest';
import type { UpdateState } from './bindings/UpdateState';
import type { Abilities } from './bindings/Abilities';
import type { CustomerDisplay } from './bindings/CustomerDisplay';
import type { CustomerScreen } from './bindings/CustomerScreen';
import type { MonitorView } from './bindings/MonitorView';
import type { UnusualActivity } from './bindings/UnusualActivity';
import type { UnusualCard } from './bindings/UnusualCard';
import type { JobId } from './bindings/JobId';
import type { Language } from './bindings/Language';
import type { JobState } from './bindings/JobState';
import type { Paper } from './bindings/Paper';
import type { PaperLine } from './bindings/PaperLine';
import type { Preview } from './bindings/Preview';
import type { PrintJob } from './bindings/PrintJob';
import type { PrinterAddress } from './bindings/PrinterAddress';
import type { PrinterAddressError } from './bindings/PrinterAddressError';
import type { PrinterReport } from './bindings/PrinterReport';
import type { PrinterSetup } from './bindings/PrinterSetup';
import type { PrinterState } from './bindings/PrinterState';
import type { ReceiptKind } from './bindings/ReceiptKind';
import type { Business } from './bindings/Business';
import type { ZoomChange } from './bindings/ZoomChange';
import type { IssuedCard } from './bindings/IssuedCard';
import type { ConnectGate } from './bindings/ConnectGate';
import type { PinFor } from './bindings/PinFor';
import type { WaitingWrites } from './bindings/WaitingWrites';
import type { AmountError } from './bindings/AmountError';
import type { AnswerView } from './bindings/AnswerView';
import type { Progress } from './bindings/Progress';
import type { CheckIn } from './bindings/CheckIn';
import type { KioskStatus } from './bindings/KioskStatus';
import type { SampleGiftKind } from './bindings/SampleGiftKind';
import type { SampleGiftCard } from './bindings/SampleGiftCard';
import type { SampleCardKind } from './bindings/SampleCardKind';
import type { SampleCard } from './bindings/SampleCard';
import type { Samples } from './bindings/Samples';
import type { Place } from './bindings/Place';
import type { TillPlaces } from './bindings/TillPlaces';
import type { ScanKind } from './bindings/ScanKind';
import type { Enrolment } from './bindings/Enrolment';
import type { GiftCardIssue } from './bindings/GiftCardIssue';
import type { Wallet } from './bindings/Wallet';
import type { ReferralStatus } from './bindings/ReferralStatus';
import type { EndpointStatus } from './bindings/EndpointStatus';
import type { DeliveryStatus } from './bindings/DeliveryStatus';
import type { BrowseRow } from './bindings/BrowseRow';
import type { BrowseQuery } from './bindings/BrowseQuery';
import type { BrowsePage } from './bindings/BrowsePage';
import type { AppInfo } from './bindings/AppInfo';
import type { FirstScreen } from './bindings/FirstScreen';
import type { BaseUrlProblem } from './bindings/BaseUrlProblem';
import type { CardActions } from './bindings/CardActions';
import type { CardPanel } from './bindings/CardPanel';
import type { CardStatus } from './bindings/CardStatus';
import type { CommandError } from './bindings/CommandError';
import type { Connectivity } from './bindings/Connectivity';
import type { ConnectionView } from './bindings/ConnectionView';
import type { CoreEvent } from './bindings/CoreEvent';
import type { CustomerSummary } from './bindings/CustomerSummary';
import type { ErrorCode } from './bindings/ErrorCode';
import type { FigureName } from './bindings/FigureName';
import type { Figures } from './bindings/Figures';
import type { FiguresPeriod } from './bindings/FiguresPeriod';
import type { ErrorData } from './bindings/ErrorData';
import type { EmailReason } from './bindings/EmailReason';
import type { InputError } from './bindings/InputError';
import type { IssueChoices } from './bindings/IssueChoices';
import type { Issued } from './bindings/Issued';
import type { FreshCardView } from './bindings/FreshCardView';
import type { GiftCardPanel } from './bindings/GiftCardPanel';
import type { GiftCardStatus } from './bindings/GiftCardStatus';
import type { ItemChoices } from './bindings/ItemChoices';
import type { ItemId } from './bindings/ItemId';
import type { ItemState } from './bindings/ItemState';
import type { TransactionType } from './bindings/TransactionType';
import type { LoyaltyType } from './bindings/LoyaltyType';
import type { MessageAudience } from './bindings/MessageAudience';
import type { MessageDraft } from './bindings/MessageDraft';
import type { MessagePreview } from './bindings/MessagePreview';
import type { Never } from './bindings/Never';
import type { NotEnough } from './bindings/NotEnough';
import type { NotACard } from './bindings/NotACard';
import type { NotAllowed } from './bindings/NotAllowed';
import type { OfflinePolicyForm } from './bindings/OfflinePolicyForm';
import type { PassView } from './bindings/PassView';
import type { PinError } from './bindings/PinError';
import type { PinStatus } from './bindings/PinStatus';
import type { PaymentOffer } from './bindings/PaymentOffer';
import type { Paid } from './bindings/Paid';
import type { PolicyRefusal } from './bindings/PolicyRefusal';
import type { ProblemCode } from './bindings/ProblemCode';
import type { QueueItemView } from './bindings/QueueItemView';
import type { QueueStatus } from './bindings/QueueStatus';
import type { ReferenceError } from './bindings/ReferenceError';
import type { DecisionReason } from './bindings/DecisionReason';
import type { RefusalView } from './bindings/RefusalView';
import type { ResolutionView } from './bindings/ResolutionView';
import type { ScanAction } from './bindings/ScanAction';
import type { ScanRead } from './bindings/ScanRead';
import type { Recorded } from './bindings/Recorded';
import type { RepeatQuestion } from './bindings/RepeatQuestion';
import type { Outcome } from './bindings/Outcome';
import type { ScanReply } from './bindings/ScanReply';
import type { SentMessage } from './bindings/SentMessage';
import type { ScheduledMessage } from './bindings/ScheduledMessage';
import type { ScheduledState } from './bindings/ScheduledState';
import type { Scope } from './bindings/Scope';
import type { SyncReport } from './bindings/SyncReport';
import type { TextField } from './bindings/TextField';
import type { TroubleView } from './bindings/TroubleView';
import type { Opening } from './bindings/Opening';
import type { WriteView } from './bindings/WriteView';
import type { Action } from './bindings/Action';
import type { MadeBy } from './bindings/MadeBy';
import type { Credential } from './bindings/Credential';
import type { LockPolicy } from './bindings/LockPolicy';
import type { Person } from './bindings/Person';
import type { PersonChange } from './bindings/PersonChange';
import type { PersonId } from './bindings/PersonId';
import type { Role } from './bindings/Role';
import type { Rule } from './bindings/Rule';
import type { RuleLine } from './bindings/RuleLine';
import type { SeatView } from './bindings/SeatView';
import type { RosterExported } from './bindings/RosterExported';
import type { BadgeMade } from './bindings/BadgeMade';
import type { RosterImported } from './bindings/RosterImported';

export type {
  RosterExported,
  PageAtRest,
  UpdateState,
  RosterImported,
  BadgeMade,
  Action,
  MadeBy,
  Credential,
  LockPolicy,
  Person,
  PersonChange,
  PersonId,
  Role,
  Rule,
  RuleLine,
  SeatView,
  Abilities,
  KeyPress,
  CustomerDisplay,
  CustomerScreen,
  MonitorView,
  UnusualActivity,
  UnusualCard,
  JobId,
  JobState,
  Language,
  Paper,
  PaperLine,
  Preview,
  PrintJob,
  PrinterAddress,
  PrinterAddressError,
  PrinterReport,
  PrinterSetup,
  PrinterState,
  ReceiptKind,
  Business,
  ZoomChange,
  IssuedCard,
  ConnectGate,
  PinFor,
  WaitingWrites,
  AmountError,
  AnswerView,
  Progress,
  CheckIn,
  KioskStatus,
  SampleGiftKind,
  SampleGiftCard,
  SampleCardKind,
  SampleCard,
  Samples,
  Place,
  TillPlaces,
  ScanKind,
  Enrolment,
  GiftCardIssue,
  Wallet,
  ReferralStatus,
  EndpointStatus,
  DeliveryStatus,
  BrowseRow,
  BrowseQuery,
  BrowsePage,
  AppInfo,
  FirstScreen,
  BaseUrlProblem,
  CardActions,
  CardPanel,
  CardStatus,
  CommandError,
  Connectivity,
  ConnectionView,
  CoreEvent,
  CustomerSummary,
  ErrorCode,
  ErrorData,
  FigureName,
  Figures,
  FiguresPeriod,
  EmailReason,
  InputError,
  IssueChoices,
  Issued,
  FreshCardView,
  GiftCardPanel,
  GiftCardStatus,
  ItemChoices,
  ItemId,
  ItemState,
  TransactionType,
  LoyaltyType,
  MessageAudience,
  MessageDraft,
  MessagePreview,
  Never,
  NotEnough,
  NotACard,
  NotAllowed,
  OfflinePolicyForm,
  PassView,
  PinError,
  PinStatus,
  PaymentOffer,
  Paid,
  PolicyRefusal,
  ProblemCode,
  QueueItemView,
  QueueStatus,
  DecisionReason,
  ReferenceError,
  RefusalView,
  ResolutionView,
  ScanAction,
  ScanRead,
  Recorded,
  RepeatQuestion,
  Outcome,
  ScanReply,
  SentMessage,
  ScheduledMessage,
  ScheduledState,
  Scope,
  SyncReport,
  TextField,
  TroubleView,
  Opening,
  WriteView,
};

/** What became of each kind of write (`Outcome`: one shape for every write). */
export type EnrolReply = Outcome<CustomerSummary, CustomerSummary>;
export type IssueReply = Outcome<Issued>;
export type PaymentReply = Outcome<Paid, NotEnough>;
export type MessageReply = Outcome<SentMessage>;


/** Names the app, its version and its folders. */
export function appInfo(): Promise<AppInfo> {
  return call<AppInfo>('app_info');
}

/** Tells the shell the page has built its first screen: the window appears. */
export function firstScreenBuilt(): Promise<void> {
  return call<void>('first_screen_built');
}

/** Tells the log the window shows its first screen (it notes how long start-up took). */
export function firstScreenShown(screen: FirstScreen): Promise<void> {
  return call<void>('first_screen_shown', { screen, pageMillis: Math.round(performance.now()) });
}

/** The base URL as the client will use it, or a `CommandError` saying why it cannot be. */
export function checkBaseUrl(text: string): Promise<string> {
  return call<string>('check_base_url', { text });
}

/** The amount typed, exact in `currency` ("12,5" is "12.50"), or why it is none. */
export function checkAmount(amount: string, currency: string): Promise<string> {
  return call<string>('check_amount', { amount, currency });
}

/** Zooms the window one step in or out, or back to normal; the till keeps it. */
export function zoom(change: ZoomChange): Promise<number> {
  return call<number>('zoom', { change });
}

/** What connecting a key asks now: the manager, and which writes wait for whom. */
export function connectGate(): Promise<ConnectGate> {
  return call<ConnectGate>('connect_gate');
}

/** Checks the key with the service and keeps it if accepted. The key goes to Rust only. */
export function connect(baseUrl: string, apiKey: string): Promise<ConnectionView> {
  return call<ConnectionView>('connect', { baseUrl, apiKey });
}

/** Starts the built-in demo server and connects to it. */
export function tryDemo(): Promise<ConnectionView> {
  return call<ConnectionView>('try_demo');
}

/** What the window shows first: the till's troubles, its connection, its kiosk. */
export function opening(): Promise<Opening> {
  return call<Opening>('opening');
}

declare global {
  interface Window {
    /** `opening`, asked by index.html as the page began to load; its answer once in. */
    __OPENING_AT_LOAD__?: { asked: Promise<Opening>; answer?: Opening };
  }
}

/** The first answer to `opening`: in hand already, or still to come. */
export type FirstOpening = { now: Opening } | { later: Promise<Opening> };

/**
 * The answer to `opening` that index.html asked for as the page began to load, while
 * this script was still on its way: usually in hand by now. Asked afresh where nothing
 * was asked (no Tauri).
 */
export function openingAtLoad(): FirstOpening {
  const early = window.__OPENING_AT_LOAD__;
  if (!early) return { later: opening() };
  if (early.answer) return { now: early.answer };
  return {
    later: early.asked.catch((error: unknown) => {
      throw toCommandError(error);
    }),
  };
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

/**
 * Reads scanner or keyboard input through the core's scanner rules; a code with no
 * prefix the till knows is looked up as a loyalty card, then as a gift card.
 */
export function readScan(input: string, keys: KeyPress[] = []): Promise<ScanRead> {
  return call<ScanRead>('read_scan', keys.length ? { input, keys } : { input });
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
export function confirmRepeatVisit(item: ItemId): Promise<ScanReply> {
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
export function discardItem(item: ItemId, note: string): Promise<QueueItemView> {
  return call<QueueItemView>('discard_item', { item, note });
}

/** Sends a write that needs a decision again. */
/** The gift cards already issued for a gift-card issue waiting for a decision. */
export function probablyIssued(item: ItemId): Promise<IssuedCard[]> {
  return call<IssuedCard[]>('probably_issued', { item });
}

export function retryItem(item: ItemId): Promise<void> {
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
export function searchCustomers(typed: string): Promise<CustomerSummary[]> {
  return call<CustomerSummary[]>('search_customers', { typed });
}

/** Syncs the customer cache; progress arrives as `sync_progress` events. */
export function syncCustomers(): Promise<SyncReport> {
  return call<SyncReport>('sync_customers');
}

/** A pass: its goal and reward. */
export function pass(id: string): Promise<PassView> {
  return call<PassView>('pass', { id });
}

/** The business's active passes, to enrol customers on. */
export function passes(): Promise<PassView[]> {
  return call<PassView[]>('passes');
}

/** A person to enrol on a pass. */
/** Enrols a customer. */
export function enrol(enrolment: Enrolment): Promise<EnrolReply> {
  return call<EnrolReply>('enrol', { enrolment });
}

/** What the form that issues a gift card offers: currencies (usual first), languages. */
export function issueChoices(): Promise<IssueChoices> {
  return call<IssueChoices>('issue_choices');
}

/** A gift card to issue, as typed (the core checks it whole). */
/** Issues a gift card: a manager's. */
export function issueGiftCard(issue: GiftCardIssue): Promise<IssueReply> {
  return call<IssueReply>('issue_gift_card', { issue });
}

/** The writes made on the till's days `from` to `to` (2026-11-23), newest first. */
export function history(from: string, to: string, state: ItemState | null): Promise<QueueItemView[]> {
  return call<QueueItemView[]>('history', { from, to, state });
}

/** Writes the CSV of a period's writes to `path` (from the save dialog); answers how
 *  many. Gift cards by their last four characters, unless `wholeIds` (a manager's). */
export function exportHistory(from: string, to: string, state: ItemState | null, path: string, wholeIds: boolean): Promise<number> {
  return call<number>('export_history', { from, to, state, path, wholeIds });
}

/** The business's figures for a period, beside the period of the same length before. */
export function figures(period: FiguresPeriod): Promise<Figures> {
  return call<Figures>('figures', { period });
}

/** Previews a message to card holders (a manager's): who would receive it, the quota. */
export function previewMessage(draft: MessageDraft): Promise<MessagePreview> {
  return call<MessagePreview>('preview_message', { draft });
}

/** Sends a previewed message, exactly as previewed. */
export function sendMessage(preview: number): Promise<MessageReply> {
  return call<MessageReply>('send_message', { preview });
}

/** The messages this till scheduled for later. */
export function scheduledMessages(): Promise<ScheduledMessage[]> {
  return call<ScheduledMessage[]>('scheduled_messages');
}

/** Cancels a message this till scheduled. */
export function cancelMessage(id: string): Promise<MessageReply> {
  return call<MessageReply>('cancel_message', { id });
}

/** A page of one of the manager's lists: the first, or the one after `cursor`. */
export function browse(query: BrowseQuery, cursor: string | null): Promise<BrowsePage> {
  return call<BrowsePage>('browse', { query, cursor });
}

/** The business's passes and locations, and the ones this till uses. */
export function tillPlaces(): Promise<TillPlaces> {
  return call<TillPlaces>('till_places');
}

/** Keeps the pass and location this till uses (a manager's). */
export function setTillPlaces(passId: string | null, locationId: string | null): Promise<void> {
  return call<void>('set_till_places', { passId, locationId });
}

/** Cards to tap in the built-in demo (refused with a real business's key). */
export function demoSamples(): Promise<Samples> {
  return call<Samples>('demo_samples');
}

/** Puts the demo business back to its first state (a manager's, demo only). */
export function resetDemo(): Promise<ConnectionView> {
  return call<ConnectionView>('reset_demo');
}

/** Turns the kiosk on or off (a manager's, both ways). */
export function setKiosk(on: boolean): Promise<KioskStatus> {
  return call<KioskStatus>('set_kiosk', { on });
}

/** A customer checks in at the kiosk with their own card. */
export function checkIn(input: string, keys: KeyPress[] = []): Promise<CheckIn> {
  return call<CheckIn>('check_in', keys.length ? { input, keys } : { input });
}

/** What the till allows while the service cannot be reached. */
export function offlinePayments(): Promise<OfflinePolicyForm> {
  return call<OfflinePolicyForm>('offline_payments');
}

/** Keeps what the till allows while the service cannot be reached. */
export function saveOfflinePayments(policy: OfflinePolicyForm): Promise<OfflinePolicyForm> {
  return call<OfflinePolicyForm>('save_offline_payments', { policy });
}

/** Where a PIN stands (`person`'s, or the only one who may give it): tries left, lock, who may. */
export function pinStatus(person: PersonId | null = null): Promise<PinStatus> {
  return call<PinStatus>('pin_status', { person });
}

/** Sets the first PIN, the owner's (4 to 8 digits), and signs the owner in. */
export function setPin(pin: string, opens: PinFor): Promise<void> {
  return call<void>('set_pin', { pin, opens });
}

/**
 * A manager's PIN (wrong tries lock it, per person): a right one approves the one call
 * the core refused for want of it, or opens a manager's visit. `person`: who typed it,
 * unless only one person may.
 */
export function checkPin(person: PersonId | null, pin: string, opens: PinFor): Promise<void> {
  return call<void>('check_pin', { person, pin, opens });
}

/** Changes one's own PIN, the old one first. */
export function changePin(old: string, next: string): Promise<void> {
  return call<void>('change_pin', { old, new: next });
}

/** The manager left their screens: the PIN is asked again next time. */
export function managerLeaves(): Promise<void> {
  return call<void>('manager_leaves');
}

/** The label of the window this page is in (`main`, or `customer` for the customer's screen). */
export function windowLabel(): string {
  const internals = (window as { __TAURI_INTERNALS__?: { metadata?: { currentWindow?: { label?: string } } } }).__TAURI_INTERNALS__;
  return internals?.metadata?.currentWindow?.label ?? 'main';
}

export { toCommandError };
export * from './receipts';
export * from './camera';
export * from './events';

/**
 * Whether an update waits; told how the page is (a dialog open, something typed, when
 * it was last touched), the till restarts into it when the counter is between
 * customers (the answer then says so, just before).
 */
export function updateMoment(page: PageAtRest): Promise<UpdateState> {
  return call<UpdateState>('update_moment', { page });
}
