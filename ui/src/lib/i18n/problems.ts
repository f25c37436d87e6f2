// A problem of the API in a cashier's words: by its code (each language's catalogue has
// every code's words), else by its HTTP status, as the API asks of codes the app does not
// know yet. The UI branches on the code, never on the service's title or detail.

import type { RefusalView } from '../ipc';
import { catalogue } from './catalogue';

/** The languages the app speaks; each has a catalogue (lib/i18n/catalogue). */
export const LANGS = ['en', 'fr'] as const;
export type Lang = (typeof LANGS)[number];

/** `tag` as a language the app speaks (a kept choice; a language tag's first part), or null. */
export function asLang(tag: string | null | undefined): Lang | null {
  const primary = tag?.toLowerCase().split(/[-_]/)[0];
  return LANGS.find((lang) => lang === primary) ?? null;
}

/** The codes each language explains, for the test that checks none is missing. */
export function knownCodes(lang: Lang): string[] {
  return Object.keys(catalogue(lang).problems);
}

/** A cashier's sentence for a problem: by its code, else by its HTTP status. */
export function describeProblem(code: string, status: number, lang: Lang): string {
  const { problems, byStatus } = catalogue(lang);
  const known = (problems as Record<string, string | undefined>)[code];
  if (known !== undefined) return known;
  return byStatus[status] ?? byStatus[Math.floor(status / 100) * 100] ?? byStatus.other;
}

/** A refusal of a write, in words: by its code, else by the HTTP status it carries. */
export function describeRefusal(refusal: RefusalView, lang: Lang): string {
  return describeProblem(refusal.given_code, refusal.status ?? 0, lang);
}

/** The app's language from the system's (`navigator.language`), English otherwise. */
export function systemLang(language: string | undefined): Lang {
  return asLang(language) ?? 'en';
}
