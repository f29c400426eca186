/**
 * What the owner publishes and shows: articles, their share images,
 * pictures uploaded in the desk, the Réglages (app/blog/, app/pictures/, app/settings/).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  customType,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

// --- Blog articles (app/blog/, docs/decisions/023-articles-in-the-database.md).

/**
 * A blog article: written in the desk, or imported from
 * `app/content/blog/{slug}.md` (`source_file`, with the SHA-256 of the file
 * as imported in `source_hash`; such a row follows its file until the owner
 * edits it in the desk, `edited_in_desk`). `body` is Markdown; `date` and
 * `updated` are ISO dates ("2024-11-15") shown on the page; the article is
 * public once `published_at` has passed (future: scheduled; NULL: a draft
 * or unpublished). `icon` and `color` name an icon of app/components/icon.tsx
 * and a theme colour; `read_time` is in minutes. `html` is `body` as the
 * page shows it, rendered when the article is written, by the pipeline of
 * version `html_version` (`ARTICLE_HTML_VERSION`, app/blog/articles.server.ts;
 * 0 or NULL html: not rendered yet, or `body` changed without it, migration
 * 0036); a row of an older version is rendered again (decision 067).
 * A new column must join the `UPDATE OF` list of the trigger
 * `articles_render_cache` (migration 0036), which skips `html` alone.
 */
export const articles = pgTable(
  "articles",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull(),
    category: text("category").notNull(),
    author: text("author").notNull(),
    body: text("body").notNull(),
    html: text("html"),
    htmlVersion: integer("html_version").notNull().default(0),
    icon: text("icon").notNull(),
    color: text("color").notNull(),
    featured: boolean("featured").notNull().default(false),
    video: text("video"),
    readTime: integer("read_time").notNull(),
    date: text("date").notNull(),
    updated: text("updated"),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "string" }),
    sourceFile: text("source_file"),
    sourceHash: text("source_hash"),
    editedInDesk: boolean("edited_in_desk").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    index("articles_published_at_idx").on(table.publishedAt),
    // The public lists' order, newest first (migration 0025).
    index("articles_listing_idx").on(table.date.desc(), table.slug),
    // The desk's search by a part of the title (migration 0037, pg_trgm).
    index("articles_title_trgm_idx").using("gin", table.title.op("gin_trgm_ops")).with({ fastupdate: false }),
    // The articles whose author or video may be an example value (migration 0037; the predicate of
    // app/settings/placeholders.server.ts's `mayBeFictitious`, which the inbox reads on each visit).
    index("articles_placeholders_idx").on(table.id)
      .where(sql`((${table.author} ilike '%exemple%' or ${table.author} ilike '%example.%' or ${table.author} ~ '^[+]?41'
    or ${table.author} like '%0000%' or ${table.author} like '%CHE-000.000.000%' or ${table.author} like '%XXXXXXXXXXX%')
  or (${table.video} ilike '%exemple%' or ${table.video} ilike '%example.%' or ${table.video} ~ '^[+]?41'
    or ${table.video} like '%0000%' or ${table.video} like '%CHE-000.000.000%' or ${table.video} like '%XXXXXXXXXXX%'))`),
  ],
);

// --- Pictures uploaded in the desk (app/pictures/).

/** Binary data (PostgreSQL `bytea`), read and written as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A picture uploaded in the desk: its French description (`alt`), the size
 * in pixels of its largest variant, the size of the file sent, and `hash`
 * (12 hex digits of the SHA-256 of that file), part of its files' addresses
 * (`/images/{id}-{hash}-{width}.{avif|webp}`), so that a new picture never
 * takes an old address.
 */
export const pictures = pgTable("pictures", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  hash: text("hash").notNull(),
  alt: text("alt").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  originalBytes: integer("original_bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/** One file made from a picture: AVIF or WebP at one width (pixels), its bytes. */
export const pictureFiles = pgTable(
  "picture_files",
  {
    pictureId: bigint("picture_id", { mode: "number" })
      .notNull()
      .references(() => pictures.id, { onDelete: "cascade" }),
    format: text("format").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (table) => [primaryKey({ name: "picture_files_pk", columns: [table.pictureId, table.format, table.width] })],
);

/** Which picture, with which description, fills a slot of the home page ("hero", "portrait"). */
export const sitePictures = pgTable("site_pictures", {
  slot: text("slot").primaryKey(),
  pictureId: bigint("picture_id", { mode: "number" })
    .notNull()
    .references(() => pictures.id),
  alt: text("alt").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/**
 * Réglages (migration 0015, decision 024): one row per section of the owner's settings
 * (`app/settings/schema.ts`), its value the section as the desk validated it; no row = the
 * content files' default. A trigger announces "settings" to every process's render cache.
 */
export const siteSettings = pgTable("site_settings", {
  section: text("section").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/**
 * The share image of a published article (1200×630 PNG, `app/seo/share-card.server.tsx`), made when it is
 * published or when what it shows changes; `source` is the hash of what it shows, part of its address
 * (`/og/articles/{slug}-{source}.png`). Deleted with its article. Decision 029.
 */
export const articleShareImages = pgTable("article_share_images", {
  articleId: bigint("article_id", { mode: "number" })
    .primaryKey()
    .references(() => articles.id, { onDelete: "cascade" }),
  source: text("source").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/**
 * The site's share image made from the hero photo the owner uploaded (1200×630 PNG, `siteShareCard`), at
 * `/og/site/{source}.png`; `source` is the hash of what it shows. One row for the photo in the hero slot,
 * deleted with the photo and when the slot changes (migration 0024, issue 33 item 13).
 */
export const siteShareImages = pgTable("site_share_images", {
  pictureId: bigint("picture_id", { mode: "number" })
    .primaryKey()
    .references(() => pictures.id, { onDelete: "cascade" }),
  source: text("source").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});
