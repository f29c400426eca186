/**
 * The database `npm run bench:scale` measures (scripts/bench-scale.ts):
 * `fillDatabase` writes, through the app's Drizzle schema and in batches of
 * up to 1,000 rows a statement, `articles` articles (about 8 KB of Markdown
 * each, with their HTML, one every three days back from today, every tenth featured), 500
 * course sessions of 20 confirmed registrations each, 20,000 contact
 * requests, 10,000 newsletter subscribers, 2,000 invoices and 300 quotes,
 * each within the retention periods (none is deleted at start), then a
 * desk owner (password and TOTP, as `npm run owner:add` makes one). The
 * names and addresses are numbered (`slugOf`, `SEARCHED`), so a search
 * finds a known handful.
 */
import fs from "node:fs";
import { inArray } from "drizzle-orm";
import { htmlColumnsOf } from "../app/blog/articles.server";
import { articlesDirectory } from "../app/blog/directory.server";
import { openDatabase } from "../app/db/client.server";
import {
  articles,
  contacts,
  courseRegistrations,
  courseSessions,
  invoiceNumbers,
  invoices,
  newsletterSubscribers,
  quotes,
} from "../app/db/schema";
import { invoiceReference } from "../app/invoices/invoices.server";
import { CONSENT_VERSION } from "../app/newsletter/words";
import { archiveArticleBody, createOwner, exampleCreditor, type TestOwner } from "../tests/support/harness";

/** The sizes the issue names (issue 34, « Must show »), and the invoices and quotes of a busy practice. */
export const SIZES = {
  sessions: 500,
  perSession: 20,
  requests: 20_000,
  subscribers: 10_000,
  invoices: 2_000,
  quotes: 300,
};

/** A word only the rows numbered 1 to 9 (and 10 to 99…) carry in their name: « Dupont-7 ». */
export const SEARCHED = "Dupont-7";

export const slugOf = (n: number) => `article-archive-${n}`;

const DAY = 86_400_000;
const HALF_HOUR = 1_800_000;
/** The subscribers still to confirm: one in five of the newest 500 (older ones go after 30 days, app/desk/retention.server.ts). */
const pending = (n: number) => n > SIZES.subscribers - 500 && n % 5 === 0;
const CATEGORIES = ["Sécurité", "Applications", "Intelligence artificielle", "Smartphone"];
const COURSES = ["securite", "intelligence-artificielle", "applications-mobiles", "cafe-numerique"];
const SERVICES = ["small-group", "one-to-one-course", "one-to-one-support"];
const STATUSES = ["nouveau", "a-rappeler", "en-cours", "termine"];

/** Inserts `count` rows made by `row(n)` (n from 1), `size` rows a statement. */
async function batches<T>(count: number, row: (n: number) => T, insert: (rows: T[]) => Promise<unknown>, size = 1000) {
  for (let start = 1; start <= count; start += size)
    await insert(Array.from({ length: Math.min(size, count - start + 1) }, (_, index) => row(start + index)));
}

const iso = (ms: number) => new Date(ms).toISOString();
const phone = (n: number) => `079 ${String(100 + (n % 900))} ${String(10 + (n % 90))} ${String(10 + ((n * 7) % 90))}`;
const e164 = (text: string) => `+41${text.replace(/\D/g, "").slice(1)}`;

const CREDITOR = exampleCreditor("CH4431999123000889012", true);
const LINES = [{ label: "Assistance informatique à domicile", quantity: 1.5, unitCentimes: 9500 }];

/** How many rows the filled database holds, read back from it: what the desk's counts must say. */
export interface Held {
  articles: number;
  sessions: number;
  requests: number;
  subscribers: number;
  invoices: number;
  quotes: number;
}

/**
 * Fills the database of `env` (`DATA_DIR` of a stopped site, or
 * `DATABASE_URL`) to `articleCount` articles and `SIZES`, then makes the
 * owner. Resolves with the owner (to sign in with `signIn`) and what the
 * desk will count (the migrations' rows and the shipped articles included).
 * @throws the driver's error (the database must be fresh: the rows' keys are fixed).
 */
