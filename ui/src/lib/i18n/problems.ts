// What each problem code of the API means for a cashier, in words, in each language the
// app speaks. The UI branches on the code, never on the service's title or detail.
// Codes the app does not know yet are explained by their HTTP status, as the API asks.

import type { ProblemCode, RefusalView } from '../ipc';

export type Lang = 'en' | 'fr';

// Every code this version knows has its words (the compiler checks the tables).
type Catalogue = Record<ProblemCode, string>;

const en: Catalogue = {
  authentication_required: 'The app sent no API key. Connect again with your key.',
  invalid_api_key: 'This API key is not known. Check that it was copied whole.',
  api_key_revoked: 'This API key was revoked. Ask the owner for a new key.',
  api_key_expired: 'This API key has expired. Ask the owner for a new key.',
  test_key_not_supported: 'A test key cannot be used here. Use a live key.',
  not_supported_yet: 'This kind of sign-in is not supported yet. Use an API key.',
  plan_required: 'The account needs the Enterprise plan to use the app. The key will work again after an upgrade.',
  key_mode_mismatch: 'This key belongs to the other place: a test key works only on the sandbox, a live key only on the live service.',
  insufficient_scope: 'This key may not do that. Ask the owner for a key with more access.',
  forbidden: 'This key may not do that for this business.',
  not_found: 'Not found. It may have been deleted, or belong to another business.',
  invalid_cursor: 'The list changed while it was being read. Open it again.',
  invalid_parameter: 'The app asked for something the service does not accept. Try again.',
  validation_failed: 'Some details were refused. Check what you typed.',
  idempotency_key_required: 'The app sent a write without its safety key. Nothing was recorded.',
  idempotency_key_reused: 'This write clashes with an earlier one. Nothing was recorded.',
  idempotency_in_progress: 'The same write is still being recorded. The app will try again.',
  customer_exists: 'This email is already enrolled on this card. The existing customer opens instead.',
  customer_limit_reached: "The plan's customer allowance is used up. Nobody was enrolled.",
  card_not_active: 'This card is no longer active: it was deleted or replaced.',
  insufficient_balance: 'There is not enough on the card for this.',
  no_reward_available: 'There is no reward ready on this card yet.',
  scan_refused: "The card's rules refuse this action.",
  currency_mismatch: "The amount is not in the card's currency. Nothing was taken.",
  gift_card_not_claimed: 'The recipient has not opened this gift card yet, so it cannot be used.',
  gift_card_cancelled: 'This gift card was cancelled and cannot be used.',
  gift_card_depleted: 'This gift card is used up: its balance is 0.',
  pass_required: 'The business needs a loyalty card design before it can issue gift cards.',
  broadcast_not_in_plan: 'The plan includes no messages this month.',
  broadcast_quota_reached: "This month's messages are all used.",
  confirmation_token_invalid: 'This message preview is not valid. Preview it again.',
  confirmation_token_expired: 'The preview is more than 10 minutes old. Preview it again.',
  confirmation_token_used: 'This message was already sent.',
  confirmation_payload_changed: 'The message changed since the preview. Preview it again.',
  confirmation_audience_changed: 'More customers would now receive it than previewed. Preview it again.',
  confirmation_principal_mismatch: 'This preview was made with another key. Preview it again.',
  confirmation_business_mismatch: 'This preview belongs to another business. Preview it again.',
  recent_visit: 'This card already had a visit less than 15 minutes ago.',
  broadcast_already_sent: 'This message has already gone out and cannot be cancelled.',
  rate_limited: 'Too many requests at once. The app will try again shortly.',
  rate_limiter_unavailable: 'The service is busy. The app will try again shortly.',
  service_unavailable: 'The service is not answering right now. The app will try again shortly.',
  internal_error: 'The service had a problem. Quote the request id if it happens again.',
};

