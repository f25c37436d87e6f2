import { describe, expect, it } from 'vitest';
// Generated from the Rust client's `ErrorCode::ALL` by the shell's tests.
import problemCodes from '../ipc/bindings/problem-codes.json';
import { asLang, describeProblem, knownCodes, LANGS, systemLang } from './problems';

describe('describeProblem', () => {
  it.each(LANGS)('explains every problem code of the API in %s', (lang) => {
    const missing = problemCodes.filter(({ code }) => !knownCodes(lang).includes(code));
    expect(missing).toEqual([]);
  });

  it.each(LANGS)('knows no code that the API does not have, in %s', (lang) => {
    const codes = new Set(problemCodes.map(({ code }) => code));
    expect(knownCodes(lang).filter((code) => !codes.has(code))).toEqual([]);
  });

  it('speaks French when asked', () => {
    expect(describeProblem('gift_card_depleted', 409, 'fr')).toContain('épuisée');
  });

  it('explains an unknown code by its HTTP status', () => {
    expect(describeProblem('a_code_from_the_future', 409, 'en')).toBe(
      'This cannot be done in the current state. Nothing was recorded.',
    );
    expect(describeProblem('a_code_from_the_future', 502, 'en')).toBe(
      'The service had a problem. Quote the request id if it happens again.',
    );
    // No message for 418: its class, 4xx, is explained as a refused request.
    expect(describeProblem('a_code_from_the_future', 418, 'fr')).toBe('Le service a refusé la demande. Réessayez.');
  });
});

describe('systemLang', () => {
  it('picks French for any French locale and English otherwise', () => {
    expect(systemLang('fr-CA')).toBe('fr');
    expect(systemLang('FR')).toBe('fr');
    expect(systemLang('fr_FR')).toBe('fr');
    expect(systemLang('de-DE')).toBe('en');
    expect(systemLang(undefined)).toBe('en');
  });

  it('reads the language, not its first letters: Frisian is not French', () => {
    expect(systemLang('fy')).toBe('en');
    expect(systemLang('frr-DE')).toBe('en');
  });
});

describe('asLang', () => {
  it('names a language the app speaks, or none', () => {
    expect(asLang('en')).toBe('en');
    expect(asLang('fr')).toBe('fr');
    expect(asLang('de')).toBeNull();
    expect(asLang('')).toBeNull();
    expect(asLang(null)).toBeNull();
  });
});
