/**
 * The owner's settings (Réglages, decision 024): one merged read for every
 * page, mail and job, and one write for the desk.
 *
 * - `defaultSettings()`: the values of `app/content/` (identity, hours,
 *   zones, services' prices, legal settings), in the shape of
 *   `app/settings/schema.ts`; typography's invisible characters left out.
 * - `readSiteSettings(db)`: the defaults with every section the owner saved
 *   over them (table `site_settings`, one row per section). A stored section
 *   that no longer fits its schema (a hand edit of the database) is ignored
 *   with a log line naming the section, never a crash.
 * - `getSiteSettings(context)`: the same for a loader or an action
 *   (`siteSettingsOrLastKnown({ db, logger })` for a job); when the
 *   database fails, the last settings this process read (and the page is not
 *   kept in the render cache), or the defaults.
 * - `saveSettingsSection(db, section, value)`: stores one section (already
 *   validated by `formSchemas`); the table's trigger announces "settings" to
 *   every process's render cache (migration 0015), so that every page shows
 *   the change at once.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { identity } from "~/content/identity";
import { defaultHours } from "~/content/hours";
import { legalSettings } from "~/content/legal";
import { defaultPrices } from "~/content/services";
import { defaultZones } from "~/content/zones";
import type { Database } from "~/db/client.server";
import { siteSettings } from "~/db/schema";
import { errorFields } from "~/db/errors.server";
import { databaseAnswered, databaseDown } from "~/db/outage.server";
import type { RenderHints } from "~/utils/render-cache";
import { dbContext, loggerContext, renderHintsContext, type RequestContext } from "~/context.server";
import {
  CANCEL_DEADLINE_HOURS,
  GO_NO_GO_DAYS,
  OFFER_HOLD_HOURS,
  SETTINGS_SECTIONS,
  storedSchemas,
  type SettingsSection,
  type SiteSettings,
} from "./schema";

/** `value` with typography's invisible characters made plain again (what the owner would type). */
function plain<T>(value: T): T {
  if (typeof value === "string") return value.replace(/\u2060/g, "").replace(/[\u00a0\u202f]/g, " ") as T;
  if (Array.isArray(value)) return value.map(plain) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)])) as T;
  return value;
}

/**
 * The settings as `app/content/` ships them (the placeholders included), checked by the same
 * shapes as the desk's (`storedSchemas`); `content` replaces the identity and legal settings
 * files' values (a test replays the owner's edit of those files).
 * @throws ZodError naming the field when a content file's value does not fit its shape.
 */
export function defaultSettings(
  content: { identity: typeof identity; legalSettings: typeof legalSettings } = { identity, legalSettings },
): SiteSettings {
  // The stored shapes keep only their own keys (the brand and the rate-limit minutes stay in the files).
  return plain({
    identity: storedSchemas.identity.parse(content.identity),
    hours: storedSchemas.hours.parse(defaultHours),
    zones: storedSchemas.zones.parse(defaultZones),
    prices: storedSchemas.prices.parse(defaultPrices),
    legal: storedSchemas.legal.parse(content.legalSettings),
    payment: { iban: null },
    courses: {
      offerHoldHours: OFFER_HOLD_HOURS.default,
      goNoGoDays: GO_NO_GO_DAYS.default,
      cancelDeadlineHours: CANCEL_DEADLINE_HOURS.default,
    },
  });
}

/**
 * The defaults with each stored section over them.
 * @throws the database's error when the table cannot be read.
 */
export async function readSiteSettings(db: Database, logger?: Logger): Promise<SiteSettings> {
  const settings = defaultSettings();
  const rows = await db.select({ section: siteSettings.section, value: siteSettings.value }).from(siteSettings);
  for (const row of rows) {
    if (!(SETTINGS_SECTIONS as readonly string[]).includes(row.section)) continue;
    const section = row.section as SettingsSection;
    const parsed = storedSchemas[section].safeParse(row.value);
    if (parsed.success) Object.assign(settings, { [section]: parsed.data });
    else logger?.error({ section }, "settings: a stored section does not fit its shape, the default is used");
  }
  return settings;
}

/** The last settings this process read, for when the database fails. */
let lastKnown: SiteSettings | undefined;

/**
 * The owner's settings for a job (the outbox). Never throws: when the
 * database fails, the last settings read (or the defaults), logged (once
 * for a whole outage: app/db/outage.server.ts, which a successful read
 * ends), and the page is not kept in the render cache (`renderHints`).
 */
export async function siteSettingsOrLastKnown({
  db,
  logger,
  renderHints,
}: {
  db: Database;
  logger: Logger;
  renderHints?: RenderHints | null;
}): Promise<SiteSettings> {
  try {
    lastKnown = await readSiteSettings(db, logger);
    databaseAnswered(db, logger);
    return lastKnown;
  } catch (error) {
    // A database that does not answer is logged once for the whole outage (app/db/outage.server.ts).
    if (!(await databaseDown(db, logger, error)))
      logger.error({ err: errorFields(error) }, "settings: unavailable, the last ones read are used");
    renderHints?.noStore();
    return lastKnown ?? defaultSettings();
  }
}

/** The settings each render for the render cache read, by its hints (one object per render). */
const readForRender = new WeakMap<RenderHints, Promise<SiteSettings>>();

/**
 * The owner's settings for a loader or an action (see `siteSettingsOrLastKnown`). Never throws.
 * A render for the render cache (`renderHintsContext` set: a GET, no action) reads them once,
 * however many of its loaders ask (the root's and the page's run together).
 */
export function getSiteSettings(context: RequestContext): Promise<SiteSettings> {
  const renderHints = context.get(renderHintsContext);
  const read = () =>
    siteSettingsOrLastKnown({ db: context.get(dbContext), logger: context.get(loggerContext), renderHints });
  if (!renderHints) return read();
  let settings = readForRender.get(renderHints);
  if (!settings) readForRender.set(renderHints, (settings = read()));
  return settings;
}

/**
 * Stores `value` as the section `section` (insert or replace). `value` must
 * already fit `storedSchemas[section]` (the desk parses it with `formSchemas`).
 * @throws ZodError when it does not; the database's error when the write fails.
 */
export async function saveSettingsSection<S extends SettingsSection>(
  db: Database,
  section: S,
  value: SiteSettings[S],
): Promise<void> {
  const checked = storedSchemas[section].parse(value);
  await db
    .insert(siteSettings)
    .values({ section, value: checked })
    .onConflictDoUpdate({ target: siteSettings.section, set: { value: checked, updatedAt: sql`now()` } });
}
