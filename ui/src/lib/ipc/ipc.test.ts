import { describe, expect, it } from 'vitest';
import { toCommandError } from './index';

describe('toCommandError', () => {
  it('keeps a command error as it came', () => {
    const error = {
      code: 'invalid_api_key',
      message: 'refused',
      status: 401,
      detail: 'No such key.',
      request_id: 'req_1',
    };
    expect(toCommandError(error)).toEqual(error);
  });

  it('turns an IPC failure into ipc_failed with its message', () => {
    expect(toCommandError(new Error('command app_info not allowed'))).toMatchObject({
      code: 'ipc_failed',
      message: 'command app_info not allowed',
    });
  });

  it('turns a bare string into ipc_failed', () => {
    expect(toCommandError('window closed')).toMatchObject({ code: 'ipc_failed', message: 'window closed' });
  });

  it('does not take an object with a numeric code for a command error', () => {
    expect(toCommandError({ code: 500, message: 'x' }).code).toBe('ipc_failed');
  });
});
