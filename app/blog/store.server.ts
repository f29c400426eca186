/**
 * The articles' one source: the `articles` table (decision 023).
 *
 * - `importArticleFiles(db, { directory, logger })`, at every start: each
 *   `*.md` of `app/content/blog/` (or `BLOG_CONTENT_DIR`) whose slug is not
 *   in the table is added, published at its front matter's date; a row that
 *   came from a file and that the owner never edited in the desk follows its
 *   file when the file changes. The HTML of what it adds or changes is
 *   rendered then (app/blog/html.server.ts), that of the others never. A file with a bad front matter is skipped and
 *   logged (file and field, no visitor data); the shipped files are checked by
 *   `app/blog/articles.test.ts`. Nothing is ever deleted by the import.
 * - What the public pages show, each reading only that (never the body of
 *   an article it does not show): `articleCards` (a page of cards, newest
 *   first), `publishedCount`, `featuredCard`, `relatedCards`,
 *   `publishedArticle` (one article with its stored HTML), `sitemapArticles`
 *   (slugs and dates), `nextPublication`.
 * - `readArticles(context, key, read)`: one of those for a loader, with the
 *   render cache's hints; when the database fails, the last answer this
 *   process read under `key` (not kept in the cache), or the error (or an
 *   empty answer, for the home page) when it never read one.
 *
 * Every write goes through the table, whose trigger announces the tag
 * `articles` to the render cache of every server process (migration 0012).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, asc, count, desc, eq, gt, inArray, isNotNull, lte, ne, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import { articlesDirectory } from "./directory.server";
import { errorFields } from "~/db/errors.server";
import {
  ARTICLE_SLUG,
  ArticleError,
  articleOf,
  readArticleFile,
  summaryOf,
  type ArticleRecord,
} from "./articles.server";
import { currentHtml, htmlColumns } from "./html.server";
import type { Article, ArticleSummary } from "./types";
import { databaseUnavailable, unlessDatabaseDown } from "~/utils/database-down.server";
import { clockContext, dbContext, loggerContext, renderHintsContext, type RequestContext } from "~/context.server";

export type ArticleRow = typeof articles.$inferSelect;

/** The stored fields of an article but its body (a card's, or a whole row's): what its page shows beside the HTML. */
function fieldsOf(row: CardRow): Omit<ArticleRecord, "body"> {
  return {
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    category: row.category,
    author: row.author,
    icon: row.icon as ArticleRecord["icon"],
    color: row.color as ArticleRecord["color"],
    featured: row.featured,
    readTime: row.readTime,
    date: row.date,
    ...(row.updated ? { updated: row.updated } : {}),
    ...(row.video ? { video: row.video } : {}),
  };
}

/** The stored fields of an article, as `renderArticle` reads them. */
export function recordOf(row: ArticleRow): ArticleRecord {
  return { ...fieldsOf(row), body: row.body };
}

/** The columns a record fills. */
function columnsOf(record: ArticleRecord) {
  return {
    slug: record.slug,
    title: record.title,
    excerpt: record.excerpt,
    category: record.category,
    author: record.author,
    body: record.body,
    icon: record.icon,
    color: record.color,
    featured: record.featured,
    video: record.video ?? null,
    readTime: record.readTime,
    date: record.date,
    updated: record.updated ?? null,
  };
}

/** What one import did, for the start-up log. */
export interface ImportReport {
  added: string[];
  updated: string[];
  skipped: string[];
}

/**
 * Imports the Markdown files of `directory` (see the module's comment).
 * Returns the slugs added and updated, and the files skipped for errors.
 */
