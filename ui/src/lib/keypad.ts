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

// The kiosk's keys: a card's id as printed on it (`card_` and letters and digits, in
// either case), typed by a customer without a scanner.

/** The longest id the kiosk's keys type (the API's ids are far shorter). */
export const MAX_CODE = 64;

/** The rows of the kiosk's keys, lower case (Shift gives the capitals). */
export const CODE_ROWS: readonly (readonly string[])[] = [
  ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'],
  ['q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'],
  ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', '_'],
  ['z', 'x', 'c', 'v', 'b', 'n', 'm'],
];

/** The next id after pressing `key` (a letter, a digit, "_", "Backspace", "Clear") on `current`. */
export function pressCode(current: string, key: string): string {
  if (key === 'Backspace') return current.slice(0, -1);
  if (key === 'Clear') return '';
  if (!/^[A-Za-z0-9_]$/.test(key) || current.length >= MAX_CODE) return current;
  return current + key;
}
