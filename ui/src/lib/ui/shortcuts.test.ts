import { describe, expect, it } from 'vitest';
import { altDigit, zoomChange } from './shortcuts';

const alt = (key: string, code: string) => ({ altKey: true, ctrlKey: false, metaKey: false, key, code });

describe('Alt+digit shortcuts', () => {
  it('work by the key’s position on French, German, UK and US layouts', () => {
    // What each layout's key labelled 3 types with Alt, and its position.
    expect(altDigit(alt('"', 'Digit3'))).toBe('3'); // AZERTY
    expect(altDigit(alt('3', 'Digit3'))).toBe('3'); // QWERTY, QWERTZ
    expect(altDigit(alt('&', 'Digit1'))).toBe('1'); // AZERTY 1
    expect(altDigit(alt('è', 'Digit7'))).toBe('7'); // AZERTY 7
    expect(altDigit(alt('4', 'Numpad4'))).toBe('4');
  });

  it('are not what a digit typed elsewhere, or with Ctrl, would be', () => {
    expect(altDigit(alt('3', 'KeyE'))).toBeNull();
    expect(altDigit({ altKey: false, ctrlKey: false, metaKey: false, code: 'Digit3' })).toBeNull();
    expect(altDigit({ altKey: true, ctrlKey: true, metaKey: false, code: 'Digit3' })).toBeNull();
    expect(altDigit(alt('0', 'Digit0'))).toBeNull();
  });
});

describe('zoom shortcuts', () => {
  const ctrl = (key: string, code: string) => ({ altKey: false, ctrlKey: true, metaKey: false, key, code });
  it('Ctrl+plus, Ctrl+minus and Ctrl+0 zoom, on the main keys and the number pad, US or French', () => {
    expect(zoomChange(ctrl('=', 'Equal'))).toBe('in');
    expect(zoomChange(ctrl('+', 'Equal'))).toBe('in');
    expect(zoomChange(ctrl('+', 'NumpadAdd'))).toBe('in');
    expect(zoomChange(ctrl('-', 'Minus'))).toBe('out');
    expect(zoomChange(ctrl('-', 'Digit6'))).toBe('out'); // AZERTY
    expect(zoomChange(ctrl('0', 'Digit0'))).toBe('reset');
    expect(zoomChange(ctrl('à', 'Digit0'))).toBe('reset'); // AZERTY
    expect(zoomChange(ctrl('a', 'KeyA'))).toBeNull();
    expect(zoomChange({ altKey: false, ctrlKey: false, metaKey: false, key: '+', code: 'Equal' })).toBeNull();
  });
});
