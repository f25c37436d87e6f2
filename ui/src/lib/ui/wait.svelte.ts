// A wait the cashier does not notice is not drawn. Every frame the page draws while the
// core answers puts the answer that much later (5 ms a frame under Xvfb, with the
// shell's main thread drawing it): a scan answered in 2 ms drew the emptied field
// first and the card 5 ms after; a visit drew its disabled buttons and the queue's
// "1 waiting" and "0 waiting" before its answer. Drawn in one frame with the answer,
// the user sees the same screens, sooner.

/** How long a wait goes unsaid: an answer within it is drawn with whatever it replaces. */
export const UNSAID_WAIT_MS = 150;

/**
 * `answer`, with `clear` run once just before the answer is used (so both are drawn in
 * one frame), or after {@link UNSAID_WAIT_MS} when the answer is slower than that.
 */
export async function clearedWith<T>(answer: Promise<T>, clear: () => void): Promise<T> {
  let cleared = false;
  const once = () => {
    if (!cleared) {
      cleared = true;
      clear();
    }
  };
  const soon = setTimeout(once, UNSAID_WAIT_MS);
  try {
    return await answer;
  } finally {
    clearTimeout(soon);
    once();
  }
}

/**
 * A wait a screen says only once it has lasted {@link UNSAID_WAIT_MS}: `running` is
 * true from the start (a second press does nothing), `shown` once it is long enough to
 * see.
 */
export class Wait {
  running = false;
  shown = $state(false);
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Starts the wait; false when one is running already. */
  begin(): boolean {
    if (this.running) return false;
    this.running = true;
    this.#timer = setTimeout(() => (this.shown = true), UNSAID_WAIT_MS);
    return true;
  }

  end(): void {
    clearTimeout(this.#timer);
    this.running = false;
    this.shown = false;
  }
}

/**
 * Keeps the latest of a value that changes in bursts and hands it on at most once per
 * {@link UNSAID_WAIT_MS}: a value that changes and changes back within that (a write
 * queued and sent at once: "1 waiting", then "0") is never drawn in between.
 */
export class Settling<T> {
  #latest: T | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #apply: (value: T) => void;

  constructor(apply: (value: T) => void) {
    this.#apply = apply;
  }

  set(value: T): void {
    this.#latest = value;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#apply(this.#latest as T);
    }, UNSAID_WAIT_MS);
  }

  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
