/**
 * The desk's lists page (issue 34, item 3): one site started once, rows put
 * in by one multi-row INSERT each. The inbox's page 2 holds the right 50
 * requests and says the true count; a search narrows the count and the
 * pager keeps it, and finds a name or an e-mail in any case, never across
 * the two; `?page=999` and `?page=abc` answer the last and first
 * page; 10,000 subscribers make a page of 50 cards under 200 KB; the
 * subscribers' CSV streams every row over several batches; the guard still
 * refuses a visitor on the paged addresses (page and `.data`). The
 * articles, sessions and quotes each have a search (`?q=`) that finds the
 * matching rows, not the others, and says « N résultats ».
 */
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, contacts, courseSessions, quotes } from "../../app/db/schema";
import {
  createOwner,
  deskFetch,
  exampleCreditor,
  pageText,
  sessionFields,
  signIn,
  startTestServer,
  type CookieJar,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";

let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;

/** Request n (1 to 120) was received n minutes after the first: request 120 is the newest. */
const name = (n: number) => `Personne${String(n).padStart(3, "0")}`;

beforeAll(async () => {
  site = await startTestServer({});
  jar = await signIn(site.url, await createOwner(site.database.db));
  const start = Date.parse("2026-10-01T08:00:00Z");
  await site.database.db.insert(contacts).values(
    Array.from({ length: 120 }, (_, index) => {
      const n = index + 1;
      const at = new Date(start + n * 60_000).toISOString();
      return {
        firstName: name(n),
        // A third are Rochat: what the search finds.
        lastName: n % 3 === 0 ? "Rochat" : "Favre",
        email: `personne${n}@example.ch`,
        phone: "079 123 45 67",
        service: "one-to-one-course",
        contactConsent: true,
        consentTimestamp: at,
        createdAt: at,
        lastActivityAt: at,
      };
    }),
  );
  await site.database.db.execute(sql`
    insert into newsletter_subscribers (email, status, source, consent_version, requested_at, confirmed_at, created_at)
    select 'abonne' || n || '@example.ch', case when n % 4 = 0 then 'pending' else 'confirmed' end, 'blog', '2026-01',
      timestamptz '2026-01-01 08:00Z' + n * interval '1 minute',
      case when n % 4 = 0 then null else timestamptz '2026-01-01 09:00Z' + n * interval '1 minute' end,
      timestamptz '2026-01-01 08:00Z' + n * interval '1 minute'
    from generate_series(1, 10000) as n`);
  await seedSearchedRows();
}, 60_000);

/** Three articles, two sessions and three quotes for the searches of those lists. */
async function seedSearchedRows() {
  const { db } = site.database;
  await db.insert(articles).values(
    ["Les arnaques au faux support", "Sauvegarder ses photos", "Arnaques par SMS : les reconnaître"].map(
      (title, n) => ({
        slug: `recherche-${n}`,
        title,
        excerpt: "Un résumé.",
        category: "securite",
        author: "Marie Dupont",
        body: "Un texte.",
        icon: "ShieldAlert",
        color: "primary",
        readTime: 3,
        date: "2026-10-01",
      }),
    ),
  );
  await db.insert(courseSessions).values([
    {
      ...sessionFields({ courseId: "cafe-numerique", placeName: "Bibliothèque de Moudon" }),
      startsAt: `${COURSE_YEAR}-03-01T09:00:00Z`,
    },
    {
      ...sessionFields({ courseId: "applications-mobiles", placeName: "Salle de Pully" }),
      startsAt: `${COURSE_YEAR}-03-02T09:00:00Z`,
    },
  ]);
  const creditor = exampleCreditor("CH4431999123000889012", true);
  await db.insert(quotes).values(
    ["Club des aînés de Bulle", "Paroisse de Nyon", "Commune d’Échallens"].map((clientName, n) => ({
      year: 2026,
      sequence: n + 1,
      number: `D-2026-00${n + 1}`,
      clientName,
      street: "Rue du Lac",
      postalCode: "1800",
      locality: "Vevey",
      lines: [{ label: "Atelier", quantity: 1, unitCentimes: 30000 }],
      totalCentimes: 30000,
      issuedOn: "2026-10-01",
      validUntil: "2026-11-01",
      courseId: "securite",
      startsAt: "2026-12-01T09:00:00Z",
      durationMinutes: 120,
      placeName: "Salle du club",
      placeAddress: "Rue du Lac 12, 1800 Vevey",
      creditor,
    })),
  );
}

afterAll(async () => {
  await site?.close();
});

/** The owner's page at `path`: its status and HTML. */
async function desk(path: string): Promise<{ status: number; html: string; text: string }> {
  const answer = await deskFetch(site.url, path, { jar });
  const html = await answer.text();
  return { status: answer.status, html, text: pageText(html) };
}

/** The requests' names a page shows, in order. */
const namesOn = (html: string) => [...html.matchAll(/>(Personne\d{3}) (?:Rochat|Favre)</g)].map((match) => match[1]);

describe("the inbox's pages", () => {
  it("shows on page 2 the 51st to 100th newest requests and the true count", async () => {
    const page = await desk("/admin?page=2");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Page 2 sur 3 · 120 demandes");
    expect(namesOn(page.html)).toEqual(Array.from({ length: 50 }, (_, index) => name(70 - index)));
    expect(page.html).toContain('href="/admin?page=3"');
    expect(page.html).toContain('href="/admin"');
  });

  it("counts what a search finds, and keeps the search and status in the pager's links", async () => {
    const rochat = await desk("/admin?q=rochat");
    expect(rochat.text).toContain("40 demandes pour ce filtre");
    expect(namesOn(rochat.html)).toHaveLength(40);
    const favre = await desk("/admin?statut=nouveau&q=favre");
    expect(favre.text).toContain("Page 1 sur 2 · 80 demandes pour ce filtre");
    expect(favre.html).toContain('href="/admin?statut=nouveau&amp;q=favre&amp;page=2"');
    const second = await desk("/admin?statut=nouveau&q=favre&page=2");
    expect(namesOn(second.html)).toHaveLength(30);
    // The CSV is the whole filtered list, whatever the page.
    expect(second.html).toContain('href="/admin/demandes.csv?statut=nouveau&amp;q=favre"');
  });

  it("finds a request by a part of its first name, whole name or e-mail in any case, never across name and e-mail", async () => {
    for (const search of ["PERSONNE007", "personne007 favre", "Personne7@EXAMPLE"]) {
      const found = await desk(`/admin?q=${encodeURIComponent(search)}`);
      expect(namesOn(found.html), search).toEqual([name(7)]);
    }
    // « Favre personne7 » runs from a last name into an e-mail: no request holds it.
    expect(namesOn((await desk("/admin?q=Favre%20personne7")).html)).toEqual([]);
  });

  it("answers the last page past the end and the first for a page that is not a number", async () => {
    const past = await desk("/admin?page=999");
    expect(past.status).toBe(200);
    expect(past.text).toContain("Page 3 sur 3 · 120 demandes");
    expect(namesOn(past.html)).toEqual(Array.from({ length: 20 }, (_, index) => name(20 - index)));
    for (const bad of ["abc", "0", "-1", "2.5", ""]) {
      const page = await desk(`/admin?page=${bad}`);
      expect(page.status, bad).toBe(200);
      expect(page.text, bad).toContain("Page 1 sur 3 · 120 demandes");
    }
  });
});

describe("the subscribers' pages", () => {
  it("shows 50 of 10,000 subscribers in less than 200 KB, with the true counts", async () => {
    const page = await desk("/admin/abonnes?page=2");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Page 2 sur 200 · 10’000 adresses, dont 7’500 confirmées.");
    expect(page.html.match(/Données de cette personne/g)).toHaveLength(50);
    expect(page.html).toContain("abonne9950@example.ch");
    expect(Buffer.byteLength(page.html)).toBeLessThan(200 * 1024);
  });

  it("finds subscribers by a part of their address", async () => {
    const page = await desk("/admin/abonnes?q=abonne999");
    // abonne999 and abonne9990 to abonne9999; 9992 and 9996 are pending.
    expect(page.text).toContain("11 adresses, dont 9 confirmées pour cette recherche.");
    expect(page.html.match(/Données de cette personne/g)).toHaveLength(11);
  });

  it("downloads every subscriber in the CSV, over several batches of the stream", async () => {
    const answer = await deskFetch(site.url, "/admin/abonnes.csv", { jar });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="abonnes-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes.toString("utf8"), { bom: true, delimiter: ";", columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(10_000);
    expect(rows[0]!["E-mail"]).toBe("abonne10000@example.ch");
    expect(rows.at(-1)!["E-mail"]).toBe("abonne1@example.ch");
    expect(new Set(rows.map((row) => row["E-mail"])).size).toBe(10_000);
  });
});

describe("the searches of the articles, sessions and quotes", () => {
  it("finds the articles whose title holds the words, in any case", async () => {
    const page = await desk("/admin/articles?q=ARNAQUES");
    expect(page.text).toContain("2 résultats pour « ARNAQUES »");
    expect(page.text).toContain("Les arnaques au faux support");
    expect(page.text).toContain("Arnaques par SMS : les reconnaître");
    expect(page.text).not.toContain("Sauvegarder ses photos");
    expect(page.html).toMatch(/<label[^>]*for="q"[^>]*>Rechercher un article<\/label>/);
  });

  it("finds the sessions by course title without its accents, or by place", async () => {
    const byCourse = await desk("/admin/cours?q=cafe%20num");
    expect(byCourse.text).toContain("1 résultat pour « cafe num »");
    expect(byCourse.text).toContain("Bibliothèque de Moudon");
    expect(byCourse.text).not.toContain("Salle de Pully");
    const byPlace = await desk("/admin/cours?q=pully");
    expect(byPlace.text).toContain("1 résultat pour « pully »");
    expect(byPlace.text).toContain("Salle de Pully");
    expect(byPlace.text).not.toContain("Bibliothèque de Moudon");
  });

  it("finds the quotes by client or number, and says when nothing matches", async () => {
    const byClient = await desk("/admin/devis?q=nyon");
    expect(byClient.text).toContain("1 résultat pour « nyon »");
    expect(byClient.text).toContain("Paroisse de Nyon");
    expect(byClient.text).not.toMatch(/Bulle|Échallens/);
    const byNumber = await desk("/admin/devis?q=D-2026-003");
    expect(byNumber.text).toContain("Commune d’Échallens");
    expect(byNumber.text).not.toMatch(/Bulle|Nyon/);
    expect((await desk("/admin/devis?q=introuvable")).text).toContain("Aucun résultat pour « introuvable »");
  });
});

describe("the paged addresses are the owner's only", () => {
  it("sends a visitor to the sign-in page, and refuses a data request", async () => {
    for (const path of [
      "/admin?page=2&q=rochat",
      "/Admin/?page=999",
      "/admin/abonnes?page=2&q=abonne",
      "/admin/abonnes/?page=abc",
      "/admin/articles?page=2",
      "/admin/cours?page=2",
      "/admin/factures?etat=ouvertes&page=2",
    ]) {
      const answer = await deskFetch(site.url, path);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location"), path).toMatch(/^\/admin\/connexion/);
      expect(await answer.text(), path).not.toContain("Personne0");
    }
    for (const path of ["/admin.data?page=2", "/admin/abonnes.data?page=2&q=abonne", "/admin/factures.data?page=2"]) {
      const answer = await deskFetch(site.url, path);
      expect(answer.status, path).toBe(401);
      expect(await answer.text(), path).not.toMatch(/Personne0|abonne\d/);
    }
  });
});
