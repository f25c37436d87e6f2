import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Settling, UNSAID_WAIT_MS, Wait, clearedWith } from './wait.svelte';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('clearedWith', () => {
  it('clears once, just before a quick answer is used', async () => {
    const seen: string[] = [];
    const answer = clearedWith(Promise.resolve('card'), () => seen.push('cleared'));
    expect(seen).toEqual([]);
    seen.push(await answer);
    expect(seen).toEqual(['cleared', 'card']);
    vi.advanceTimersByTime(UNSAID_WAIT_MS * 2);
    expect(seen).toEqual(['cleared', 'card']);
  });

  it('clears while a slow answer is awaited, and not again when it comes', async () => {
    let answer!: (value: string) => void;
    const clear = vi.fn();
    const read = clearedWith(new Promise<string>((resolve) => (answer = resolve)), clear);
    vi.advanceTimersByTime(UNSAID_WAIT_MS - 1);
    expect(clear).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(clear).toHaveBeenCalledOnce();
    answer('card');
    expect(await read).toBe('card');
    expect(clear).toHaveBeenCalledOnce();
  });

  it('clears when the answer is a failure too', async () => {
    const clear = vi.fn();
    await expect(clearedWith(Promise.reject(new Error('refused')), clear)).rejects.toThrow('refused');
    expect(clear).toHaveBeenCalledOnce();
  });
});

describe('Wait', () => {
  it('refuses a second start while running, and is shown only once it lasts', () => {
    const wait = new Wait();
    expect(wait.begin()).toBe(true);
    expect(wait.begin()).toBe(false);
    vi.advanceTimersByTime(UNSAID_WAIT_MS - 1);
    expect(wait.shown).toBe(false);
    vi.advanceTimersByTime(1);
    expect(wait.shown).toBe(true);
    wait.end();
    expect([wait.running, wait.shown]).toEqual([false, false]);
    expect(wait.begin()).toBe(true);
  });

  it('is never shown when it ends quickly', () => {
    const wait = new Wait();
    wait.begin();
    wait.end();
    vi.advanceTimersByTime(UNSAID_WAIT_MS * 2);
    expect(wait.shown).toBe(false);
  });
});

describe('Settling', () => {
  it('hands on only the latest of a burst, once it has settled', () => {
    const applied: number[] = [];
    const counts = new Settling<number>((n) => applied.push(n));
    counts.set(1);
    counts.set(0);
    expect(applied).toEqual([]);
    vi.advanceTimersByTime(UNSAID_WAIT_MS);
    expect(applied).toEqual([0]);
  });

  it('keeps handing on during a long burst, at most once per wait', () => {
    const applied: number[] = [];
    const counts = new Settling<number>((n) => applied.push(n));
    for (let n = 100; n > 0; n -= 1) {
      counts.set(n);
      vi.advanceTimersByTime(UNSAID_WAIT_MS / 10);
    }
    expect(applied.length).toBe(10);
    expect(applied.at(-1)).toBe(1);
  });

  it('hands on nothing after being cancelled', () => {
    const applied: number[] = [];
    const counts = new Settling<number>((n) => applied.push(n));
    counts.set(3);
    vi.advanceTimersByTime(UNSAID_WAIT_MS);
    counts.set(4);
    counts.cancel();
    vi.advanceTimersByTime(UNSAID_WAIT_MS);
    expect(applied).toEqual([3]);
  });
});
