// The till's display preferences, shared by every screen: the language (from the
// system's, switchable in settings, remembered on this computer).
import { systemLang, type Lang } from '../i18n/problems';

const STORED = 'loyalty-counter.lang';

function initial(): Lang {
  const kept = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORED);
  if (kept === 'en' || kept === 'fr') return kept;
  return systemLang(typeof navigator === 'undefined' ? undefined : navigator.language);
}

export const prefs = $state<{ lang: Lang }>({ lang: initial() });

export function setLang(lang: Lang): void {
  prefs.lang = lang;
  try {
    localStorage.setItem(STORED, lang);
  } catch {
    // Private storage may be unavailable: the choice lasts for this run.
  }
}
