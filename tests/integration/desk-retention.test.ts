/**
 * The daily retention job (app/desk/retention.server.ts) with a fixed
 * clock, on a database of its own: it deletes exactly the requests whose
 * last exchange is older than the retention period (with their history and
 * mails), the notifications sent more than 30 days ago, and expired
 * counters, sessions, sign-in steps and tokens of links (a course
 * registration's a week after its course, while the registration itself is
 * kept), the quotes never accepted 24 months after their validity date
 * (with their mails); it keeps everything else; it
 * writes one audit line of counts; it fills `phone_e164` of old rows. Two
 * processes on one PostgreSQL may run it at once; the schedule stops when
 * told.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type OpenDatabase } from "../../app/db/client.server";
import {
  courseRegistrations,
  courseSessions,
  linkTokens,
  newsletterSubscribers,
  auditLog,
  contactEvents,
  contacts,
  deskSession,
  deskUser,
  deskVerification,
  outbox,
  quotes,
  rateLimits,
  dailySalts,
  recipientMailDays,
} from "../../app/db/schema";
import { REGISTRATION_TOKEN_PURPOSE } from "../../app/courses/booking.server";
import { runRetention, scheduleRetention } from "../../app/features.server";
import { issueToken } from "../../app/tokens/tokens.server";
import {
  openTestDatabase,
  postgresBinaries,
  silentLogger,
  startPostgres,
  waitFor,
  type TestDatabase,
} from "../support/harness";

const NOW = new Date("2030-06-15T10:00:00Z");
const RETENTION = { retentionMonths: 24, sentNotificationDays: 30 };

/** Inserts a contact request whose last exchange was at `lastActivityAt`; resolves with its id. */
async function addRequest(
  db: Database,
  email: string,
  lastActivityAt: string,
  { createdAt = lastActivityAt, phoneE164 = "+41791234567" as string | null } = {},
): Promise<number> {
  const [row] = await db
    .insert(contacts)
    .values({
      firstName: "Marie",
      lastName: "Dupont",
      email,
      phone: "079 123 45 67",
      phoneE164,
      service: "one-to-one-course",
      contactConsent: true,
      consentTimestamp: createdAt,
      createdAt,
      lastActivityAt,
    })
    .returning({ id: contacts.id });
  return row!.id;
}

/** Inserts an outbox row; resolves with its id. */
async function addMail(
  db: Database,
  contactId: number | null,
  { sentAt = null as string | null, failedAt = null as string | null } = {},
): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ kind: "contact-notification", contactId, payload: {}, sentAt, failedAt })
    .returning({ id: outbox.id });
  return row!.id;
}

/** Inserts a quote of `status` valid until `validUntil`, with one failed mail about it; resolves with its id. */
async function addQuote(db: Database, status: "draft" | "sent" | "accepted" | "refused", validUntil: string) {
  const sequence = (await db.select({ id: quotes.id }).from(quotes)).length + 1;
  const [row] = await db
    .insert(quotes)
    .values({
      year: 2028,
      sequence,
      number: `D-2028-00${sequence}`,
      status,
      clientName: "Club des aînés",
      street: "Rue du Lac",
      postalCode: "1800",
      locality: "Vevey",
      email: "club@example.ch",
      lines: [{ label: "Atelier", quantity: 1, unitCentimes: 50000 }],
      totalCentimes: 50000,
      issuedOn: "2028-01-05",
      validUntil,
      courseId: "applications-mobiles",
      startsAt: "2028-09-01T12:00:00Z",
      durationMinutes: 90,
      placeName: "Salle",
      placeAddress: "Rue du Lac 3, 1800 Vevey",
      creditor: {} as never,
    })
    .returning({ id: quotes.id });
  await db.insert(outbox).values({ kind: "quote", quoteId: row!.id, payload: {}, failedAt: "2028-01-06T10:00:00Z" });
  return row!.id;
}

const idsOf = async (db: Database, table: typeof contacts | typeof outbox | typeof quotes) =>
  (await db.select({ id: table.id }).from(table).orderBy(table.id)).map((row) => row.id);

