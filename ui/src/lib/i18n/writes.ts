// The queue's writes, answers and reasons, and the scanner's refusals, in the
// cashier's language. The Rust side sends data (ts-rs types); the words live here.
import type { AnswerView, NotACard, PolicyRefusal, DecisionReason, ResolutionView, WriteView } from '../ipc';
import { dateTime } from '../time';
import type { Lang } from './problems';
import { tr } from './strings';

/** A card's id with the name of whom it belongs to, when the till knows it. */
const named = (id: string, name: string | null): string => (name ? `${id} (${name})` : id);

/** A gift card as a person reads it: its last four characters, as on receipts (the
 *  whole id is its money). */
export const cardEnd = (end: string): string => `****${end}`;

/** What a write does, in one line. */
export function describeWrite(what: WriteView, lang: Lang): string {
  switch (what.kind) {
    case 'scan': {
      const card = named(what.card_id, what.customer_name);
      if (what.action === 'visit') return tr(lang, what.repeat ? 'what_repeat_visit' : 'what_visit', { card });
      if (what.action === 'redeem') return tr(lang, 'what_redeem', { card });
      const n = Number(what.amount ?? 0);
      return tr(lang, n < 0 ? 'what_points_deduct' : 'what_points_add', { n: Math.abs(n), card });
    }
    case 'payment': {
      const card = named(cardEnd(what.gift_card_end), what.recipient_name);
      const line = tr(lang, 'what_payment', { amount: what.amount, currency: what.currency, card });
      return what.reference ? `${line} · ${tr(lang, 'what_reference', { reference: what.reference })}` : line;
    }
    case 'enrol':
      return tr(lang, 'what_enrol', { name: what.name, email: what.email });
    case 'issue_gift_card':
      return tr(lang, 'what_issue', { amount: what.amount, currency: what.currency, name: what.recipient_name });
    case 'message':
      return tr(lang, 'what_message', { title: what.title });
    case 'cancel_message':
      return tr(lang, 'what_cancel_message', { id: what.id });
    case 'other':
      return tr(lang, 'what_other');
  }
}

/** The service's answer to a write that went through. */
export function describeAnswer(answer: AnswerView, lang: Lang): string {
  switch (answer.kind) {
    case 'scan':
      return tr(lang, 'answer_scan', { visits: answer.visits, points: answer.points, rewards: answer.rewards_available });
    case 'payment':
      return tr(lang, 'answer_payment', { amount: answer.amount, currency: answer.currency, balance: answer.balance_after });
    case 'customer':
      return tr(lang, 'answer_customer', { id: answer.id });
    case 'gift_card':
      return tr(lang, 'answer_gift_card', { id: cardEnd(answer.card_end) });
    case 'other':
      return tr(lang, 'answer_other');
  }
}

/** Why a person must decide. */
export function describeReason(reason: DecisionReason, lang: Lang): string {
  switch (reason.kind) {
    case 'key_may_be_forgotten':
      return tr(lang, 'reason_key_may_be_forgotten', { when: dateTime(reason.first_attempt_at, lang), hours: reason.hours });
    case 'body_changed':
      return tr(lang, 'reason_body_changed');
    case 'recent_visit':
      return reason.last_visit_at
        ? tr(lang, 'reason_recent_visit', { when: dateTime(reason.last_visit_at, lang) })
        : tr(lang, 'reason_recent_visit_unknown');
    case 'answer_unreadable':
      return tr(lang, 'reason_answer_unreadable');
    case 'sent_under_another_key':
      return tr(lang, 'reason_sent_under_another_key', { when: dateTime(reason.first_attempt_at, lang) });
    case 'idempotency_key_reused':
      return tr(lang, 'reason_idempotency_key_reused');
  }
}

/** What a person decided about a write. */
export function describeResolution(resolution: ResolutionView, lang: Lang): string {
  switch (resolution.kind) {
    case 'discarded':
      return resolution.note
        ? tr(lang, 'resolution_discarded_note', { note: resolution.note })
        : tr(lang, 'resolution_discarded');
    case 'repeat_confirmed':
      return tr(lang, 'resolution_repeat_confirmed');
  }
}

const notACard = {
  too_long: 'not_a_card_too_long',
  empty: 'not_a_card_empty',
  no_card: 'not_a_card_no_card',
  several_cards: 'not_a_card_several_cards',
  not_known: 'not_a_card_not_known',
  not_known_offline: 'not_a_card_not_known_offline',
  staff_badge: 'not_a_card_staff_badge',
} as const satisfies Record<NotACard, string>;

/** Why the offline policy allows no payment (or not this one), with its figures. */
export function describePolicyRefusal(refusal: PolicyRefusal, lang: Lang): string {
  switch (refusal.kind) {
    case 'not_allowed':
      return tr(lang, 'offline_not_allowed');
    case 'over_payment_cap':
      return tr(lang, 'offline_over_payment_cap', { cap: refusal.cap, currency: refusal.currency });
    case 'over_total_cap':
      return tr(lang, 'offline_over_total_cap', { cap: refusal.cap, queued: refusal.queued, currency: refusal.currency });
    case 'balance_too_old':
      return tr(lang, 'offline_balance_too_old', { max: refusal.max_minutes, age: refusal.age_minutes });
  }
}

/** Why a scan is not a card (the scanner's reason). */
export function describeNotACard(reason: NotACard, lang: Lang): string {
  return tr(lang, notACard[reason]);
}
