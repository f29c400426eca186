/**
 * The course registration form: one zod schema for the browser (Conform)
 * and the server (the `/cours/{slug}` action), with French messages beside
 * the fields. The person's fields follow the contact form's rules
 * (`personFields`, app/contact/schema.ts). Required: the session, first
 * name, last name, telephone, 1 or 2 seats; optional: e-mail and message.
 * Under "J'inscris un proche" (a disclosure that works without JavaScript),
 * the registrant's own fields: once any is filled, first name, last name
 * and telephone are required (e-mail optional), and the mails go to both.
 * How the person pays (`paysBy`: `sur-place` or `facture`) and, by invoice,
 * the postal address (street and number, Swiss NPA of 4 digits, locality):
 * the schema requires the address once « Sur facture » is chosen; what the
 * chosen date allows (its `payment`) is checked by `paymentOf`, under the
 * session's lock in `registerForSession`.
 */
import { z } from "zod";
import { personFields } from "~/contact/schema";
import type { PaymentMode, PaysBy } from "~/content/payment";

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
  paysBy: "Choisissez comment vous payez : sur place ou sur facture",
  invoiceOnly: "Cette date se paie sur facture : choisissez « Sur facture » et indiquez votre adresse postale.",
  postalStreet: "Indiquez la rue et le numéro, où j’envoie la facture",
  postalCode: "Indiquez le NPA, où j’envoie la facture",
  postalCodeFormat: "Le NPA a 4 chiffres, par exemple 1800",
  postalLocality: "Indiquez la localité, où j’envoie la facture",
  postalTooLong: "Au plus 70 caractères",
  localityTooLong: "Au plus 35 caractères",
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
    // The checkbox « J’accepte de recevoir un rappel par SMS » (decision 051): sent as "on" when ticked.
    smsConsent: z.literal("on").optional(),
    seats: z.enum(["1", "2"], { message: bookingMessages.seats }).default("1"),
    bookerFirstName: personFields.firstName.optional(),
    bookerLastName: personFields.lastName.optional(),
    bookerPhone: personFields.phone.optional(),
    bookerEmail: optionalEmail,
    message: personFields.message,
    paysBy: z.enum(["sur-place", "facture"], { message: bookingMessages.paysBy }).optional(),
    // The QR-bill's limits (app/invoices/form.server.ts): every address given here prints on its invoice.
    postalStreet: z.string().trim().max(70, bookingMessages.postalTooLong).optional(),
    postalCode: z
      .string()
      .trim()
      .regex(/^\d{4}$/, bookingMessages.postalCodeFormat)
      .optional(),
    postalLocality: z.string().trim().max(35, bookingMessages.localityTooLong).optional(),
  })
  .superRefine(
    (value, ctx) => {
      if (value.paysBy === "facture") {
        for (const [field, message] of missingAddress(value)) ctx.addIssue({ code: "custom", path: [field], message });
      }
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

/** The fields of the postal address, with their message when empty. */
const ADDRESS_FIELDS = [
  ["postalStreet", bookingMessages.postalStreet],
  ["postalCode", bookingMessages.postalCode],
  ["postalLocality", bookingMessages.postalLocality],
] as const;

type AddressField = (typeof ADDRESS_FIELDS)[number][0];

/** The address fields left empty, each with its French message. */
function missingAddress(value: Partial<Record<AddressField, string>>): [AddressField, string][] {
  return ADDRESS_FIELDS.filter(([field]) => !value[field]).map(([field, message]) => [field, message]);
}

/** How a registration pays, as stored: the way, and the postal address (null unless « sur facture »). */
export interface RegistrationPayment {
  paysBy: PaysBy;
  postalStreet: string | null;
  postalCode: string | null;
  postalLocality: string | null;
}

/**
 * How a valid booking pays for a date paid `mode` (the session's `payment`):
 * a date paid on site ignores the choice and the address; a date paid by
 * invoice requires « Sur facture » (the form posts it, hidden) and the
 * address; a date « au choix » requires the choice. Otherwise the French
 * messages by field, shown beside them.
 */
export function paymentOf(
  mode: PaymentMode,
  input: Pick<BookingInput, "paysBy" | AddressField>,
): { ok: true; payment: RegistrationPayment } | { ok: false; errors: Record<string, string[]> } {
  if (mode === "sur-place") {
    return { ok: true, payment: { paysBy: "sur-place", postalStreet: null, postalCode: null, postalLocality: null } };
  }
  const paysBy = input.paysBy ?? (mode === "facture" ? "facture" : undefined);
  if (paysBy === undefined) return { ok: false, errors: { paysBy: [bookingMessages.paysBy] } };
  if (mode === "facture" && paysBy === "sur-place")
    return { ok: false, errors: { paysBy: [bookingMessages.invoiceOnly] } };
  if (paysBy === "sur-place") {
    return { ok: true, payment: { paysBy, postalStreet: null, postalCode: null, postalLocality: null } };
  }
  const missing = missingAddress(input);
  if (missing.length) return { ok: false, errors: Object.fromEntries(missing.map(([field, text]) => [field, [text]])) };
  return {
    ok: true,
    payment: {
      paysBy,
      postalStreet: input.postalStreet!,
      postalCode: input.postalCode!,
      postalLocality: input.postalLocality!,
    },
  };
}

/**
 * The desk's « Rappels par SMS » of one registration (decision 060): its id,
 * and the checkbox, sent as "on" when ticked, absent when unticked.
 */
export const smsConsentSchema = z.object({
  registration: z.coerce.number().int().positive(),
  smsConsent: z.literal("on").optional(),
});
