/**
 * The articles' one source: the `articles` table (decision 023).
 *
 * - `importArticleFiles(db, { directory, logger })`, at every start: each
 *   `*.md` of `app/content/blog/` (or `BLOG_CONTENT_DIR`) whose slug is not
 *   in the table is added, published at its front matter's date; a row that
 *   came from a file and that the owner never edited in the desk follows its
 *   file when the file changes. A file with a bad front matter is skipped and
 *   logged (file and field, no visitor data); the shipped files are checked by
 *   `app/blog/articles.test.ts`. Nothing is ever deleted by the import.
 * - `publishedArticles(db, now)`: what the public pages show, newest first,
 *   and when the next scheduled article appears (for the render cache).
 * - `getArticles(context)`: the same for a loader, with the render cache's
 *   hints; when the database fails, the last list this process read (not kept
 *   in the cache), or the error (or none, for the home page) when it never
 *   read one.
 *
 * Every write goes through the table, whose trigger announces the tag
 * `articles` to the render cache of every server process (migration 0012).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, asc, desc, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import { errorFields } from "~/db/errors.server";
import { picturesByIds } from "~/pictures/pictures.server";
import {
  ArticleError,
  articlesDirectory,
  pictureIdsIn,
  readArticleFile,
  renderArticle,
  type ArticlePicture,
  type ArticleRecord,
} from "./articles.server";
import type { Article } from "./types";
import { databaseUnavailable, unlessDatabaseDown } from "~/utils/database-down.server";
import { dbContext, loggerContext, renderHintsContext, type RequestContext } from "~/context.server";

export type ArticleRow = typeof articles.$inferSelect;

/** The stored fields of an article, as `renderArticle` reads them. */
export function recordOf(row: ArticleRow): ArticleRecord {
  return {
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    category: row.category,
    author: row.author,
    body: row.body,
    icon: row.icon as ArticleRecord["icon"],
    color: row.color as ArticleRecord["color"],
    featured: row.featured,
    readTime: row.readTime,
    date: row.date,
    ...(row.updated ? { updated: row.updated } : {}),
    ...(row.video ? { video: row.video } : {}),
  };
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
    const added = await db
      .insert(articles)
      .values({
        ...columnsOf(record),
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
      .set({ ...columnsOf(record), sourceHash: hash, updatedAt: sql`now()` })
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

/** Rendered articles by id, with the stored fields they were made from (the Markdown is parsed once per version). */
const rendered = new Map<number, { source: string; article: Article }>();

function renderRow(row: ArticleRow, pictures: ReadonlyMap<number, ArticlePicture>): Article {
  const record = recordOf(row);
  const shown = pictureIdsIn(row.body).map((id) => pictures.get(id));
  const source = JSON.stringify([record, shown]);
  const known = rendered.get(row.id);
  if (known && known.source === source) return known.article;
  const article = renderArticle(record, pictures);
  rendered.set(row.id, { source, article });
  return article;
}

/** The desk's pictures that the bodies of `rows` show, by id. */
export async function picturesOf(
  db: Database,
  rows: readonly Pick<ArticleRow, "body">[],
): Promise<Map<number, ArticlePicture>> {
  const ids = [...new Set(rows.flatMap((row) => pictureIdsIn(row.body)))];
  return new Map((await picturesByIds(db, ids)).map((picture) => [picture.id, picture]));
}

/** The public articles at `now` and the moment the next scheduled one appears (ISO), if any. */
export interface PublishedArticles {
  articles: Article[];
  nextPublication: string | null;
}

/** The articles published at `now`, newest first (then by slug), and the next scheduled publication. */
export async function publishedArticles(db: Database, now: Date = new Date()): Promise<PublishedArticles> {
  const at = now.toISOString();
  const rows = await db
    .select()
    .from(articles)
    .where(lte(articles.publishedAt, at))
    .orderBy(desc(articles.date), asc(articles.slug));
  const [next] = await db
    .select({ at: articles.publishedAt })
    .from(articles)
    .where(and(isNotNull(articles.publishedAt), gt(articles.publishedAt, at)))
    .orderBy(asc(articles.publishedAt))
    .limit(1);
  const pictures = await picturesOf(db, rows);
  return { articles: rows.map((row) => renderRow(row, pictures)), nextPublication: next?.at ?? null };
}

/** The last list this process read, for when the database fails. */
let lastKnown: Article[] | undefined;

/**
 * The published articles for a public page's loader: newest first; tells
 * the render cache when the next scheduled article appears. `orEmpty`: a
 * page that shows articles beside other things (the home page) gets none,
 * rather than an error, when the database fails before this process ever
 * read the list.
 * @throws the database's error when it fails before this process ever read the list (without `orEmpty`);
 *   the 503 answer (`databaseUnavailable`) when the database does not answer then.
 */
export async function getArticles(
  context: RequestContext,
  { orEmpty = false }: { orEmpty?: boolean } = {},
): Promise<Article[]> {
  let read: { down: false; value: Awaited<ReturnType<typeof publishedArticles>> } | { down: true };
  try {
    read = await unlessDatabaseDown(context, () => publishedArticles(context.get(dbContext)));
  } catch (error) {
    // The database answered with an error (a database that does not answer is logged once per outage).
    if (!lastKnown && !orEmpty) throw error;
    context
      .get(loggerContext)
      .error({ err: errorFields(error) }, "blog: articles unavailable, the last list read is shown");
    read = { down: true };
  }
  if (read.down) {
    // Nothing to show: the French 503 page.
    if (!lastKnown && !orEmpty) throw databaseUnavailable();
    context.get(renderHintsContext)?.noStore();
    return lastKnown ?? [];
  }
  const { articles: list, nextPublication } = read.value;
  if (nextPublication) context.get(renderHintsContext)?.validUntil(nextPublication);
  lastKnown = list;
  return list;
}
