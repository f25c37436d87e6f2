import { describe, expect, it } from 'vitest';
import type { ConnectionView, KioskStatus, Opening } from '../lib/ipc';
import { codeFor, screenOf, screens, type Standing } from './first';

const connection: ConnectionView = {
  business_name: 'Café Test',
  test_mode: true,
  scopes: ['read', 'scans:write'],
  may: { read: true, scan: true, enrol: false, issue_gift_cards: false, spend_gift_cards: false, send_messages: false },
  demo: false,
  key_file: null,
};
const kiosk = (on: boolean): KioskStatus => ({ on, idle_seconds: 60, needs_pin: false });
const standing = (over: Partial<Standing>): Standing => ({
  troubles: [],
  kiosk: kiosk(false),
  connection,
  replacingKey: false,
  keptRefused: false,
  ...over,
});

describe('screenOf', () => {
  it('says "Starting…" until the core has answered', () => {
    expect(screenOf(standing({ troubles: null }))).toBe('opening');
  });

  it('opens on the counter with a kept connection, on Connect without one', () => {
    expect(screenOf(standing({}))).toBe('counter');
    expect(screenOf(standing({ connection: null }))).toBe('connect');
  });

  it('keeps a kiosk a kiosk, whatever is wrong', () => {
    expect(screenOf(standing({ kiosk: kiosk(true), troubles: [{ kind: 'keychain_not_a_key' }], connection: null }))).toBe('kiosk');
  });

  it('shows what is wrong before the counter, and Connect once the cashier chose another key', () => {
    const troubles: Standing['troubles'] = [{ kind: 'keychain_not_a_key' }];
    expect(screenOf(standing({ troubles }))).toBe('trouble');
    expect(screenOf(standing({ troubles, replacingKey: true }))).toBe('connect');
  });

  it('opens Connect when the kept key was refused', () => {
    expect(screenOf(standing({ keptRefused: true }))).toBe('connect');
  });
});

describe('codeFor', () => {
  it('has the code of the screen the window opens on in hand before the first frame', async () => {
    const seat = { person: null, signed_in: null, first_start: false, kiosk: true, rules: {}, till_name: 'Counter 1', lock: { idle_minutes: 5, after_gift_card_payment: false } };
    const opening: Opening = { troubles: [], connection, kiosk: kiosk(true), seat };
    expect(screens.kiosk()).toBeInstanceOf(Promise);
    await codeFor(opening);
    expect(screens.kiosk()).not.toBeInstanceOf(Promise);
    expect(screens.connect()).toBeInstanceOf(Promise);
  });
});
