// The one place a command is invoked: a failed call always rejects with a
// `CommandError`, whatever threw it.
import { invoke } from '@tauri-apps/api/core';
import type { CommandError } from './bindings/CommandError';

export async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (error) {
    throw toCommandError(error);
  }
}

/**
 * Turns whatever a failed `invoke` threw into a `CommandError`. Commands reject with a
 * `CommandError`; anything else (the IPC layer refusing an argument, a missing
 * permission) becomes `ipc_failed`, so the UI can always branch on `code`.
 */
export function toCommandError(error: unknown): CommandError {
  if (isCommandError(error)) return error;
  // Cut: the IPC layer's own refusal may quote a huge argument whole.
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  return { code: 'ipc_failed', data: null, problem: null, message };
}

function isCommandError(value: unknown): value is CommandError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
