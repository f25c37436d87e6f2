// The keys a wedge scanner sends, as the scan field saw them: each key's physical code
// (`KeyboardEvent.code`, whatever the keyboard's layout), Shift, and the pause since the
// key before. The core reads them through the scanner's layout when they came as a
// scanner sends them, and keeps what was typed when a person typed it.
import type { KeyPress } from './ipc/bindings/KeyPress';

const MODIFIERS = new Set(['ShiftLeft', 'ShiftRight', 'ControlLeft', 'ControlRight', 'AltLeft', 'AltRight', 'MetaLeft', 'MetaRight', 'CapsLock']);

export class Keystrokes {
  private keys: KeyPress[] = [];
  private last: number | null = null;

  /** A key pressed in the field (Enter ends the scan and is not one of its keys). */
  record(event: KeyboardEvent) {
    if (event.key === 'Enter' || MODIFIERS.has(event.code) || event.ctrlKey || event.altKey || event.metaKey) return;
    const gap = this.last === null ? 0 : Math.max(0, Math.round(event.timeStamp - this.last));
    this.keys.push({ code: event.code, shift: event.shiftKey, gap_ms: Math.min(gap, 60_000) });
    this.last = event.timeStamp;
  }

  /** The keys of the scan that ends, and a fresh start for the next. */
  take(): KeyPress[] {
    const keys = this.keys;
    this.clear();
    return keys;
  }

  clear() {
    this.keys = [];
    this.last = null;
  }
}
