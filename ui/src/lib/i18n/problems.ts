// A problem of the API in a cashier's words: by its code (each language's catalogue has
// every code's words), else by its HTTP status, as the API asks of codes the app does not
// know yet. The UI branches on the code, never on the service's title or detail.

import type { RefusalView } from '../ipc';
import { catalogue } from './catalogue';

export type Lang = 'en' | 'fr';

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
  return language?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}
