// Ten thousand loaded rows: only the window in view is in the page, and it follows
// the scroll.
import { render } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { describe, expect, it } from 'vitest';
import VirtualRows from './VirtualRows.svelte';

type Item = { id: string };
const rows: Item[] = Array.from({ length: 10_000 }, (_, i) => ({ id: `row_${i}` }));
const row = createRawSnippet((item: () => Item) => ({ render: () => `<span>${item().id}</span>` }));

describe('VirtualRows', () => {
  it('puts only the rows in view in the page, whatever is loaded', async () => {
    const { container } = render(VirtualRows<Item>, { rows, key: (r: Item) => r.id, row, label: 'rows' });
    const viewport = container.querySelector('.viewport') as HTMLElement;
    const drawn = () => container.querySelectorAll('[role="listitem"]');
    expect(drawn().length).toBeGreaterThan(0);
    expect(drawn().length).toBeLessThan(100);
    expect(drawn()[0]?.textContent).toBe('row_0');

    viewport.scrollTop = 48 * 5000;
    viewport.dispatchEvent(new Event('scroll'));
    await new Promise((r) => setTimeout(r, 0));
    const texts = [...drawn()].map((d) => d.textContent);
    expect(texts).toContain('row_5000');
    expect(drawn().length).toBeLessThan(100);
    expect(drawn()[0]?.getAttribute('aria-setsize')).toBe('10000');
  });

  it('is reached and moved through from the keyboard, the focused row followed', async () => {
    const { container } = render(VirtualRows<Item>, { rows, key: (r: Item) => r.id, row, label: 'rows' });
    const viewport = container.querySelector('.viewport') as HTMLElement;
    expect(viewport.tabIndex).toBe(0);
    expect(viewport.getAttribute('aria-label')).toBe('rows');
    const press = async (key: string) => {
      (document.activeElement ?? viewport).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      viewport.dispatchEvent(new Event('scroll'));
      await new Promise((r) => setTimeout(r, 0));
    };
    viewport.focus();
    await press('ArrowDown');
    expect(document.activeElement?.textContent?.trim()).toBe('row_0');
    await press('ArrowDown');
    expect(document.activeElement?.textContent?.trim()).toBe('row_1');
    await press('End');
    expect(document.activeElement?.textContent?.trim()).toBe('row_9999');
    expect(viewport.scrollTop).toBeGreaterThan(48 * 9000);
    await press('Home');
    expect(document.activeElement?.textContent?.trim()).toBe('row_0');
    await press('PageDown');
    expect(document.activeElement?.getAttribute('data-index')).not.toBe('0');
  });
});
