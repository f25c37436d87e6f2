// What became of a write, in the cashier's language: the one place that words an
// outcome. A screen words only its own answer (`done`) and the refusal its write
// expects (`known`); being queued, refused or left for a decision reads the same on
// every screen.
import type { CommandError, Outcome } from '../ipc';
import type { Key } from './en';
import { refusalError } from './errors';
import { describeRefusal, type Lang } from './problems';
import { tr } from './strings';
import { describeReason } from './writes';

/** A line for the person who made the write: its tone, its words, the error behind it. */
export interface Said {
  tone: 'ok' | 'info' | 'error';
  text: string;
  error?: CommandError;
}

/** The screen's own words for a write's outcome. */
export interface OutcomeWords<T, K> {
  /** The service did it. */
  done: (answer: T) => Said;
  /** Refused in a way the write expects (absent when it expects none: `K` is `never`). */
  known?: (known: K) => Said;
  /** Stored, waiting for the service: what the person should know. */
  queued: Key;
}

/** What became of a write, in words. */
export function sayOutcome<T, K>(reply: Outcome<T, K>, lang: Lang, words: OutcomeWords<T, K>): Said {
  switch (reply.outcome) {
    case 'done':
      return words.done(reply.answer);
    case 'known':
      if (!words.known) throw new Error('a refusal this write does not expect');
      return words.known(reply.known);
    case 'queued':
      return { tone: 'info', text: tr(lang, words.queued) };
    case 'refused':
      return { tone: 'error', text: describeRefusal(reply.refusal, lang), error: refusalError(reply.refusal) };
    case 'needs_decision':
      return { tone: 'info', text: `${tr(lang, 'needs_decision_write')} ${describeReason(reply.reason, lang)}` };
  }
}
