// The one module through which the UI calls Rust. Components import these functions and
// never call `invoke` themselves, so every command has one typed signature here.
import { invoke } from '@tauri-apps/api/core';
import type { AppInfo } from './bindings/AppInfo';
import type { CommandError } from './bindings/CommandError';

export type { AppInfo, CommandError };

/** Names the app, its version and its folders. */
export function appInfo(): Promise<AppInfo> {
  return call<AppInfo>('app_info');
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (error) {
    throw toCommandError(error);
  }
}

/**
 * Turns whatever a failed `invoke` threw into a `CommandError`. Commands reject with a
 * `{code, message}` object; anything else (the IPC layer itself failing, a missing
 * permission) becomes `ipc_failed`, so the UI can always branch on `code`.
 */
export function toCommandError(error: unknown): CommandError {
  if (isCommandError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'ipc_failed', message };
}

function isCommandError(value: unknown): value is CommandError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
