// The dialogs and panels the counter opens on a key or a tap, none of which its first
// frame draws: out of the page's own script, and fetched once the first screen is on
// display, so that each is in hand when it is first opened (LazyScreen draws it in the
// frame that asked for it).
import { soon } from '../lib/ui/lazy';

export const later = {
  pinPad: soon(() => import('./PinPad.svelte')),
  keypad: soon(() => import('./Keypad.svelte')),
  repeatVisitDialog: soon(() => import('./RepeatVisitDialog.svelte')),
  cameraView: soon(() => import('./CameraView.svelte')),
};
