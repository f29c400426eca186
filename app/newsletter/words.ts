/**
 * The newsletter's words a visitor reads (browser-safe): the consent text
 * and its version (stored with each subscriber, so that the consent given
 * can be shown later), the answers of the subscription form, and the
 * messages of the confirmation and unsubscription pages.
 */

/** Changes whenever `consentText` changes (a subscriber keeps the version they saw). */
export const CONSENT_VERSION = "2026-11-24";

export const consentText =
  "En vous abonnant, vous acceptez de recevoir une lettre par mois (conseils pratiques et mises en garde contre les arnaques). Chaque lettre contient un lien pour vous désabonner en un clic.";

export const newsletterMessages = {
  email: "Saisissez une adresse e-mail valide, par exemple prenom.nom@exemple.ch.",
  received:
    "Merci\u202f! Pour confirmer votre abonnement, ouvrez l’e-mail que je viens de vous envoyer et cliquez sur le lien qu’il contient. Sans confirmation, rien ne vous sera envoyé.",
  rateLimited: "Vous avez fait beaucoup de demandes en peu de temps. Merci de réessayer dans quelques minutes.",
  saveError: "Votre demande n’a pas pu être enregistrée. Merci de réessayer dans un instant.",
  tooLarge: "Le formulaire envoyé est trop long.",
} as const;

/** A number of subscribers, as the desk writes it: "0 abonné", "1 abonné", "2 abonnés". */
export const subscriberCount = (count: number) => `${count} abonné${count > 1 ? "s" : ""}`;

/** A subscriber's state, as the desk names it. */
export const subscriberStates: Readonly<Record<string, string>> = {
  pending: "En attente de confirmation",
  confirmed: "Confirmé",
  unsubscribed: "Désabonné",
};

/** Where a subscription was asked (`SUBSCRIPTION_SOURCES`), after "depuis" in the desk. */
export const subscriptionSources: Readonly<Record<string, string>> = {
  home: "la page d’accueil",
  blog: "le blog",
  article: "un article du blog",
  newsletter: "la page « Lettre d’information »",
  contact: "le formulaire de contact",
};
