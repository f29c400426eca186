/**
 * The shapes of the owner's settings (Réglages, `/admin/reglages`, decision
 * 024), section by section, and how the desk's form fields become them.
 *
 * - `storedSchemas[section]`: the shape a section has in the database and in
 *   `app/content/` (whose values are the defaults: `app/settings/defaults.ts`,
 *   checked by `schema.test.ts`). Lenient on purpose (the shipped
 *   placeholders fit): it guards the shape, not the truth.
 * - `formSchemas[section]`: the desk's fields of a section (flat names,
 *   `SETTINGS_FIELDS`) → its stored shape, each mistake with its French
 *   message; stricter (a telephone must be a real number, a website https,
 *   a postcode four digits, a price in francs and 5-centime steps).
 */
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "zod";
import { isValidSwissIban, normalizeIban } from "~/utils/iban";
import {
  HOURS_ROWS,
  ZONE_CODES,
  PRICED_SERVICES,
  type SettingsSection,
  type IdentitySettings,
  type HoursSettings,
  type ZonesSettings,
  type PricesSettings,
  type LegalSettings,
  type PaymentSettings,
  type CoursesSettings,
  OFFER_HOLD_HOURS,
  GO_NO_GO_DAYS,
  CANCEL_DEADLINE_HOURS,
  type SiteSettings,
} from "~/content/shapes";
import { PROVIDERS } from "./fields";

export * from "~/content/shapes";

// The desk's form fields live beside this file; re-exported for the callers of `~/settings/schema`.
export { SETTINGS_FIELDS, type SettingsField } from "./fields";

/** The French messages of the settings' fields. */
export const settingsMessages = {
  required: "Ce champ est obligatoire.",
  tooLong: (max: number) => `${max} caractères au maximum.`,
  uid: "Un numéro IDE s’écrit CHE-123.456.789.",
  postalCode: "Un NPA suisse a quatre chiffres, par exemple 1003.",
  phone: "Ce numéro de téléphone n’est pas valable. Écrivez-le par exemple 021 555 12 34 ou +41 79 555 12 34.",
  email: "Cette adresse e-mail n’est pas valable. Elle s’écrit par exemple prenom.nom@exemple.ch.",
  time: "Écrivez une heure, par exemple 9:00.",
  timePair: "Indiquez l’ouverture et la fermeture, ou laissez les deux vides si c’est fermé.",
  timeOrder: "La fermeture doit venir après l’ouverture.",
  towns: "Indiquez au moins une localité (huit au maximum), séparées par des virgules.",
  price: "Écrivez un prix en francs, par exemple 55 ou 62.50.",
  priceRange: "Le prix doit être entre CHF 1.– et CHF 1000.–.",
  priceStep: "Le prix doit être un multiple de 5 centimes, par exemple 62.50 ou 62.55.",
  date: "Écrivez une date valable, par exemple 24.11.2026.",
  whole: (min: number, max: number) => `Écrivez un nombre entier entre ${min} et ${max}.`,
  website: "Écrivez l’adresse complète du site, commençant par https://",
  iban: "Cet IBAN n’est pas valable. Recopiez-le de votre relevé de compte : CH ou LI, puis 19 chiffres et lettres.",
} as const;

const m = settingsMessages;
const required = (max = 120) => z.string({ error: m.required }).trim().min(1, m.required).max(max, m.tooLong(max));
const optional = (max = 120) => z.string().trim().max(max, m.tooLong(max)).optional().default("");

/** A Swiss or international number → E.164 and its international spelling (« +41 21 555 12 34 »). */
function telephone() {
  return required(30).transform((value, context) => {
    const parsed = parsePhoneNumberFromString(value, "CH");
    if (!parsed?.isValid()) {
      context.addIssue({ code: "custom", message: m.phone });
      return z.NEVER;
    }
    return { e164: parsed.number as string, display: parsed.formatInternational() };
  });
}

