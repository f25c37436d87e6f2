import { describe, expect, it } from 'vitest';
import type { TroubleView } from '../ipc';
import { LANGS } from './problems';
import { describeSetting, describeTrouble } from './troubles';

const troubles: TroubleView[] = [
  { kind: 'key_file_unreadable', path: '/data/till/api-key' },
  { kind: 'key_file_not_a_key', path: '/data/till/api-key' },
  { kind: 'keychain_not_a_key' },
  { kind: 'settings_damaged', settings: ['offline_payments', 'kiosk'] },
  { kind: 'held_elsewhere', path: '/data/till' },
];

describe('troubles', () => {
  it('says each trouble and what to do in words, in each language', () => {
    for (const lang of LANGS) {
      for (const trouble of troubles) {
        const words = describeTrouble(trouble, lang);
        for (const text of [words.what, words.todo, words.action]) {
          expect(text).not.toMatch(/[{}]|_/);
          expect(text.length).toBeGreaterThan(3);
        }
      }
    }
  });

  it('offers a key for a key, a reset for settings, and a retry for a held till', () => {
    expect(troubles.map((t) => describeTrouble(t, 'en').remedy)).toEqual([
      'connect',
      'connect',
      'connect',
      'reset_settings',
      'retry',
    ]);
  });

  it('names the damaged settings, and shows an unknown one as stored', () => {
    const words = describeTrouble({ kind: 'settings_damaged', settings: ['offline_payments', 'future_thing'] }, 'fr');
    expect(words.what).toContain('les paiements hors ligne');
    expect(describeSetting('future_thing', 'en')).toBe('future_thing');
  });

  it('quotes the file it could not read', () => {
    expect(describeTrouble({ kind: 'key_file_not_a_key', path: '/data/till/api-key' }, 'en').what).toContain(
      '/data/till/api-key',
    );
  });
});
