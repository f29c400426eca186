/**
 * One way to page a long list (the desk's lists, the blog's index): which
 * page was asked (`askedPage`), the window a query reads (`readPage`: the
 * count with the list's filter, then only that page's rows), the numbers a
 * pager links to (`pagesAround`) and the French line that says where the
 * reader is (`pageSummary`, « Page 2 sur 14 · 20’000 demandes »).
 * Browser-safe, no imports of a feature.
 */
import { formatCount } from "~/utils/format";

/** Rows per page of the desk's lists (decision 048: 50 cards stay under 200 KB of HTML and one scroll of a few screens). */
export const DESK_PAGE_SIZE = 50;

/** Number of pages for `total` rows, `perPage` a page (at least 1: an empty list has one, empty, page). */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * The page `?page=` asks for: a whole number from 1, anything else (absent,
 * `abc`, `0`, `-3`, `2.5`) is page 1. Not bounded above: `readPage` brings a
 * page past the last back to the last one.
 */
export function askedPage(search: URLSearchParams): number {
  const value = search.get("page") ?? "";
  return /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}

/** A page of a list: its rows, which page it is of how many, and how many rows the whole list has. */
export interface ListPage<T> {
  rows: T[];
  page: number;
  pages: number;
  total: number;
}

/**
 * Reads page `asked` of a list: `count()` first (the list's own filter:
 * the total the page says), then `rows(limit, offset)` for that page only;
 * a page past the last answers the last one.
 * @throws what `count` or `rows` throw.
 */
export async function readPage<T>(
  asked: number,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
  perPage = DESK_PAGE_SIZE,
): Promise<ListPage<T>> {
  const total = await count();
  const pages = pageCount(total, perPage);
  const page = Math.min(Math.max(1, asked), pages);
  return { rows: total === 0 ? [] : await rows(perPage, (page - 1) * perPage), page, pages, total };
}

/**
 * The page numbers a pager links to from `page` of `pages`: the first, the
 * last, and those within `around` of the current one; null where numbers
 * are left out (shown as « … »). E.g. page 5 of 9:
 * `[1, null, 4, 5, 6, null, 9]`; a gap of one number shows the number.
 */
export function pagesAround(page: number, pages: number, around = 1): (number | null)[] {
  const shown: (number | null)[] = [];
  for (let number = 1; number <= pages; number++) {
    const near = Math.abs(number - page) <= around;
    const edge = number === 1 || number === pages;
    // A gap of a single number: the number itself is shorter than « … ».
    const lone = Math.abs(number - page) === around + 1 && (number === 2 || number === pages - 1);
    if (near || edge || lone) shown.push(number);
    else if (shown.at(-1) !== null) shown.push(null);
  }
  return shown;
}

/**
 * The search `?q=` asks for: control characters made spaces (a NUL is
 * refused by PostgreSQL, and no name, title or address holds one), trimmed,
 * at most 100 characters; undefined when nothing is left.
 */
export function askedSearch(search: URLSearchParams): string | undefined {
  return (
    (search.get("q") ?? "")
      // eslint-disable-next-line no-control-regex -- control characters are what is dropped
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
      .trim()
      .slice(0, 100) || undefined
  );
}

/** `text` as a search compares it: without accents, in lower case (« Café » → « cafe »). */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The words of a search's count: « 1 résultat », « 12 résultats », « Aucun résultat ». */
export const SEARCH_RESULTS: CountNoun = { one: "résultat", many: "résultats", none: "Aucun résultat" };

/** The LIKE pattern of a list's search: rows containing `text` (`%`, `_` and `\` in it taken literally). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A noun in the singular and the plural: `{ one: "demande", many: "demandes", none: "Aucune demande" }`. */
export interface CountNoun {
  one: string;
  many: string;
  none: string;
}

/**
 * The line above a paged list: « Aucune demande », « 1 demande »,
 * « 48 demandes » on one page, « Page 2 sur 14 · 20’000 demandes » on
 * several (Swiss thousands separator, as `formatCount`).
 */
export function pageSummary({ page, pages, total }: Omit<ListPage<unknown>, "rows">, noun: CountNoun): string {
  const count = total === 0 ? noun.none : `${formatCount(total)} ${total === 1 ? noun.one : noun.many}`;
  return pages > 1 ? `Page ${page} sur ${pages} · ${count}` : count;
}

/**
 * The address of page `page` of the list at `pathname` with the query
 * `search` (status, search… kept; `page` set, dropped for page 1).
 */
export function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  if (page === 1) params.delete("page");
  else params.set("page", String(page));
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}
