// The camera: opened by a scanning screen (the kiosk's home, the counter's camera
// panel) and closed when it goes; what it sees comes as `camera` events to this window.
import { listen, type UnlistenFn } from '@tauri-apps/api/event';
import { call } from './call';
import type { CameraChoice } from './bindings/CameraChoice';
import type { CameraSight } from './bindings/CameraSight';

/** Opens the camera for this window; answers what it plays. */
export function cameraOpen(): Promise<string> {
  return call<string>('camera_open');
}

/** Closes the camera this window opened. */
export function cameraClose(): Promise<void> {
  return call<void>('camera_close');
}

/** The cameras found, and the one chosen (a manager's Settings). */
export function cameras(): Promise<CameraChoice[]> {
  return call<CameraChoice[]>('cameras');
}

/** Chooses the till's camera, or none for the first found (a manager's). */
export function setCamera(device: string | null): Promise<void> {
  return call<void>('set_camera', { device });
}

/** What this window's camera sees. */
export function onCamera(handler: (sight: CameraSight) => void): Promise<UnlistenFn> {
  return listen<CameraSight>('camera', (event) => handler(event.payload));
}

export type { CameraChoice, CameraSight };
