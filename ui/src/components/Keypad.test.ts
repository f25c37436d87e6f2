import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import Keypad from './Keypad.svelte';

describe('Keypad', () => {
  it('takes digits by touch and sends the amount', async () => {
    const onsubmit = vi.fn();
    render(Keypad, { lang: 'en', title: 'Points to add', onsubmit, oncancel: vi.fn() });
    for (const digit of ['2', '5']) await fireEvent.click(screen.getByRole('button', { name: digit }));
    expect(screen.getByRole('status').textContent).toBe('25');
    await fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onsubmit).toHaveBeenCalledWith(25);
  });

  it('takes digits from the keyboard; Enter sends, Escape cancels', async () => {
    const onsubmit = vi.fn();
    const oncancel = vi.fn();
    render(Keypad, { lang: 'en', title: 'Points to add', onsubmit, oncancel });
    const dialog = screen.getByRole('dialog');
    for (const key of ['4', 'x', '0', '7', 'Backspace']) await fireEvent.keyDown(dialog, { key });
    await fireEvent.keyDown(dialog, { key: 'Enter' });
    expect(onsubmit).toHaveBeenCalledWith(40);
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(oncancel).toHaveBeenCalledOnce();
  });

  it('offers no OK for nothing typed', () => {
    render(Keypad, { lang: 'en', title: 'Points to add', onsubmit: vi.fn(), oncancel: vi.fn() });
    expect((screen.getByRole('button', { name: 'OK' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
