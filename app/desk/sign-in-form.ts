/**
 * The sign-in forms' fields, limits and French messages (the page and its
 * action share them): the password step, the code step, and the combined
 * step (e-mail, password and code at once, asked while the account is over
 * its allowance of failed passwords).
 */
import { z } from "zod";

/** The hidden field bots fill (the public actions' honeypot). */
export const SIGN_IN_HONEYPOT = "website";

/** Largest sign-in body read, in bytes: an e-mail (254), a password (256), a code, percent-encoded. */
export const SIGN_IN_BODY_LIMIT_BYTES = 8 * 1024;

export const signInMessages = {
  email: "Saisissez votre adresse e-mail.",
  password: "Saisissez votre mot de passe.",
  code: "Saisissez le code à 6 chiffres de votre application, ou un code de secours.",
  refused: "L’adresse e-mail ou le mot de passe ne correspond pas. Vérifiez-les et réessayez.",
  codeRefused:
    "Ce code ne convient pas. Saisissez le code affiché maintenant par votre application (il change toutes les 30 secondes), ou un code de secours.",
  replayed: "Ce code a déjà servi. Attendez le code suivant de votre application, puis saisissez-le.",
  expired: "La connexion a pris trop de temps. Saisissez à nouveau votre adresse e-mail et votre mot de passe.",
  limited: "Trop de tentatives. Pour protéger le bureau, attendez 15 minutes avant de réessayer.",
  codeRequired:
    "Par sécurité, après plusieurs essais infructueux sur ce compte, saisissez aussi le code de votre application d’authentification.",
  combinedRefused:
    "L’adresse e-mail, le mot de passe ou le code ne correspond pas. Vérifiez-les et réessayez avec le code que votre application affiche maintenant.",
  tooLarge: "Le formulaire envoyé est trop long.",
  unavailable: "Le bureau ne répond pas pour l’instant. Réessayez dans quelques minutes.",
} as const;

export const passwordStepSchema = z.object({
  email: z.string({ message: signInMessages.email }).trim().min(3, signInMessages.email).max(254, signInMessages.email),
  password: z
    .string({ message: signInMessages.password })
    .min(1, signInMessages.password)
    .max(256, signInMessages.refused),
});

export const codeStepSchema = z.object({
  code: z.string({ message: signInMessages.code }).trim().min(6, signInMessages.code).max(32, signInMessages.code),
});

/** The combined step: the two schemas' fields together. */
export const combinedStepSchema = passwordStepSchema.extend(codeStepSchema.shape);

/** The steps of the form (its hidden field `step`). */
export type SignInStep = "password" | "code" | "combined";

/** What the sign-in action answers when it does not redirect. */
export interface SignInActionData {
  step: SignInStep;
  /** A message for the whole form. */
  error?: string;
  /** The e-mail typed, shown again in the combined step. */
  email?: string;
  /** Messages beside fields. */
  fieldErrors?: Partial<Record<"email" | "password" | "code", string>>;
}
