// Asking for the manager's PIN from anywhere: a screen awaits `askManager(purpose)`;
// the one PIN pad the shell shows answers true once the PIN was right (or a manager is
// already here), false when cancelled. The core checks again on every manager action.
import type { Key } from '../i18n/strings';
import type { CommandError, PinFor } from '../ipc';

// `opens`: what the right PIN opens in the core, one action (asked at a cashier's
// screen) or a manager's visit (Figures, Messages, Lists, Settings).
export type ManagerAsk = { purpose: Key; opens: PinFor; answer: (here: boolean) => void };

export const manager = $state<{ asking: ManagerAsk | null }>({ asking: null });

/**
 * Shows the PIN pad for `purpose` ("Issue a gift card"); true once the PIN was right.
 * The PIN opens that one action, unless `opens` asks for a manager's visit.
 */
export function askManager(purpose: Key, opens: PinFor = 'one_action'): Promise<boolean> {
  return new Promise((resolve) => {
    manager.asking?.answer(false);
    manager.asking = {
      purpose,
      opens,
      answer: (here) => {
        manager.asking = null;
        resolve(here);
      },
    };
  });
}

/** The core refused because no manager is here (their five minutes ran out). */
export function needsManager(error: CommandError): boolean {
  return error.data?.type === 'pin' && error.data.reason.kind === 'manager_only';
}

/**
 * Runs a manager's action; when the core answers that no manager is here any more,
 * asks for the PIN and runs it once again. Any other refusal is thrown as it came.
 */
export async function asManager<T>(purpose: Key, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!needsManager(error as CommandError) || !(await askManager(purpose))) throw error;
    return action();
  }
}
