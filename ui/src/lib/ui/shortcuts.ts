import type { ZoomChange } from '../ipc';

// Alt+1 … Alt+7 name a key by its position on the keyboard, not by what it types: on a
// French (AZERTY) keyboard the key labelled 3 types `"`, on a German one Shift+3 types
// `§`. `KeyboardEvent.code` is the key's position, the same on every layout.

/** The digit of an Alt+digit shortcut (`'1'` … `'9'`), read by the key's position. */
export function altDigit(event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'code'>): string | null {
  if (!event.altKey || event.ctrlKey || event.metaKey) return null;
  const found = /^(?:Digit|Numpad)([1-9])$/.exec(event.code);
  return found?.[1] ?? null;
}

/**
 * The zoom a Ctrl shortcut asks for: Ctrl+plus (or =), Ctrl+minus, Ctrl+0, on the main
 * keys or the number pad; null for any other key.
 */
export function zoomChange(
  event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'key' | 'code'>,
): ZoomChange | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  if (event.key === '+' || event.key === '=' || event.code === 'NumpadAdd') return 'in';
  if (event.key === '-' || event.code === 'NumpadSubtract') return 'out';
  if (event.code === 'Digit0' || event.code === 'Numpad0') return 'reset';
  return null;
}
