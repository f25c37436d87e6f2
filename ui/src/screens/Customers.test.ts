// What the customers screen offers for given core data: the key's abilities decide what
// is offered, and an email already enrolled opens the customer the core read.
import { fireEvent, render } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Abilities, ConnectionView } from '../lib/ipc';

const ipc = vi.hoisted(() => ({
  enrol: vi.fn(),
  passes: vi.fn(),
  searchCustomers: vi.fn(async () => []),
  syncCustomers: vi.fn(async () => ({ stored: 0, cached: 0, finished: true })),
}));
vi.mock('../lib/ipc', () => ipc);

import Customers from './Customers.svelte';

const connection = (may: Partial<Abilities>): ConnectionView => ({
  business_name: 'Café Test',
  test_mode: true,
  scopes: [],
  may: { read: false, scan: false, enrol: false, issue_gift_cards: false, spend_gift_cards: false, send_messages: false, ...may },
  demo: false,
  key_file: null,
});

describe('Customers', () => {
  beforeEach(() => vi.clearAllMocks());

  it('offers search and enrolment only to a key that may do them', () => {
    const { unmount } = render(Customers, { connection: connection({}), lang: 'en', onopencard: () => {} });
    expect(document.getElementById('enrol-open')).toBeNull();
    expect(document.getElementById('sync-now')).toBeNull();
    expect(document.getElementById('scope-reason')).not.toBeNull();
    expect(document.getElementById('enrol-reason')).not.toBeNull();
    unmount();
    render(Customers, { connection: connection({ read: true, enrol: true }), lang: 'en', onopencard: () => {} });
    expect(document.getElementById('enrol-open')).not.toBeNull();
    expect(document.getElementById('sync-now')).not.toBeNull();
    expect(document.getElementById('scope-reason')).toBeNull();
  });

  it('opens the customer the core names when the email is already enrolled', async () => {
    ipc.passes.mockResolvedValue([{ id: 'pass_0000000001', name: 'Points', loyalty_type: 'points', goal: 100, reward_title: 'A coffee', locale: 'en' }]);
    ipc.enrol.mockResolvedValue({
      outcome: 'known',
      item: 7,
      known: { id: 'cus_0000000009', name: 'Zoë Prieto', email: 'zoe@example.com', phone: null, card_ids: ['card_0000000009'] },
    });
    render(Customers, { connection: connection({ read: true, enrol: true }), lang: 'en', onopencard: () => {} });
    await fireEvent.click(document.getElementById('enrol-open')!);
    await vi.waitFor(() => expect(document.getElementById('enrol-form')).not.toBeNull());
    await fireEvent.input(document.getElementById('enrol-name')!, { target: { value: 'Zoë' } });
    await fireEvent.input(document.getElementById('enrol-email')!, { target: { value: 'zoe@example.com' } });
    await vi.waitFor(() => expect((document.getElementById('enrol-submit') as HTMLButtonElement).disabled).toBe(false));
    await fireEvent.submit(document.getElementById('enrol-form')!);
    await vi.waitFor(() => expect(document.getElementById('customer-detail-name')?.textContent).toBe('Zoë Prieto'));
    expect(document.getElementById('customer-detail')?.textContent).toContain('card_0000000009');
  });
});
