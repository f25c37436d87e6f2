import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { CommandError, ConnectGate } from '../lib/ipc';

// The client's rule for addresses lives in Rust (tested there); here it answers as the
// core would, so the screen's part is what is tested: the words and when they show.
const ipc = vi.hoisted(() => ({
  savedBaseUrl: vi.fn(async () => null),
  connectGate: vi.fn(async (): Promise<ConnectGate> => ({ needs_manager: false, waiting: [] })),
  pinStatus: vi.fn(async () => ({ set: true, tries_left: 5, locked_until: null, manager_here: false, approvers: [{ id: 1, name: 'Owner' }], shortest: 4, longest: 8 })),
  approveWithBadge: vi.fn(async () => {}),
  signIn: vi.fn(async () => ({})),
  checkPin: vi.fn(async () => {}),
  setPin: vi.fn(async () => {}),
  changePin: vi.fn(async () => {}),
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
  it('says which writes wait and for whom, and that the manager decides, before asking', async () => {
    ipc.connectGate.mockResolvedValueOnce({
      needs_manager: true,
      waiting: [{ business: { id: 'bus_1', name: 'Café Test', test_mode: true, service: 'http://127.0.0.1:1/sandbox' }, count: 2 }],
    });
    render(Connect);
    expect(await screen.findByText(/2 writes made for Café Test are waiting/)).toBeTruthy();
    expect(screen.getByText(/Replacing the key is the manager’s decision/)).toBeTruthy();
  });

  it('asks for the PIN when the core says the manager decides, then connects once', async () => {
    const managerOnly: CommandError = {
      code: 'pin_refused',
      data: { type: 'pin', reason: { kind: 'manager_only' } },
      problem: null,
      message: 'the manager',
    };
    ipc.connect.mockReset();
    ipc.connect.mockRejectedValueOnce(managerOnly).mockResolvedValueOnce({} as never);
    render(Connect);
    await fireEvent.input(screen.getByLabelText('API key'), { target: { value: 'lc_test_abc' } });
    await fireEvent.input(screen.getByLabelText('Base URL'), { target: { value: 'https://api.example' } });
    await new Promise((r) => setTimeout(r, 0));
    await fireEvent.submit(screen.getByLabelText('API key').closest('form')!);
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(ipc.connect).toHaveBeenCalledTimes(1);
    for (const digit of '2468') await fireEvent.keyDown(screen.getByRole('dialog'), { key: digit });
    await fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Enter' });
    await new Promise((r) => setTimeout(r, 0));
    expect(ipc.checkPin).toHaveBeenCalledWith(null, '2468', 'one_action');
    expect(ipc.connect).toHaveBeenCalledTimes(2);
  });

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
