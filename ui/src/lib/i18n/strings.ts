// The app's sentences, in the language asked: their words are in each language's
// catalogue (en.ts, fr.ts; catalogue.ts loads them). A sentence with a count has a form
// per plural category of the language (`Intl.PluralRules`), chosen by its `n`: never a
// bracketed plural ending.
import { catalogue } from './catalogue';
import type { Key } from './en';
import type { Lang } from './problems';

export type { Key };

/** The forms of a sentence with a count `{n}`, by plural category. */
type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
/** A sentence, or its forms by plural category. */
export type Entry = string | Plural;

// By the locale of the words in hand (English's, until another language is loaded),
// made when a language first counts something.
const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * The sentence `key` in `lang`, with `{name}` placeholders filled; a sentence with a
 * count takes the form the language's plural rules give for `n`.
 */
export function tr(lang: Lang, key: Key, params: Record<string, string | number> = {}): string {
  const entry: Entry = catalogue(lang).words[key];
  const text = typeof entry === 'string' ? entry : (entry[plural(lang).select(Number(params.n ?? 0))] ?? entry.other);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

function plural(lang: Lang): Intl.PluralRules {
  const { locale } = catalogue(lang);
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules;
}
