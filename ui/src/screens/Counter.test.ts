// What the counter offers for given core data: the core decides (CardActions) and the
// screen renders its decision; the IPC is replaced by the answers the core would give.
import { cleanup, fireEvent, render } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Abilities, CardActions, CardPanel, ConnectionView } from '../lib/ipc';

const ipc = vi.hoisted(() => ({
  readScan: vi.fn(),
  readCard: vi.fn(),
  recordScan: vi.fn(),
  confirmRepeatVisit: vi.fn(),
  counterIdle: vi.fn(async () => {}),
  onCoreEvent: vi.fn(async () => () => {}),
  cameraOpen: vi.fn(async () => ({ type: 'playing', source: '/dev/video0' })),
  cameraClose: vi.fn(async () => {}),
  onCamera: vi.fn(async (handler: (sight: unknown) => void) => {
    camera.see = handler;
    return () => {};
  }),
}));
const camera = vi.hoisted(() => ({ see: null as ((sight: unknown) => void) | null }));
vi.mock('../lib/ipc', () => ipc);

import Counter from './Counter.svelte';

const may = (scan: boolean): Abilities => ({
  read: true,
  scan,
  enrol: false,
  issue_gift_cards: false,
  spend_gift_cards: false,
  send_messages: false,
});

const connection = (scan: boolean): ConnectionView => ({
  business_name: 'Café Test',
  test_mode: true,
  scopes: scan ? ['read', 'scans:write'] : ['read'],
  may: may(scan),
  demo: false,
  key_file: null,
});

const actions = (over: Partial<CardActions>): CardActions => ({
  visit: true,
  add_points: true,
  deduct_points: true,
  redeem: true,
  add_up_to: null,
  deduct_up_to: null,
  ...over,
});

const card = (over: Partial<CardPanel>): CardPanel => ({
  card_id: 'card_0000000001',
  pass_id: 'pass_0000000001',
  status: 'active',
  customer_name: 'Ana García',
  customer_email: null,
  visits: 0,
  points: 70,
  rewards_available: 0,
  rewards_redeemed: 0,
  last_visit_at: null,
  queued_writes: 0,
  pass: { id: 'pass_0000000001', name: 'Points', loyalty_type: 'points', goal: 100, reward_title: 'A coffee', locale: 'en' },
  actions: actions({}),
  print_slip: false,
  unusual_scans: null,
  ...over,
});

function shows(panel: CardPanel | null, read: CardActions = actions({})) {
  ipc.readScan.mockResolvedValue({ type: 'card', id: 'card_0000000001', known: panel, actions: panel?.actions ?? read });
  ipc.readCard.mockResolvedValue(panel ? { type: 'found', card: panel } : { type: 'not_checked' });
}

const button = (id: string) => document.getElementById(id) as HTMLButtonElement;

async function open(scan = true) {
  render(Counter, { connection: connection(scan), lang: 'en', active: true, initialCard: 'card_0000000001', onopengift: () => {} });
  await vi.waitFor(() => expect(document.getElementById('card-id')?.textContent).toBe('card_0000000001'));
  await vi.waitFor(() => expect(ipc.readCard).toHaveBeenCalled());
  await new Promise((r) => setTimeout(r, 0));
}

describe('Counter', () => {
  beforeEach(() => vi.clearAllMocks());

  it('offers what the core allows for a points card: no visit, points and a redemption', async () => {
    shows(card({ actions: actions({ visit: false, add_up_to: 30, deduct_up_to: 70 }) }));
    await open();
    expect(button('act-visit').disabled).toBe(true);
    expect(button('act-add').disabled).toBe(false);
    expect(button('act-deduct').disabled).toBe(false);
    expect(button('act-redeem').disabled).toBe(false);
    expect(document.getElementById('goal-progress')).not.toBeNull();
  });

  it('flags a card scanned unusually often and offers a slip only where the core says a printer is set up', async () => {
    shows(card({ unusual_scans: 7, print_slip: true }));
    await open();
    expect(document.getElementById('card-unusual')?.textContent).toMatch(/7 scans/);
    expect(button('print-slip')).not.toBeNull();
    cleanup();
    shows(card({}));
    await open();
    expect(document.getElementById('card-unusual')).toBeNull();
    expect(document.getElementById('print-slip')).toBeNull();
  });

  it('lets the next customer come with Escape: the card leaves and the customer screen is told', async () => {
    shows(card({}));
    await open();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    await vi.waitFor(() => expect(document.getElementById('card-panel')).toBeNull());
    expect(ipc.counterIdle).toHaveBeenCalledTimes(1);
  });

  it('opens the camera on its button only, reads a code as a scan, and lets the camera go', async () => {
    shows(card({}));
    await open();
    expect(ipc.cameraOpen).not.toHaveBeenCalled();
    await fireEvent.click(button('camera-toggle'));
    await vi.waitFor(() => expect(ipc.cameraOpen).toHaveBeenCalledTimes(1));
    ipc.readScan.mockClear();
    camera.see!({ type: 'code', text: 'card_0000000001' });
    await vi.waitFor(() => expect(ipc.readScan).toHaveBeenCalledWith('card_0000000001', []));
    // Read: the panel closes and the camera is released.
    await vi.waitFor(() => expect(document.getElementById('camera-panel')).toBeNull());
    expect(ipc.cameraClose).toHaveBeenCalled();
  });

  it('sends the keys of a scan with what they typed, for the core to read through the scanner’s layout', async () => {
    shows(card({}));
    await open();
    ipc.readScan.mockClear();
    const field = document.getElementById('scan') as HTMLInputElement;
    field.focus();
    for (const [code, key] of [['KeyC', 'c'], ['KeyA', 'q'], ['KeyR', 'r'], ['KeyD', 'd']]) {
      await fireEvent.keyDown(field, { key, code });
      field.value += key;
      await fireEvent.input(field);
    }
    await fireEvent.keyDown(field, { key: 'Enter', code: 'Enter' });
    await vi.waitFor(() => expect(ipc.readScan).toHaveBeenCalled());
    const [input, keys] = ipc.readScan.mock.lastCall as [string, { code: string }[]];
    expect(input).toBe('cqrd');
    expect(keys.map((k) => k.code)).toEqual(['KeyC', 'KeyA', 'KeyR', 'KeyD']);
  });

  it('offers a visit and no points for a visits card', async () => {
    shows(card({ actions: actions({ add_points: false, deduct_points: false }) }));
    await open();
    expect(button('act-visit').disabled).toBe(false);
    expect(button('act-add').disabled).toBe(true);
    expect(button('act-deduct').disabled).toBe(true);
  });

  it('offers nothing, and says why, when the key may not record scans', async () => {
    const none = actions({ visit: false, add_points: false, deduct_points: false, redeem: false });
    shows(card({ actions: none }));
    await open(false);
    for (const id of ['act-visit', 'act-add', 'act-deduct', 'act-redeem']) expect(button(id).disabled).toBe(true);
    expect(document.getElementById('scope-reason')?.textContent).toMatch(/may not/i);
  });

  it('offers what the key may do for a card the till has not read yet', async () => {
    shows(null, actions({}));
    await open();
    expect(button('act-visit').disabled).toBe(false);
    expect(button('act-redeem').disabled).toBe(false);
    expect(document.getElementById('scope-reason')).toBeNull();
  });
});
