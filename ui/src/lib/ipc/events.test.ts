import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageEvent } from './bindings/PageEvent';

// The app's side of `page_events`: each call takes the next answer the test gives.
const answers: Array<{ give: (events: PageEvent[]) => void; fail: (error: unknown) => void }> = [];
const call = vi.fn(
  (command: string) =>
    new Promise<PageEvent[]>((give, fail) => {
      expect(command).toBe('page_events');
      answers.push({ give, fail });
    }),
);
vi.mock('./call', () => ({ call }));

const online: PageEvent = { from: 'core', event: { type: 'connectivity', state: 'online' } };
const offline: PageEvent = { from: 'core', event: { type: 'connectivity', state: 'offline' } };
const code: PageEvent = { from: 'camera', event: { type: 'code', text: 'card_0000000001' } };

/** The test's hand on the `n`th call. */
function answer(n: number) {
  const open = answers[n];
  if (!open) throw new Error(`call ${n} was never made`);
  return open;
}

async function settle() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('page events', () => {
  let events: typeof import('./events');
  beforeEach(async () => {
    answers.length = 0;
    call.mockClear();
    vi.resetModules();
    events = await import('./events');
  });
  afterEach(() => vi.useRealTimers());

  it('asks once the first listener listens, and hands each event to its listeners in order', async () => {
    const core: unknown[] = [];
    const camera: unknown[] = [];
    expect(call).not.toHaveBeenCalled();
    await events.onCoreEvent((event) => core.push(event));
    await events.onCamera((sight) => camera.push(sight));
    expect(call).toHaveBeenCalledTimes(1);
    answer(0).give([offline, code, online]);
    await settle();
    expect(core).toEqual([offline.event, online.event]);
    expect(camera).toEqual([code.event]);
    // And asks again at once: one call open at a time.
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('stops telling a listener that stopped, and keeps telling the others', async () => {
    const first: unknown[] = [];
    const second: unknown[] = [];
    const stop = await events.onCoreEvent((event) => first.push(event));
    await events.onCoreEvent((event) => second.push(event));
    stop();
    answer(0).give([online]);
    await settle();
    expect(first).toEqual([]);
    expect(second).toEqual([online.event]);
  });

  it('a listener that throws keeps neither the others nor the next events from theirs', async () => {
    const heard: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await events.onCoreEvent(() => {
      throw new Error('broken');
    });
    await events.onCoreEvent((event) => heard.push(event));
    answer(0).give([offline]);
    await settle();
    answer(1).give([online]);
    await settle();
    expect(heard).toEqual([offline.event, online.event]);
  });

  it('after a failed call, asks again after a pause, not in a loop', async () => {
    vi.useFakeTimers();
    const heard: unknown[] = [];
    await events.onCoreEvent((event) => heard.push(event));
    answer(0).fail({ code: 'ipc_failed', message: 'the call was refused' });
    await settle();
    expect(call).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(events.RETRY_MS - 1);
    expect(call).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(call).toHaveBeenCalledTimes(2);
    answer(1).give([online]);
    await settle();
    expect(heard).toEqual([online.event]);
  });

  it('asks again at once after an empty answer, and after a second in a row pauses', async () => {
    vi.useFakeTimers();
    await events.onCoreEvent(() => {});
    answer(0).give([]);
    await settle();
    expect(call).toHaveBeenCalledTimes(2);
    answer(1).give([]);
    await settle();
    expect(call).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(events.RETRY_MS);
    expect(call).toHaveBeenCalledTimes(3);
    // Events again: the count starts over.
    answer(2).give([online]);
    await settle();
    answer(3).give([]);
    await settle();
    expect(call).toHaveBeenCalledTimes(5);
  });
});

