// Asking for the manager's PIN from anywhere: a screen awaits `askManager(purpose)`;
// the one PIN pad the shell shows answers true once the PIN was right (or a manager is
// already here), false when cancelled. The core checks again on every manager action.
import type { Key } from '../i18n/strings';
import type { CommandError } from '../ipc';

export type ManagerAsk = { purpose: Key; answer: (here: boolean) => void };

export const manager = $state<{ asking: ManagerAsk | null }>({ asking: null });

/** Shows the PIN pad for `purpose` ("Open the settings"); true once a manager is here. */
export function askManager(purpose: Key): Promise<boolean> {
  return new Promise((resolve) => {
    manager.asking?.answer(false);
    manager.asking = {
      purpose,
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
