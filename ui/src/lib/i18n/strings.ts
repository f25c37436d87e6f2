// The app's sentences, in the language asked: their words are in each language's
// catalogue (en.ts, fr.ts; catalogue.ts loads them). A sentence with a count has a form
// per plural category of the language (its catalogue's `plural`), chosen by its `n`:
// never a bracketed plural ending.
import { catalogue } from './catalogue';
import type { Key } from './en';
import type { Lang } from './problems';

export type { Key };

/** The forms of a sentence with a count `{n}`, by plural category. */
type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
/** A sentence, or its forms by plural category. */
export type Entry = string | Plural;

/**
 * The sentence `key` in `lang`, with `{name}` placeholders filled; a sentence with a
 * count takes the form the language's plural rules give for `n`.
 */
export function tr(lang: Lang, key: Key, params: Record<string, string | number> = {}): string {
  const { words, plural } = catalogue(lang);
  const entry: Entry = words[key];
  const text = typeof entry === 'string' ? entry : (entry[plural(Number(params.n ?? 0))] ?? entry.other);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
