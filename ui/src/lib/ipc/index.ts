// The one module through which the UI calls Rust. Components import these functions and
// never call `invoke` themselves, so every command has one typed signature here.
import { invoke } from '@tauri-apps/api/core';
import type { AppInfo } from './bindings/AppInfo';
import type { CommandError } from './bindings/CommandError';
import type { ConnectionView } from './bindings/ConnectionView';

export type { AppInfo, CommandError, ConnectionView };

/** Names the app, its version and its folders. */
export function appInfo(): Promise<AppInfo> {
  return call<AppInfo>('app_info');
}

/** Checks the key with the service and keeps it if accepted. The key goes to Rust only. */
export function connect(baseUrl: string, apiKey: string): Promise<ConnectionView> {
  return call<ConnectionView>('connect', { baseUrl, apiKey });
}

/** Starts the built-in demo server and connects to it. */
export function tryDemo(): Promise<ConnectionView> {
  return call<ConnectionView>('try_demo');
}

/** The key the till is connected with in this run, if any. */
export function currentConnection(): Promise<ConnectionView | null> {
  return call<ConnectionView | null>('current_connection');
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
  return { code: 'ipc_failed', message, status: null, detail: null, request_id: null };
}

function isCommandError(value: unknown): value is CommandError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