/** "CHF 62.50", "62,50", "62.–", "62" → 62.5; francs from 1 to 1000 in 5-centime steps (Swiss cash rounding). */
function francs() {
  return required(20).transform((value, context) => {
    const cleaned = value
      .replace(/^CHF\s*/i, "")
      .replace(/\.[–-]$/, "")
      .replace(",", ".")
      .replace(/['’\s]/g, "");
    if (!/^\d{1,4}(\.\d{1,2})?$/.test(cleaned)) {
      context.addIssue({ code: "custom", message: m.price });
      return z.NEVER;
    }
    const amount = Number(cleaned);
    if (amount < 1 || amount > 1000) context.addIssue({ code: "custom", message: m.priceRange });
    else if (Math.round(amount * 100) % 5 !== 0) context.addIssue({ code: "custom", message: m.priceStep });
    return amount;
  });
}

/** A whole number between `min` and `max`, typed as text. */
const whole = (min: number, max: number) =>
  required(6)
    .regex(/^\d+$/, m.whole(min, max))
    .transform(Number)
    .refine((value) => value >= min && value <= max, m.whole(min, max));

const optionalTime = z
  .string()
  .trim()
  .optional()
  .default("")
  .refine((value) => value === "" || /^([01]?\d|2[0-3])[:h.][0-5]\d$/.test(value), m.time)
  .transform((value) => {
    if (value === "") return "";
    const [hours, minutes] = value.split(/[:h.]/) as [string, string];
    return `${hours.padStart(2, "0")}:${minutes}`;
  });

const website = required(200).refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".");
  } catch {
    return false;
  }
}, m.website);

