import { render, screen } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import LazyScreen from './LazyScreen.svelte';

// What the loaded module gives stands in for a screen's component: the snippet shows
// which one it was handed.
type Shown = { name: string };
const children = createRawSnippet((shown: () => Shown) => ({
  render: () => `<p id="shown">${shown().name}</p>`,
}));

describe('LazyScreen', () => {
  it('draws the screen its module gave, and no alert', async () => {
    render(LazyScreen<Shown>, {
      lang: 'en',
      load: async () => ({ default: { name: 'Queue' } }),
      children,
    });
    expect((await screen.findByText('Queue')).id).toBe('shown');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('draws a screen whose code is already in at once, in the same frame', () => {
    render(LazyScreen<Shown>, { lang: 'en', load: () => ({ default: { name: 'Keypad' } }), children });
    expect(screen.getByText('Keypad').id).toBe('shown');
  });

  it('loads the screen once, whatever else changes', async () => {
    const load = vi.fn(async () => ({ default: { name: 'Queue' } }));
    const { rerender } = render(LazyScreen<Shown>, { lang: 'en', load, children });
    await screen.findByText('Queue');
    await rerender({ lang: 'fr' });
    expect(screen.getByText('Queue').id).toBe('shown');
    expect(load).toHaveBeenCalledOnce();
  });

  it('says so, in the till’s language, when the screen’s code does not load', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(LazyScreen<Shown>, {
      lang: 'fr',
      load: () => Promise.reject(new TypeError('Importing a module script failed.')),
      children,
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Cet écran n’a pas pu être chargé. Fermez l’application et rouvrez-la.',
    );
    expect(document.getElementById('shown')).toBeNull();
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
});