export async function fillDatabase(
  env: { DATA_DIR?: string; DATABASE_URL?: string },
  articleCount: number,
): Promise<{ owner: TestOwner; held: Held }> {
  const database = await openDatabase({ dataDir: env.DATA_DIR ?? "unused", databaseUrl: env.DATABASE_URL });
  const now = Date.now();
  try {
    const { db } = database;
    const dateOf = (n: number) => iso(now - (articleCount - n) * 3 * DAY).slice(0, 10);
    await batches(
      articleCount,
      (n) => ({
        slug: slugOf(n),
        title: `Article ${n} : un guide pas à pas`,
        excerpt: `Ce que l’article ${n} explique, en deux phrases simples pour savoir s’il vous sera utile.`,
        category: CATEGORIES[n % CATEGORIES.length]!,
        author: "Marie Dupont",
        body: archiveArticleBody(n),
        // Its HTML, as the desk stores it with the text (decision 067).
        ...htmlColumnsOf(archiveArticleBody(n)),
        icon: "ShieldAlert",
        color: "primary",
        featured: n % 10 === 0,
        readTime: 6,
        date: dateOf(n),
        publishedAt: `${dateOf(n)}T00:00:00Z`,
      }),
      (rows) => db.insert(articles).values(rows),
      250,
    );
    // Sessions: from 15 months ago to 8 months ahead (within the retention), every ~1.4 days, full with 20 registrations.
    const sessionIds: number[] = [];
    await batches(
      SIZES.sessions,
      (n) => ({
        courseId: COURSES[n % COURSES.length]!,
        startsAt: iso(now + Math.round((n - (SIZES.sessions * 2) / 3) * 1.4 * DAY)),
        durationMinutes: 90,
        placeName: `Salle communale ${n}`,
        placeAddress: "Rue du Centre 4, 1800 Vevey",
        capacity: SIZES.perSession,
        priceChf: 55,
        seatsTaken: SIZES.perSession,
      }),
      async (rows) =>
        sessionIds.push(
          ...(await db.insert(courseSessions).values(rows).returning({ id: courseSessions.id })).map((s) => s.id),
        ),
    );
    await batches(
      SIZES.sessions * SIZES.perSession,
      (n) => ({
        sessionId: sessionIds[(n - 1) % SIZES.sessions]!,
        status: "confirmed",
        seats: 1,
        firstName: "Jeanne",
        lastName: `Dupont-${n}`,
        phone: phone(n),
        phoneE164: e164(phone(n)),
        email: n % 4 ? `personne-${n}@example.ch` : null,
        createdAt: iso(now - (SIZES.sessions * SIZES.perSession - n) * 3_600_000),
      }),
      (rows) => db.insert(courseRegistrations).values(rows),
    );
    await batches(
      SIZES.requests,
      (n) => ({
        firstName: "Marc",
        lastName: `Dupont-${n}`,
        email: `demande-${n}@example.ch`,
        phone: phone(n),
        phoneE164: e164(phone(n)),
        service: SERVICES[n % SERVICES.length]!,
        message: `Bonjour, j’aimerais de l’aide pour mon téléphone (demande ${n}). Merci d’avance.`,
        contactConsent: true,
        consentTimestamp: iso(now - (SIZES.requests - n) * HALF_HOUR),
        createdAt: iso(now - (SIZES.requests - n) * HALF_HOUR),
        lastActivityAt: iso(now - (SIZES.requests - n) * HALF_HOUR),
        // As in a kept inbox: the newest 30 new, the 70 before them being worked on, every older one done.
        status: n > SIZES.requests - 30 ? "nouveau" : n > SIZES.requests - 100 ? STATUSES[1 + (n % 2)]! : "termine",
      }),
      (rows) => db.insert(contacts).values(rows),
    );
    await batches(
      SIZES.subscribers,
      (n) => ({
        email: `abonne-${n}@example.ch`,
        status: pending(n) ? "pending" : "confirmed",
        source: "blog",
        consentVersion: CONSENT_VERSION,
        requestedAt: iso(now - (SIZES.subscribers - n) * HALF_HOUR),
        confirmedAt: pending(n) ? null : iso(now - (SIZES.subscribers - n) * HALF_HOUR + 60_000),
        createdAt: iso(now - (SIZES.subscribers - n) * HALF_HOUR),
      }),
      (rows) => db.insert(newsletterSubscribers).values(rows),
    );
    // Invoices: 500 a year over the last four years, the older ones paid.
    const year = new Date(now).getUTCFullYear();
    const perYear = SIZES.invoices / 4;
    await batches(
      SIZES.invoices,
      (n) => {
        const [y, sequence] = [year - 3 + Math.floor((n - 1) / perYear), ((n - 1) % perYear) + 1];
        const issuedOn = `${y}-${String(1 + Math.floor((sequence - 1) / (perYear / 11))).padStart(2, "0")}-10`;
        const paid = n <= SIZES.invoices - 100;
        return {
          year: y,
          sequence,
          number: `${y}-${String(sequence).padStart(3, "0")}`,
          status: paid ? "paid" : "open",
          clientKind: "person",
          clientName: `Jeanne Dupont-${n}`,
          street: "Rue du Lac",
          buildingNumber: "12",
          postalCode: "1800",
          locality: "Vevey",
          email: `facture-${n}@example.ch`,
          lines: LINES,
          totalCentimes: 14250,
          issuedOn,
          dueOn: issuedOn.replace(/-10$/, "-28"),
          reference: invoiceReference(y, sequence, CREDITOR.qrIban),
          creditor: CREDITOR,
          paidOn: paid ? issuedOn.replace(/-10$/, "-20") : null,
          paidBy: paid ? "virement" : null,
        };
      },
      (rows) => db.insert(invoices).values(rows),
    );
    await db
      .insert(invoiceNumbers)
      .values([0, 1, 2, 3].map((back) => ({ year: year - back, last: perYear })))
      .onConflictDoNothing();
    await batches(
      SIZES.quotes,
      (n) => ({
        year,
        sequence: n,
        number: `D-${year}-${String(n).padStart(3, "0")}`,
        status: (["draft", "sent", "accepted", "refused"] as const)[n % 4]!,
        clientName: `Club des aînés Dupont-${n}`,
        street: "Rue du Lac",
        postalCode: "1800",
        locality: "Vevey",
        email: `club-${n}@example.ch`,
        groupSize: 12,
        lines: LINES,
        totalCentimes: 14250,
        issuedOn: iso(now - (SIZES.quotes - n) * DAY).slice(0, 10),
        validUntil: iso(now + 30 * DAY).slice(0, 10),
        courseId: COURSES[n % COURSES.length]!,
        startsAt: iso(now + 40 * DAY),
        durationMinutes: 120,
        placeName: "Salle du club",
        placeAddress: "Rue du Lac 12, 1800 Vevey",
        creditor: CREDITOR,
      }),
      (rows) => db.insert(quotes).values(rows),
    );
    const owner = await createOwner(db);
    const rows = async (table: Parameters<typeof db.$count>[0]) => db.$count(table);
    // The server adds the shipped Markdown articles (app/content/blog/, slug = file name) at start, those the
    // database does not hold yet (a copy of the tests' template already does): the desk counts them too.
    const shippedSlugs = fs
      .readdirSync(articlesDirectory())
      .filter((name) => name.endsWith(".md"))
      .map((name) => name.slice(0, -".md".length));
    const heldShipped = shippedSlugs.length ? await db.$count(articles, inArray(articles.slug, shippedSlugs)) : 0;
    const held = {
      articles: (await rows(articles)) + shippedSlugs.length - heldShipped,
      sessions: await rows(courseSessions),
      requests: await rows(contacts),
      subscribers: await rows(newsletterSubscribers),
      invoices: await rows(invoices),
      quotes: await rows(quotes),
    };
    return { owner, held };
  } finally {
    await database.close();
  }
}
