import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from './base-url';

describe('checkBaseUrl', () => {
  it('accepts an https address and drops the trailing slash', () => {
    expect(checkBaseUrl(' https://api.example.com/ ')).toEqual({ ok: true, url: 'https://api.example.com' });
  });

  it('keeps a path such as the sandbox place', () => {
    expect(checkBaseUrl('http://127.0.0.1:8787/sandbox')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:8787/sandbox',
    });
  });

  it('refuses plain http to another computer, saying why', () => {
    expect(checkBaseUrl('http://api.example.com')).toEqual({ ok: false, reason: 'url_plain_http' });
  });

  it('refuses an empty address, other schemes and garbage', () => {
    for (const text of ['', '   ', 'ftp://api.example.com', 'api.example.com', 'javascript:alert(1)']) {
      expect(checkBaseUrl(text).ok, text).toBe(false);
    }
  });

  it('refuses credentials, a query or a fragment', () => {
    for (const text of ['https://u:p@api.example.com', 'https://api.example.com/?a=1', 'https://api.example.com/#x']) {
      expect(checkBaseUrl(text).ok, text).toBe(false);
    }
  });
});
