// "12 minutes ago, at 14:03": when something happened, as a cashier says it.
import { catalogue } from './i18n/catalogue';
import type { Lang } from './i18n/problems';
import { tr } from './i18n/strings';

/** The wall-clock time of `at` in the till's zone, 24-hour (14:03). */
export function clockTime(at: Date, lang: Lang): string {
  return at.toLocaleTimeString(catalogue(lang).locale, { hour: '2-digit', minute: '2-digit', hour12: false });
}

/** How long ago `iso` was, seen from `now`, with the time it happened. */
export function agoAt(iso: string, now: Date, lang: Lang): string {
  const at = new Date(iso);
  const time = clockTime(at, lang);
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  if (minutes < 1) return tr(lang, 'just_now', { time });
  if (minutes === 1) return tr(lang, 'minute_ago', { time });
  if (minutes < 120) return tr(lang, 'minutes_ago', { n: minutes, time });
  return tr(lang, 'hours_ago', { n: Math.floor(minutes / 60), time });
}

/** A date and time for lists (the queue, last visit long ago). */
export function dateTime(iso: string, lang: Lang): string {
  return new Date(iso).toLocaleString(catalogue(lang).locale, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

/** The till's calendar day of `at` (2026-11-23), in its own zone. */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
