/**
 * The fictitious values the site ships with, still waiting for the owner's
 * real ones (README, "Placeholders to fill before going online"): `npm start`
 * lists them in one warning line (`server/index.ts`). No test requires them.
 */
import { loadArticles } from "~/blog/articles.server";
import { identity } from "./identity";
import { legalSettings } from "./legal";

/** One placeholder: where it is (file and field) and the value found there. */
export interface Placeholder {
  where: string;
  value: string;
}

/**
 * What makes a value fictitious: "(exemple)" or "Exemple" (names, streets),
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

/** Every string of `value` (objects and arrays walked), with its path ("address.postalCode"). */
function stringsOf(value: unknown, path = ""): Placeholder[] {
  if (typeof value === "string") return [{ where: path, value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsOf(item, `${path}[${index}]`));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => stringsOf(item, path ? `${path}.${key}` : key));
  return [];
}

/** The strings of `value`, each named "{file} {path}". */
const stringsIn = (file: string, value: unknown) =>
  stringsOf(value).map(({ where, value: text }) => ({ where: `${file} ${where}`, value: text }));

/** What `findPlaceholders` looks through: the owner's identity, the legal settings and the articles. */
export interface OwnerContent {
  identity: object;
  legalSettings: object;
  articles: { slug: string; author: string; video?: string }[];
}

/**
 * The placeholders left in `content`, in file order, e.g.
 * `{ where: "identity.ts email", value: "contact@example.com" }`; an empty
 * list once the owner has put real values everywhere. Never throws.
 */
export function findPlaceholders(content: OwnerContent): Placeholder[] {
  const candidates = [
    ...stringsIn("identity.ts", content.identity),
    ...stringsIn("legal.ts", { legalSettings: content.legalSettings }),
    ...content.articles.flatMap((article) =>
      stringsIn(`blog/${article.slug}.md`, { author: article.author, video: article.video }),
    ),
  ];
  return candidates.filter(({ value }) => FICTITIOUS.some((pattern) => pattern.test(value)));
}

/**
 * The placeholders left in the site's own `app/content/` (see `findPlaceholders`).
 * @throws ArticleError when an article is invalid (the build would stop too).
 */
export function placeholdersLeft(): Placeholder[] {
  return findPlaceholders({ identity, legalSettings, articles: loadArticles() });
}

/** One line for the server's log: what is left, or null when nothing is. */
export function placeholderWarning(placeholders: Placeholder[] = placeholdersLeft()): string | null {
  if (placeholders.length === 0) return null;
  // Values as the owner typed them: the typography's invisible characters left out.
  const plain = (value: string) => value.replace(/\u2060/g, "").replace(/[\u00a0\u202f]/g, " ");
  const list = placeholders.map(({ where, value }) => `${where} "${plain(value)}"`).join("; ");
  return `${placeholders.length} placeholder(s) to replace before going online (README, "Placeholders to fill before going online"): ${list}`;
}

/** Logs `placeholderWarning()` as one warning, when there is anything to say (`npm start` in production). */
export function warnOfPlaceholders(logger: { warn(message: string): void }): void {
  const warning = placeholderWarning();
  if (warning) logger.warn(warning);
}
