// The camera: opened by a scanning screen (the kiosk's home, the counter's camera
// panel) and closed when it goes; what it sees comes to this window as its events do
// (`onCamera`, in ./events).
// And the wedge scanner's keyboard layout.
import { call } from './call';
import type { CameraChoice } from './bindings/CameraChoice';
import type { CameraOpened } from './bindings/CameraOpened';
import type { KeyboardLayout } from './bindings/KeyboardLayout';

/** Opens the camera for this window: what it plays, or that there is none. */
export function cameraOpen(): Promise<CameraOpened> {
  return call<CameraOpened>('camera_open');
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

/** The keyboard layout the wedge scanner was set up for. */
export function scannerLayout(): Promise<KeyboardLayout> {
  return call<KeyboardLayout>('scanner_layout');
}

/** Sets the keyboard layout the wedge scanner was set up for (a manager's). */
export function setScannerLayout(layout: KeyboardLayout): Promise<void> {
  return call<void>('set_scanner_layout', { layout });
}

export type { CameraChoice, CameraOpened, KeyboardLayout };
export type { CameraSight } from './bindings/CameraSight';
