/**
 * Blog articles: `app/content/blog/{slug}.md` (or `BLOG_CONTENT_DIR`), YAML
 * front matter validated by zod, Markdown turned into HTML by the site's one
 * pipeline (app/utils/markdown.server.ts: sanitised, French typography). A bad file fails the build with an
 * `ArticleError` naming the file, the field and what is wrong (decision 004).
 */
import fs from "node:fs";
import path from "node:path";
import rehypeExternalLinks from "rehype-external-links";
import rehypeSlug from "rehype-slug";
import { VFile } from "vfile";
import { matter } from "vfile-matter";
import { z } from "zod";
import { icons } from "~/components/icon";
import {
  parsePictureFileName,
  PICTURE_FORMATS,
  pictureFileUrl,
  widthsOf,
  type PictureFormat,
  type PictureRow,
} from "~/pictures/pictures.server";
import { formatDate } from "~/utils/format";
import { articlesDirectory } from "./directory.server";
import { markdownRenderer, type HastNode } from "~/utils/markdown.server";
import { typesetAll } from "~/utils/typography";
import type { Article, ArticleSummary } from "./types";

export class ArticleError extends Error {
  override name = "ArticleError";
}

const isoDate = z
  .string({ message: "must be an ISO date such as 2024-11-15" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be an ISO date such as 2024-11-15")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "is not a real calendar date");

const iconNames = Object.keys(icons) as [keyof typeof icons, ...(keyof typeof icons)[]];

/** The front matter every article must have (spec section 3 "Blog article"). */
export const frontMatterSchema = z
  .object({
    title: z
      .string({ message: "is required (text)" })
      .trim()
      .min(1, "must not be empty")
      .max(120, "must be at most 120 characters"),
    excerpt: z
      .string({ message: "is required (text)" })
      .trim()
      .min(1, "must not be empty")
      .max(300, "must be at most 300 characters"),
    category: z.string({ message: "is required (text)" }).trim().min(1, "must not be empty"),
    date: isoDate,
    updated: isoDate.optional(),
    readTime: z
      .number({ message: "must be a whole number of minutes" })
      .int("must be a whole number of minutes")
      .min(1, "must be at least 1 minute")
      .max(120, "must be at most 120 minutes"),
    author: z.string({ message: "is required (text)" }).trim().min(1, "must not be empty"),
    icon: z.enum(iconNames, { message: `must be one of ${iconNames.join(", ")} (icons of app/components/icon.tsx)` }),
    color: z.enum(["primary", "secondary", "accent"], { message: "must be primary, secondary or accent" }),
    featured: z.boolean({ message: "must be true or false" }).default(false),
    video: z
      .string()
      .url("must be a web address")
      .refine((value) => youtubeId(value) !== null, "must be a YouTube address (youtube.com/watch?v=… or youtu.be/…)")
      .optional(),
  })
  .strict()
  // ISO dates compare as text.
  .refine((data) => !data.updated || data.updated >= data.date, {
    path: ["updated"],
    message: "must not be before date",
  });

/**
 * The YouTube video id of a watch, short or embed address, or null.
 * `youtubeId("https://youtu.be/abcdefghijk")` is "abcdefghijk".
 */
export function youtubeId(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^www\./, "");
  const id =
    host === "youtu.be"
      ? url.pathname.slice(1)
      : ["youtube.com", "m.youtube.com", "youtube-nocookie.com"].includes(host)
        ? url.pathname === "/watch"
          ? url.searchParams.get("v")
          : url.pathname.replace(/^\/(embed|shorts)\//, "")
        : null;
  return id && /^[\w-]{11}$/.test(id) ? id : null;
}

/**
 * The version of the articles' HTML pipeline: `renderMarkdown` below, its
 * plugins, app/utils/markdown.server.ts, French typography
 * (app/utils/typography.ts) and the unified packages they use. Stored beside
 * each article's HTML (`articles.html_version`); a row of an older version is
 * rendered again (app/blog/html.server.ts, decision 067). Bump it with any
 * change that changes an article's HTML: `app/blog/articles.test.ts` holds a
 * fingerprint of this version's output and fails until it is bumped.
 */
export const ARTICLE_HTML_VERSION = 1;

/**
 * Articles' Markdown (app/utils/markdown.server.ts): heading ids, external
 * links in a new tab (said to screen readers), the desk's pictures.
 */
const renderMarkdown = markdownRenderer([
  rehypeSlug,
  [
    rehypeExternalLinks,
    {
      target: "_blank",
      rel: ["noopener", "noreferrer"],
      content: {
        type: "element",
        tagName: "span",
        properties: { className: ["sr-only"] },
        children: [{ type: "text", value: " (nouvel onglet)" }],
      },
    },
  ],
  rehypePictures,
]);

/** An article as stored: its front matter fields and its Markdown body (`body`), before rendering. */
export type ArticleRecord = z.output<typeof frontMatterSchema> & { slug: string; body: string };

/** An article's slug: lowercase letters and digits in groups joined by one dash (`mon-article-2`). */
export const ARTICLE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Validates one article file; `fileName` gives the slug and names the file
 * in errors. Returns its front matter and its Markdown body, not rendered.
 * @throws ArticleError e.g. `x.md: front matter "color" must be primary, secondary or accent (got "red")`.
 */
export function readArticleFile(fileName: string, source: string): ArticleRecord {
  const slug = path.basename(fileName, ".md");
  if (!ARTICLE_SLUG.test(slug)) {
    throw new ArticleError(
      `${fileName}: the file name must be a slug (lowercase letters, digits and dashes), e.g. mon-article.md`,
    );
  }
  const file = new VFile({ path: fileName, value: source });
  try {
    matter(file, { strip: true });
  } catch (error) {
    throw new ArticleError(`${fileName}: the front matter is not valid YAML (${(error as Error).message})`);
  }
  const data = file.data.matter;
  if (!data || typeof data !== "object" || Object.keys(data).length === 0) {
    throw new ArticleError(`${fileName}: the front matter (between two --- lines at the top) is missing`);
  }
  const result = frontMatterSchema.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const field = issue.path.join(".");
      const got = field && field in data ? ` (got ${JSON.stringify((data as Record<string, unknown>)[field])})` : "";
      return issue.code === "unrecognized_keys"
        ? `unknown field(s) ${issue.keys.map((key) => `"${key}"`).join(", ")}`
        : `front matter "${field}" ${issue.message}${got}`;
    });
    throw new ArticleError(`${fileName}: ${problems.join("; ")}`);
  }
  return { slug, ...result.data, body: String(file.value) };
}

