import { describe, expect, it, vi } from 'vitest';
import { lazy } from './lazy';

describe('lazy', () => {
  it('fetches a module once, and hands it over as it is once it is in', async () => {
    const importer = vi.fn(async () => ({ default: 'Keypad' }));
    const load = lazy(importer);
    expect(load()).toBeInstanceOf(Promise);
    expect(await load()).toEqual({ default: 'Keypad' });
    expect(load()).toEqual({ default: 'Keypad' });
    expect(importer).toHaveBeenCalledOnce();
  });

  it('fetches again when asked after a failure', async () => {
    const importer = vi
      .fn<() => Promise<{ default: string }>>()
      .mockRejectedValueOnce(new TypeError('Importing a module script failed.'))
      .mockResolvedValueOnce({ default: 'Keypad' });
    const load = lazy(importer);
    await expect(load()).rejects.toThrow(TypeError);
    expect(await load()).toEqual({ default: 'Keypad' });
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
