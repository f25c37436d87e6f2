import { describe, expect, it } from 'vitest';
import { catalogue } from './catalogue';
import { LANGS } from './problems';
import { tr } from './strings';

describe('tr', () => {
  it('says one and many by each language’s plural rules, never “(s)”', () => {
    expect(tr('en', 'card_queued', { n: 1 })).toMatch(/^1 write for this card is waiting/);
    expect(tr('en', 'card_queued', { n: 2 })).toMatch(/^2 writes for this card are waiting/);
    // French counts 0 and 1 as singular.
    expect(tr('fr', 'card_queued', { n: 0 })).toMatch(/^0 opération pour cette carte attend/);
    expect(tr('fr', 'card_queued', { n: 1 })).toMatch(/^1 opération /);
    expect(tr('fr', 'card_queued', { n: 3 })).toMatch(/^3 opérations /);
    expect(tr('en', 'recorded_points', { n: 1, points: 41 })).toBe('1 point added. Points now: 41.');
    expect(tr('fr', 'minutes_ago', { n: 1, time: '14:03' })).toBe('il y a 1 minute, à 14:03');
  });

  it.each(LANGS)('leaves no “(s)” in any sentence of %s.ts', async (lang) => {
    const source: { default: string } = await import(`./${lang}.ts?raw`);
    expect(source.default).toContain('card_queued');
    expect(source.default).not.toMatch(/\(s\)|\(e?s\)/);
  });

  it.each(LANGS)('counts in %s as CLDR does (Intl.PluralRules)', (lang) => {
    const { locale, plural } = catalogue(lang);
    const cldr = new Intl.PluralRules(locale);
    const counts = [0, 1, 2, 3, 5, 11, 21, 100, 101, 999_999, 1_000_000, 1_000_001, 2_000_000, -1, -2, 0.5, 1.5, 2.5];
    for (const n of counts) expect([n, plural(n)]).toEqual([n, cldr.select(n)]);
  });
});
