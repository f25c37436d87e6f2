// Alt+1 … Alt+7 name a key by its position on the keyboard, not by what it types: on a
// French (AZERTY) keyboard the key labelled 3 types `"`, on a German one Shift+3 types
// `§`. `KeyboardEvent.code` is the key's position, the same on every layout.

/** The digit of an Alt+digit shortcut (`'1'` … `'9'`), read by the key's position. */
export function altDigit(event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'code'>): string | null {
  if (!event.altKey || event.ctrlKey || event.metaKey) return null;
  const found = /^(?:Digit|Numpad)([1-9])$/.exec(event.code);
  return found?.[1] ?? null;
}
