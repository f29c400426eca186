/**
 * The course registration form: one zod schema for the browser (Conform)
 * and the server (the `/cours/{slug}` action), with French messages beside
 * the fields. The person's fields follow the contact form's rules
 * (`personFields`, app/contact/schema.ts). Required: the session, first
 * name, last name, telephone, 1 or 2 seats; optional: e-mail and message.
 * Under "J'inscris un proche" (a disclosure that works without JavaScript),
 * the registrant's own fields: once any is filled, first name, last name
 * and telephone are required (e-mail optional), and the mails go to both.
 */
import { z } from "zod";
import { personFields } from "~/contact/schema";

/** French texts of the registration form and its answers. */
export const bookingMessages = {
  session: "Veuillez choisir une séance",
  seats: "Choisissez 1 ou 2 places",
  lastSeat:
    "Il ne reste qu’une place pour cette séance. Inscrivez une seule personne, ou appelez-moi pour trouver une autre date.",
  closed: "Cette séance n’accepte plus d’inscriptions. Choisissez une autre date.",
  alreadyRegistered:
    "Une inscription à cette séance existe déjà avec ce numéro de téléphone. Pour la changer, ouvrez le lien reçu avec sa confirmation (par e-mail, ou sur la page affichée après l’inscription) : il permet de l’annuler, puis de vous inscrire à nouveau. Sans ce lien, ou pour inscrire une autre personne avec ce numéro, appelez-moi.",
  alreadyRegisteredSeries:
    "Une inscription à cette série de séances existe déjà avec ce numéro de téléphone. Pour la changer, ouvrez le lien reçu avec sa confirmation (par e-mail, ou sur la page affichée après l’inscription) : il permet de l’annuler, puis de vous inscrire à nouveau. Sans ce lien, ou pour inscrire une autre personne avec ce numéro, appelez-moi.",
  addressLimit:
    "Plusieurs places ont déjà été réservées aujourd’hui depuis cette connexion : c’est la limite de l’inscription en ligne. Pour inscrire d’autres personnes, appelez-moi, je les inscris volontiers par téléphone.",
  saveError: "L’inscription n’a pas pu être enregistrée. Veuillez réessayer dans un instant, ou appelez-moi.",
  tooLarge: "Le formulaire envoyé est trop long. Veuillez raccourcir le message et réessayer.",
  rateLimited:
    "Vous avez envoyé plusieurs inscriptions en peu de temps. Veuillez patienter quelques minutes avant de réessayer, ou appelez-moi directement.",
} as const;

/** Name of the registration form's honeypot field (hidden from people; a bot that fills it is spam). */
export const BOOKING_HONEYPOT_FIELD = "website";

/** Largest body the registration action reads, in bytes (the longest valid form fits). */
export const BOOKING_BODY_LIMIT_BYTES = 64 * 1024;

const optionalEmail = personFields.email.optional();

export const bookingSchema = z
  .object({
    sessionId: z.coerce.number({ message: bookingMessages.session }).int().positive(bookingMessages.session),
    firstName: personFields.firstName,
    lastName: personFields.lastName,
    phone: personFields.phone,
    email: optionalEmail,
    seats: z.enum(["1", "2"], { message: bookingMessages.seats }).default("1"),
    bookerFirstName: personFields.firstName.optional(),
    bookerLastName: personFields.lastName.optional(),
    bookerPhone: personFields.phone.optional(),
    bookerEmail: optionalEmail,
    message: personFields.message,
  })
  .superRefine(
    (value, ctx) => {
      if (!registersRelative(value)) return;
      const required = [
        ["bookerFirstName", "Indiquez votre prénom"],
        ["bookerLastName", "Indiquez votre nom"],
        ["bookerPhone", "Indiquez votre numéro de téléphone"],
      ] as const;
      for (const [field, message] of required) {
        if (!value[field]) ctx.addIssue({ code: "custom", path: [field], message });
      }
    },
    // Also when other fields are wrong: every message shows at the first submission.
    { when: () => true },
  );

/** A valid registration, as the action passes it to `registerForSession`. */
export type BookingInput = z.output<typeof bookingSchema>;

/** Whether a registration is made by someone else for the attendee: any of the registrant's own fields is filled. */
export function registersRelative(value: {
  bookerFirstName?: string;
  bookerLastName?: string;
  bookerPhone?: string;
  bookerEmail?: string;
}): boolean {
  return Boolean(value.bookerFirstName || value.bookerLastName || value.bookerPhone || value.bookerEmail);
}
