import { describe, expect, it } from 'vitest';
import { pressPin, secondsUntil } from './pin';

describe('pressPin', () => {
  it('keeps a leading zero: 0042 is a PIN', () => {
    expect(['0', '0', '4', '2'].reduce((t, k) => pressPin(t, k, 8), '')).toBe('0042');
  });
  it('stops at the longest PIN', () => {
    expect(pressPin('12345678', '9', 8)).toBe('12345678');
  });
  it('ignores what is not a digit', () => {
    expect(pressPin('12', 'a', 8)).toBe('12');
    expect(pressPin('12', '٣', 8)).toBe('12');
  });
  it('erases and clears', () => {
    expect(pressPin('123', 'Backspace', 8)).toBe('12');
    expect(pressPin('123', 'Clear', 8)).toBe('');
  });
});

describe('secondsUntil', () => {
  it('counts down whole seconds and stops at zero', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(secondsUntil('2026-11-23T10:04:59.200Z', now)).toBe(300);
    expect(secondsUntil('2026-11-23T09:00:00Z', now)).toBe(0);
  });
});
