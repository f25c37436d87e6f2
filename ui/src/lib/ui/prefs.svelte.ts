// The till's display preferences, shared by every screen: the language (from the
// system's, switchable in settings, remembered on this computer).
import { loadLanguage } from '../i18n/catalogue';
import { setTillLanguage } from '../ipc';
import { asLang, systemLang, type Lang } from '../i18n/problems';

const STORED = 'loyalty-counter.lang';

function initial(): Lang {
  const kept = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORED);
  return asLang(kept) ?? systemLang(typeof navigator === 'undefined' ? undefined : navigator.language);
}

// `prefs.lang` only ever names a language whose words are loaded (English's always are):
// a language is spoken once its words are in.
export const prefs = $state<{ lang: Lang }>({ lang: 'en' });

// The language last asked for: a switch whose words arrive after a later one's is
// dropped, so the cashier's last tap decides.
let asked: Lang = 'en';

/** Speaks `lang` once its words are in; false if they could not be, or a later choice came. */
async function speak(lang: Lang): Promise<boolean> {
  asked = lang;
  try {
    await loadLanguage(lang);
  } catch (error) {
    console.error(`the words of "${lang}" could not be loaded`, error);
    return false;
  }
  if (asked !== lang) return false;
  prefs.lang = lang;
  return true;
}

/** The till's own language, in use (English should its words fail): the first screen waits for it. */
export const languageReady: Promise<void> = speak(initial()).then(() => {});

/** Speaks `lang` from now on, once its words are in, and remembers it. Never rejects. */
export async function setLang(lang: Lang): Promise<void> {
  if (!(await speak(lang))) return;
  try {
    localStorage.setItem(STORED, lang);
  } catch {
    // Private storage may be unavailable: the choice lasts for this run.
  }
  setTillLanguage(lang).catch(() => {
    // The till keeps the language it was told last; receipts print in that.
  });
}

/** Speaks `lang` for now, not remembered: a kiosk's customer's choice, for their visit. */
export async function speakForNow(lang: Lang): Promise<void> {
  await speak(lang);
}

/** Back to the till's own language, the one remembered (a kiosk between customers). */
export async function speakTillLanguage(): Promise<void> {
  await speak(initial());
}

/** Tells the till the language it speaks, the one remembered: receipts print in it. */
export function tellTheTill(): void {
  setTillLanguage(initial()).catch(() => {
    // As above.
  });
}