const fr: Catalogue = {
  authentication_required: "L'application n'a pas envoyé de clé d'API. Reconnectez-vous avec votre clé.",
  invalid_api_key: "Cette clé d'API est inconnue. Vérifiez qu'elle a été copiée en entier.",
  api_key_revoked: 'Cette clé a été révoquée. Demandez une nouvelle clé au responsable.',
  api_key_expired: 'Cette clé a expiré. Demandez une nouvelle clé au responsable.',
  test_key_not_supported: 'Une clé de test ne peut pas servir ici. Utilisez une clé réelle.',
  not_supported_yet: "Ce mode de connexion n'est pas encore pris en charge. Utilisez une clé d'API.",
  plan_required: "Le compte doit avoir l'offre Enterprise pour utiliser l'application. La clé refonctionnera après le changement d'offre.",
  key_mode_mismatch: "Cette clé appartient à l'autre environnement : une clé de test ne marche que sur le bac à sable, une clé réelle que sur le service réel.",
  insufficient_scope: "Cette clé n'a pas le droit de faire cela. Demandez une clé avec plus d'accès.",
  forbidden: "Cette clé n'a pas le droit de faire cela pour ce commerce.",
  not_found: "Introuvable. L'élément a peut-être été supprimé ou appartient à un autre commerce.",
  invalid_cursor: 'La liste a changé pendant la lecture. Ouvrez-la de nouveau.',
  invalid_parameter: "L'application a demandé quelque chose que le service refuse. Réessayez.",
  validation_failed: 'Certaines informations ont été refusées. Vérifiez la saisie.',
  idempotency_key_required: "L'application a envoyé une écriture sans sa clé de sécurité. Rien n'a été enregistré.",
  idempotency_key_reused: "Cette écriture entre en conflit avec une précédente. Rien n'a été enregistré.",
  idempotency_in_progress: "La même écriture est encore en cours. L'application va réessayer.",
  customer_exists: 'Cet e-mail est déjà inscrit sur cette carte. La fiche du client existant s’ouvre.',
  customer_limit_reached: "Le nombre de clients de l'offre est atteint. Personne n'a été inscrit.",
  card_not_active: "Cette carte n'est plus active : elle a été supprimée ou remplacée.",
  insufficient_balance: "Il n'y a pas assez sur la carte pour cela.",
  no_reward_available: "Aucune récompense n'est encore disponible sur cette carte.",
  scan_refused: 'Les règles de la carte refusent cette action.',
  currency_mismatch: "Le montant n'est pas dans la devise de la carte. Rien n'a été débité.",
  gift_card_not_claimed: "Le bénéficiaire n'a pas encore ouvert cette carte cadeau : elle ne peut pas servir.",
  gift_card_cancelled: 'Cette carte cadeau a été annulée et ne peut plus servir.',
  gift_card_depleted: 'Cette carte cadeau est épuisée : son solde est de 0.',
  pass_required: "Le commerce doit avoir une carte de fidélité avant d'émettre des cartes cadeaux.",
  broadcast_not_in_plan: "L'offre ne comprend pas de messages ce mois-ci.",
  broadcast_quota_reached: 'Les messages de ce mois sont tous utilisés.',
  confirmation_token_invalid: "Cet aperçu de message n'est pas valable. Refaites l'aperçu.",
  confirmation_token_expired: "L'aperçu date de plus de 10 minutes. Refaites l'aperçu.",
  confirmation_token_used: 'Ce message a déjà été envoyé.',
  confirmation_payload_changed: "Le message a changé depuis l'aperçu. Refaites l'aperçu.",
  confirmation_audience_changed: "Plus de clients le recevraient que dans l'aperçu. Refaites l'aperçu.",
  confirmation_principal_mismatch: "Cet aperçu a été fait avec une autre clé. Refaites l'aperçu.",
  confirmation_business_mismatch: "Cet aperçu appartient à un autre commerce. Refaites l'aperçu.",
  recent_visit: 'Cette carte a déjà eu une visite il y a moins de 15 minutes.',
  broadcast_already_sent: 'Ce message est déjà parti et ne peut plus être annulé.',
  rate_limited: "Trop de demandes à la fois. L'application va réessayer dans un instant.",
  rate_limiter_unavailable: "Le service est occupé. L'application va réessayer dans un instant.",
  service_unavailable: "Le service ne répond pas pour le moment. L'application va réessayer dans un instant.",
  internal_error: "Le service a eu un problème. Indiquez l'identifiant de la requête si cela se reproduit.",
};

/** Messages by HTTP status, for codes this version of the app does not know. */
const byStatus: Record<Lang, Record<number, string> & { other: string }> = {
  en: {
    400: 'The service refused the request. Try again.',
    401: 'The API key was refused. Connect again.',
    403: 'This key may not do that.',
    404: 'Not found.',
    409: 'This cannot be done in the current state. Nothing was recorded.',
    410: 'This has expired. Start again.',
    422: 'Some details were refused. Check what you typed.',
    429: 'Too many requests at once. The app will try again shortly.',
    500: 'The service had a problem. Quote the request id if it happens again.',
    503: 'The service is not answering right now. The app will try again shortly.',
    other: 'The service refused this. See the details.',
  },
  fr: {
    400: 'Le service a refusé la demande. Réessayez.',
    401: "La clé d'API a été refusée. Reconnectez-vous.",
    403: "Cette clé n'a pas le droit de faire cela.",
    404: 'Introuvable.',
    409: "Impossible dans l'état actuel. Rien n'a été enregistré.",
    410: 'Ceci a expiré. Recommencez.',
    422: 'Certaines informations ont été refusées. Vérifiez la saisie.',
    429: "Trop de demandes à la fois. L'application va réessayer dans un instant.",
    500: "Le service a eu un problème. Indiquez l'identifiant de la requête si cela se reproduit.",
    503: "Le service ne répond pas pour le moment. L'application va réessayer dans un instant.",
    other: 'Le service a refusé cela. Voir les détails.',
  },
};

const catalogues: Record<Lang, Catalogue> = { en, fr };

/** The codes each language explains, for the test that checks none is missing. */
export function knownCodes(lang: Lang): string[] {
  return Object.keys(catalogues[lang]);
}

/** A cashier's sentence for a problem: by its code, else by its HTTP status. */
export function describeProblem(code: string, status: number, lang: Lang): string {
  const known = (catalogues[lang] as Record<string, string | undefined>)[code];
  if (known !== undefined) return known;
  const fallback = byStatus[lang];
  return fallback[status] ?? fallback[Math.floor(status / 100) * 100] ?? fallback.other;
}

/** A refusal of a write, in words: by its code, else by the HTTP status it carries. */
export function describeRefusal(refusal: RefusalView, lang: Lang): string {
  return describeProblem(refusal.given_code, refusal.status ?? 0, lang);
}

/** The app's language from the system's (`navigator.language`), English otherwise. */
export function systemLang(language: string | undefined): Lang {
  return language?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}
