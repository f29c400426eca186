/**
 * The limits on what one person can book (issue 22 item 5, decision 028),
 * against the running site, on every door of the registration action: each
 * spelling of `/cours/{slug}` that React Router resolves to it, posted as a
 * browser without JavaScript does (a form, answered 303) and as the client
 * router does with JavaScript (the same path with `.data`). The client
 * address is the one the doors see: the server trusts `X-Forwarded-For`
 * from loopback (`trust proxy`), as behind the site's proxy.
 *
 * The issue's figures, before (the caps set out of reach) and after (the
 * defaults): one address, five posts of two seats on a 40-seat session took
 * 10 seats, now 6; twelve addresses naming the same stranger as the
 * « proche » queued 24 mails to the stranger, now 10, the twelve
 * registrations kept and the owner told once. No log line names the
 * stranger's address nor a client address. On two server processes sharing
 * one PostgreSQL, posts sent at once meet both caps exactly.
 */
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingMessages } from "../../app/courses/schema";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import * as schema from "../../app/db/schema";
import { courseRegistrations, courseSessions, outbox } from "../../app/db/schema";
import { MAIL_HELD_NOTICE } from "../../app/mail/recipient-cap.server";
import {
  createOwner,
  deskFetch,
  pageText,
  postgresBinaries,
  sendRaw,
  sessionFields,
  signIn,
  spawnSite,
  startPostgres,
  startTestServer,
  type SpawnedSite,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";

/** Spellings of /cours/securite that React Router resolves to the course route. */
const SPELLINGS = [
  "/cours/securite",
  "/Cours/securite",
  "/COURS/securite/",
  "/cours/securite/",
  "/%63ours/securite",
  "/cours/%73ecurite",
  "/./cours/securite",
  "/blog/../cours/securite",
  "/%2e/cours/securite",
  "/cours/securite?index",
];
/** The same path as the client router posts it with JavaScript (single fetch: `.data`). */
const withJavaScript = (pathname: string) => {
  const [path, query] = pathname.split("?");
  return `${path!.replace(/\/$/, "")}.data${query ? `?${query}` : ""}`;
};
/** Every door: each spelling without JavaScript, then with. */
const DOORS = SPELLINGS.flatMap((pathname) => [pathname, withJavaScript(pathname)]);

/** A registration's form for a new person `n` (a telephone of their own). */
const registration = (sessionId: number, n: number, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    sessionId: String(sessionId),
    firstName: "Marie",
    lastName: `Dupont ${n}`,
    phone: `079 3${String(n).padStart(6, "0")}`,
    email: "",
    seats: "1",
    website: "",
    ...extra,
  }).toString();

/** The relative's fields, naming `email`. */
const relative = (n: number, email: string) => ({
  bookerFirstName: "Luc",
  bookerLastName: "Proche",
  bookerPhone: `021 4${String(n).padStart(6, "0")}`,
  bookerEmail: email,
});

/** Whether an answer is a registration taken: 303 without JavaScript, the single-fetch redirect with. */
const registered = (answer: { status: number; text: string }, pathname: string) =>
  pathname.includes(".data")
    ? answer.status === 202 && answer.text.includes("/cours/inscription/")
    : answer.status === 303;

/** POSTs `body` on `pathname` from the client address `address`. */
const post = (url: string, pathname: string, body: string, address: string) =>
  sendRaw(url, "POST", pathname, { body, headers: { "X-Forwarded-For": address } });

/** A site of a `describe` block, with `settings`, its log lines kept. */
function siteForBlock(settings: Record<string, string>) {
  const block = {} as { site: Awaited<ReturnType<typeof startTestServer>>; db: Database; logs: string[] };
  beforeAll(async () => {
    block.logs = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void block.logs.push(line) });
    block.site = await startTestServer(settings, logger);
    block.db = block.site.database.db;
  }, 120_000);
  afterAll(async () => block.site?.close());
  return block;
}

const seatsTaken = async (db: Database, sessionId: number) =>
  (await db.select().from(courseSessions).where(eq(courseSessions.id, sessionId)))[0]!.seatsTaken;
const registrationsOf = async (db: Database, sessionId: number) =>
  db.select().from(courseRegistrations).where(eq(courseRegistrations.sessionId, sessionId));
const mailsTo = async (db: Database, address: string) =>
  db
    .select()
    .from(outbox)
    .where(sql`lower(${outbox.recipient}) = ${address}`);
const notices = async (db: Database) => db.select().from(outbox).where(eq(outbox.kind, MAIL_HELD_NOTICE));

