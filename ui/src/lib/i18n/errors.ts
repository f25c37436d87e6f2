// Turns an error from a command into what a person reads: the service's refusals by
// their problem code (else their HTTP status), the app's own errors by their code and
// the data they carry (amounts, limits, names), all in the app's words. The English
// message from Rust is never the sentence; it waits in the details.
import type { BaseUrlProblem, CommandError, ErrorCode, ErrorData, RefusalView, TextField } from '../ipc';
import { describeRefusal, type Lang } from './problems';
import { tr } from './strings';
import { describePolicyRefusal } from './writes';

const appCodes: Record<Lang, Record<ErrorCode, string>> = {
  en: {
    service_unreachable: 'The service cannot be reached. Check the address and the network.',
    invalid_base_url: 'This address cannot be used. Check it.',
    invalid_api_key: 'This is not an API key: a key starts with lc_live_ or lc_test_. Check that it was copied whole.',
    demo_failed: 'The demo could not start.',
    key_storage_failed: 'The key could not be kept on this computer.',
    already_open: 'This till is already open in another window of the app.',
    storage_failed: 'The till could not read or write its data on this computer.',
    app_dir_unavailable: 'The app could not find its data folder on this computer.',
    not_connected: 'This till is not connected: connect it with a key first.',
    invalid_amount: 'This amount cannot be used. Check it.',
    invalid_reference: 'This ticket number cannot be used: at most 200 characters, and no tabs or line breaks.',
    invalid_card: 'This is not a loyalty card.',
    invalid_gift_card: 'This is not a gift card.',
    invalid_pass: 'This is not one of the business’s passes.',
    invalid_points: 'These points cannot be used: a whole number, not zero, at most 1,000,000.',
    invalid_text: 'Something typed here cannot be used: check for an empty field, a very long text, a line break or an email address that is not one.',
    service_refused: 'The service refused this. The details say why.',
    ipc_failed: 'The app could not do this: the screen sent something the app does not take.',
    offline_payment_refused: 'This payment cannot be taken while the service is unreachable, under this till’s rules.',
    gift_card_unknown: 'This gift card is not known to this till, and the service cannot be reached to look it up.',
    no_such_item: 'This write is no longer in the queue.',
    not_allowed: 'This cannot be done to this write now.',
    pin_refused: 'The manager PIN was refused.',
    invalid_period: 'These dates cannot be used: check the period.',
    export_failed: 'The file could not be written there. Choose another folder or name ending in .csv.',
  },
  fr: {
    service_unreachable: "Le service est injoignable. Vérifiez l'adresse et le réseau.",
    invalid_base_url: 'Cette adresse ne peut pas servir. Vérifiez-la.',
    invalid_api_key: 'Ce n’est pas une clé d’API : une clé commence par lc_live_ ou lc_test_. Vérifiez qu’elle a été copiée en entier.',
    demo_failed: "La démo n'a pas pu démarrer.",
    key_storage_failed: "La clé n'a pas pu être conservée sur cet ordinateur.",
    already_open: 'Cette caisse est déjà ouverte dans une autre fenêtre de l’application.',
    storage_failed: 'La caisse n’a pas pu lire ou écrire ses données sur cet ordinateur.',
    app_dir_unavailable: 'L’application n’a pas trouvé son dossier de données sur cet ordinateur.',
    not_connected: 'Cette caisse n’est pas connectée : connectez-la d’abord avec une clé.',
    invalid_amount: 'Ce montant ne peut pas servir. Vérifiez-le.',
    invalid_reference: 'Ce numéro de ticket ne peut pas servir : 200 caractères au plus, sans tabulation ni saut de ligne.',
    invalid_card: 'Ce n’est pas une carte de fidélité.',
    invalid_gift_card: 'Ce n’est pas une carte cadeau.',
    invalid_pass: 'Ce n’est pas une des cartes de fidélité de l’établissement.',
    invalid_points: 'Ces points ne peuvent pas servir : un nombre entier, non nul, 1 000 000 au plus.',
    invalid_text: 'Un texte saisi ne peut pas servir : vérifiez qu’aucun champ n’est vide, trop long, ne contient de saut de ligne, et que l’adresse e-mail en est bien une.',
    service_refused: 'Le service a refusé cela. Les détails disent pourquoi.',
    ipc_failed: 'L’application n’a pas pu le faire : l’écran a envoyé quelque chose qu’elle ne prend pas.',
    offline_payment_refused: 'Ce paiement ne peut pas être encaissé tant que le service est injoignable, selon les règles de cette caisse.',
    gift_card_unknown: 'Cette carte cadeau est inconnue de cette caisse, et le service est injoignable pour la chercher.',
    no_such_item: 'Cette opération n’est plus dans la file d’attente.',
    not_allowed: 'Ce n’est pas possible pour cette opération maintenant.',
    pin_refused: 'Le code PIN du responsable a été refusé.',
    invalid_period: 'Ces dates ne peuvent pas servir : vérifiez la période.',
    export_failed: 'Le fichier n’a pas pu être écrit à cet endroit. Choisissez un autre dossier, ou un nom finissant par .csv.',
  },
};

const baseUrlWords = {
  empty: 'url_empty',
  not_web: 'url_not_web',
  scheme: 'url_scheme',
  plain_http: 'url_plain_http',
  credentials: 'url_credentials',
  query: 'url_query',
} as const satisfies Record<BaseUrlProblem, string>;

