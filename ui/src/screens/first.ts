// Which screen the window shows, from what the core answered, and the code of the
// screens that are not the counter. The counter's code is in the page's own script
// (nearly every start opens on it); the kiosk's, Connect's and the trouble screen's are
// fetched when shown, and before the first frame when the window opens on one of them
// (main.ts), so that the first frame draws it.
import type { ConnectionView, FirstScreen, KioskStatus, Opening, TroubleView } from '../lib/ipc';
import { lazy, loaded } from '../lib/ui/lazy';

export const screens = {
  connect: lazy(() => import('./Connect.svelte')),
  kiosk: lazy(() => import('./Kiosk.svelte')),
  trouble: lazy(() => import('./Trouble.svelte')),
};

/** What the choice of a screen depends on. */
export type Standing = {
  /** What is wrong with the till's own files; null until the core has answered. */
  troubles: TroubleView[] | null;
  kiosk: KioskStatus | null;
  connection: ConnectionView | null;
  /** The cashier chose to connect with a key from the trouble screen. */
  replacingKey: boolean;
  /** The key kept from the last run was refused by the service's first word on it. */
  keptRefused: boolean;
};

/**
 * One screen at a time, decided by what the core answered. A kiosk stays one until the
 * manager's PIN lets staff out, whatever else is wrong: closed when the till cannot
 * check anyone in, never Connect or a trouble screen that a customer could take out of
 * the kiosk.
 */
export function screenOf(s: Standing): FirstScreen | 'opening' {
  if (s.troubles === null) return 'opening';
  if (s.kiosk?.on) return 'kiosk';
  if (s.troubles.length > 0 && !s.replacingKey) return 'trouble';
  return s.connection && !s.replacingKey && !s.keptRefused ? 'counter' : 'connect';
}

/**
 * Resolves once the code of the screen the window opens on is in (`found`: the core's
 * first answer, null if none came): at once for the counter, whose code is the page's.
 */
export async function codeFor(found: Opening | null): Promise<void> {
  const screen = screenOf({
    troubles: found?.troubles ?? [],
    kiosk: found?.kiosk ?? null,
    connection: found?.connection ?? null,
    replacingKey: false,
    keptRefused: false,
  });
  if (screen !== 'counter' && screen !== 'opening') await loaded(screens[screen]);
}
