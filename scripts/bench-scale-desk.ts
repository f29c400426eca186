/**
 * The desk at scale, for `npm run bench:scale` (scripts/bench-scale.ts),
 * signed in as the owner `fillDatabase` made:
 * - `deskLists`: each list's first page, a middle page and a search (or a
 *   filter where the list has no search): status, server time (the first
 *   request, then the median of three more), server CPU, HTML size, and
 *   whether the line above the list says the count the database holds
 *   (targets ≤ 100 ms, ≤ 200 KB);
 * - `deskExports`: each CSV export's time to first byte, whole time, size,
 *   rows, and the peak RSS while it streams;
 * - `deskPaths`: every list address, for 20 connections (`hammer`).
 */
import { signIn, type SpawnedSite, type TestOwner } from "../tests/support/harness";
import { SEARCHED, SIZES, type Held } from "./bench-scale-fill";
import { alive, cpuMs, load, timed } from "./bench-scale-probe";

const PAGE = 50;
const middle = (total: number) => Math.ceil(Math.ceil(total / PAGE) / 2);
/** Rows whose number starts with 7, up to `total` (what `SEARCHED` finds among numbered rows). */
const startingWith7 = (total: number) =>
  [1, 10, 100, 1000, 10_000].reduce((sum, n) => sum + Math.min(n, Math.max(0, total - 7 * n + 1)), 0);

interface DeskList {
  name: string;
  path: string;
  /** How many rows the list holds, and the search (or filter) with how many rows it finds; null: not checked. */
  total: number;
  search: { query: string; total: number | null };
}

/** The desk's lists with what the database `held` (`fillDatabase`). */
function listsOf(held: Held): DeskList[] {
  return [
    {
      name: "Demandes",
      path: "/admin",
      total: held.requests,
      search: { query: `q=${SEARCHED}`, total: startingWith7(SIZES.requests) },
    },
    {
      name: "Abonnés",
      path: "/admin/abonnes",
      total: held.subscribers,
      search: { query: "q=abonne-7", total: startingWith7(SIZES.subscribers) },
    },
    { name: "Articles", path: "/admin/articles", total: held.articles, search: { query: "q=Article 7", total: null } },
    // The fill gives every fourth session to « Sécurité et protection » (its first of four courses).
    {
      name: "Séances",
      path: "/admin/cours",
      total: held.sessions,
      search: { query: "q=securite", total: Math.floor(SIZES.sessions / 4) },
    },
    {
      name: "Factures",
      path: "/admin/factures",
      total: held.invoices,
      search: { query: "etat=ouvertes", total: 100 },
    },
    {
      name: "Devis",
      path: "/admin/devis",
      total: held.quotes,
      search: { query: "q=Dupont-7", total: startingWith7(SIZES.quotes) },
    },
  ];
}