/** Why a base URL cannot be used, in `lang`. */
export function describeBaseUrl(problem: BaseUrlProblem, lang: Lang): string {
  return tr(lang, baseUrlWords[problem]);
}

const fields = {
  name: 'field_name',
  email: 'field_email',
  note: 'field_note',
  search: 'field_search',
  locale: 'field_locale',
  title: 'field_title',
  body: 'field_body',
} as const satisfies Record<TextField, string>;

/** The sentence an error's data gives, in `lang`. */
function describeData(data: ErrorData, lang: Lang): string {
  switch (data.type) {
    case 'amount': {
      const r = data.reason;
      switch (r.kind) {
        case 'empty':
          return tr(lang, 'amount_empty');
        case 'not_a_number':
          return tr(lang, 'amount_not_a_number', { text: r.text });
        case 'too_many_decimals':
          return tr(lang, 'amount_too_many_decimals', { currency: r.currency, n: r.decimals });
        case 'zero':
          return tr(lang, 'amount_zero');
        case 'negative':
          return tr(lang, 'amount_negative');
        case 'too_large':
          return tr(lang, 'amount_too_large', { amount: r.amount, currency: r.currency, max: r.max });
        case 'over_balance':
          return tr(lang, 'insufficient', { balance: r.available, currency: r.currency });
      }
      break;
    }
    case 'input': {
      const r = data.reason;
      switch (r.kind) {
        case 'not_a_card':
          return appCodes[lang].invalid_card;
        case 'not_a_gift_card':
          return appCodes[lang].invalid_gift_card;
        case 'not_a_pass':
          return appCodes[lang].invalid_pass;
        case 'points_mismatch':
        case 'points_out_of_range':
          return appCodes[lang].invalid_points;
        case 'empty':
          return tr(lang, 'input_empty', { field: tr(lang, fields[r.field]) });
        case 'too_long':
          return tr(lang, 'input_too_long', { field: tr(lang, fields[r.field]), n: r.max });
        case 'control_character':
          return tr(lang, 'input_control', { field: tr(lang, fields[r.field]) });
        case 'not_an_email':
          return tr(lang, 'input_not_an_email', { given: r.given });
        case 'not_a_language':
          return tr(lang, 'input_not_a_language', { given: r.given });
        case 'unknown_wallet':
          return tr(lang, 'input_unknown_wallet');
        case 'not_a_date':
          return tr(lang, 'input_not_a_date', { given: r.given });
        case 'period_backwards':
          return tr(lang, 'input_period_backwards');
        case 'period_too_long':
          return tr(lang, 'input_period_too_long', { n: r.max_days });
      }
      break;
    }
    case 'reference':
      return data.reason.kind === 'too_long'
        ? tr(lang, 'reference_too_long', { n: data.reason.max })
        : tr(lang, 'reference_control');
    case 'policy':
      return describePolicyRefusal(data.reason, lang);
    case 'base_url':
      return describeBaseUrl(data.reason, lang);
    case 'pin': {
      const r = data.reason;
      switch (r.kind) {
        case 'not_digits':
          return tr(lang, 'pin_not_digits', { min: r.min, max: r.max });
        case 'not_set':
          return tr(lang, 'pin_not_set');
        case 'already_set':
          return tr(lang, 'pin_already_set');
        case 'manager_only':
          return tr(lang, 'pin_manager_only');
        case 'wrong':
          return tr(lang, 'pin_wrong', { n: r.tries_left });
        case 'locked':
          return tr(lang, 'pin_locked', { time: new Date(r.until).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' }) });
      }
      break;
    }
    case 'not_allowed': {
      const r = data.reason;
      switch (r.kind) {
        case 'may_have_arrived':
          return tr(lang, 'not_allowed_may_have_arrived');
        case 'no_decision_pending':
          return tr(lang, 'not_allowed_no_decision');
        case 'same_answer_again':
          return tr(lang, 'not_allowed_same_answer');
        case 'withdrawn':
          return tr(lang, 'not_allowed_withdrawn');
        case 'not_a_recent_visit':
          return tr(lang, 'not_allowed_not_recent');
        case 'no_pass_chosen':
          return tr(lang, 'not_allowed_no_pass');
        case 'not_a_currency':
          return tr(lang, 'not_allowed_not_a_currency', { given: r.given });
        case 'preview_gone':
          return tr(lang, 'not_allowed_preview_gone');
        case 'not_scheduled_here':
          return tr(lang, 'not_allowed_not_scheduled_here');
        case 'not_in_the_demo':
          return tr(lang, 'not_allowed_not_in_the_demo');
        case 'not_of_this_business':
          return tr(lang, 'not_allowed_not_of_this_business');
        case 'unknown_filter':
          return tr(lang, 'not_allowed_unknown_filter');
      }
    }
  }
  return '';
}

/** A refusal of a write as an error, for its details (code, status, Request-Id). */
export function refusalError(refusal: RefusalView): CommandError {
  return { code: 'service_refused', data: null, problem: refusal, message: refusal.detail ?? refusal.given_code };
}

/** The sentence to show for a failed command. */
export function describeError(error: CommandError, lang: Lang): string {
  if (error.problem) return describeRefusal(error.problem, lang);
  const said = error.data ? describeData(error.data, lang) : '';
  return said || appCodes[lang][error.code];
}
