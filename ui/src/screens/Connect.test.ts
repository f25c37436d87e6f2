import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { CommandError } from '../lib/ipc';

// The client's rule for addresses lives in Rust (tested there); here it answers as the
// core would, so the screen's part is what is tested: the words and when they show.
const ipc = vi.hoisted(() => ({
  savedBaseUrl: vi.fn(async () => null),
  connect: vi.fn(),
  tryDemo: vi.fn(),
  checkBaseUrl: vi.fn(async (text: string) => {
    if (text.startsWith('http://api.')) {
      const refused: CommandError = {
        code: 'invalid_base_url',
        data: { type: 'base_url', reason: 'plain_http' },
        problem: null,
        message: 'plain http',
      };
      throw refused;
    }
    return text.trim();
  }),
}));
vi.mock('../lib/ipc', () => ipc);

import Connect from './Connect.svelte';

describe('Connect', () => {
  it('offers a key field, a base URL field and the demo', () => {
    render(Connect);
    expect(screen.getByRole('heading', { name: 'Connect' })).toBeTruthy();
    expect(screen.getByLabelText('API key')).toBeTruthy();
    expect(screen.getByLabelText('Base URL')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try the demo' })).toBeTruthy();
  });

  it('keeps the key hidden as it is typed', () => {
    render(Connect);
    expect(screen.getByLabelText('API key').getAttribute('type')).toBe('password');
  });

  it('explains a plain-http address to another computer once the field is left', async () => {
    render(Connect);
    const field = screen.getByLabelText('Base URL');
    await fireEvent.input(field, { target: { value: 'http://api.example.com' } });
    await vi.waitFor(() => expect(ipc.checkBaseUrl).toHaveBeenCalledWith('http://api.example.com'));
    expect(field.getAttribute('aria-invalid')).toBe('false');
    await fireEvent.blur(field);
    await vi.waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByRole('status').textContent).toContain('https://');
  });

  it('says why it appears when the kept key is refused or cannot be used, and only then', () => {
    const { unmount } = render(Connect, { notice: 'connect_key_refused' });
    expect(document.getElementById('connect-notice')?.textContent).toContain('refuses the key kept on this till');
    unmount();
    render(Connect, { lang: 'fr', notice: 'connect_key_unusable' });
    expect(document.getElementById('connect-notice')?.textContent).toContain('ne peut pas servir');
  });

  it('says nothing more when no key is kept', () => {
    render(Connect);
    expect(document.getElementById('connect-notice')).toBeNull();
  });
});
