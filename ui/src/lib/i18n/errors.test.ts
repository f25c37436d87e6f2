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

  it('falls back to the message for a code it does not know', () => {
    expect(describeError({ code: 'storage_failed', message: 'The disk is full.', ...none }, 'en')).toBe(
      'The disk is full.',
    );
  });
});
