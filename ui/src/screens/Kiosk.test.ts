import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { CameraOpened, CheckIn, CommandError, ConnectionView, KioskStatus } from '../lib/ipc';

// The core records the visit and holds the rules (tested in Rust, and end to end);
// here it answers as the core would, so the page's part is what is tested.
const camera = vi.hoisted(() => ({ see: null as ((sight: unknown) => void) | null }));
const ipc = vi.hoisted(() => ({
  checkIn: vi.fn(),
  managerLeaves: vi.fn(async () => {}),
  setKiosk: vi.fn(),
  cameraOpen: vi.fn(async (): Promise<CameraOpened> => ({ type: 'playing', source: '/frames' })),
  cameraClose: vi.fn(async () => {}),
  onCamera: vi.fn(async (handler: (sight: unknown) => void) => {
    camera.see = handler;
    return () => {};
  }),
}));
vi.mock('../lib/ipc', () => ipc);
// The manager's approval given: the call runs as it would once approved.
vi.mock('../lib/ui/manager.svelte', () => ({
  asManager: vi.fn(async (_purpose: string, action: () => Promise<unknown>) => action()),
  manager: { asking: null },
}));

import Kiosk from './Kiosk.svelte';

const connection = { business_name: 'Café Test' } as ConnectionView;
const status: KioskStatus = { on: true, idle_seconds: 60, needs_pin: false };
const counted: CheckIn = { outcome: 'counted', name: null, progress: null };

function open(onleft = () => {}) {
  render(Kiosk, { connection, closed: false, status, onleft });
  return screen.getByLabelText('Scan your loyalty card, or type its number') as HTMLInputElement;
}

describe('Kiosk', () => {
  it('types a card id on its own keys, capitals with Shift', async () => {
    const field = open();
    for (const key of ['c', 'a', 'r', 'd', '_']) await fireEvent.click(document.getElementById(`kiosk-key-${key}`)!);
    await fireEvent.click(screen.getByRole('button', { name: 'Capital letters' }));
    await fireEvent.click(document.getElementById('kiosk-key-q')!);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete the last character' }));
    await fireEvent.click(document.getElementById('kiosk-key-z')!);
    expect(field.value).toBe('card_Z');
  });

  it('sends a scan that ends while the last check-in is on its way, once that is done', async () => {
    let answer: (value: CheckIn) => void = () => {};
    ipc.checkIn.mockImplementationOnce(() => new Promise<CheckIn>((done) => (answer = done)));
    ipc.checkIn.mockResolvedValueOnce(counted);
    const field = open();
    await fireEvent.input(field, { target: { value: 'card_first' } });
    await fireEvent.submit(field.form!);
    await fireEvent.input(field, { target: { value: 'card_second' } });
    await fireEvent.submit(field.form!);
    expect(ipc.checkIn).toHaveBeenCalledTimes(1);
    answer(counted);
    await vi.waitFor(() => expect(ipc.checkIn).toHaveBeenCalledTimes(2));
    expect(ipc.checkIn.mock.calls.map((call) => call[0])).toEqual(['card_first', 'card_second']);
  });

  it('says why it stays a kiosk when leaving fails after the PIN', async () => {
    const refused: CommandError = {
      code: 'already_open',
      data: null,
      problem: null,
      message: 'another copy owns the till',
    };
    ipc.setKiosk.mockRejectedValueOnce(refused);
    const onleft = vi.fn();
    open(onleft);
    await fireEvent.click(screen.getByRole('button', { name: 'Staff' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent?.trim()).not.toBe('');
    expect(alert.textContent).not.toContain('{');
    expect(onleft).not.toHaveBeenCalled();
  });

  it('checks in the code the camera read, as a scan, and shows the preview', async () => {
    ipc.checkIn.mockResolvedValueOnce(counted);
    open();
    await vi.waitFor(() => expect(ipc.cameraOpen).toHaveBeenCalled());
    camera.see!({ type: 'preview', url: 'data:image/jpeg;base64,/9j/' });
    camera.see!({ type: 'code', text: 'card_from_camera' });
    await vi.waitFor(() => expect(ipc.checkIn).toHaveBeenCalledWith('card_from_camera', []));
    expect(document.getElementById('camera-preview')).not.toBeNull();
    expect(await screen.findByText('Code read.')).toBeTruthy();
  });

  it('keeps no place for a camera there is not, and its keys still work', async () => {
    ipc.cameraOpen.mockResolvedValueOnce({ type: 'no_camera' });
    const field = open();
    const note = await screen.findByText('No camera here. Scan or type the card instead.');
    expect(note.closest('[hidden]')).not.toBeNull();
    await fireEvent.click(document.getElementById('kiosk-key-c')!);
    expect(field.value).toBe('c');
  });
});

describe('Kiosk and a wedge scanner', () => {
  it('sends the physical keys of what was typed with the scan, for the core to read through the scanner’s layout', async () => {
    ipc.checkIn.mockResolvedValueOnce(counted);
    const field = open();
    // A US scanner on an AZERTY keyboard: KeyA types "q" here.
    const keys: [string, string][] = [['KeyC', 'c'], ['KeyA', 'q'], ['KeyR', 'r'], ['KeyD', 'd']];
    field.focus();
    for (const [code, key] of keys) {
      await fireEvent.keyDown(field, { key, code });
      field.value += key;
      await fireEvent.input(field);
    }
    await fireEvent.submit(field.closest('form')!);
    await vi.waitFor(() => expect(ipc.checkIn).toHaveBeenCalled());
    const [input, sent] = ipc.checkIn.mock.lastCall as [string, { code: string; shift: boolean }[]];
    expect(input).toBe('cqrd');
    expect(sent.map((k) => k.code)).toEqual(['KeyC', 'KeyA', 'KeyR', 'KeyD']);
  });
});