describe("the registration action's limits behind every door (caps shortened)", () => {
  const block = siteForBlock({ BOOKING_SEATS_PER_ADDRESS_PER_DAY: "4", MAILS_PER_RECIPIENT_PER_DAY: "3" });

  it("runs the action on every door: an empty form gets the French messages", async () => {
    for (const pathname of DOORS) {
      const answer = await post(block.site.url, pathname, "sessionId=&firstName=&website=", "192.0.2.1");
      expect(answer.status, pathname).toBe(400);
      expect(answer.text, pathname).toContain("Le prénom doit contenir au moins 2 caractères");
    }
  });

  /** The session of the seats' test, whose four registrations from one address the desk flags. */
  let burstSessionId = 0;

  it("counts every door against one address's seats of the day: past them, refused with the French message, nothing written", async () => {
    const sessionId = await createSession(block.db, sessionFields({ capacity: 40 }));
    burstSessionId = sessionId;
    const outcomes: string[] = [];
    for (const [n, pathname] of DOORS.entries()) {
      const answer = await post(block.site.url, pathname, registration(sessionId, n), "203.0.113.50");
      if (registered(answer, pathname)) outcomes.push("registered");
      else {
        expect(answer.status, pathname).toBe(429);
        expect(answer.text, pathname).toContain(bookingMessages.addressLimit);
        outcomes.push("refused");
      }
    }
    expect(outcomes).toEqual([...Array(4).fill("registered"), ...Array(DOORS.length - 4).fill("refused")]);
    expect(await seatsTaken(block.db, sessionId)).toBe(4);
    expect(await registrationsOf(block.db, sessionId)).toHaveLength(4);
    // Another address is not concerned.
    const neighbour = await post(block.site.url, "/cours/securite", registration(sessionId, 99), "203.0.113.51");
    expect(neighbour.status).toBe(303);
  });

  it("flags the burst on the desk's session page: the four registrations from one address, not the neighbour's", async () => {
    const jar = await signIn(block.site.url, await createOwner(block.db));
    const page = pageText(await (await deskFetch(block.site.url, `/admin/cours/${burstSessionId}`, { jar })).text());
    expect(page).toContain("Inscriptions depuis une même connexion");
    expect(page).toMatch(
      /Connexion 1 ?, le \d+ \S+ \d{4} : 4 inscriptions \(Marie Dupont 0, Marie Dupont 1, Marie Dupont 2, Marie Dupont 3\)/,
    );
    expect(page.split("Même connexion que d’autres inscriptions (connexion 1)")).toHaveLength(5);
    expect(page).not.toContain("Marie Dupont 99)");
    expect(page).not.toContain("connexion 2");
  });

  it("caps the mails to one relative named on every door from as many addresses, keeps every registration, tells the owner once", async () => {
    const sessionId = await createSession(
      block.db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-01-19`, "14:00"), capacity: 40 }),
    );
    const stranger = "proche.inconnue@example.net";
    for (const [n, pathname] of DOORS.entries()) {
      const answer = await post(
        block.site.url,
        pathname,
        registration(sessionId, 100 + n, relative(n, stranger)),
        `198.51.100.${n + 1}`,
      );
      expect(registered(answer, pathname), `${pathname}: ${answer.status}`).toBe(true);
    }
    expect(await registrationsOf(block.db, sessionId)).toHaveLength(DOORS.length);
    expect(await mailsTo(block.db, stranger)).toHaveLength(3);
    const told = (await notices(block.db)).filter((mail) => mail.textBody?.includes(stranger));
    expect(told).toHaveLength(1);
    // No log line names the stranger or a client address.
    const logs = block.logs.join("");
    expect(logs).toContain("mail cap");
    expect(logs).not.toContain("proche.inconnue");
    expect(logs).not.toMatch(/198\.51\.100\.|203\.0\.113\./);
  });

  it("counts a cancellation by link and a newsletter confirmation against the same day's mails", async () => {
    const sessionId = await createSession(
      block.db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-01-26`, "14:00"), capacity: 40 }),
    );
    const address = "marie.limite@example.ch";
    const first = await post(
      block.site.url,
      "/cours/securite",
      registration(sessionId, 200, { email: address }),
      "192.0.2.10",
    );
    expect(first.status).toBe(303);
    // Confirmation and reminder: 2 of 3. The newsletter's confirmation is the third.
    const subscribed = await post(
      block.site.url,
      "/newsletter",
      "email=marie.limite%40example.ch&source=home&website=",
      "192.0.2.11",
    );
    expect(subscribed.status).toBe(200);
    expect((await mailsTo(block.db, address)).map((mail) => mail.kind)).toEqual([
      "booking-confirmation",
      "booking-reminder",
      "newsletter-confirmation",
    ]);
    // The cancellation succeeds (its page says so); its mail is held, and the reminder, not sent yet, is dropped.
    const cancelled = await post(block.site.url, first.headers.location!, "intent=cancel&website=", "192.0.2.12");
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain("Votre inscription est annulée");
    expect((await mailsTo(block.db, address)).map((mail) => mail.kind)).toEqual([
      "booking-confirmation",
      "newsletter-confirmation",
    ]);
    expect(await seatsTaken(block.db, sessionId)).toBe(0);
  });
});

