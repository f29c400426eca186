/**
 * The vocabulary of the owner's settings (Réglages): the sections, the
 * opening-hours rows, the cantons served, the priced services.
 */

/** The sections of the settings, in the page's order (each is one form and one database row). */
export const SETTINGS_SECTIONS = ["identity", "hours", "zones", "prices", "legal", "payment"] as const;
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
