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

/**
 * The services a visitor can ask about, with their French labels: the spec's
 * three (section 3 "Service choices") and, for associations and clubs, a
 * talk or workshop for their group (issue 24, item 10; decision 021), which
 * asks for the organisation, the commune and the group's size.
 */
export const serviceChoices = [
  { value: "small-group", label: "Cours en petit groupe" },
  { value: "one-to-one-course", label: "Cours individuel" },
  { value: "one-to-one-support", label: "Support individuel" },
  { value: "group-talk", label: "Conférence ou atelier pour un groupe" },
] as const;

/** The service that asks for the group's details (`organisation`, `commune`, `groupSize`). */
export const GROUP_SERVICE = "group-talk";

/** The group sizes a request may give (people, bounds included): a larger group says so in its message. */
export const GROUP_SIZE = { min: 2, max: 300 } as const;

export type ServiceValue = (typeof serviceChoices)[number]["value"];

/**
 * The group's details as labelled rows (organisation, commune, number of
 * people), for a request that has them; none for the other services. Shared
 * by the owner's notification and the desk's request page.
 */
export function groupRows(request: {
  organisation?: string | null;
  commune?: string | null;
  groupSize?: number | null;
}): [string, string][] {
  if (request.organisation == null && request.commune == null && request.groupSize == null) return [];
  return [
    ["Organisation", request.organisation ?? ""],
    ["Commune", request.commune ?? ""],
    ["Nombre de personnes", request.groupSize == null ? "" : String(request.groupSize)],
  ];
}

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

/**
 * The group's details, checked only when the service is `GROUP_SERVICE`:
 * organisation 2 to 150 characters, commune 2 to 100, group size a whole
 * number of people from `GROUP_SIZE.min` to `GROUP_SIZE.max` (written in
 * digits; spaces around are ignored).
 */
const groupFields = {
  organisation: singleLine(
    contactMessages.organisation,
    150,
    "Le nom de l’organisation doit contenir au plus 150 caractères",
  ),
  commune: singleLine(contactMessages.commune, 100, "Le nom de la commune doit contenir au plus 100 caractères"),
  groupSize: z
    .string({ message: contactMessages.groupSize })
    .trim()
    .regex(/^[0-9]{1,6}$/, contactMessages.groupSize)
    .transform(Number)
    .pipe(
      z.number().int().min(GROUP_SIZE.min, contactMessages.groupSize).max(GROUP_SIZE.max, contactMessages.groupSize),
    ),
} as const;

type GroupField = keyof typeof groupFields;
const GROUP_FIELD_NAMES = Object.keys(groupFields) as GroupField[];

/** The group's details of a valid request: all three for `GROUP_SERVICE`, none for the others. */
export interface GroupDetails {
  organisation?: string;
  commune?: string;
  groupSize?: number;
}

const contactObject = z.object({
  firstName: personFields.firstName,
  lastName: personFields.lastName,
  email: personFields.email,
  phone: personFields.phone,
  service: z.enum(serviceChoices.map((choice) => choice.value) as [ServiceValue, ...ServiceValue[]], {
    message: contactMessages.service,
  }),
  // Read as they came: checked below, and only for a group (without JavaScript the fields are always shown).
  organisation: z.string().optional(),
  commune: z.string().optional(),
  groupSize: z.string().optional(),
  message: personFields.message,
  newsletterConsent: z.boolean().default(false),
});

/**
 * The contact request: the object above, and the group's details checked
 * when the service is `GROUP_SERVICE` (with the other fields' errors, all at
 * once). No transform at the root (Conform reads the fields' constraints
 * from the object): `groupDetails` gives the checked values.
 */
export const contactSchema = contactObject.superRefine(
  (value, ctx) => {
    if (value?.service !== GROUP_SERVICE) return;
    for (const name of GROUP_FIELD_NAMES) {
      const checked = groupFields[name].safeParse(value[name]);
      if (!checked.success) ctx.addIssue({ code: "custom", path: [name], message: checked.error.issues[0]!.message });
    }
  },
  // Also when another field is missing: every error of the form shows at once.
  { when: () => true },
);

/** A valid contact request, as the action receives it (the group's fields as typed: see `groupDetails`). */
export type ContactRequest = z.output<typeof contactSchema>;

/**
 * The group's details of a valid request, trimmed, the size as a number:
 * all three for `GROUP_SERVICE`, none for the other services (whatever
 * was typed in their fields without JavaScript).
 */
export function groupDetails(request: ContactRequest): GroupDetails {
  if (request.service !== GROUP_SERVICE) return {};
  return {
    organisation: groupFields.organisation.parse(request.organisation),
    commune: groupFields.commune.parse(request.commune),
    groupSize: groupFields.groupSize.parse(request.groupSize),
  };
}

/**
 * Largest body the contact action reads, in bytes: the longest valid form
 * (5,000 characters of message, each up to 12 bytes once percent-encoded as
 * UTF-8) fits within it.
 */
export const CONTACT_BODY_LIMIT_BYTES = 64 * 1024;

/** Name of the honeypot field: hidden from people and assistive technology; a bot that fills it is spam. */
export const HONEYPOT_FIELD = "website";
