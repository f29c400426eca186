/**
 * The contact form's French texts (spec sections 5 and 8), kept apart from
 * the zod schema so that pages can show them without loading zod.
 */

/** Spec section 5 and section 8 texts, shown to the visitor. */
export const contactMessages = {
  firstName: "Le prénom doit contenir au moins 2 caractères",
  lastName: "Le nom doit contenir au moins 2 caractères",
  email: "Veuillez entrer une adresse email valide",
  phone: "Veuillez entrer un numéro de téléphone valide",
  service: "Veuillez sélectionner un service",
  organisation: "Indiquez le nom de votre association, club ou organisation",
  commune: "Indiquez la commune où aurait lieu la rencontre",
  groupSize:
    "Indiquez le nombre de personnes, en chiffres, entre 2 et 300 (pour un groupe plus grand, dites-le dans le message)",
  saveError: "Une erreur s'est produite lors de l'envoi du message. Veuillez réessayer.",
  successTitle: "Félicitations !",
  successText: "Votre message a été envoyé avec succès. Je vous recontacterai très prochainement.",
  tooLarge: "Le message envoyé est trop long. Veuillez le raccourcir et réessayer.",
  mimeSyntax: "Ce champ ne peut pas contenir la suite de signes « =? »",
  rateLimited:
    "Vous avez envoyé plusieurs messages en peu de temps. Veuillez patienter quelques minutes avant de réessayer, ou appelez-moi directement.",
} as const;
