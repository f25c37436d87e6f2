// Checks the base URL a person types on the Connect screen, before anything is sent.

import type { Key } from './i18n/strings';

/** Why an address is refused, as a sentence of the app's catalogue. */
export type BaseUrlProblem = Extract<
  Key,
  'url_empty' | 'url_not_web' | 'url_scheme' | 'url_plain_http' | 'url_credentials' | 'url_query'
>;

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: BaseUrlProblem };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Accepts an https URL, or an http URL on this computer (the built-in demo server).
 * The key travels in every request, so it never goes over plain http to another host.
 * The answer has no trailing slash, ready for `/v1/...` to be appended.
 */
export function checkBaseUrl(text: string): BaseUrlCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'url_empty' };

  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: 'url_not_web' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'url_scheme' };
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return { ok: false, reason: 'url_plain_http' };
  }
  if (url.username || url.password) {
    return { ok: false, reason: 'url_credentials' };
  }
  if (url.search || url.hash) {
    return { ok: false, reason: 'url_query' };
  }
  return { ok: true, url: url.origin + url.pathname.replace(/\/+$/, '') };
}