const isoDate = required(10).refine(
  (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
  m.date,
);

/** Each section's form fields (names without the section prefix) → its stored shape. */
export const formSchemas = {
  identity: z
    .object({
      name: required(80),
      businessName: required(160),
      uid: optional(20).refine((value) => value === "" || /^CHE-\d{3}\.\d{3}\.\d{3}$/.test(value), m.uid),
      street: required(120),
      postalCode: required(4).regex(/^[1-9]\d{3}$/, m.postalCode),
      locality: required(80),
      phone: telephone(),
      email: required(120).pipe(z.email({ error: m.email })),
      whatsapp: telephone(),
    })
    .transform((form): IdentitySettings => ({
      name: form.name,
      businessName: form.businessName,
      uid: form.uid === "" ? null : form.uid,
      address: { street: form.street, postalCode: form.postalCode, locality: form.locality, country: "Suisse" },
      phone: form.phone.e164,
      phoneDisplay: form.phone.display,
      email: form.email,
      whatsapp: form.whatsapp.e164.slice(1),
      whatsappDisplay: form.whatsapp.display,
    })),
  hours: z
    .object(
      Object.fromEntries(
        HOURS_ROWS.flatMap((row) => [
          [`${row}Opens`, optionalTime],
          [`${row}Closes`, optionalTime],
        ]),
      ),
    )
    .superRefine((form, context) => {
      for (const row of HOURS_ROWS) {
        const opens = form[`${row}Opens`] as string;
        const closes = form[`${row}Closes`] as string;
        if ((opens === "") !== (closes === ""))
          context.addIssue({
            code: "custom",
            path: [opens === "" ? `${row}Opens` : `${row}Closes`],
            message: m.timePair,
          });
        else if (opens !== "" && closes <= opens)
          context.addIssue({ code: "custom", path: [`${row}Closes`], message: m.timeOrder });
      }
    })
    .transform(
      (form) =>
        Object.fromEntries(
          HOURS_ROWS.map((row) => {
            const opens = form[`${row}Opens`] as string;
            return [row, opens === "" ? null : { opens, closes: form[`${row}Closes`] as string }];
          }),
        ) as HoursSettings,
    ),
  zones: z
    .object(
      Object.fromEntries(
        ZONE_CODES.flatMap((code) => [
          [
            `${code}Towns`,
            required(400)
              .transform((value) =>
                value
                  .split(/[,;\n]/)
                  .map((town) => town.trim())
                  .filter(Boolean),
              )
              .refine((towns) => towns.length >= 1 && towns.length <= 8 && towns.every((t) => t.length <= 40), m.towns),
          ],
          [`${code}Coverage`, required(60)],
        ]),
      ),
    )
    .transform(
      (form) =>
        Object.fromEntries(
          ZONE_CODES.map((code) => [code, { towns: form[`${code}Towns`], coverage: form[`${code}Coverage`] }]),
        ) as ZonesSettings,
    ),
  prices: z
    .object(Object.fromEntries(PRICED_SERVICES.map((id) => [id, francs()])))
    .transform((form) => form as PricesSettings),
  legal: z
    .object({
      lastUpdated: isoDate,
      retentionMonths: whole(1, 120),
      sentNotificationDays: whole(1, 365),
      logRetentionDays: whole(1, 365),
      ...Object.fromEntries(
        Object.keys(PROVIDERS).flatMap((key) => [
          [`${key}Name`, required(120)],
          [`${key}Address`, required(200)],
          [`${key}Website`, website],
          [`${key}Country`, required(60)],
        ]),
      ),
    })
    .transform((form): LegalSettings => {
      const fields = form as Record<string, unknown>;
      const providerOf = (key: string) => ({
        name: fields[`${key}Name`] as string,
        address: fields[`${key}Address`] as string,
        website: fields[`${key}Website`] as string,
        country: fields[`${key}Country`] as string,
      });
      return {
        lastUpdated: form.lastUpdated,
        retentionMonths: form.retentionMonths,
        sentNotificationDays: form.sentNotificationDays,
        logRetentionDays: form.logRetentionDays,
        hosting: providerOf("hosting"),
        mailProvider: providerOf("mailProvider"),
      };
    }),
  payment: z
    .object({
      iban: optional(40)
        .transform((value) => (value === "" ? "" : normalizeIban(value)))
        .refine((value) => value === "" || isValidSwissIban(value), m.iban),
    })
    .transform((form): PaymentSettings => ({ iban: form.iban === "" ? null : form.iban })),
  courses: z
    .object({
      offerHoldHours: whole(OFFER_HOLD_HOURS.min, OFFER_HOLD_HOURS.max),
      goNoGoDays: whole(GO_NO_GO_DAYS.min, GO_NO_GO_DAYS.max),
      cancelDeadlineHours: whole(CANCEL_DEADLINE_HOURS.min, CANCEL_DEADLINE_HOURS.max),
    })
    .transform((form): CoursesSettings => form),
} satisfies Record<SettingsSection, z.ZodType>;

/**
 * The form's values (names without the section prefix) that show `section` as stored, the inverse of
 * `formSchemas[section]` (what the desk's fields show before any change).
 */
export function formValuesOf(section: SettingsSection, settings: SiteSettings): Record<string, string> {
  switch (section) {
    case "identity": {
      const { identity } = settings;
      return {
        name: identity.name,
        businessName: identity.businessName,
        uid: identity.uid ?? "",
        street: identity.address.street,
        postalCode: identity.address.postalCode,
        locality: identity.address.locality,
        phone: identity.phoneDisplay,
        email: identity.email,
        whatsapp: identity.whatsappDisplay,
      };
    }
    case "hours":
      return Object.fromEntries(
        HOURS_ROWS.flatMap((row) => [
          [`${row}Opens`, settings.hours[row]?.opens ?? ""],
          [`${row}Closes`, settings.hours[row]?.closes ?? ""],
        ]),
      );
    case "zones":
      return Object.fromEntries(
        ZONE_CODES.flatMap((code) => [
          [`${code}Towns`, settings.zones[code].towns.join(", ")],
          [`${code}Coverage`, settings.zones[code].coverage],
        ]),
      );
    case "prices":
      return Object.fromEntries(
        PRICED_SERVICES.map((id) => {
          const amount = settings.prices[id];
          return [id, Number.isInteger(amount) ? String(amount) : amount.toFixed(2)];
        }),
      );
    case "courses":
      return {
        offerHoldHours: String(settings.courses.offerHoldHours),
        goNoGoDays: String(settings.courses.goNoGoDays),
        cancelDeadlineHours: String(settings.courses.cancelDeadlineHours),
      };
    case "payment":
      return { iban: settings.payment.iban?.replace(/(.{4})(?=.)/g, "$1 ") ?? "" };
    case "legal": {
      const { legal } = settings;
      return {
        lastUpdated: legal.lastUpdated,
        retentionMonths: String(legal.retentionMonths),
        sentNotificationDays: String(legal.sentNotificationDays),
        logRetentionDays: String(legal.logRetentionDays),
        ...Object.fromEntries(
          (Object.keys(PROVIDERS) as (keyof typeof PROVIDERS)[]).flatMap((key) => [
            [`${key}Name`, legal[key].name],
            [`${key}Address`, legal[key].address],
            [`${key}Website`, legal[key].website],
            [`${key}Country`, legal[key].country],
          ]),
        ),
      };
    }
  }
}
