import { describe, expect, it } from 'vitest';
import { exceeds, normaliseAmount } from './amount';

describe('amount entry', () => {
  it('normalises what a cashier types to the currency’s decimals', () => {
    expect(normaliseAmount('12', 'EUR')).toBe('12.00');
    expect(normaliseAmount(' 12,5 ', 'EUR')).toBe('12.50');
    expect(normaliseAmount('0.01', 'EUR')).toBe('0.01');
    expect(normaliseAmount('1500', 'JPY')).toBe('1500');
  });

  it('refuses too many decimals, zero, negatives and words', () => {
    for (const typed of ['12.345', '0', '0.00', '-3', 'abc', '', '1.5', '1e3']) {
      const currency = typed === '1.5' ? 'JPY' : 'EUR';
      expect(normaliseAmount(typed, currency), typed).toBeNull();
    }
  });

  it('compares amounts exactly', () => {
    expect(exceeds('30.00', '29.99')).toBe(true);
    expect(exceeds('29.99', '29.99')).toBe(false);
    expect(exceeds('0.1', '0.10')).toBe(false);
  });
});
