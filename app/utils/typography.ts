/**
 * French typography for the texts of `app/content/` and of the Markdown
 * articles (`app/blog/articles.server.ts`), applied on the server and at
 * build time only: the pages carry the right spaces, no browser code does.
 */

/** Narrow no-break space (U+202F), before `; ! ?`. */
const NARROW_NBSP = "\u202f";
/** No-break space (U+00A0), before `:` and `•`, and inside « ». */
const NBSP = "\u00a0";
/** Word joiner (U+2060): forbids a line break, draws nothing (the site's font has no U+2011 non-breaking hyphen). */
const WORD_JOINER = "\u2060";

/** Web and mail addresses, and e-mail addresses: left exactly as written. */
const ADDRESS = /\b(?:https?:\/\/|mailto:|tel:|www\.)[^\s<>«»"]*[^\s<>«»".,;:!?)]|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/giu;

const MONTHS = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre";

/** The rules, applied in order to the text between addresses. */
const rules: [RegExp, string][] = [
  // One narrow no-break space before ; ! ? (none after another mark: "?!" stays whole). A text may
  // start with the mark or its space (a Markdown text after "**bold**"): the space goes there too.
  [/(?<=[^\s;:!?«(]|^)[ \u00a0\u202f]?(?=[;!?])/gu, NARROW_NBSP],
  // One no-break space before a colon, except between digits ("1:1", "9:00").
  [/(?<=[^\s;:!?«(\d]|^)[ \u00a0\u202f]?:/gu, `${NBSP}:`],
  [/(?<=\d)[ \u00a0\u202f]+:|(?<=\d):(?!\d)/gu, `${NBSP}:`],
  // A no-break space inside « », replacing whatever space was there.
  [/«[ \u00a0\u202f]*/gu, `«${NBSP}`],
  [/[ \u00a0\u202f]*»/gu, `${NBSP}»`],
  // A separator bullet never starts a line: "Vaud • Genève".
  [/ •/gu, `${NBSP}•`],
  // "1er" for the first of the month: "1er novembre 2024".
  [new RegExp(`(?<![\\p{L}\\p{N}])1(?=[ \\u00a0](?:${MONTHS})(?![\\p{L}]))`, "gu"), "1er"],
  // "e-mail" never breaks at its hyphen.
  [/(?<![\p{L}\p{N}-])([eE])-(?=mails?(?![\p{L}]))/gu, `$1-${WORD_JOINER}`],
];

/**
 * A text with French typography, following the rules of the Imprimerie
 * nationale (Lexique des règles typographiques en usage à l'Imprimerie
 * nationale) as the Swiss romand guides take them up (Guide du typographe,
 * Groupe de Lausanne de l'Association suisse des typographes):
 *
 * - a narrow no-break space (U+202F) before `;`, `!` and `?`;
 * - a no-break space (U+00A0) before `:`, and after « and before »;
 * - a no-break space before a separator bullet (`Vaud • Genève`);
 * - "1er" for the first of a month (`1 novembre 2024` → `1er novembre 2024`);
 * - no line break inside "e-mail" (a word joiner after the hyphen).
 *
 * A space already there is replaced by the right one, never doubled; a text
 * already typeset comes back unchanged. Web addresses, e-mail addresses,
 * times and ratios ("9h00", "09:00", "1:1") are left as they are; code is
 * the caller's to leave out (the Markdown pipeline skips `<code>` and
 * `<pre>`). Never throws.
 */
export function typeset(text: string): string {
  let result = "";
  let last = 0;
  for (const match of text.matchAll(ADDRESS)) {
    result += applyRules(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return result + applyRules(text.slice(last));
}

function applyRules(text: string): string {
  return rules.reduce((current, [pattern, replacement]) => current.replace(pattern, replacement), text);
}

/**
 * `value` with `typeset` applied to every string in it, through arrays and
 * plain objects (a content module's export: `typesetAll({ title: "…" })`).
 * Returns new arrays and objects of the same shape; other values are kept.
 */
export function typesetAll<T>(value: T): T {
  if (typeof value === "string") return typeset(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => typesetAll(item)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typesetAll(item)])) as T;
  return value;
}