describe("runRetention on the embedded database", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  it("deletes exactly what the privacy notice promises, and keeps the rest", async () => {
    const db = database.db;
    // 24 months and one hour without an exchange: deleted, with its history and its mail.
    const expired = await addRequest(db, "ancienne@example.ch", "2028-06-15T09:00:00Z");
    await db.insert(contactEvents).values({ contactId: expired, toStatus: "termine", at: "2028-06-15T09:00:00Z" });
    await addMail(db, expired, { sentAt: "2028-06-01T09:00:00Z" });
    // 24 months less one hour: kept. Its notification sent 31 days ago goes; one sent 29 days ago stays.
    const recent = await addRequest(db, "recente@example.ch", "2028-06-15T11:00:00Z");
    await addMail(db, recent, { sentAt: "2030-05-15T09:00:00Z" });
    const sentLately = await addMail(db, recent, { sentAt: "2030-05-17T10:00:00Z" });
    // Received long ago, but written to last week: kept. Its failed and its waiting mails stay.
    const active = await addRequest(db, "active@example.ch", "2030-06-08T10:00:00Z", {
      createdAt: "2026-01-10T10:00:00Z",
      phoneE164: null,
    });
    const failed = await addMail(db, active, { failedAt: "2026-01-11T10:00:00Z" });
    const waiting = await addMail(db, active);

    await db.insert(rateLimits).values([
      { key: "contact:expired", points: 3, expire: new Date("2030-06-15T09:59:00Z") },
      { key: "contact:running", points: 1, expire: new Date("2030-06-15T10:05:00Z") },
    ]);
    await db.insert(deskUser).values({ id: "owner-1", name: "Owner", email: "owner@example.ch" });
    await db.insert(deskSession).values([
      { id: "s-old", token: "t-old", userId: "owner-1", expiresAt: new Date("2030-06-15T09:00:00Z") },
      { id: "s-new", token: "t-new", userId: "owner-1", expiresAt: new Date("2030-06-15T17:00:00Z") },
    ]);
    await db.insert(deskVerification).values([
      { id: "v-old", identifier: "x", value: "y", expiresAt: new Date("2030-06-15T09:55:00Z") },
      { id: "v-new", identifier: "x", value: "y", expiresAt: new Date("2030-06-15T10:05:00Z") },
    ]);

    // Newsletter: a request never confirmed for 31 days goes, one of 29 days stays, as do confirmed ones.
    const day = 24 * 60 * 60 * 1000;
    await db.insert(newsletterSubscribers).values([
      {
        email: "old@example.ch",
        source: "home",
        consentVersion: "v",
        requestedAt: new Date(NOW.getTime() - 31 * day).toISOString(),
      },
      {
        email: "young@example.ch",
        source: "home",
        consentVersion: "v",
        requestedAt: new Date(NOW.getTime() - 29 * day).toISOString(),
      },
      {
        email: "reader@example.ch",
        source: "home",
        consentVersion: "v",
        status: "confirmed",
        requestedAt: new Date(NOW.getTime() - 400 * day).toISOString(),
      },
    ]);
    await db.insert(linkTokens).values([
      {
        hash: "expired",
        purpose: "newsletter-confirm",
        subject: "1",
        expiresAt: new Date(NOW.getTime() - 60_000).toISOString(),
      },
      {
        hash: "valid",
        purpose: "newsletter-confirm",
        subject: "2",
        expiresAt: new Date(NOW.getTime() + 60_000).toISOString(),
      },
    ]);

    // Courses: a registration for a session held 25 months ago goes, one for a session 23 months ago stays.
    const sessions = await db
      .insert(courseSessions)
      .values(
        [25, 23].map((months) => ({
          courseId: "securite",
          startsAt: new Date(Date.UTC(2030, 5 - months, 15, 12)).toISOString(),
          durationMinutes: 120,
          placeName: "Salle",
          placeAddress: "Rue du Lac 1, 1800 Vevey",
          priceChf: 55,
          seatsTaken: 1,
        })),
      )
      .returning({ id: courseSessions.id });
    const registrations = await db
      .insert(courseRegistrations)
      .values(
        sessions.map(({ id }, index) => ({
          sessionId: id,
          status: "confirmed",
          seats: 1,
          firstName: index === 0 ? "Ancienne" : "Recente",
          lastName: "Dupont",
          phone: "079 123 45 67",
        })),
      )
      .returning({ id: courseRegistrations.id, sessionId: courseRegistrations.sessionId });
    // Their links expired a week after their sessions: both tokens go, the kept registration's too.
    for (const registration of registrations) {
      const [session] = await db.select().from(courseSessions).where(eq(courseSessions.id, registration.sessionId));
      await issueToken(db, {
        purpose: REGISTRATION_TOKEN_PURPOSE,
        subject: String(registration.id),
        expiresAt: new Date(Date.parse(session!.startsAt) + 7 * day),
      });
    }

    // Quotes never accepted (decision 058): a refused one and a draft valid until more than 24 months ago go,
    // with their mails; an expired one valid until 24 months ago to the day stays, as does an old accepted one.
    await addQuote(db, "refused", "2028-06-14");
    await addQuote(db, "draft", "2028-06-10");
    const expiredQuote = await addQuote(db, "sent", "2028-06-15");
    const acceptedQuote = await addQuote(db, "accepted", "2028-02-01");
    const quoteMails = (
      await db
        .select({ id: outbox.id })
        .from(outbox)
        .where(sql`${outbox.quoteId} is not null`)
    )
      .map((row) => row.id)
      .slice(2);

    // Keys of the day (decision 028): the salt and the mail count of three days before go, the day before's stay.
    await db.insert(dailySalts).values([
      { day: "2030-06-12", salt: "old" },
      { day: "2030-06-14", salt: "yesterday" },
    ]);
    await db.insert(recipientMailDays).values([
      { day: "2030-06-12", recipientKey: "a", queued: 3 },
      { day: "2030-06-14", recipientKey: "a", queued: 1 },
    ]);

    const counts = await runRetention(db, NOW, RETENTION);
    expect(counts).toEqual({
      courseRegistrations: 1,
      unconfirmedSubscribers: 1,
      tokens: 3,
      contacts: 1,
      contactEvents: 1,
      outbox: 4,
      quotes: 2,
      rateLimits: 1,
      sessions: 1,
      verifications: 1,
      usedCodes: 0,
      phonesFilled: 1,
      dailySalts: 1,
      recipientMailDays: 1,
    });
    expect((await db.select().from(dailySalts)).map((row) => row.day)).toEqual(["2030-06-14"]);
    expect((await db.select().from(recipientMailDays)).map((row) => row.day)).toEqual(["2030-06-14"]);
    expect(await idsOf(db, contacts)).toEqual([recent, active]);
    expect(await idsOf(db, outbox)).toEqual([sentLately, failed, waiting, ...quoteMails]);
    expect(await idsOf(db, quotes)).toEqual([expiredQuote, acceptedQuote]);
    expect(await db.select().from(contactEvents)).toEqual([]);
    expect((await db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key)).toEqual([
      "contact:running",
    ]);
    expect((await db.select({ id: deskSession.id }).from(deskSession)).map((row) => row.id)).toEqual(["s-new"]);
    expect((await db.select({ id: deskVerification.id }).from(deskVerification)).map((row) => row.id)).toEqual([
      "v-new",
    ]);
    expect(
      (await db.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers))
        .map((row) => row.email)
        .sort(),
    ).toEqual(["reader@example.ch", "young@example.ch"]);
    expect((await db.select({ hash: linkTokens.hash }).from(linkTokens)).map((row) => row.hash)).toEqual(["valid"]);
    expect(
      (await db.select({ firstName: courseRegistrations.firstName }).from(courseRegistrations)).map(
        (row) => row.firstName,
      ),
    ).toEqual(["Recente"]);
    const [filled] = await db.select({ phone: contacts.phoneE164 }).from(contacts).where(eq(contacts.id, active));
    expect(filled!.phone).toBe("+41791234567");

    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "retention"));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actor).toBeNull();
    expect(audits[0]!.details).toEqual(counts);
    expect(JSON.stringify(audits[0])).not.toMatch(/@|dupont|\+41/i);

    // A second run at the same moment finds nothing more.
    expect(await runRetention(db, NOW, RETENTION)).toMatchObject({ contacts: 0, outbox: 0, sessions: 0 });
  });

  it("runs shortly after start, again at each interval, and not once stopped", async () => {
    const runs = async () =>
      (
        await database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(auditLog)
          .where(eq(auditLog.action, "retention"))
      )[0]!.n;
    const before = await runs();
    const schedule = scheduleRetention({
      db: database.db,
      logger: silentLogger,
      periods: RETENTION,
      firstDelayMs: 10,
      intervalMs: 60,
    });
    await waitFor(async () => (await runs()) >= before + 2, 10_000, "two scheduled runs");
    await schedule.stop();
    const stopped = await runs();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await runs()).toBe(stopped);
  });
});

