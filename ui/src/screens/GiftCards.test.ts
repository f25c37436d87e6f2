// What the gift-card screen offers for given core data: whether and up to what a
// payment may be taken is the core's decision (PaymentOffer); the screen renders it.
import { fireEvent, render } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Abilities, GiftCardPanel, PaymentOffer } from '../lib/ipc';

const ipc = vi.hoisted(() => ({
  checkAmount: vi.fn(async (text: string) => text),
  giftCard: vi.fn(),
  readScan: vi.fn(),
  takePayment: vi.fn(),
}));
vi.mock('../lib/ipc', () => ipc);

import GiftCards from './GiftCards.svelte';

const panel = (payment: PaymentOffer, over: Partial<GiftCardPanel> = {}): GiftCardPanel => ({
  id: 'gc_0000000001',
  status: 'active',
  currency: 'EUR',
  initial_amount: '50',
  balance: '20.50',
  recipient_name: 'Ana',
  read_at: '2026-11-23T09:00:00Z',
  fresh: true,
  ledger: [],
  payment,
  ...over,
});

const may: Abilities = {
  read: true,
  scan: true,
  enrol: true,
  issue_gift_cards: false,
  spend_gift_cards: true,
  send_messages: false,
};

async function open(card: GiftCardPanel, lang: 'en' | 'fr' = 'en') {
  ipc.readScan.mockResolvedValue({ type: 'gift_card', id: card.id });
  ipc.giftCard.mockResolvedValue(card);
  render(GiftCards, { lang, initialId: card.id, may });
  await vi.waitFor(() => expect(document.getElementById('gift-card')).not.toBeNull());
}

describe('GiftCards', () => {
  beforeEach(() => vi.clearAllMocks());

  it('says in words why an amount is refused, not by a greyed-out button alone', async () => {
    await open(panel({ kind: 'open', up_to: '15.50' }));
    ipc.checkAmount.mockRejectedValueOnce({
      code: 'invalid_amount',
      data: { type: 'amount', reason: { kind: 'too_many_decimals', currency: 'EUR', decimals: 2 } },
      problem: null,
      message: 'EUR has two decimals',
    });
    await fireEvent.input(document.getElementById('pay-amount')!, { target: { value: '12.345' } });
    await vi.waitFor(() =>
      expect(document.getElementById('pay-amount-problem')?.textContent).toBe('EUR amounts have at most 2 decimals.'),
    );
    expect((document.getElementById('pay-submit') as HTMLButtonElement).disabled).toBe(true);
    expect(document.getElementById('pay-amount')?.getAttribute('aria-invalid')).toBe('true');
  });

  it('offers a payment up to what the core allows', async () => {
    await open(panel({ kind: 'open', up_to: '15.50' }));
    expect(document.getElementById('pay-amount')).not.toBeNull();
    expect(document.getElementById('pay-up-to')?.textContent).toBe('Up to 15.50 EUR');
  });

  it('offers no payment, and says why, when the key may not take payments', async () => {
    await open(panel({ kind: 'key_may_not' }));
    expect(document.getElementById('pay-amount')).toBeNull();
    expect(document.getElementById('scope-reason')?.textContent).toMatch(/may not/i);
  });

  it('offers no payment offline when the policy refuses, with its figures in the cashier’s language', async () => {
    await open(
      panel({ kind: 'offline', refusal: { kind: 'over_total_cap', cap: '100', queued: '100', currency: 'EUR' } }, { fresh: false }),
      'fr',
    );
    expect(document.getElementById('pay-amount')).toBeNull();
    expect(document.getElementById('offline-reason')?.textContent).toContain('100 EUR');
    expect(document.getElementById('offline-reason')?.textContent).toMatch(/Hors ligne/);
  });

  it('offers no payment from a card not yet claimed, and explains its state', async () => {
    await open(panel({ kind: 'not_active', status: 'issued' }, { status: 'issued' }));
    expect(document.getElementById('pay-amount')).toBeNull();
    expect(document.getElementById('gift-explain')).not.toBeNull();
  });
});

describe('GiftCards, one card after another', () => {
  beforeEach(() => vi.clearAllMocks());

  it('never carries an amount typed for one card over to the next', async () => {
    const first = panel({ kind: 'open', up_to: '20.50' });
    const second = panel({ kind: 'open', up_to: '30.00' }, { id: 'gc_0000000002', balance: '30.00' });
    await open(first);
    const amount = document.getElementById('pay-amount') as HTMLInputElement;
    await fireEvent.input(amount, { target: { value: '15' } });
    await fireEvent.input(document.getElementById('pay-reference')!, { target: { value: 'T-1' } });

    ipc.readScan.mockResolvedValue({ type: 'gift_card', id: second.id });
    ipc.giftCard.mockResolvedValue(second);
    const id = document.getElementById('gift-id') as HTMLInputElement;
    await fireEvent.input(id, { target: { value: second.id } });
    await fireEvent.submit(id.form!);
    await vi.waitFor(() => expect(document.getElementById('pay-up-to')?.textContent).toContain('30.00'));
    expect((document.getElementById('pay-amount') as HTMLInputElement).value).toBe('');
    expect((document.getElementById('pay-reference') as HTMLInputElement).value).toBe('');
  });

  it('shows the id of a card opened from elsewhere (a sample) in its field', async () => {
    await open(panel({ kind: 'open', up_to: '20.50' }));
    expect((document.getElementById('gift-id') as HTMLInputElement).value).toBe('gc_0000000001');
  });
});