/** The count the line above a list says (« Page 2 sur 14 · 20’000 demandes »), or null. */
function countShown(html: string): number | null {
  const text = html.replace(/<[^>]+>/g, " ");
  const match =
    /Page \d+ sur \d+ · ([\d’']+)/.exec(text) ??
    /(?:^|\s)([\d’']+) (?:demandes?|adresses?|articles?|séances?|factures?|devis|résultats?)\b/.exec(text) ??
    (/Aucun résultat/.test(text) ? ["", "0"] : null);
  return match ? Number(match[1]!.replace(/[’']/g, "")) : null;
}

/** `path` of `site` four times as the owner: the first request's ms, the median of the other three, CPU, size, status, body. */
async function measure(site: SpawnedSite, cookie: string, path: string) {
  const cpu = cpuMs(site.child.pid!);
  const first = await timed(`${site.url}${path}`, { cookie });
  const again = [];
  for (let n = 0; n < 3; n++) again.push((await timed(`${site.url}${path}`, { cookie })).ms);
  again.sort((a, b) => a - b);
  return { first, median: again[1]!, cpuEach: (cpuMs(site.child.pid!) - cpu) / 4 };
}

/** The owner's cookie on `site` (signed in with password and TOTP). @throws when the sign-in fails. */
export async function ownerCookie(site: SpawnedSite, owner: TestOwner): Promise<string> {
  return (await signIn(site.url, owner)).header();
}

/** Every list address `deskLists` reads (first, middle page, search), for a load. */
export function deskPaths(held: Held): string[] {
  return listsOf(held).flatMap((list) => [
    list.path,
    `${list.path}?page=${middle(list.total)}`,
    `${list.path}?${list.search.query}`,
  ]);
}

/** Prints the figures of each desk list (see the module's header); `false` in `ok` marks a target missed. */
export async function deskLists(site: SpawnedSite, cookie: string, held: Held): Promise<void> {
  console.log(
    `- the desk's lists as the owner (load ${load()}; first request, then the median of 3; target ≤ 100 ms, ≤ 200 KB):`,
  );
  for (const list of listsOf(held)) {
    const pages: [string, string, number | null][] = [
      ["first page", list.path, list.total],
      [`page ${middle(list.total)}`, `${list.path}?page=${middle(list.total)}`, list.total],
      [list.search.query, `${list.path}?${encodeURI(list.search.query)}`, list.search.total],
    ];
    for (const [label, path, expected] of pages) {
      if (!alive(site)) return;
      const { first, median, cpuEach } = await measure(site, cookie, path);
      const shown = countShown(first.body);
      const ignored = label === list.search.query && shown === list.total ? " (the whole list: no such search)" : "";
      const truth =
        expected === null
          ? `says ${shown ?? "no count"}${ignored}`
          : shown === expected
            ? `says ${shown} ✓`
            : `says ${shown}, holds ${expected} ✗`;
      const missed = median > 100 || first.bytes > 200 * 1024 ? " ✗ over target" : "";
      console.log(
        `  - ${list.name}, ${label}: ${first.status}, ${Math.round(first.ms)} ms then ${Math.round(median)} ms, CPU ${Math.round(cpuEach)} ms, ${Math.round(first.bytes / 1024)} KB; ${truth}${missed}`,
      );
    }
  }
  const person = await measure(site, cookie, "/admin/personne?email=personne-7%40example.ch");
  console.log(
    `  - Personne (by e-mail): ${person.first.status}, ${Math.round(person.first.ms)} ms then ${Math.round(person.median)} ms, CPU ${Math.round(person.cpuEach)} ms, ${Math.round(person.first.bytes / 1024)} KB`,
  );
}

/** Prints each CSV export's time to first byte, whole time, size, rows and the peak RSS while it streams. */
export async function deskExports(
  site: SpawnedSite,
  cookie: string,
  held: Held,
  rss: { peak: number; reset(): void },
): Promise<void> {
  const exports: [string, number][] = [
    ["/admin/demandes.csv", held.requests],
    ["/admin/abonnes.csv", held.subscribers],
    ["/admin/factures.csv", held.invoices],
  ];
  for (const [path, rows] of exports) {
    if (!alive(site)) return;
    rss.reset();
    const started = performance.now();
    const answer = await fetch(`${site.url}${path}`, { headers: { cookie } });
    let firstByte = NaN;
    let bytes = 0;
    let lines = 0;
    const reader = answer.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (Number.isNaN(firstByte)) firstByte = performance.now() - started;
      bytes += read.value.byteLength;
      for (const byte of read.value) if (byte === 10) lines++;
    }
    const rowsSeen = lines - 1;
    console.log(
      `- CSV ${path}: ${answer.status}, first byte ${Math.round(firstByte)} ms, whole ${Math.round(performance.now() - started)} ms, ${Math.round(bytes / 1024)} KB, ${rowsSeen} rows${rowsSeen === rows ? " ✓" : ` (holds ${rows}) ✗`}; peak RSS meanwhile ${Math.round(rss.peak)} MB`,
    );
  }
}
