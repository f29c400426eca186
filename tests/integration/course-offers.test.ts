/**
 * Offers of a freed seat (issue 30, item 1; decision 049) on two server
 * processes sharing one PostgreSQL: a series of 4 dates with 2 seats, full,
 * 3 waiting. A cancellation offers the seat to the first; she lets it
 * expire (the offer job run at a fixed moment past the hold, by two
 * database connections at once, as two processes' timers would); the
 * second accepts (20 clicks at once, spread over both processes, take the
 * seat once); after another cancellation the third declines. At each step
 * every date holds exactly the confirmed seats and the freed seat has one
 * holder at most; each person gets one offer mail, the second one
 * confirmation. The link's page never acts on GET, nor on a post the
 * public-action guards refuse (another origin, the honeypot), however the
 * path is spelt.
 */
import { and, eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOfferJob } from "../../app/courses/offer-job.server";
import { createSeries } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import * as schema from "../../app/db/schema";
import { courseOffers, courseRegistrations, courseSessions, outbox } from "../../app/db/schema";
import { postgresBinaries, sessionFields, spawnSite, startPostgres, type SpawnedSite } from "../support/harness";
import { DAYS, readable, register, registration } from "./course-series-support";
import { zurichToUtc } from "../../app/courses/sessions.server";

const form = { "Content-Type": "application/x-www-form-urlencoded" };

