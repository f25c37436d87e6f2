import { afterEach, describe, expect, it } from 'vitest';
import { pageAtRest } from './update.svelte';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('pageAtRest', () => {
  it('says a page between customers is at rest', () => {
    document.body.innerHTML = '<main><input id="scan" value=""></main>';
    document.getElementById('scan')!.focus();
    const page = pageAtRest(document);
    expect(page).toMatchObject({ customerOpen: false, dialogOpen: false, typing: false });
  });

  it('sees a customer open, a dialog, something typed in the field in use', () => {
    document.body.innerHTML = '<article data-customer-open></article>';
    expect(pageAtRest(document).customerOpen).toBe(true);

    document.body.innerHTML = '<div role="dialog" aria-modal="true"></div>';
    expect(pageAtRest(document).dialogOpen).toBe(true);

    document.body.innerHTML = '<input id="amount" value="12.5"><input id="saved" value="kept">';
    (document.getElementById('amount') as HTMLInputElement).focus();
    expect(pageAtRest(document).typing).toBe(true);
    // A field that holds a saved value but is not in use is no typing.
    (document.getElementById('amount') as HTMLInputElement).blur();
    expect(pageAtRest(document).typing).toBe(false);
  });

  it('counts the time since the page was last touched', () => {
    const now = Date.now();
    expect(pageAtRest(document, now + 7000).untouchedMs).toBeGreaterThanOrEqual(7000);
  });
});
