// Work the first screen does not need (the demo's samples, the customers for search)
// waits until that screen is on display: on two cores it took the time the first screen
// is drawn in.
let resolveShown!: () => void;
/** Resolves once the app's first screen is on display (App says so). */
export const firstScreenOnDisplay = new Promise<void>((resolve) => (resolveShown = resolve));
/** Said by App on the frame after its first screen was drawn. */
export function noteFirstScreenOnDisplay(): void {
  resolveShown();
}
