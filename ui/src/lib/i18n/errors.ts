// Turns an error from a command into what a person reads: the API's problem codes in the
// app's words (by code, else by HTTP status), the app's own codes by their message.
import type { CommandError } from '../ipc';
import { describeProblem, type Lang } from './problems';

const appCodes: Record<Lang, Record<string, string>> = {
  en: {
    service_unreachable: 'The service cannot be reached. Check the address and the network.',
    invalid_base_url: 'This address cannot be used. Check it.',
    demo_failed: 'The demo could not start.',
    key_storage_failed: 'The key could not be kept on this computer.',
  },
  fr: {
    service_unreachable: "Le service est injoignable. Vérifiez l'adresse et le réseau.",
    invalid_base_url: 'Cette adresse ne peut pas servir. Vérifiez-la.',
    demo_failed: "La démo n'a pas pu démarrer.",
    key_storage_failed: "La clé n'a pas pu être conservée sur cet ordinateur.",
  },
};

/** The sentence to show for a failed command. */
export function describeError(error: CommandError, lang: Lang): string {
  if (error.status !== null) return describeProblem(error.code, error.status, lang);
  return appCodes[lang][error.code] ?? error.message;
}
