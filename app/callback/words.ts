/**
 * The callback request's French messages (issue 23, item 1), kept apart
 * from its zod schema so that the pages can show them without loading zod.
 * The half-days a person may be called: app/contact/half-days.ts.
 */

/** What the callback form says to the visitor. */
export const callbackMessages = {
  halfDays: "Cochez au moins une demi-journée qui vous convient",
  saveError: "Votre demande n’a pas pu être enregistrée. Veuillez réessayer dans un instant, ou appelez-moi.",
  tooLarge: "Le message envoyé est trop long. Veuillez le raccourcir et réessayer.",
  rateLimited:
    "Vous avez envoyé plusieurs demandes en peu de temps. Veuillez patienter quelques minutes avant de réessayer, ou appelez-moi directement.",
  successTitle: "C’est noté, je vous rappelle",
  successText: "Je vous appelle dans les deux jours ouvrables, à l’un des moments que vous avez choisis.",
} as const;
