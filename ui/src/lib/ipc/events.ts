// What the core and the camera tell this window. The page keeps one call open
// (`page_events`); the app answers it as soon as anything waits in the window's mailbox,
// and keeps what comes meanwhile for the next call, in order (src-tauri/src/mailbox.rs
// says why this is not Tauri's events). The call starts with the first listener and
// runs as long as the page does.
import { call } from './call';
import type { CameraSight } from './bindings/CameraSight';
import type { CoreEvent } from './bindings/CoreEvent';
import type { PageEvent } from './bindings/PageEvent';
import type { UpdateState } from './bindings/UpdateState';

/** Stops a listener. */
export type Unlisten = () => void;

/** After a refused or failed call, or a second empty answer, the next call waits this long (never a busy loop). */
export const RETRY_MS = 500;

const listeners = {
  core: new Set<(event: CoreEvent) => void>(),
  camera: new Set<(sight: CameraSight) => void>(),
  update: new Set<(state: UpdateState) => void>(),
};
let asking = false;

/** Listens to the core's events (connectivity, queue counts, items, sync progress, the customer's screen). */
export function onCoreEvent(handler: (event: CoreEvent) => void): Promise<Unlisten> {
  return Promise.resolve(listen(listeners.core, handler));
}

/** Listens to what this window's camera sees. */
export function onCamera(handler: (sight: CameraSight) => void): Promise<Unlisten> {
  return Promise.resolve(listen(listeners.camera, handler));
}

/** Listens for an update installed under the app (src-tauri/src/update.rs). */
export function onUpdate(handler: (state: UpdateState) => void): Promise<Unlisten> {
  return Promise.resolve(listen(listeners.update, handler));
}

function listen<T>(set: Set<(value: T) => void>, handler: (value: T) => void): Unlisten {
  // Each its own entry, even the same function twice, as each call gets its own stop.
  const entry = (value: T) => handler(value);
  set.add(entry);
  if (!asking) {
    asking = true;
    void ask();
  }
  return () => set.delete(entry);
}

async function ask(): Promise<never> {
  // An empty answer: another call from this window took over (a script of the page's
  // own), and this one asks again at once to take the mailbox back. Two in a row: the
  // other asks in a loop too, and this one pauses, rather than the two loop each other.
  let empty = 0;
  for (;;) {
    let events: PageEvent[];
    try {
      events = await call<PageEvent[]>('page_events');
    } catch {
      await pause();
      continue;
    }
    empty = events.length === 0 ? empty + 1 : 0;
    if (empty >= 2) await pause();
    for (const event of events) {
      if (event.from === 'core') tell(listeners.core, event.event);
      else if (event.from === 'update') tell(listeners.update, event.event);
      else tell(listeners.camera, event.event);
    }
  }
}

function pause(): Promise<void> {
  return new Promise((wake) => setTimeout(wake, RETRY_MS));
}

/** Tells every listener; one that throws does not keep the others, or the next events, from theirs. */
function tell<T>(set: Set<(value: T) => void>, value: T) {
  for (const handler of [...set]) {
    try {
      handler(value);
    } catch (error) {
      console.error('an event listener failed', error);
    }
  }
}