/** The issue's two attempts, on a site with `settings`: what they took and what they queued. */
async function theIssuesFigures(db: Database, url: string) {
  const sessionId = await createSession(
    db,
    sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-02-02`, "14:00"), capacity: 40 }),
  );
  const statuses: number[] = [];
  for (let n = 0; n < 5; n += 1) {
    statuses.push(
      (await post(url, "/cours/securite", registration(sessionId, n, { seats: "2" }), "203.0.113.9")).status,
    );
  }
  const stranger = "etranger@example.org";
  const second = await createSession(
    db,
    sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-02-09`, "14:00"), capacity: 40 }),
  );
  for (let n = 0; n < 12; n += 1) {
    const answer = await post(
      url,
      "/cours/securite",
      registration(second, 300 + n, relative(n, stranger)),
      `198.51.100.${200 + n}`,
    );
    expect(answer.status).toBe(303);
  }
  return {
    statuses,
    seats: await seatsTaken(db, sessionId),
    registrations: (await registrationsOf(db, second)).length,
    mailsToStranger: (await mailsTo(db, stranger)).length,
    notices: (await notices(db)).length,
  };
}

describe.each([
  {
    when: "before: the caps out of reach",
    caps: { BOOKING_SEATS_PER_ADDRESS_PER_DAY: "1000", MAILS_PER_RECIPIENT_PER_DAY: "1000" },
    says: "one address takes 10 seats of 40 in five posts; twelve posts queue 24 mails to one stranger",
    figures: { statuses: [303, 303, 303, 303, 303], seats: 10, registrations: 12, mailsToStranger: 24, notices: 0 },
  },
  {
    // The defaults of app/config/settings.server.ts (the test harness sets them out of reach otherwise).
    when: "after: the default limits",
    caps: { BOOKING_SEATS_PER_ADDRESS_PER_DAY: "6", MAILS_PER_RECIPIENT_PER_DAY: "10" },
    says: "one address takes 6 seats, then is asked to telephone; the stranger gets 10 mails, the 12 registrations are kept, the owner is told once",
    figures: { statuses: [303, 303, 303, 429, 429], seats: 6, registrations: 12, mailsToStranger: 10, notices: 1 },
  },
])("the issue's figures, $when", ({ caps, says, figures }) => {
  // The rate limit's default too: 5 posts in 10 minutes from one address.
  const block = siteForBlock({ CONTACT_RATE_LIMIT_MAX: "5", ...caps });

  it(says, async () => {
    expect(await theIssuesFigures(block.db, block.site.url)).toEqual(figures);
  });
});

describe.skipIf(!postgresBinaries())("the limits on two server processes sharing one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let sites: SpawnedSite[] = [];
  let pool: pg.Pool;
  let db: Database;
  beforeAll(async () => {
    postgres = await startPostgres();
    const caps = {
      DATABASE_URL: postgres.url,
      BOOKING_SEATS_PER_ADDRESS_PER_DAY: "4",
      MAILS_PER_RECIPIENT_PER_DAY: "3",
    };
    sites = [await spawnSite(caps), await spawnSite(caps)];
    await Promise.all(sites.map((site) => site.ready()));
    pool = new pg.Pool({ connectionString: postgres.url });
    db = drizzle(pool, { schema }) as unknown as Database;
  }, 180_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await pool?.end();
    postgres?.destroy();
  });

  it("holds both caps exactly when the posts arrive at once, spread over both processes", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-03-02`, "14:00"), capacity: 40 }),
    );
    // One address, 12 posts of one seat at once, on three sessions (each under its own lock): 4 seats in all.
    const others = [
      await createSession(db, sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-03-09`, "14:00"), capacity: 40 })),
      await createSession(db, sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-03-16`, "14:00"), capacity: 40 })),
    ];
    const sessions = [sessionId, ...others];
    const seats = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        post(sites[n % 2]!.url, DOORS[n % DOORS.length]!, registration(sessions[n % 3]!, 500 + n), "203.0.113.77"),
      ),
    );
    expect(seats.filter((answer, n) => registered(answer, DOORS[n % DOORS.length]!))).toHaveLength(4);
    expect(seats.filter((answer) => answer.status === 429)).toHaveLength(8);
    const taken = await Promise.all(sessions.map((id) => seatsTaken(db, id)));
    expect(taken.reduce((sum, seats) => sum + seats, 0)).toBe(4);
    // 12 addresses naming one relative at once: 12 registrations, 3 mails to the relative, one notice.
    const relativeAddress = "proche.pg@example.net";
    const named = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        post(
          sites[n % 2]!.url,
          "/cours/securite",
          registration(sessionId, 600 + n, relative(600 + n, relativeAddress)),
          `198.51.100.${100 + n}`,
        ),
      ),
    );
    expect(named.map((answer) => answer.status)).toEqual(Array(12).fill(303));
    expect(await registrationsOf(db, sessionId)).toHaveLength(12 + taken[0]!);
    expect(await mailsTo(db, relativeAddress)).toHaveLength(3);
    expect((await notices(db)).filter((mail) => mail.textBody?.includes(relativeAddress))).toHaveLength(1);
  });
});
