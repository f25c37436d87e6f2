// The till's display preferences, shared by every screen: the language (from the
// system's, switchable in settings, remembered on this computer).
import { loadLanguage } from '../i18n/catalogue';
import { systemLang, type Lang } from '../i18n/problems';

const STORED = 'loyalty-counter.lang';

function initial(): Lang {
  const kept = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORED);
  if (kept === 'en' || kept === 'fr') return kept;
  return systemLang(typeof navigator === 'undefined' ? undefined : navigator.language);
}

export const prefs = $state<{ lang: Lang }>({ lang: initial() });

// The language last asked for: a switch whose words arrive after a later one's is
// dropped, so the cashier's last tap decides.
let asked: Lang = prefs.lang;

/** Speaks `lang` from now on (once its words are loaded) and remembers it. */
export async function setLang(lang: Lang): Promise<void> {
  asked = lang;
  await loadLanguage(lang);
  if (asked !== lang) return;
  prefs.lang = lang;
  try {
    localStorage.setItem(STORED, lang);
  } catch {
    // Private storage may be unavailable: the choice lasts for this run.
  }
}
