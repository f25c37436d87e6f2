import { describe, expect, it } from 'vitest';
import { describeError } from './errors';

const none = { status: null, detail: null, request_id: null };

describe('describeError', () => {
  it("explains the service's refusal by its code", () => {
    const error = { code: 'api_key_revoked', message: 'x', status: 401, detail: 'd', request_id: 'r' };
    expect(describeError(error, 'en')).toBe('This API key was revoked. Ask the owner for a new key.');
  });

  it("explains the app's own codes in the chosen language", () => {
    expect(describeError({ code: 'service_unreachable', message: 'x', ...none }, 'fr')).toContain('injoignable');
  });

  it('says every code of its own in each language, never the English message', () => {
    for (const code of ['storage_failed', 'not_allowed', 'offline_payment_refused', 'invalid_api_key']) {
      const en = describeError({ code, message: 'The disk is full.', ...none }, 'en');
      const fr = describeError({ code, message: 'The disk is full.', ...none }, 'fr');
      expect(en).not.toContain('disk');
      expect(fr).not.toBe(en);
    }
  });

  it('falls back to a sentence of its own for a code it does not know', () => {
    expect(describeError({ code: 'brand_new', message: 'The disk is full.', ...none }, 'en')).toBe(
      'Something went wrong. The details say more.',
    );
  });
});
