// The PIN pad's typing: digits only, up to the longest PIN the core allows. Pure, so
// the touch keys and the physical keyboard share it.

/** The next PIN text after pressing `key` ("0"–"9", "Backspace", "Clear"). */
export function pressPin(current: string, key: string, longest: number): string {
  if (key === 'Backspace') return current.slice(0, -1);
  if (key === 'Clear') return '';
  if (!/^[0-9]$/.test(key) || current.length >= longest) return current;
  return current + key;
}

/** Whole seconds from `now` until `until` (RFC 3339), never below zero. */
export function secondsUntil(until: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
}
