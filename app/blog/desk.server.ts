/**
 * Articles in the owner's desk (`/admin/articles`): a new draft from a
 * title, saving (the fields validated by `articleFormSchema`, with French
 * messages beside each field), publishing now or at a chosen Swiss date and
 * time, unpublishing. The public pages change at once: every write goes
 * through the `articles` table, whose trigger tells every process's render
 * cache (decision 023). A save stores the text's HTML with it (decision 067).
 */
import { and, count, desc, eq, ilike, isNull, ne, sql } from "drizzle-orm";
import { containsPattern, readPage, type ListPage } from "~/components/pages";
import { z } from "zod";
import { icons, type IconName } from "~/components/icon";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import { formatDate, formatDateTime, isoDateInZurich } from "~/utils/format";
import { zurichToUtc } from "~/utils/zurich-time.server";
import { youtubeId } from "./articles.server";
import { ARTICLE_LIMITS } from "./fields";
import { htmlColumns } from "./html.server";
import type { ArticleRow } from "./store.server";

/** Reading speed for the read time shown on cards (words a minute; a calm pace for older readers). */
const WORDS_PER_MINUTE = 180;

/** Minutes to read `markdown` at WORDS_PER_MINUTE, at least 1. */
export function readTimeOf(markdown: string): number {
  const words = markdown.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/** The address of an article made from its title: "Le Wi-Fi à l’hôtel" → "le-wi-fi-a-l-hotel". */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "article";
}

const iconNames = Object.keys(icons) as [IconName, ...IconName[]];

/** The editor's fields, as posted (checkbox: "on" or absent), with the French message of each mistake. */
export const articleFormSchema = z.object({
  title: z
    .string({ message: "Donnez un titre à l’article." })
    .trim()
    .min(1, "Donnez un titre à l’article.")
    .max(ARTICLE_LIMITS.title, `Le titre doit contenir au plus ${ARTICLE_LIMITS.title} caractères.`),
  /** Empty (or absent): the article keeps its author. */
  author: z
    .string()
    .trim()
    .max(ARTICLE_LIMITS.author, `Le nom de l’auteur doit contenir au plus ${ARTICLE_LIMITS.author} caractères.`)
    .default(""),
  excerpt: z
    .string({ message: "Écrivez un résumé de deux ou trois phrases." })
    .trim()
    .max(ARTICLE_LIMITS.excerpt, `Le résumé doit contenir au plus ${ARTICLE_LIMITS.excerpt} caractères.`)
    .default(""),
  category: z
    .string({ message: "Choisissez une catégorie." })
    .trim()
    .max(ARTICLE_LIMITS.category, `La catégorie doit contenir au plus ${ARTICLE_LIMITS.category} caractères.`)
    .default(""),
  body: z
    .string()
    .max(ARTICLE_LIMITS.body, `Le texte doit contenir au plus ${ARTICLE_LIMITS.body} caractères.`)
    .default(""),
  icon: z.enum(iconNames, { message: "Choisissez une image dans la liste." }).default("Lightbulb"),
  color: z
    .enum(["primary", "secondary", "accent"], { message: "Choisissez une couleur dans la liste." })
    .default("primary"),
  featured: z
    .string()
    .optional()
    .transform((value) => value === "on"),
  video: z
    .string()
    .trim()
    .default("")
    .refine(
      (value) => value === "" || youtubeId(value) !== null,
      "Donnez l’adresse d’une vidéo YouTube (youtube.com/watch?v=… ou youtu.be/…), ou laissez vide.",
    ),
});

export type ArticleForm = z.output<typeof articleFormSchema>;

/** What publishing needs on top of a draft's fields, each with its French message. */
export function publishProblems(fields: ArticleForm): Partial<Record<keyof ArticleForm, string>> {
  const problems: Partial<Record<keyof ArticleForm, string>> = {};
  if (!fields.excerpt) problems.excerpt = "Écrivez un résumé avant de publier : il apparaît sur les cartes du blog.";
  if (!fields.category) problems.category = "Choisissez une catégorie avant de publier.";
  if (!fields.body.trim()) problems.body = "Écrivez le texte de l’article avant de publier.";
  return problems;
}

/** The state of an article for the desk: brouillon, programmé (ISO moment) or publié. */
export type ArticleState = { kind: "draft" } | { kind: "scheduled"; at: string } | { kind: "published"; at: string };

/**
 * When `row` appears, in French words: "12 mars 2026, 14 h 00", or the day
 * alone for an article imported from a file, whose front matter gives a day
 * and no hour (it is stored at midnight UTC of that day: an hour nobody chose).
 */
export function publicationMoment(row: Pick<ArticleRow, "publishedAt" | "date" | "sourceFile">): string {
  const at = row.publishedAt ?? "";
  const imported = row.sourceFile !== null && Date.parse(at) === Date.parse(`${row.date}T00:00:00Z`);
  return imported ? formatDate(row.date) : formatDateTime(at);
}

/** The state of `row` at `now`. */
export function articleState(row: Pick<ArticleRow, "publishedAt">, now: Date = new Date()): ArticleState {
  if (!row.publishedAt) return { kind: "draft" };
  return new Date(row.publishedAt) > now
    ? { kind: "scheduled", at: row.publishedAt }
    : { kind: "published", at: row.publishedAt };
}

