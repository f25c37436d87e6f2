import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import PrinterStatus from './PrinterStatus.svelte';

describe('PrinterStatus', () => {
  it('says the state, then the receipts waiting, with a space either side of the dot', () => {
    const { container } = render(PrinterStatus, { lang: 'en', report: { state: 'paper_out', waiting: 2, unsure: 0, needs_a_look: true } });
    expect(container.textContent?.replace(/\s+/g, ' ').trim()).toBe('Printer out of paper · 2 receipts waiting');
  });

  it('says how many receipts may have printed, after those waiting', () => {
    const { container } = render(PrinterStatus, { lang: 'en', report: { state: 'unreachable', waiting: 1, unsure: 1, needs_a_look: true } });
    const text = container.textContent?.replace(/\s+/g, ' ').trim();
    expect(text).toMatch(/ · 1 receipt waiting · 1 receipt may have printed$/);
  });

  it('says the state alone when nothing waits', () => {
    const { container } = render(PrinterStatus, { lang: 'en', report: { state: 'paper_near_end', waiting: 0, unsure: 0, needs_a_look: true } });
    expect(container.textContent).not.toContain('·');
  });
});
