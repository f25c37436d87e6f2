import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Each test loads the modules afresh: French not yet fetched, as when the app starts.
beforeEach(() => vi.resetModules());
afterEach(() => localStorage.clear());

describe('loadLanguage', () => {
  it('has English in hand, and French once it has been loaded', async () => {
    const { catalogue, loadLanguage } = await import('./catalogue');
    const { tr } = await import('./strings');
    expect(tr('en', 'card_queued', { n: 2 })).toMatch(/^2 writes /);
    expect(catalogue('fr').locale).toBe('en-GB');

    await loadLanguage('fr');
    expect(catalogue('fr').locale).toBe('fr-FR');
    expect(tr('fr', 'card_queued', { n: 2 })).toMatch(/^2 opérations /);
    expect(tr('fr', 'card_queued', { n: 1 })).toMatch(/^1 opération /);
  });
});

describe('setLang', () => {
  it('speaks the language once its words are in, and remembers it', async () => {
    const { prefs, setLang } = await import('../ui/prefs.svelte');
    const { tr } = await import('./strings');
    await setLang('fr');
    expect(prefs.lang).toBe('fr');
    expect(tr(prefs.lang, 'language')).toBe('Langue');
    expect(localStorage.getItem('loyalty-counter.lang')).toBe('fr');
  });

  it('starts a till kept in French in French, once its words are in', async () => {
    localStorage.setItem('loyalty-counter.lang', 'fr');
    const { languageReady, prefs } = await import('../ui/prefs.svelte');
    const { tr } = await import('./strings');
    await languageReady;
    expect(prefs.lang).toBe('fr');
    expect(tr(prefs.lang, 'language')).toBe('Langue');
  });

  it('follows the last tap when French is still loading', async () => {
    const { prefs, setLang } = await import('../ui/prefs.svelte');
    const french = setLang('fr');
    const english = setLang('en');
    await Promise.all([french, english]);
    expect(prefs.lang).toBe('en');
    expect(localStorage.getItem('loyalty-counter.lang')).toBe('en');
  });
});
