// The app's own words, in each language it speaks. Problem codes live in problems.ts.
// A sentence with a count has a form per plural category of the language
// (`Intl.PluralRules`), chosen by its `n`: never a bracketed plural ending.
import { en } from './en';
import { fr } from './fr';
import type { Lang } from './problems';

/** The forms of a sentence with a count `{n}`, by plural category. */
type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
/** A sentence, or its forms by plural category. */
export type Entry = string | Plural;

/** A sentence of the app, in every language. */
export type Key = keyof typeof en;

const catalogues: Record<Lang, Record<Key, Entry>> = { en, fr };

const pluralRules: Record<Lang, Intl.PluralRules> = { en: new Intl.PluralRules('en'), fr: new Intl.PluralRules('fr') };

/**
 * The sentence `key` in `lang`, with `{name}` placeholders filled; a sentence with a
 * count takes the form the language's plural rules give for `n`.
 */
export function tr(lang: Lang, key: Key, params: Record<string, string | number> = {}): string {
  const entry: Entry = catalogues[lang][key];
  const text = typeof entry === 'string' ? entry : (entry[pluralRules[lang].select(Number(params.n ?? 0))] ?? entry.other);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