describe.skipIf(!postgresBinaries())("runRetention from two processes on one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  const opened: OpenDatabase[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
    for (let i = 0; i < 2; i++) opened.push(await openDatabase({ databaseUrl: postgres.url, dataDir: "unused" }));
  }, 60_000);
  afterAll(async () => {
    for (const database of opened) await database.close();
    postgres?.destroy();
  });

  it("deletes each expired request once, without an error, one audit line per run that worked", async () => {
    const [first, second] = opened.map((database) => database.db) as [Database, Database];
    for (let i = 0; i < 5; i++) {
      const id = await addRequest(first, `ancienne-${i}@example.ch`, "2027-01-01T10:00:00Z");
      await addMail(first, id);
    }
    const results = await Promise.all([runRetention(first, NOW, RETENTION), runRetention(second, NOW, RETENTION)]);
    const worked = results.filter((result) => result !== null);
    expect(worked.reduce((sum, result) => sum + (result.contacts ?? 0), 0)).toBe(5);
    expect(worked.reduce((sum, result) => sum + (result.outbox ?? 0), 0)).toBe(5);
    expect(await idsOf(first, contacts)).toEqual([]);
    const audits = await first.select().from(auditLog).where(eq(auditLog.action, "retention"));
    expect(audits).toHaveLength(worked.length);
  });
});
