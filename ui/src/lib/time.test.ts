import { describe, expect, it } from 'vitest';
import { agoAt } from './time';

describe('agoAt', () => {
  const last = new Date(2026, 10, 22, 14, 3, 20);
  const at = (minutes: number) => new Date(last.getTime() + minutes * 60_000);

  it('says "12 minutes ago, at 14:03"', () => {
    expect(agoAt(last.toISOString(), at(12.5), 'en')).toBe('12 minutes ago, at 14:03');
  });

  it('speaks French', () => {
    expect(agoAt(last.toISOString(), at(12), 'fr')).toBe('il y a 12 minutes, à 14:03');
  });

  it('says one minute and just now in words', () => {
    expect(agoAt(last.toISOString(), at(1), 'en')).toBe('1 minute ago, at 14:03');
    expect(agoAt(last.toISOString(), at(0.2), 'en')).toBe('just now, at 14:03');
  });
});
