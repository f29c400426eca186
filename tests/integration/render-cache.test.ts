/**
 * The render cache of public pages (server/render-cache.ts) on real
 * servers: two processes sharing one PostgreSQL hear each other's changes
 * (a seat booked on one shows on the other's cached pages and drops its
 * kept `/cours.data`, with no expiry;
 * a session cancelled in the desk likewise; a lost LISTEN connection
 * neither leaves a stale page nor multiplies itself while it comes back).
 * One process on PGlite: render-cache-pglite.test.ts.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import * as schema from "../../app/db/schema";
import {
  bookingForm as booking,
  createOwner,
  deskFetch,
  placesShown,
  postBooking as book,
  postgresBinaries,
  sessionFields,
  signIn,
  spawnSite,
  startPostgres,
  waitFor,
  type SpawnedSite,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { expectCached, untilShown } from "./render-cache-support";

describe.skipIf(!postgresBinaries())("two server processes sharing one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let a: SpawnedSite;
  let b: SpawnedSite;
  let pool: pg.Pool;
  let db: Database;
  /** LISTEN connections of the sites (the query a connection ran last). */
  const listeners = async () =>
    Number(
      (await pool.query<{ n: string }>("select count(*) as n from pg_stat_activity where query ilike 'LISTEN%'"))
        .rows[0]!.n,
    );

  beforeAll(async () => {
    postgres = await startPostgres({ own: true }); // stopped by the last test
    [a, b] = [
      await spawnSite({ DATABASE_URL: postgres.url, RENDER_CACHE_WARM_UP: "1" }),
      await spawnSite({ DATABASE_URL: postgres.url, RENDER_CACHE_WARM_UP: "1" }),
    ];
    await Promise.all([a.ready(), b.ready()]);
    pool = new pg.Pool({ connectionString: postgres.url });
    // Its idle connections are ended when PostgreSQL stops (the last test): not an error of the test.
    pool.on("error", () => {});
    db = drizzle(pool, { schema }) as unknown as Database;
    await waitFor(async () => (await listeners()) === 2, 10_000, "both sites listening");
    // The warm-up renders every page of the sitemap: measured times start once it is over.
    await waitFor(
      () =>
        [a, b].every((site) =>
          site.log.some((line) => line.includes("render cache: ") && line.includes("pages ready")),
        ),
      60_000,
      "both sites warmed up",
    );
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await pool?.end();
    postgres?.destroy();
  });

  it("keeps the warm-up's first pages before it answers a request (decision 075)", () => {
    for (const site of [a, b]) {
      const head = site.log.findIndex((line) => /render cache: \d+ first pages kept before listening/.test(line));
      const ready = site.log.findIndex((line) => line.includes("Site ready on"));
      expect(head, site.log.join("\n")).toBeGreaterThan(-1);
      expect(head).toBeLessThan(ready);
      // `/`, `/cours`, `/blog`, the sitemap, and a course's page at least.
      expect(Number(/(\d+) first pages kept/.exec(site.log[head]!)![1])).toBeGreaterThanOrEqual(5);
    }
  });

  it("shows a seat booked on process A on process B's cached pages", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({
        courseId: "applications-mobiles",
        startsAt: zurichToUtc(`${COURSE_YEAR}-02-01`, "14:00"),
        capacity: 8,
      }),
    );
    for (const page of ["/", "/cours/applications-mobiles"]) {
      expect(placesShown(await expectCached(b.url, page), sessionId), page).toBe("8 places restantes");
    }
    // A click's data, kept beside its page under the same tags.
    const dataBefore = await expectCached(b.url, "/cours.data");
    const etagBefore = (await fetch(`${b.url}/cours.data`)).headers.get("etag");
    const answer = await book(a.url, "applications-mobiles", booking(sessionId, 1));
    expect(answer.status).toBe(303);
    await untilShown(b.url, ["/", "/cours/applications-mobiles"], sessionId, "7 places restantes");
    // B dropped its /cours.data too (a kept entry has no expiry here): its next answer is a new render, kept again.
    const dataAfter = await expectCached(b.url, "/cours.data");
    expect(dataAfter).not.toBe(dataBefore);
    expect((await fetch(`${b.url}/cours.data`)).headers.get("etag")).not.toBe(etagBefore);
    // And B keeps the new page again.
    expect(placesShown(await expectCached(b.url, "/cours/applications-mobiles"), sessionId)).toBe("7 places restantes");
  });

  it("drops a session cancelled in the desk on B from A's cached pages", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({
        courseId: "securite",
        startsAt: zurichToUtc(`${COURSE_YEAR}-02-02`, "14:00"),
        placeName: "Salle Annulable",
      }),
    );
    for (const page of ["/cours", "/cours/securite"]) {
      expect(placesShown(await expectCached(a.url, page), sessionId), page).toBe("8 places restantes");
    }
    const owner = await createOwner(postgres.url, "render-cache-owner@example.ch");
    const jar = await signIn(b.url, owner);
    const cancelled = await deskFetch(b.url, `/admin/cours/${sessionId}`, {
      jar,
      form: { intent: "cancel-session", confirm: "oui" },
    });
    expect(cancelled.status).toBe(200);
    await waitFor(
      async () => {
        for (const page of ["/cours", "/cours/securite"]) {
          if ((await fetch(`${a.url}${page}`).then((res) => res.text())).includes("Salle Annulable")) return false;
        }
        return true;
      },
      30_000,
      "the cancelled session gone from A's pages",
    );
  });

  it("shows prices saved in Réglages on B on every cached page of A", async () => {
    const price = (html: string) => html.includes("CHF 125.–");
    for (const page of ["/", "/questions"]) expect(price(await expectCached(a.url, page)), page).toBe(false);
    const owner = await createOwner(postgres.url, "render-cache-reglages@example.ch");
    const jar = await signIn(b.url, owner);
    const saved = await deskFetch(b.url, "/admin/reglages", {
      jar,
      form: {
        section: "prices",
        "prices-small-group": "55",
        "prices-one-to-one-course": "125",
        "prices-one-to-one-support": "70",
      },
    });
    expect(saved.status).toBe(303);
    await waitFor(
      async () => {
        for (const page of ["/", "/questions"])
          if (!price(await fetch(`${a.url}${page}`).then((res) => res.text()))) return false;
        return true;
      },
      30_000,
      "the new price on A's pages",
    );
    // The JSON-LD of / says it too, and A keeps the new page again.
    const home = await expectCached(a.url, "/");
    const jsonLd = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(home)![1]!;
    expect(JSON.stringify(JSON.parse(jsonLd))).toContain('"priceRange":"CHF 55–125"');
  });

  it("shows a change made while B's LISTEN connection is lost, and keeps pages again once it listens", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({ courseId: "intelligence-artificielle", startsAt: zurichToUtc(`${COURSE_YEAR}-02-03`, "14:00") }),
    );
    const page = "/cours/intelligence-artificielle";
    expect(placesShown(await expectCached(b.url, page), sessionId)).toBe("8 places restantes");

    const killed = await pool.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'LISTEN%' and pid <> pg_backend_pid()",
    );
    expect(killed.rowCount).toBe(2);
    await waitFor(() => b.log.some((line) => line.includes("lost the database's announcements")), 30_000, "B's loss");
    // Booked while the sites do not hear the database (or just after they listen again): no announcement reaches B.
    const answer = await book(a.url, "intelligence-artificielle", booking(sessionId, 2));
    expect(answer.status).toBe(303);
    await untilShown(b.url, [page], sessionId, "7 places restantes");

    // Listening again: pages are kept, and a change is heard again.
    await waitFor(async () => (await listeners()) === 2, 10_000, "both sites listening again");
    await waitFor(() => b.log.some((line) => line.includes("render cache: listening again")), 30_000, "B's log");
    expect(placesShown(await expectCached(b.url, page), sessionId)).toBe("7 places restantes");
    expect((await book(a.url, "intelligence-artificielle", booking(sessionId, 3))).status).toBe(303);
    await untilShown(b.url, [page], sessionId, "6 places restantes");
  });

  // Last: PostgreSQL stops under the sites.
  it("comes back with one LISTEN connection per process after PostgreSQL was down, and hears changes again", async () => {
    const [aLines, bLines] = [a.log.length, b.log.length];
    const relistened = (site: SpawnedSite, from: number) =>
      site.log.slice(from).filter((line) => line.includes("render cache: listening again")).length;
    postgres.stop();
    // Long enough for a few failed attempts (after 250, 500, 1000 ms...).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    postgres.start();
    await waitFor(async () => (await listeners().catch(() => 0)) >= 2, 30_000, "the sites listening again");
    // Each failed attempt must not go on into a connection of its own: those came 1.5 s and 3.5 s later.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(await listeners()).toBe(2);
    expect([relistened(a, aLines), relistened(b, bLines)]).toEqual([1, 1]);

    const sessionId = await createSession(
      db,
      sessionFields({ courseId: "cafe-numerique", startsAt: zurichToUtc(`${COURSE_YEAR}-02-04`, "14:00") }),
    );
    const page = "/cours/cafe-numerique";
    expect(placesShown(await expectCached(b.url, page), sessionId)).toBe("8 places restantes");
    expect((await book(a.url, "cafe-numerique", booking(sessionId, 4))).status).toBe(303);
    await untilShown(b.url, [page], sessionId, "7 places restantes");
  }, 60_000);
});
