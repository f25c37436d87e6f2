// Checks the base URL a person types on the Connect screen, before anything is sent.

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Accepts an https URL, or an http URL on this computer (the built-in demo server).
 * The key travels in every request, so it never goes over plain http to another host.
 * The answer has no trailing slash, ready for `/v1/...` to be appended.
 */
export function checkBaseUrl(text: string): BaseUrlCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'Type the address of the service.' };

  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: 'This is not a web address. It starts with https://' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'The address must start with https://' };
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return { ok: false, reason: 'Only https:// keeps the key safe on the way. Use https://' };
  }
  if (url.username || url.password) {
    return { ok: false, reason: 'The address must not contain a user name or password.' };
  }
  if (url.search || url.hash) {
    return { ok: false, reason: 'The address must not contain ? or #.' };
  }
  return { ok: true, url: url.origin + url.pathname.replace(/\/+$/, '') };
}
