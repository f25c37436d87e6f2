// Resetting the demo reloads the window: the page that loads next says it was done
// (session storage, read once).

const RESET = 'loyalty-counter.demo-was-reset';

/** The demo is being reset: the next page says so. */
export function noteDemoReset(): void {
  try {
    sessionStorage.setItem(RESET, '1');
  } catch {
    // No session storage: the reset goes unsaid.
  }
}

/** Whether the demo was reset just before this page loaded (answers true once). */
export function demoWasJustReset(): boolean {
  try {
    const reset = sessionStorage.getItem(RESET) !== null;
    sessionStorage.removeItem(RESET);
    return reset;
  } catch {
    return false;
  }
}
