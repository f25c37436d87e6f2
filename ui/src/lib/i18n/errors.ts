// Turns an error from a command into what a person reads: the API's problem codes in the
// app's words (by code, else by HTTP status), the app's own codes in the app's words too.
// The English message from Rust is never the sentence; it waits in the details.
import type { CommandError } from '../ipc';
import { describeProblem, type Lang } from './problems';

const appCodes: Record<Lang, Record<string, string>> = {
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
    invalid_action: 'The counter does not know this action.',
    offline_payment_refused: 'This payment cannot be taken while the service is unreachable, under this till’s rules.',
    gift_card_unknown: 'This gift card is not known to this till, and the service cannot be reached to look it up.',
    no_such_item: 'This write is no longer in the queue.',
    not_allowed: 'This cannot be done to this write now.',
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
    invalid_action: 'Le comptoir ne connaît pas cette action.',
    offline_payment_refused: 'Ce paiement ne peut pas être encaissé tant que le service est injoignable, selon les règles de cette caisse.',
    gift_card_unknown: 'Cette carte cadeau est inconnue de cette caisse, et le service est injoignable pour la chercher.',
    no_such_item: 'Cette opération n’est plus dans la file d’attente.',
    not_allowed: 'Ce n’est pas possible pour cette opération maintenant.',
  },
};

const fallback: Record<Lang, string> = {
  en: 'Something went wrong. The details say more.',
  fr: 'Un problème est survenu. Les détails en disent plus.',
};

/** The sentence to show for a failed command. */
export function describeError(error: CommandError, lang: Lang): string {
  if (error.status !== null) return describeProblem(error.code, error.status, lang);
  return appCodes[lang][error.code] ?? fallback[lang];
}
