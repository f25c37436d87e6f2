import { describe, expect, it } from 'vitest';
import { CODE_ROWS, MAX_CODE, MAX_DIGITS, amountOf, press, pressCode } from './keypad';

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

describe('kiosk keys', () => {
  const typeCode = (keys: string[]) => keys.reduce(pressCode, '');

  it('types a card id in both cases, and deletes', () => {
    expect(typeCode([...'card_8DqZ'])).toBe('card_8DqZ');
    expect(typeCode(['c', 'a', 'Backspace', 'Backspace', 'x'])).toBe('x');
    expect(typeCode(['a', 'b', 'Clear', 'Z'])).toBe('Z');
  });

  it('ignores other keys and what goes past the limit', () => {
    expect(typeCode(['-', ' ', 'é', 'Enter', 'a'])).toBe('a');
    expect(typeCode(Array(MAX_CODE + 5).fill('a'))).toHaveLength(MAX_CODE);
  });

  it('offers every character of an id on its keys, once', () => {
    const keys = CODE_ROWS.flat();
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort().join('')).toBe([...'0123456789_abcdefghijklmnopqrstuvwxyz'].sort().join(''));
  });
});