export async function importArticleFiles(
  db: Database,
  { directory = articlesDirectory(), logger }: { directory?: string; logger?: Logger } = {},
): Promise<ImportReport> {
  const report: ImportReport = { added: [], updated: [], skipped: [] };
  if (!fs.existsSync(directory)) return report;
  const names = fs
    .readdirSync(directory)
    .filter((name) => name.endsWith(".md"))
    .sort();
  // What the table holds of these files: a file already there as it is is not rendered again.
  const slugs = names.map((name) => path.basename(name, ".md"));
  const held = new Map(
    (slugs.length === 0
      ? []
      : await db
          .select({
            slug: articles.slug,
            sourceFile: articles.sourceFile,
            sourceHash: articles.sourceHash,
            editedInDesk: articles.editedInDesk,
          })
          .from(articles)
          .where(inArray(articles.slug, slugs))
    ).map((row) => [row.slug, row]),
  );
  for (const name of names) {
    const source = fs.readFileSync(path.join(directory, name), "utf8");
    let record: ArticleRecord;
    try {
      record = readArticleFile(name, source);
    } catch (error) {
      if (!(error instanceof ArticleError)) throw error;
      logger?.error({ file: name, problem: error.message }, "blog: article file skipped");
      report.skipped.push(name);
      continue;
    }
    const hash = crypto.createHash("sha256").update(source).digest("hex");
    const row = held.get(record.slug);
    const follows = row?.sourceFile === name && !row.editedInDesk && row.sourceHash !== hash;
    if (row && !follows) continue;
    const html = await htmlColumns(db, record.body);
    const added = row
      ? []
      : await db
          .insert(articles)
          .values({
            ...columnsOf(record),
            ...html,
            publishedAt: `${record.date}T00:00:00Z`,
            sourceFile: name,
            sourceHash: hash,
          })
          .onConflictDoNothing({ target: articles.slug })
          .returning({ id: articles.id });
    if (added.length > 0) {
      report.added.push(record.slug);
      continue;
    }
    // The file changed, and the owner never touched its article: follow the file (its publication state stays).
    const followed = await db
      .update(articles)
      .set({ ...columnsOf(record), ...html, sourceHash: hash, updatedAt: sql`now()` })
      .where(
        and(
          eq(articles.slug, record.slug),
          eq(articles.sourceFile, name),
          eq(articles.editedInDesk, false),
          sql`${articles.sourceHash} IS DISTINCT FROM ${hash}`,
        ),
      )
      .returning({ id: articles.id });
    if (followed.length > 0) report.updated.push(record.slug);
  }
  return report;
}

/** The columns an article's card shows: never the body. */
const cardColumns = {
  slug: articles.slug,
  title: articles.title,
  excerpt: articles.excerpt,
  category: articles.category,
  author: articles.author,
  icon: articles.icon,
  color: articles.color,
  featured: articles.featured,
  video: articles.video,
  readTime: articles.readTime,
  date: articles.date,
  updated: articles.updated,
};

type CardRow = { [K in keyof typeof cardColumns]: ArticleRow[K] };

/** A card's row as the pages show it (typeset, French dates). */
const cardOf = (row: CardRow): ArticleSummary => summaryOf(fieldsOf(row));

/** Published at `now` (ISO). */
const publishedAt = (now: Date) => lte(articles.publishedAt, now.toISOString());

/** Newest first, then by slug: the order of every public list. */
const newestFirst = [desc(articles.date), asc(articles.slug)] as const;

/**
 * Cards of the articles published at `now`, newest first: `limit` of them
 * after the first `offset`, of one `category` or outside it, without `except` (a slug).
 */
export async function articleCards(
  db: Database,
  now: Date,
  {
    limit,
    offset = 0,
    category,
    except,
  }: { limit: number; offset?: number; category?: { is: string } | { isNot: string }; except?: string },
): Promise<ArticleSummary[]> {
  const rows = await db
    .select(cardColumns)
    .from(articles)
    .where(
      and(
        publishedAt(now),
        except === undefined ? undefined : ne(articles.slug, except),
        category === undefined
          ? undefined
          : "is" in category
            ? eq(articles.category, category.is)
            : ne(articles.category, category.isNot),
      ),
    )
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
  return rows.map(cardOf);
}

/** How many articles are published at `now`. */
export async function publishedCount(db: Database, now: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(articles).where(publishedAt(now));
  return row?.n ?? 0;
}

/** The newest featured article published at `now` (its card), if any. */
export async function featuredCard(db: Database, now: Date): Promise<ArticleSummary | undefined> {
  const [row] = await db
    .select(cardColumns)
    .from(articles)
    .where(and(publishedAt(now), eq(articles.featured, true)))
    .orderBy(...newestFirst)
    .limit(1);
  return row ? cardOf(row) : undefined;
}

/**
 * The article `slug` if published at `now`, with its body's HTML as stored (`currentHtml`: rendered now
 * and stored if an older pipeline made it); undefined too for a `slug` that is no slug (`ARTICLE_SLUG`),
 * without a query.
 */
export async function publishedArticle(db: Database, now: Date, slug: string): Promise<Article | undefined> {
  // An address that is no slug names no article, and is not sent to the database (a NUL byte would fail there).
  if (!ARTICLE_SLUG.test(slug)) return undefined;
  const [row] = await db
    .select()
    .from(articles)
    .where(and(publishedAt(now), eq(articles.slug, slug)))
    .limit(1);
  if (!row) return undefined;
  return articleOf(fieldsOf(row), await currentHtml(db, row));
}

