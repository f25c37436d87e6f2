import { describe, expect, it } from 'vitest';
import type { CommandError, ErrorCode, ErrorData } from '../ipc';
import { describeError, refusalError } from './errors';

const own = (code: ErrorCode, data: ErrorData | null = null): CommandError => ({
  code,
  data,
  problem: null,
  message: 'The disk is full.',
});

describe('describeError', () => {
  it("explains the service's refusal by its code", () => {
    const error: CommandError = {
      code: 'service_refused',
      data: null,
      problem: { code: 'api_key_revoked', given_code: 'api_key_revoked', status: 401, detail: 'd', request_id: 'r' },
      message: 'x',
    };
    expect(describeError(error, 'en')).toBe('This API key was revoked. Ask the owner for a new key.');
  });

  it('explains a refusal it has no words for by its HTTP status', () => {
    const refusal = { code: 'unknown', given_code: 'brand_new', status: 409, detail: null, request_id: null } as const;
    expect(describeError(refusalError(refusal), 'en')).toMatch(/current state/);
  });

  it('says when a locked PIN opens again on the 24-hour clock, as every time on screen', () => {
    const until = new Date(2026, 10, 24, 14, 3).toISOString();
    const locked: CommandError = { ...own('pin_refused'), data: { type: 'pin', reason: { kind: 'locked', until } } };
    expect(describeError(locked, 'en')).toContain('14:03');
    expect(describeError(locked, 'fr')).toContain('14:03');
  });

  it("explains the app's own codes in the chosen language", () => {
    expect(describeError(own('service_unreachable'), 'fr')).toContain('injoignable');
  });

  it('says every code of its own in each language, never the English message', () => {
    for (const code of ['storage_failed', 'not_allowed', 'offline_payment_refused', 'invalid_api_key', 'ipc_failed'] as const) {
      const en = describeError(own(code), 'en');
      const fr = describeError(own(code), 'fr');
      expect(en).not.toContain('disk');
      expect(fr).not.toBe(en);
    }
  });

  it('puts the figures an error carries in the words, in each language', () => {
    const over = own('invalid_amount', {
      type: 'amount',
      reason: { kind: 'over_balance', amount: '30', available: '20.50', currency: 'EUR' },
    });
    expect(describeError(over, 'en')).toBe('The card holds only 20.50 EUR.');
    expect(describeError(over, 'fr')).toBe('La carte ne contient que 20.50 EUR.');
    const long = own('invalid_text', { type: 'input', reason: { kind: 'too_long', field: 'name', max: 200 } });
    expect(describeError(long, 'en')).toBe('The name takes at most 200 characters.');
    expect(describeError(long, 'fr')).toBe('Le champ « nom » prend au plus 200 caractères.');
    const cap = own('offline_payment_refused', {
      type: 'policy',
      reason: { kind: 'over_payment_cap', cap: '20', currency: 'EUR' },
    });
    expect(describeError(cap, 'en')).toBe('Offline, one payment may take at most 20 EUR.');
    const arrived = own('not_allowed', { type: 'not_allowed', reason: { kind: 'may_have_arrived' } });
    expect(describeError(arrived, 'fr')).toMatch(/déjà atteint le service/);
  });
});
