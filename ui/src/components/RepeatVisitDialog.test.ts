import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import RepeatVisitDialog from './RepeatVisitDialog.svelte';

function open() {
  const onconfirm = vi.fn();
  const oncancel = vi.fn();
  render(RepeatVisitDialog, { lang: 'en', when: '12 minutes ago, at 14:03', onconfirm, oncancel });
  return { onconfirm, oncancel };
}

describe('RepeatVisitDialog', () => {
  it('says when the last visit was and focuses Cancel', () => {
    open();
    expect(screen.getByRole('alertdialog').textContent).toContain('12 minutes ago, at 14:03');
    expect(document.activeElement?.id).toBe('repeat-cancel');
  });

  it('never confirms on Enter, even on the Record button', async () => {
    const { onconfirm } = open();
    const record = screen.getByRole('button', { name: /Record another visit/ });
    record.focus();
    await fireEvent.keyDown(record, { key: 'Enter' });
    await fireEvent.keyDown(record, { key: ' ' });
    expect(onconfirm).not.toHaveBeenCalled();
  });

  it('confirms on a click or Alt+R, cancels on Escape', async () => {
    const { onconfirm, oncancel } = open();
    await fireEvent.click(screen.getByRole('button', { name: /Record another visit/ }));
    await fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'r', altKey: true });
    expect(onconfirm).toHaveBeenCalledTimes(2);
    await fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    expect(oncancel).toHaveBeenCalledOnce();
  });
});