/** What the desk's list shows of an article (no body). */
const listed = {
  id: articles.id,
  title: articles.title,
  slug: articles.slug,
  publishedAt: articles.publishedAt,
  date: articles.date,
  sourceFile: articles.sourceFile,
  updatedAt: articles.updatedAt,
};

/**
 * Page `asked` of the articles (their card, no body), the most recently
 * changed first, `DESK_PAGE_SIZE` a page, with how many there are; only
 * those whose title contains `search` (any case) when it is given.
 */
export async function articlesPage(
  db: Database,
  asked: number,
  search?: string,
): Promise<ListPage<Pick<ArticleRow, keyof typeof listed>>> {
  // ILIKE: migration 0037's trigram index on the title serves it.
  const where = search ? ilike(articles.title, containsPattern(search)) : undefined;
  return readPage(
    asked,
    async () => (await db.select({ total: count() }).from(articles).where(where))[0]!.total,
    (limit, offset) =>
      db
        .select(listed)
        .from(articles)
        .where(where)
        .orderBy(desc(articles.updatedAt), desc(articles.id))
        .limit(limit)
        .offset(offset),
  );
}

export async function getArticle(db: Database, id: number): Promise<ArticleRow | undefined> {
  const [row] = await db.select().from(articles).where(eq(articles.id, id));
  return row;
}

/**
 * A new draft titled `title`, by `author`, at an address made from the
 * title (with "-2", "-3"… when taken). Returns its id.
 */
export async function createArticle(
  db: Database,
  { title, author }: { title: string; author: string },
): Promise<number> {
  const base = slugFromTitle(title);
  for (let attempt = 1; ; attempt++) {
    const slug = attempt === 1 ? base : `${base}-${attempt}`;
    const [row] = await db
      .insert(articles)
      .values({
        slug,
        title,
        excerpt: "",
        category: "",
        author,
        body: "",
        ...(await htmlColumns(db, "")),
        icon: "Lightbulb",
        color: "primary",
        readTime: 1,
        date: isoDateInZurich(new Date()),
        editedInDesk: true,
      })
      .onConflictDoNothing({ target: articles.slug })
      .returning({ id: articles.id });
    if (row) return row.id;
  }
}

/**
 * Saves the fields of article `id`, and its text's HTML as its page shows it.
 * A published article edited after its publication day gets today's date as
 * "Mis à jour le". False when the article does not exist.
 */
export async function saveArticle(
  db: Database,
  id: number,
  fields: ArticleForm,
  now: Date = new Date(),
): Promise<boolean> {
  const today = isoDateInZurich(now);
  const html = await htmlColumns(db, fields.body);
  const changed = await db
    .update(articles)
    .set({
      title: fields.title,
      ...(fields.author ? { author: fields.author } : {}),
      excerpt: fields.excerpt,
      category: fields.category,
      body: fields.body,
      ...html,
      icon: fields.icon,
      color: fields.color,
      featured: fields.featured,
      video: fields.video || null,
      readTime: readTimeOf(fields.body),
      editedInDesk: true,
      updated: sql`CASE WHEN ${articles.publishedAt} <= ${now.toISOString()} AND ${articles.date} < ${today} THEN ${today} ELSE ${articles.updated} END`,
      updatedAt: sql`now()`,
    })
    .where(eq(articles.id, id))
    .returning({ id: articles.id });
  return changed.length > 0;
}

/**
 * Publishes article `id` at `at` (now, or a later moment: scheduled); its
 * date becomes that day in Switzerland. False when it does not exist.
 */
export async function publishArticle(db: Database, id: number, at: Date): Promise<boolean> {
  const changed = await db
    .update(articles)
    .set({ publishedAt: at.toISOString(), date: isoDateInZurich(at), updated: null, updatedAt: sql`now()` })
    .where(eq(articles.id, id))
    .returning({ id: articles.id });
  return changed.length > 0;
}

/** Takes article `id` off the site (it becomes a draft again). False when it was not published or scheduled. */
export async function unpublishArticle(db: Database, id: number): Promise<boolean> {
  const changed = await db
    .update(articles)
    .set({ publishedAt: null, updatedAt: sql`now()` })
    .where(and(eq(articles.id, id), sql`${articles.publishedAt} IS NOT NULL`))
    .returning({ id: articles.id });
  return changed.length > 0;
}

/** Deletes draft `id` (never a published or scheduled article). False when it was not a draft. */
export async function deleteDraft(db: Database, id: number): Promise<boolean> {
  const changed = await db
    .delete(articles)
    .where(and(eq(articles.id, id), isNull(articles.publishedAt), isNull(articles.sourceFile)))
    .returning({ id: articles.id });
  return changed.length > 0;
}

/** The categories already used, for the editor's suggestions. */
export async function usedCategories(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({ category: articles.category })
    .from(articles)
    .where(ne(articles.category, ""))
    .orderBy(articles.category);
  return rows.map((row) => row.category);
}

/**
 * The moment a scheduled publication names: a Swiss date ("2026-12-01") and
 * time ("08:00"), or null when they are not valid.
 */
export function scheduledMoment(date: string, time: string): Date | null {
  try {
    return zurichToUtc(date, time || "08:00");
  } catch {
    return null;
  }
}