/** A picture uploaded in the desk, as an article's body may show it (app/pictures/pictures.server.ts). */
export type ArticlePicture = Pick<PictureRow, "id" | "hash" | "width" | "height">;

/** The ids of the desk's pictures an article's Markdown shows (`![…](/images/{id}-{hash}-{width}.webp)`). */
export function pictureIdsIn(markdown: string): number[] {
  return [
    ...new Set(
      [...markdown.matchAll(/\/images\/([1-9]\d{0,15})-[0-9a-f]{12}-\d+\.(?:avif|webp)/g)].map((m) => Number(m[1])),
    ),
  ];
}

/**
 * Turns each `<img>` of a desk picture into `<picture>`: AVIF and WebP at
 * every width it has, its size (no layout shift), lazy loading. Reads the
 * pictures from the file's data (`pictures`, by id); other images are left.
 */
function rehypePictures() {
  return (tree: HastNode, file: VFile) => {
    const known = (file.data as { pictures?: Map<number, ArticlePicture> }).pictures;
    const visit = (node: HastNode) => {
      node.children?.forEach((child, index) => {
        const src = child.tagName === "img" ? String(child.properties?.src ?? "") : "";
        const file = src.startsWith("/images/") ? parsePictureFileName(src.slice("/images/".length)) : null;
        const picture = file ? known?.get(file.id) : undefined;
        if (!picture || picture.hash !== file!.hash) return visit(child);
        const widths = widthsOf(picture.width);
        const url = (width: number, format: PictureFormat) => pictureFileUrl(picture, width, format);
        const sizes = "(min-width: 768px) 720px, 100vw";
        node.children![index] = {
          type: "element",
          tagName: "picture",
          properties: {},
          children: [
            ...PICTURE_FORMATS.map((format) => ({
              type: "element",
              tagName: "source",
              properties: {
                type: `image/${format}`,
                srcSet: widths.map((width) => `${url(width, format)} ${width}w`).join(", "),
                sizes,
              },
              children: [],
            })),
            {
              type: "element",
              tagName: "img",
              properties: {
                src: url(Math.min(800, picture.width), "webp"),
                alt: child.properties?.alt ?? "",
                width: picture.width,
                height: picture.height,
                loading: "lazy",
                decoding: "async",
              },
              children: [],
            },
          ],
        };
      });
    };
    visit(tree);
  };
}

/**
 * An article's Markdown as the page's HTML (headings with ids, external
 * links in a new tab, French spaces, the desk's `pictures` as `<picture>`).
 */
export function renderArticleBody(markdown: string, pictures: ReadonlyMap<number, ArticlePicture> = new Map()): string {
  return renderMarkdown(markdown, { pictures });
}

/**
 * What an article's card shows of its stored fields (no body): title,
 * excerpt, category and author typeset, its French date labels.
 */
export function summaryOf(fields: Omit<ArticleRecord, "body">): ArticleSummary {
  const { updated, title, excerpt, category, author, ...rest } = fields;
  return {
    ...rest,
    ...typesetAll({ title, excerpt, category, author }),
    dateLabel: formatDate(fields.date),
    ...(updated ? { updated, updatedLabel: formatDate(updated) } : {}),
  };
}

/**
 * An article's stored HTML columns for Markdown `markdown` (`html`, and
 * `htmlVersion`: `ARTICLE_HTML_VERSION`), with the desk's `pictures` it shows.
 */
export function htmlColumnsOf(
  markdown: string,
  pictures?: ReadonlyMap<number, ArticlePicture>,
): { html: string; htmlVersion: number } {
  return { html: renderArticleBody(markdown, pictures), htmlVersion: ARTICLE_HTML_VERSION };
}

/** What pages show of an article: the summary of its `fields` (`summaryOf`) and its body's `html`. */
export function articleOf(fields: Omit<ArticleRecord, "body">, html: string): Article {
  return { ...summaryOf(fields), html };
}

/**
 * What pages show of a stored article: its summary (`summaryOf`) and its
 * body rendered now (the desk's preview; pages read the stored HTML).
 */
export function renderArticle(record: ArticleRecord, pictures?: ReadonlyMap<number, ArticlePicture>): Article {
  const { body, ...fields } = record;
  return articleOf(fields, renderArticleBody(body, pictures));
}

/**
 * Parses one article file into what pages show (`readArticleFile`, then
 * `renderArticle`).
 * @throws ArticleError as `readArticleFile`.
 */
export function parseArticle(fileName: string, source: string): Article {
  return renderArticle(readArticleFile(fileName, source));
}

/** Reads and parses every `*.md` of `directory`, newest first (then by slug). */
export function loadArticles(directory = articlesDirectory()): Article[] {
  const files = fs.readdirSync(directory).filter((name) => name.endsWith(".md"));
  const relative = path.relative(process.cwd(), directory) || directory;
  return files
    .map((name) => parseArticle(path.join(relative, name), fs.readFileSync(path.join(directory, name), "utf8")))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}
