/**
 * The contact request form: one zod schema for the browser (Conform) and the
 * server (the `/contact` action). Rules and French messages of spec section
 * 5, plus upper bounds: names 100, e-mail 254 (RFC 5321 path limit),
 * phone 30, message 5,000 characters; phone digits, spaces and + ( ) - .
 * only; no control characters (line breaks allowed in the message only); no
 * "=?" in names (RFC 2047 encoded words would be decoded in mail headers).
 */
import { z } from "zod";
import { contactMessages } from "./messages";

// No compiled validators: zod's fast path probes `new Function`, which the site's
// Content-Security-Policy forbids (the probe fails safely but is reported as a violation).
z.config({ jitless: true });

/** The three services a visitor can ask about (spec section 3 "Service choices"), with their French labels. */
export const serviceChoices = [
  { value: "small-group", label: "Cours en petit groupe" },
  { value: "one-to-one-course", label: "Cours individuel" },
  { value: "one-to-one-support", label: "Support individuel" },
] as const;

export type ServiceValue = (typeof serviceChoices)[number]["value"];

/** French label of a service value. */
export function serviceLabel(value: ServiceValue): string {
  return serviceChoices.find((choice) => choice.value === value)!.label;
}

export { contactMessages };

// Any C0 control character, DEL or C1 control; the message may keep \t, \n and \r.
const CONTROL = /\p{Cc}/u;
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

// The start of an RFC 2047 encoded word ("=?utf-8?B?...?="): in a mail header (the owner's
// notification shows the name in its Subject and Reply-To) a mail client would decode it.
const ENCODED_WORD_START = "=?";

const singleLine = (message: string, max: number, maxMessage: string) =>
  z
    .string({ message })
    .trim()
    .min(2, message)
    .max(max, maxMessage)
    .refine((value) => !CONTROL.test(value), "Ce champ contient des caractères non autorisés")
    .refine((value) => !value.includes(ENCODED_WORD_START), contactMessages.mimeSyntax);

/**
 * The rules of a person's fields, shared by every public form that asks for
 * them (the contact form, course registrations): names 2 to 100 characters,
 * e-mail (RFC 5321 length), telephone (at least 10 characters: digits,
 * spaces, + ( ) - .), an optional message of up to 5,000 characters.
 */
export const personFields = {
  firstName: singleLine(contactMessages.firstName, 100, "Le prénom doit contenir au plus 100 caractères"),
  lastName: singleLine(contactMessages.lastName, 100, "Le nom doit contenir au plus 100 caractères"),
  email: z
    .string({ message: contactMessages.email })
    .trim()
    .max(254, "L’adresse email doit contenir au plus 254 caractères")
    .email(contactMessages.email),
  phone: z
    .string({ message: contactMessages.phone })
    .trim()
    .min(10, contactMessages.phone)
    .max(30, "Le numéro de téléphone doit contenir au plus 30 caractères")
    .regex(/^[0-9 +().-]+$/, "Le numéro ne peut contenir que des chiffres, des espaces et les signes + ( ) - ."),
  message: z
    .string()
    .trim()
    .max(5000, "Le message doit contenir au plus 5000 caractères")
    .refine((value) => !CONTROL_EXCEPT_LINE_BREAKS.test(value), "Le message contient des caractères non autorisés")
    .optional(),
};

export const contactSchema = z.object({
  firstName: personFields.firstName,
  lastName: personFields.lastName,
  email: personFields.email,
  phone: personFields.phone,
  service: z.enum(serviceChoices.map((choice) => choice.value) as [ServiceValue, ...ServiceValue[]], {
    message: contactMessages.service,
  }),
  message: personFields.message,
  newsletterConsent: z.boolean().default(false),
});

/** A valid contact request, as the action stores it. */
export type ContactRequest = z.output<typeof contactSchema>;

/**
 * Largest body the contact action reads, in bytes: the longest valid form
 * (5,000 characters of message, each up to 12 bytes once percent-encoded as
 * UTF-8) fits within it.
 */
export const CONTACT_BODY_LIMIT_BYTES = 64 * 1024;

/** Name of the honeypot field: hidden from people and assistive technology; a bot that fills it is spam. */
export const HONEYPOT_FIELD = "website";
