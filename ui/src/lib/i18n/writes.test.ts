import { describe, expect, it } from 'vitest';
import type { AnswerView, DecisionReason, WriteView } from '../ipc';
import { LANGS } from './problems';
import { describeAnswer, describeNotACard, describeReason, describeResolution, describeWrite } from './writes';

const at = '2026-11-22T14:03:00Z';

const visit: WriteView = { kind: 'scan', action: 'visit', card_id: 'card_1', customer_name: null, amount: null, repeat: false };
const deduct: WriteView = { kind: 'scan', action: 'points', card_id: 'card_1', customer_name: 'Ana', amount: '-15', repeat: false };
const payment: WriteView = {
  kind: 'payment',
  amount: '12.50',
  currency: 'EUR',
  gift_card_end: 'c_1a',
  recipient_name: null,
  reference: 'T-88',
};
const paid: AnswerView = { kind: 'payment', amount: '12.50', currency: 'EUR', balance_after: '37.50' };
const recent: DecisionReason = { kind: 'recent_visit', last_visit_at: at };

const writes: WriteView[] = [
  visit,
  { kind: 'scan', action: 'visit', card_id: 'card_1', customer_name: null, amount: null, repeat: true },
  { kind: 'scan', action: 'points', card_id: 'card_1', customer_name: null, amount: '40', repeat: false },
  deduct,
  { kind: 'scan', action: 'redeem', card_id: 'card_1', customer_name: null, amount: null, repeat: false },
  payment,
  { kind: 'enrol', name: 'Zoë', email: 'zoe@example.com' },
  { kind: 'issue_gift_card', amount: '50.00', currency: 'EUR', recipient_name: 'Ana' },
  { kind: 'other' },
];
const answers: AnswerView[] = [
  { kind: 'scan', visits: 3, points: 40, rewards_available: 1 },
  paid,
  { kind: 'customer', id: 'cus_1' },
  { kind: 'gift_card', card_end: 'c_1a' },
  { kind: 'other' },
];
const reasons: DecisionReason[] = [
  { kind: 'key_may_be_forgotten', first_attempt_at: at, hours: 23 },
  { kind: 'body_changed' },
  recent,
  { kind: 'recent_visit', last_visit_at: null },
  { kind: 'answer_unreadable', error: 'cut body' },
  { kind: 'sent_under_another_key', first_attempt_at: at },
  { kind: 'idempotency_key_reused' },
];

describe('queue sentences', () => {
  it('say every write, answer and reason in each language, with every placeholder filled', () => {
    for (const lang of LANGS) {
      const lines = [
        ...writes.map((w) => describeWrite(w, lang)),
        ...answers.map((a) => describeAnswer(a, lang)),
        ...reasons.map((r) => describeReason(r, lang)),
        describeResolution({ kind: 'discarded', note: '' }, lang),
        describeResolution({ kind: 'discarded', note: 'already on the card' }, lang),
        describeResolution({ kind: 'repeat_confirmed', replacement: 12 }, lang),
      ];
      for (const line of lines) {
        expect(line, line).not.toMatch(/\{\w+\}|undefined|null/);
        expect(line.length).toBeGreaterThan(5);
      }
      expect(new Set(lines).size, 'each case has its own sentence').toBe(lines.length);
    }
  });

  it('differ between English and French', () => {
    expect(describeWrite(visit, 'fr')).not.toBe(describeWrite(visit, 'en'));
    expect(describeReason(recent, 'fr')).not.toBe(describeReason(recent, 'en'));
  });

  it('name the amounts exactly, the sign of points in words, and the ticket', () => {
    expect(describeWrite(deduct, 'en')).toBe('15 points deducted · card card_1 (Ana)');
    expect(describeWrite(payment, 'en')).toBe('Payment of 12.50 EUR · gift card ****c_1a · ticket T-88');
    expect(describeAnswer(paid, 'en')).toBe('12.50 EUR taken; 37.50 EUR left.');
  });

  it('explain why a scan is not a card, including a code the service does not know', () => {
    expect(describeNotACard('several_cards', 'en')).toMatch(/one card at a time/);
    expect(describeNotACard('empty', 'fr')).toBe('Rien n’a été scanné.');
    expect(describeNotACard('not_known', 'en')).toMatch(/No loyalty card or gift card/);
    expect(describeNotACard('not_known_offline', 'fr')).toMatch(/injoignable/);
  });

  it('name the customer beside the card when the till knows them', () => {
    expect(describeWrite(deduct, 'en')).toBe('15 points deducted · card card_1 (Ana)');
    expect(describeWrite(visit, 'en')).toBe('Visit · card card_1');
  });
});