/**
 * Up to `count` other articles for `article`'s page (spec: 2): the same
 * category first, then the most recent others; each group newest first.
 */
export async function relatedCards(
  db: Database,
  now: Date,
  article: Pick<ArticleSummary, "slug" | "category">,
  count = 2,
): Promise<ArticleSummary[]> {
  const same = await articleCards(db, now, { limit: count, category: { is: article.category }, except: article.slug });
  if (same.length >= count) return same;
  const others = await articleCards(db, now, { limit: count - same.length, category: { isNot: article.category } });
  return [...same, ...others];
}

/** What the sitemap lists of each article published at `now`, newest first: its slug and dates. */
export async function sitemapArticles(
  db: Database,
  now: Date,
): Promise<Pick<ArticleSummary, "slug" | "date" | "updated">[]> {
  const rows = await db
    .select({ slug: articles.slug, date: articles.date, updated: articles.updated })
    .from(articles)
    .where(publishedAt(now))
    .orderBy(...newestFirst);
  return rows.map(({ updated, ...row }) => (updated ? { ...row, updated } : row));
}

/** When the next scheduled article appears after `now` (ISO), if one is scheduled. */
export async function nextPublication(db: Database, now: Date): Promise<string | null> {
  const [next] = await db
    .select({ at: articles.publishedAt })
    .from(articles)
    .where(and(isNotNull(articles.publishedAt), gt(articles.publishedAt, now.toISOString())))
    .orderBy(asc(articles.publishedAt))
    .limit(1);
  return next?.at ?? null;
}

/** The public articles' cards at `now` and the moment the next scheduled one appears (ISO), if any. */
export interface PublishedArticles {
  articles: ArticleSummary[];
  nextPublication: string | null;
}

/** Every article published at `now` (cards, newest first), and the next scheduled publication: for scripts and tests. */
export async function publishedArticles(db: Database, now: Date = new Date()): Promise<PublishedArticles> {
  return {
    articles: await articleCards(db, now, { limit: Number.MAX_SAFE_INTEGER }),
    nextPublication: await nextPublication(db, now),
  };
}

/** How many answers `readArticles` keeps for when the database fails (the most recently read). */
const LAST_KNOWN_KEPT = 64;

/** The last answers this process read, by what was read, for when the database fails. */
const lastKnown = new Map<string, unknown>();

function remember(key: string, value: unknown): void {
  lastKnown.delete(key);
  lastKnown.set(key, value);
  if (lastKnown.size > LAST_KNOWN_KEPT) lastKnown.delete(lastKnown.keys().next().value!);
}

/**
 * What a public page's loader reads of the articles: `read(db, now)` (one
 * of the functions above: only what the page shows), on the request's
 * clock; tells the render cache when the next scheduled article appears.
 * When the database fails, the last answer this process read under the
 * same `key` (not kept in the cache); `orEmpty`, for a page that shows
 * articles beside other things (the home page), when it never read one.
 * @throws the database's error when it fails before this process read `key` (without `orEmpty`);
 *   the 503 answer (`databaseUnavailable`) when the database does not answer then.
 */
export async function readArticles<T>(
  context: RequestContext,
  key: string,
  read: (db: Database, now: Date) => Promise<T>,
  { orEmpty }: { orEmpty?: T } = {},
): Promise<T> {
  const db = context.get(dbContext);
  const now = context.get(clockContext).now();
  const fallback = (): T | undefined => (lastKnown.has(key) ? (lastKnown.get(key) as T) : orEmpty);
  let answer: { down: false; value: [T, string | null] } | { down: true };
  try {
    answer = await unlessDatabaseDown(context, () => Promise.all([read(db, now), nextPublication(db, now)]));
  } catch (error) {
    // The database answered with an error (a database that does not answer is logged once per outage).
    if (fallback() === undefined) throw error;
    context
      .get(loggerContext)
      .error({ err: errorFields(error) }, "blog: articles unavailable, the last list read is shown");
    answer = { down: true };
  }
  if (answer.down) {
    const known = fallback();
    // Nothing to show: the French 503 page.
    if (known === undefined) throw databaseUnavailable();
    context.get(renderHintsContext)?.noStore();
    return known;
  }
  const [value, next] = answer.value;
  if (next) context.get(renderHintsContext)?.validUntil(next);
  remember(key, value);
  return value;
}