describe.skipIf(!postgresBinaries())("offers of a freed seat on two processes sharing one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let sites: SpawnedSite[] = [];
  const pools: pg.Pool[] = [];
  let db: Database;
  let other: Database;
  let sessionIds: number[];
  /** The registration link of each person, by last name. */
  const links = new Map<string, string>();
  /** The registration id of each person, by last name. */
  const ids = new Map<string, number>();

  beforeAll(async () => {
    postgres = await startPostgres();
    sites = [await spawnSite({ DATABASE_URL: postgres.url }), await spawnSite({ DATABASE_URL: postgres.url })];
    await Promise.all(sites.map((site) => site.ready()));
    for (let n = 0; n < 2; n++) pools.push(new pg.Pool({ connectionString: postgres.url }));
    db = drizzle(pools[0]!, { schema }) as unknown as Database;
    other = drizzle(pools[1]!, { schema }) as unknown as Database;
    ({ sessionIds } = await createSeries(
      db,
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90, capacity: 2, priceChf: 180 }),
      DAYS.map((day) => zurichToUtc(day, "14:00")),
    ));
    // Two confirmed (Série 1, Série 2), then three waiting (Série 3, 4, 5), in that order.
    for (let n = 1; n <= 5; n++) {
      const answer = await register(sites[n % 2]!.url, registration(sessionIds[0]!, n));
      expect(answer.status).toBe(303);
      links.set(`Série ${n}`, answer.headers.get("location")!);
    }
    const rows = await db.select().from(courseRegistrations).where(eq(courseRegistrations.sessionId, sessionIds[0]!));
    for (const row of rows) ids.set(row.lastName, row.id);
    expect(rows.map((row) => row.status)).toEqual(["confirmed", "confirmed", "waiting", "waiting", "waiting"]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await Promise.all(pools.map((pool) => pool.end()));
    postgres?.destroy();
  });

  /** Seats taken on each date of the series. */
  const seatsTaken = async () =>
    (
      await db
        .select({ taken: courseSessions.seatsTaken })
        .from(courseSessions)
        .where(inArray(courseSessions.id, sessionIds))
    ).map((row) => row.taken);

  /** Each person's registration state, by last name. */
  const states = async () =>
    Object.fromEntries(
      (
        await db
          .select({ name: courseRegistrations.lastName, status: courseRegistrations.status })
          .from(courseRegistrations)
          .where(eq(courseRegistrations.sessionId, sessionIds[0]!))
      ).map((row) => [row.name, row.status]),
    );

  /** The offers, oldest first: whose, and in which state. */
  const offers = async () =>
    (await db.select().from(courseOffers).orderBy(courseOffers.id)).map((offer) => ({
      to: [...ids].find(([, id]) => id === offer.registrationId)![0],
      state: offer.state,
      holdUntil: offer.holdUntil,
    }));

  /** Mails of `kind` to person n (jeanne{n}@example.ch). */
  const mailsTo = (n: number, kind: string) =>
    db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, `jeanne${n}@example.ch`), eq(outbox.kind, kind)));

  /** The offer link person n was mailed (the path). */
  async function offerLinkOf(n: number): Promise<string> {
    const [mail] = await mailsTo(n, "booking-offer");
    const path = /\/cours\/place\/[A-Za-z0-9_-]{43}/.exec(mail!.textBody ?? "")?.[0];
    expect(path).toBeDefined();
    return path!;
  }

  /** The confirmed seats' sum on the registrations; every date must hold exactly that. */
  async function expectSeats(taken: number) {
    expect(await seatsTaken()).toEqual(Array(sessionIds.length).fill(taken));
    const confirmed = Object.values(await states()).filter((status) => status === "confirmed").length;
    expect(confirmed).toBe(taken);
    // The freed seats have one holder each at most: the confirmed, plus the open offers, never above capacity.
    const open = (await offers()).filter((offer) => offer.state === "open").length;
    expect(taken + open).toBeLessThanOrEqual(2);
  }

  const post = (url: string, body: string) =>
    fetch(url, { method: "POST", headers: { ...form, Origin: new URL(url).origin }, body, redirect: "manual" });

  it("offers, lets expire, is accepted once among 20 clicks, is declined: one holder per seat, each told once", async () => {
    // 1. Série 1 cancels: the seat is offered to Série 3, the first who waits; a GET of her link changes nothing.
    expect((await post(`${sites[0]!.url}${links.get("Série 1")}`, "intent=cancel&website=")).status).toBe(200);
    expect(await offers()).toMatchObject([{ to: "Série 3", state: "open" }]);
    await expectSeats(1);
    const third = await offerLinkOf(3);
    const page = await fetch(`${sites[1]!.url}${third}?reponse=oui`);
    expect(page.status).toBe(200);
    const text = readable(await page.text());
    expect(text).toContain("Une place s’est libérée pour vous");
    expect(text).toContain("Je prends la place");
    expect(text).toContain("Je ne peux plus");
    expect(await offers()).toMatchObject([{ to: "Série 3", state: "open" }]);

    // 2. The hold passes (a fixed moment after it): the job, on two connections at once, expires it once
    //    and offers the seat to Série 4, once.
    const holdUntil = (await offers())[0]!.holdUntil;
    const later = new Date(new Date(holdUntil).getTime() + 1000);
    const runs = await Promise.all([db, other].map((on) => runOfferJob(on, later, { siteUrl: sites[0]!.url })));
    expect(runs.reduce((sum, run) => sum + run.expired, 0)).toBe(1);
    expect(runs.reduce((sum, run) => sum + run.offered, 0)).toBe(1);
    expect(await offers()).toMatchObject([
      { to: "Série 3", state: "expired" },
      { to: "Série 4", state: "open" },
    ]);
    expect((await states())["Série 3"]).toBe("cancelled");
    await expectSeats(1);
    // Her link now says the hold passed, and a click changes nothing.
    expect(readable(await (await fetch(`${sites[0]!.url}${third}`)).text())).toContain(
      "Le délai pour répondre est passé",
    );
    const late = await post(`${sites[0]!.url}${third}`, "intent=accept&website=");
    expect(late.status).toBe(409);
    expect(readable(await late.text())).toContain("la place a été proposée à la personne suivante");
    await expectSeats(1);

    // 3. Série 4 accepts: 20 clicks at once over both processes take the seat once. First, posts the
    //    public-action guards refuse take nothing, whatever the spelling of the path: another site's page,
    //    the honeypot filled (a bot).
    const fourth = await offerLinkOf(4);
    const foreign = await fetch(`${sites[0]!.url}${fourth}`, {
      method: "POST",
      headers: { ...form, Origin: "https://ailleurs.example" },
      body: "intent=accept&website=",
      redirect: "manual",
    });
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    for (const spelling of [fourth.replace("/cours/place/", "/Cours/Place/"), `${fourth}/`, `${fourth}.data`]) {
      const bot = await post(`${sites[1]!.url}${spelling}`, "intent=accept&website=rempli");
      expect(bot.status, spelling).toBeLessThan(500);
      expect(bot.headers.get("location") ?? "", spelling).not.toMatch(/inscription/);
    }
    // Any other method, even with a valid form and the path spelled otherwise, is refused (405).
    for (const method of ["PUT", "PATCH", "DELETE"])
      for (const spelling of [fourth, fourth.replace("/cours/", "/%63ours/")]) {
        const other = await fetch(`${sites[0]!.url}${spelling}`, {
          method,
          headers: { ...form, Origin: new URL(sites[0]!.url).origin },
          body: "intent=accept&website=",
          redirect: "manual",
        });
        expect(other.status, `${method} ${spelling}`).toBe(405);
      }
    expect((await offers())[1]!.state).toBe("open");
    await expectSeats(1);
    const clicks = await Promise.all(
      Array.from({ length: 20 }, (_, n) => post(`${sites[n % 2]!.url}${fourth}`, "intent=accept&website=")),
    );
    const statuses = clicks.map((click) => click.status).sort();
    expect(statuses.filter((status) => status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(clicks.find((click) => click.status === 303)!.headers.get("location")).toMatch(/^\/cours\/inscription\//);
    expect((await states())["Série 4"]).toBe("confirmed");
    await expectSeats(2);
    expect(await mailsTo(4, "booking-confirmation")).toHaveLength(1);
    const [confirmation] = await mailsTo(4, "booking-confirmation");
    expect(confirmation!.attachments).toHaveLength(1);

    // 4. Série 2 cancels: Série 5 is offered the seat, and declines (« Je ne peux plus »): she leaves the list.
    expect((await post(`${sites[1]!.url}${links.get("Série 2")}`, "intent=cancel&website=")).status).toBe(200);
    await expectSeats(1);
    const fifth = await offerLinkOf(5);
    const declined = await post(`${sites[0]!.url}${fifth}`, "intent=decline&website=");
    expect(declined.status).toBe(200);
    expect(readable(await declined.text())).toContain("la place va à une autre personne");
    expect(await offers()).toMatchObject([
      { to: "Série 3", state: "expired" },
      { to: "Série 4", state: "accepted" },
      { to: "Série 5", state: "declined" },
    ]);
    expect(await states()).toMatchObject({ "Série 4": "confirmed", "Série 5": "cancelled" });
    await expectSeats(1);
    // The job finds nothing more to do (nobody waits): no offer, no mail.
    expect(await runOfferJob(db, later, { siteUrl: sites[0]!.url })).toEqual({ expired: 0, offered: 0 });

    // Each person waiting was offered the seat once; only the one who accepted was confirmed.
    for (const n of [3, 4, 5]) expect(await mailsTo(n, "booking-offer")).toHaveLength(1);
    for (const n of [3, 5]) expect(await mailsTo(n, "booking-confirmation")).toHaveLength(0);
  });
});
