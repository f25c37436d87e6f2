// What is wrong with the till's own files, and what to do about it, in the cashier's
// language. The core says which trouble it is (ts-rs types); the words live here.
import type { TroubleView } from '../ipc';
import type { Lang } from './problems';
import { tr, type Key } from './strings';

/** What a person can do about a trouble: connect with a key, reset settings, retry. */
export type Remedy = 'connect' | 'reset_settings' | 'retry';

/** A trouble in words: what is wrong, what to do, and the button that does it. */
export type TroubleWords = { what: string; todo: string; remedy: Remedy; action: string };

const settingNames: Record<string, Key> = {
  base_url: 'setting_base_url',
  pass_id: 'setting_pass_id',
  location_id: 'setting_location_id',
  offline_payments: 'setting_offline_payments',
  kiosk: 'setting_kiosk',
  language: 'setting_language',
  connection: 'setting_connection',
};

/** A setting's name as people say it; a name this version does not know, as stored. */
export function describeSetting(name: string, lang: Lang): string {
  const key = settingNames[name];
  return key ? tr(lang, key) : name;
}

export function describeTrouble(trouble: TroubleView, lang: Lang): TroubleWords {
  const connect = { todo: tr(lang, 'trouble_key_todo'), remedy: 'connect' as const, action: tr(lang, 'trouble_connect') };
  switch (trouble.kind) {
    case 'key_file_unreadable':
      return { what: tr(lang, 'trouble_key_file_unreadable', { path: trouble.path }), ...connect };
    case 'key_file_not_a_key':
      return { what: tr(lang, 'trouble_key_file_not_a_key', { path: trouble.path }), ...connect };
    case 'keychain_not_a_key':
      return { what: tr(lang, 'trouble_keychain_not_a_key'), ...connect };
    case 'settings_damaged':
      return {
        what: tr(lang, 'trouble_settings_damaged', {
          names: trouble.settings.map((name) => describeSetting(name, lang)).join(', '),
        }),
        todo: tr(lang, 'trouble_settings_todo'),
        remedy: 'reset_settings',
        action: tr(lang, 'trouble_reset'),
      };
    case 'held_elsewhere':
      return {
        what: tr(lang, 'trouble_held', { path: trouble.path }),
        todo: tr(lang, 'trouble_held_todo'),
        remedy: 'retry',
        action: tr(lang, 'trouble_retry'),
      };
  }
}
