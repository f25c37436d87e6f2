// The points keypad: what each key does to the typed number. Pure, so touch buttons
// and the physical keyboard share it.

/** The most digits a points amount may have (the service caps amounts far below). */
export const MAX_DIGITS = 6;

/** The next text after pressing `key` ("0"–"9", "Backspace", "Clear") on `current`. */
export function press(current: string, key: string): string {
  if (key === 'Backspace') return current.slice(0, -1);
  if (key === 'Clear') return '';
  if (!/^[0-9]$/.test(key)) return current;
  if (current === '0') return key;
  if (current.length >= MAX_DIGITS) return current;
  return current + key;
}

/** The amount to send, or null when nothing (or zero) was typed. */
export function amountOf(text: string): number | null {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}
