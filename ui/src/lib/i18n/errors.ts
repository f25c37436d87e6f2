// Turns an error from a command into what a person reads: the service's refusals by
// their problem code (else their HTTP status), the app's own errors by their code and
// the data they carry (amounts, limits, names), all in the app's words. The English
// message from Rust is never the sentence; it waits in the details.
import type { BaseUrlProblem, CommandError, ErrorData, RefusalView, TextField } from '../ipc';
import { clockTime } from '../time';
import { catalogue } from './catalogue';
import { describeRefusal, type Lang } from './problems';
import { tr } from './strings';
import { describePolicyRefusal } from './writes';

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
  till_name: 'field_till_name',
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
          return catalogue(lang).errors.invalid_card;
        case 'not_a_gift_card':
          return catalogue(lang).errors.invalid_gift_card;
        case 'not_a_pass':
          return catalogue(lang).errors.invalid_pass;
        case 'points_mismatch':
        case 'points_out_of_range':
          return catalogue(lang).errors.invalid_points;
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
        case 'unknown_action':
          return tr(lang, 'input_unknown_action');
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
          return tr(lang, 'pin_locked', { time: clockTime(new Date(r.until), lang) });
        case 'disabled':
          return tr(lang, 'pin_disabled');
        case 'unknown_badge':
          return tr(lang, 'pin_unknown_badge');
        case 'may_not_approve':
          return tr(lang, 'pin_may_not_approve');
      }
      break;
    }
    case 'roster': {
      const r = data.reason;
      switch (r.kind) {
        case 'name':
          return tr(lang, 'roster_name', { max: r.longest });
        case 'name_taken':
          return tr(lang, 'roster_name_taken', { name: r.name });
        case 'no_such_person':
          return tr(lang, 'roster_no_such_person');
        case 'last_owner':
          return tr(lang, 'roster_last_owner');
      }
      break;
    }
    case 'roster_file': {
      const r = data.reason;
      switch (r.kind) {
        case 'unreadable':
          return tr(lang, 'roster_file_unreadable');
        case 'altered':
          return tr(lang, 'roster_file_altered');
        case 'not_trusted':
          return tr(lang, 'roster_file_not_trusted', { fingerprint: r.fingerprint, till: r.till });
        case 'other_key':
          return tr(lang, 'roster_file_other_key', { fingerprint: r.fingerprint, trusted: r.trusted });
        case 'not_newer':
          return tr(lang, 'roster_file_not_newer');
      }
      break;
    }
    case 'rule': {
      const r = data.reason;
      switch (r.kind) {
        case 'fixed':
          return tr(lang, 'rule_fixed');
        case 'owners_column':
          return tr(lang, 'rule_owners_column');
      }
      break;
    }
    case 'printer': {
      const r = data.reason;
      switch (r.kind) {
        case 'not_a_host':
          return tr(lang, 'printer_not_a_host', { given: r.given });
        case 'no_port':
          return tr(lang, 'printer_no_port');
        case 'not_a_device':
          return tr(lang, 'printer_not_a_device', { given: r.given });
        case 'not_a_serial_line':
          return tr(lang, 'printer_not_a_serial_line', { given: r.given });
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
        case 'kiosk':
          return tr(lang, 'not_allowed_kiosk');
        case 'not_a_card_of_this_business':
          return tr(lang, 'not_allowed_not_a_card_of_this_business');
        case 'no_printer':
          return tr(lang, 'not_allowed_no_printer');
        case 'not_waiting_to_print':
          return tr(lang, 'not_allowed_not_waiting_to_print');
        case 'not_unsure':
          return tr(lang, 'not_allowed_not_unsure');
        case 'threshold_out_of_range':
          return tr(lang, 'not_allowed_threshold', { max: r.max });
        case 'retention_out_of_range':
          return tr(lang, 'not_allowed_retention', { max: r.max });
        case 'lock_minutes_out_of_range':
          return tr(lang, 'not_allowed_lock_minutes', { max: r.max });
        case 'not_signed_in':
          return tr(lang, 'not_allowed_not_signed_in');
        case 'no_shift_open':
          return tr(lang, 'not_allowed_no_shift_open');
        case 'no_such_z':
          return tr(lang, 'not_allowed_no_such_z');
        case 'role_may_not':
          return tr(lang, 'not_allowed_role_may_not');
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
  return said || catalogue(lang).errors[error.code];
}
