/**
 * An article's HTML, rendered when the article is written and stored beside
 * its Markdown (`articles.html`, with the version of the pipeline that
 * rendered it in `html_version`; decision 067), so that its page costs a
 * read and React's render, not the Markdown pipeline (11-25 ms of CPU for a
 * 7 KB article).
 *
 * - `htmlColumns(db, body)`: the columns every writer stores with a body
 *   (the desk's save, the import of the Markdown files).
 * - `currentHtml(db, row)`: a row's HTML as the page shows it; a row not
 *   rendered yet, or by an older version of the pipeline, is rendered now
 *   and stored (lazily, on read).
 * - `articleHtmlJob`: at each start (then hourly) renders the rows of an
 *   older version in the background, one article between two turns of the
 *   event loop, so that a request waits at most one article's render.
 *
 * A body changed without its HTML (a script, a hand-written UPDATE) sets
 * `html_version` to 0 (migration 0036's trigger): stale, never shown as is.
 * Writing `html` and `html_version` alone tells no render cache (the page it
 * renders is the same).
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import type { JobContext, TimedJob } from "~/desk/jobs.server";
import { picturesByIds } from "~/pictures/pictures.server";
import { ARTICLE_HTML_VERSION, htmlColumnsOf, pictureIdsIn, type ArticlePicture } from "./articles.server";

/** What the HTML of a row depends on, and what it holds. */
type HtmlRow = Pick<typeof articles.$inferSelect, "id" | "body" | "html" | "htmlVersion">;

/** The desk's pictures that the bodies of `rows` show, by id. */
export async function picturesOf(
  db: Database,
  rows: readonly { body: string }[],
): Promise<Map<number, ArticlePicture>> {
  const ids = [...new Set(rows.flatMap((row) => pictureIdsIn(row.body)))];
  return new Map((await picturesByIds(db, ids)).map((picture) => [picture.id, picture]));
}

/** The `html` and `htmlVersion` columns to store with Markdown `body` (the desk's pictures it shows read from `db`). */
export async function htmlColumns(db: Database, body: string): Promise<{ html: string; htmlVersion: number }> {
  return htmlColumnsOf(body, await picturesOf(db, [{ body }]));
}

/** True when `row`'s stored HTML is this pipeline's. */
export const htmlIsCurrent = (
  row: Pick<HtmlRow, "html" | "htmlVersion">,
): row is { html: string; htmlVersion: number } => row.html !== null && row.htmlVersion === ARTICLE_HTML_VERSION;

/**
 * Renders `row` and stores its HTML, unless its body changed meanwhile or a
 * newer pipeline stored it (a newer process beside this one). Returns the HTML.
 */
async function renderAndKeep(db: Database, row: HtmlRow): Promise<string> {
  const columns = await htmlColumns(db, row.body);
  if (row.htmlVersion < ARTICLE_HTML_VERSION)
    await db
      .update(articles)
      .set(columns)
      .where(and(eq(articles.id, row.id), eq(articles.body, row.body), lt(articles.htmlVersion, ARTICLE_HTML_VERSION)));
  return columns.html;
}

/**
 * The HTML of article `row` as its page shows it: the stored one when this
 * pipeline rendered it, else rendered now (and stored for the next read).
 * @throws the database's error when storing it fails.
 */
export async function currentHtml(db: Database, row: HtmlRow): Promise<string> {
  return htmlIsCurrent(row) ? row.html : renderAndKeep(db, row);
}

/** How many stale rows one statement reads in the background (their bodies held until rendered). */
const BATCH = 8;

/**
 * Renders and stores every article of an older pipeline version (or not
 * rendered yet), `BATCH` rows a statement, one render per turn of the event
 * loop, until none is left or `signal` aborts. Resolves with how many it rendered.
 */
export async function renderStaleArticles(db: Database, { signal }: { signal?: AbortSignal } = {}): Promise<number> {
  let rendered = 0;
  // By id, after the last one seen: a row whose body changed meanwhile (not stored) is not read again in this run.
  for (let after = 0; ;) {
    const rows = await db
      .select({ id: articles.id, body: articles.body, html: articles.html, htmlVersion: articles.htmlVersion })
      .from(articles)
      .where(and(lt(articles.htmlVersion, ARTICLE_HTML_VERSION), gt(articles.id, after)))
      .orderBy(asc(articles.id))
      .limit(BATCH);
    for (const row of rows) {
      // One turn of the event loop: the requests waiting meanwhile are served.
      await nextTurn();
      if (signal?.aborted) return rendered;
      await renderAndKeep(db, row);
      rendered++;
    }
    if (rows.length < BATCH) return rendered;
    after = rows.at(-1)!.id;
  }
}

/** The blog's background job: the stale articles rendered again (`renderStaleArticles`), at start and then hourly. */
export const articleHtmlJob: TimedJob = {
  name: "article pages",
  intervalMs: 3_600_000,
  async run({ db, signal }: JobContext) {
    return { rendered: await renderStaleArticles(db, { signal }) };
  },
};
