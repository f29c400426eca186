/**
 * The shapes of the owner's settings (Réglages, decision 024), section by
 * section, as stored in the database and as `app/content/` gives their
 * defaults: the one definition of the site's identity, hours, zones, prices
 * and legal settings (DESIGN.md section 9). The desk's forms and their French
 * messages are app/settings/schema.ts; lenient on purpose (the shipped
 * placeholders fit): it guards the shape, not the truth.
 */
import { z } from "zod";

/** The sections of the settings, in the page's order (each is one form and one database row). */
export const SETTINGS_SECTIONS = ["identity", "hours", "zones", "prices", "legal", "payment", "courses"] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** The three opening-hours rows: weekdays, Saturday, Sunday (their French labels: `app/content/hours.ts`). */
export const HOURS_ROWS = ["weekdays", "saturday", "sunday"] as const;
export type HoursRow = (typeof HOURS_ROWS)[number];

/** The cantons served, by ISO 3166-2 code (the site speaks of these three everywhere: spec section 2). */
export const ZONE_CODES = ["VD", "GE", "FR"] as const;
export type ZoneCode = (typeof ZONE_CODES)[number];

/** The three services whose price the owner sets (ids of `app/content/services.ts`). */
export const PRICED_SERVICES = ["small-group", "one-to-one-course", "one-to-one-support"] as const;
export type PricedService = (typeof PRICED_SERVICES)[number];

/** How long a freed seat may be held for the person it is offered to, in hours: the default and the desk's bounds. */
export const OFFER_HOLD_HOURS = { default: 24, min: 2, max: 168 } as const;

/** How many days before its first date a course below its minimum is decided (go/no-go): the default and the desk's bounds. */
export const GO_NO_GO_DAYS = { default: 3, min: 1, max: 30 } as const;

/** Until how many hours before its first date a person may cancel her seat by her link: the default and the desk's bounds. */
export const CANCEL_DEADLINE_HOURS = { default: 48, min: 0, max: 336 } as const;

const text = z.string().trim().min(1);
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
const provider = z.object({ name: text, address: text, website: text, country: text });
const openingTimes = z.object({ opens: time, closes: time }).nullable();

/** Each section's stored shape. */
export const storedSchemas = {
  identity: z.object({
    name: text,
    businessName: text,
    uid: text.nullable(),
    address: z.object({ street: text, postalCode: text, locality: text, country: text }),
    phone: text,
    phoneDisplay: text,
    email: text,
    whatsapp: text,
    whatsappDisplay: text,
  }),
  hours: z.object({ weekdays: openingTimes, saturday: openingTimes, sunday: openingTimes }),
  zones: z.object({
    VD: z.object({ towns: z.array(text).min(1), coverage: text }),
    GE: z.object({ towns: z.array(text).min(1), coverage: text }),
    FR: z.object({ towns: z.array(text).min(1), coverage: text }),
  }),
  prices: z.object({
    "small-group": z.number().positive(),
    "one-to-one-course": z.number().positive(),
    "one-to-one-support": z.number().positive(),
  }),
  legal: z.object({
    lastUpdated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    retentionMonths: z.number().int().positive(),
    sentNotificationDays: z.number().int().positive(),
    logRetentionDays: z.number().int().positive(),
    hosting: provider,
    mailProvider: provider,
  }),
  /** The account invoices are paid to (IBAN or QR-IBAN, no spaces); null: INVOICE_IBAN, or none. */
  payment: z.object({ iban: z.string().nullable() }),
  /**
   * How long a freed seat is held for the person it is offered to, in hours (app/courses/offer-rules.ts); the
   * go/no-go, in days before the first date, and the cancellation deadline, in hours before it
   * (app/courses/deadlines.ts). A section saved before these two existed takes their defaults.
   */
  courses: z.object({
    offerHoldHours: z.number().int().positive(),
    goNoGoDays: z.number().int().positive().default(GO_NO_GO_DAYS.default),
    cancelDeadlineHours: z.number().int().nonnegative().default(CANCEL_DEADLINE_HOURS.default),
  }),
} satisfies Record<SettingsSection, z.ZodType>;

export type IdentitySettings = z.infer<typeof storedSchemas.identity>;
export type HoursSettings = z.infer<typeof storedSchemas.hours>;
export type ZonesSettings = z.infer<typeof storedSchemas.zones>;
export type PricesSettings = z.infer<typeof storedSchemas.prices>;
export type LegalSettings = z.infer<typeof storedSchemas.legal>;
export type PaymentSettings = z.infer<typeof storedSchemas.payment>;
export type CoursesSettings = z.infer<typeof storedSchemas.courses>;

/** The owner's settings, every section: what `getSiteSettings` gives (defaults with the desk's changes over them). */
export interface SiteSettings {
  identity: IdentitySettings;
  hours: HoursSettings;
  zones: ZonesSettings;
  prices: PricesSettings;
  legal: LegalSettings;
  payment: PaymentSettings;
  courses: CoursesSettings;
}
