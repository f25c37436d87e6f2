// Each language the app speaks, as one catalogue of all its words: the screens'
// sentences (strings.ts), the service's problem codes and HTTP statuses (problems.ts)
// and the app's own error codes (errors.ts). English is always loaded; another language
// is fetched when the till first speaks it (lib/ui/prefs: before the first screen, or on
// a switch), so a till in English starts without parsing French.
import type { ErrorCode, ProblemCode } from '../ipc';
import { en } from './en';
import type { Lang } from './problems';
import type { Entry, Key } from './strings';

/** All the words of one language; the compiler checks that each table is whole. */
export interface Catalogue {
  /** The tag dates, times and numbers are written in (`toLocaleString`). */
  locale: string;
  /**
   * The plural category of a count: CLDR's rule for the language, written out, so that
   * the first screen's first count does not wait for ICU to make an `Intl.PluralRules`
   * inside its mount. strings.test.ts checks it against Intl.
   */
  plural: (n: number) => Intl.LDMLPluralRule;
  /** The screens' sentences, by name. */
  words: Record<Key, Entry>;
  /** What each problem code of the API means for a cashier. */
  problems: Record<ProblemCode, string>;
  /** For a code this version does not know: a sentence by HTTP status, else `other`. */
  byStatus: Record<number, string> & { other: string };
  /** The app's own error codes. */
  errors: Record<ErrorCode, string>;
}

const loaders: Record<Lang, () => Promise<Catalogue>> = {
  en: async () => en,
  fr: () => import('./fr').then((module) => module.fr),
};

const loaded: Partial<Record<Lang, Catalogue>> = { en };

/** The words of `lang`: English until `lang` has been loaded (`loadLanguage`). */
export function catalogue(lang: Lang): Catalogue {
  return loaded[lang] ?? en;
}

/** Loads the words of `lang` (their module is fetched once): then `catalogue(lang)` gives them. */
export async function loadLanguage(lang: Lang): Promise<void> {
  loaded[lang] ??= await loaders[lang]();
}
