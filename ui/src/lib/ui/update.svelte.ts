// An update installed under the running app (src-tauri/src/update.rs): the core says
// whether one waits and, told how the page is, restarts into it between customers.
// Asked once at start and whenever the core says one was installed, then every few
// seconds while it waits; the status bar shows it.
import { onUpdate, updateMoment, type PageAtRest, type UpdateState } from '../ipc';

/** How often the page says how it is while an update waits. */
export const ASK_EVERY_MS = 2000;

/** The update as the core last said it. */
export const update = $state<{ now: UpdateState }>({ now: { state: 'current' } });

let lastTouch = Date.now();
let watching = false;
let asking = false;

/**
 * How the page is now: a customer's card, gift card or details open (the screens mark
 * them `data-customer-open`), a dialog open, something typed in the field in use, when
 * last touched.
 */
export function pageAtRest(doc: Document = document, now = Date.now()): PageAtRest {
  const dialog = doc.querySelector('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]');
  const field = doc.activeElement;
  const textField =
    (field instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'range', 'submit'].includes(field.type)) ||
    field instanceof HTMLTextAreaElement;
  const typing = textField && (field as HTMLInputElement | HTMLTextAreaElement).value.trim() !== '';
  return {
    customerOpen: doc.querySelector('[data-customer-open]') !== null,
    dialogOpen: dialog !== null,
    typing,
    untouchedMs: Math.max(0, now - lastTouch),
  };
}

/** Starts watching (once per page): touches noted, the core asked now and when it tells. */
export function watchUpdates(): void {
  if (watching) return;
  watching = true;
  for (const kind of ['keydown', 'pointerdown', 'wheel'] as const) {
    window.addEventListener(kind, () => (lastTouch = Date.now()), { capture: true, passive: true });
  }
  void onUpdate((now) => {
    update.now = now;
    void askWhileWaiting();
  });
  void askWhileWaiting();
}

/** Asks, and again every {@link ASK_EVERY_MS} for as long as an update waits. */
async function askWhileWaiting(): Promise<void> {
  if (asking) return;
  asking = true;
  try {
    for (;;) {
      try {
        update.now = await updateMoment(pageAtRest());
      } catch {
        // Asked again at the next tick, while one waits.
      }
      if (update.now.state !== 'waiting') return;
      await new Promise((wake) => setTimeout(wake, ASK_EVERY_MS));
    }
  } finally {
    asking = false;
  }
}
