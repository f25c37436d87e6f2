import { describe, expect, it } from 'vitest';
import { MAX_DIGITS, amountOf, press } from './keypad';

const typeAll = (keys: string[]) => keys.reduce(press, '');

describe('keypad', () => {
  it('types digits and deletes the last one', () => {
    expect(typeAll(['1', '2', '5'])).toBe('125');
    expect(typeAll(['1', '2', 'Backspace'])).toBe('1');
    expect(typeAll(['1', '2', 'Clear', '7'])).toBe('7');
  });

  it('ignores other keys, a leading zero and digits past the limit', () => {
    expect(typeAll(['a', '-', '.', '3'])).toBe('3');
    expect(typeAll(['0', '4'])).toBe('4');
    expect(typeAll(Array(MAX_DIGITS + 3).fill('9'))).toHaveLength(MAX_DIGITS);
  });

  it('has no amount for nothing or zero', () => {
    expect(amountOf('')).toBeNull();
    expect(amountOf('0')).toBeNull();
    expect(amountOf('40')).toBe(40);
  });
});
