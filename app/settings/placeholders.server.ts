/**
 * The fictitious values the site ships with, still waiting for the owner's
 * real ones: the fields of Réglages (`/admin/reglages`) and the articles'
 * author and video. `/admin` lists them, each a link to its field, and
 * `npm start` logs them in one warning line (production). No test requires
 * them: the owner may change them in the desk or in `app/content/`.
 */
import { asc, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import { formValuesOf, SETTINGS_FIELDS, SETTINGS_SECTIONS, type SiteSettings } from "./schema";
import { readSiteSettings } from "./site.server";

/** One placeholder: where it is, the value found there, and the desk's page (and field) that changes it. */
export interface Placeholder {
  /** e.g. "Réglages identity.email", "article reconnaitre-email-frauduleux video". */
  where: string;
  /** The French label of the field, for the desk's list. */
  label: string;
  value: string;
  /** The desk's address of the field: `/admin/reglages#identity-email`, `/admin/articles/3#author`. */
  href: string;
}

/**
 * What makes a value fictitious (`mayBeFictitious` is its test in SQL:
 * change both together): "(exemple)" or "Exemple" (names, streets),
 * example.com / example.ch / example.org addresses, the reserved Swiss
 * numbers +41 00… (also written 4100…, 041 00…), the postcode 0000, the
 * CHE-000.000.000 IDE and the YouTube id XXXXXXXXXXX.
 */
const FICTITIOUS = [
  /exemple/i,
  /\bexample\.(?:com|ch|org)\b/i,
  /^\+?41[\s\u00a0]?0{2}/,
  /\b0000\b/,
  /CHE-000\.000\.000/,
  /XXXXXXXXXXX/,
];

const fictitious = (value: string) => FICTITIOUS.some((pattern) => pattern.test(value));

/** An article as the placeholders' check reads it. */
export interface ArticleAuthorship {
  id: number;
  slug: string;
  title: string;
  author: string;
  video: string | null;
}

/**
 * The placeholders left in `settings` (field by field, in the page's order) and in `articles`; an
 * empty list once the owner has put real values everywhere. Never throws.
 */
export function findPlaceholders(settings: SiteSettings, articleList: ArticleAuthorship[] = []): Placeholder[] {
  const fromSettings = SETTINGS_SECTIONS.flatMap((section) => {
    const values = formValuesOf(section, settings);
    return SETTINGS_FIELDS[section]
      .filter((field) => fictitious(values[field.name] ?? ""))
      .map((field) => ({
        where: `Réglages ${section}.${field.name}`,
        label: field.group ? `${field.group}\u00a0: ${field.label}` : field.label,
        value: values[field.name]!,
        href: `/admin/reglages#${section}-${field.name}`,
      }));
  });
  const fromArticles = articleList.flatMap((article) =>
    (
      [
        ["author", "auteur", article.author],
        ["video", "vidéo", article.video ?? ""],
      ] as const
    )
      .filter(([, , value]) => fictitious(value))
      .map(([field, label, value]) => ({
        where: `article ${article.slug} ${field}`,
        label: `Article «\u00a0${article.title}\u00a0»\u00a0: ${label}`,
        value,
        href: `/admin/articles/${article.id}#${field}`,
      })),
  );
  return [...fromSettings, ...fromArticles];
}

/**
 * Whether `column` may hold a fictitious value: a test in SQL that every value `FICTITIOUS` matches
 * passes (each pattern's fixed text), so that the database hands over only those rows, not every article.
 * Migration 0037's partial index `articles_placeholders_idx` holds the articles it finds for the author
 * or the video: change its predicate with this one (the planner uses the index only for the same test).
 */
const mayBeFictitious = (column: PgColumn): SQL =>
  sql`(${column} ilike '%exemple%' or ${column} ilike '%example.%' or ${column} ~ '^[+]?41'
    or ${column} like '%0000%' or ${column} like '%CHE-000.000.000%' or ${column} like '%XXXXXXXXXXX%')`;

/**
 * The placeholders left in the database's settings and articles (see `findPlaceholders`); reads only the
 * articles that may hold one (`/admin` asks on every visit, with thousands of articles).
 * @throws the database's error.
 */
export async function placeholdersLeft(db: Database): Promise<Placeholder[]> {
  const rows = await db
    .select({
      id: articles.id,
      slug: articles.slug,
      title: articles.title,
      author: articles.author,
      video: articles.video,
    })
    .from(articles)
    .where(or(mayBeFictitious(articles.author), mayBeFictitious(articles.video)))
    .orderBy(asc(articles.id));
  return findPlaceholders(await readSiteSettings(db), rows);
}

/** One line for the server's log: what is left, or null when nothing is. */
export function placeholderWarning(placeholders: Placeholder[]): string | null {
  if (placeholders.length === 0) return null;
  const list = placeholders.map(({ where, value }) => `${where} "${value}"`).join("; ");
  return `${placeholders.length} placeholder(s) to replace before going online (in the desk: /admin lists them): ${list}`;
}

/** Logs `placeholderWarning` as one warning, when there is anything to say (`npm start` in production). */
export async function warnOfPlaceholders(db: Database, logger: { warn(message: string): void }): Promise<void> {
  const warning = placeholderWarning(await placeholdersLeft(db));
  if (warning) logger.warn(warning);
}
