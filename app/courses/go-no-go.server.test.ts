/**
 * The go/no-go (decision 052) on one database (PGlite, a fixed clock): a
 * course below its minimum at its go/no-go time gives the owner one mail
 * and the desk's badge, however often and however many runners run the job;
 * one at its minimum gives nothing; « La maintenir quand même » ends the
 * badge; « Annuler la session », posted to the session page's action, tells
 * each person once by their channel (a mail, or the call list), frees
 * every seat and withdraws the open offer; a second click changes nothing.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOKING_NOW as NOW, BOOKING_SITE_URL as siteUrl, newSessionIn, person } from "../../tests/support/bookings";
import { silentLogger, testSettings } from "../../tests/support/sites";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { ownerContext, requestContext } from "~/context.server";
import { courseCalls, courseOffers, courseRegistrations, courseSessions, outbox } from "~/db/schema";
import { deskSnapshot } from "~/desk/live.server";
import { action } from "~/routes/admin/course-session";
import { cancelRegistration, registerForSession } from "./booking.server";
import { runGoNoGoJob } from "./go-no-go.server";
import { BOOKING_MAIL } from "./mails.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);
const days = (n: number) => hours(24 * n);

/** A course starting in 5 days (go/no-go in 2, by default), made 10 days ago. */
async function course(overrides: { capacity: number; minimum: number }) {
  const sessionId = await newSessionIn(database.db, { startsAt: days(5), ...overrides });
  await database.db
    .update(courseSessions)
    .set({ createdAt: days(-10).toISOString() })
    .where(eq(courseSessions.id, sessionId));
  return sessionId;
}

const ownerNotices = async (sessionId: number) =>
  (await database.db.select().from(outbox).where(eq(outbox.kind, BOOKING_MAIL.ownerBelowMinimum))).filter((mail) =>
    mail.textBody?.includes(`/admin/cours/${sessionId}`),
  );

/** The session page's action, as the owner's posted form reaches it (the guard, a middleware, let it through). */
async function post(sessionId: number, fields: Record<string, string>, now: Date) {
  const context = requestContext({
    db: database.db,
    logger: silentLogger,
    settings: testSettings({ SITE_URL: siteUrl }),
    clock: { now: () => now },
    wakeOutbox: () => {},
  });
  context.set(ownerContext, {
    userId: "owner",
    email: "owner@example.ch",
    name: "Owner",
    sessionId: "s",
  });
  const request = new Request(`${siteUrl}/admin/cours/${sessionId}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const answer = (await action({ request, context, params: { id: String(sessionId) } } as never)) as unknown as {
    data: { message?: string };
    init: { status?: number } | null;
  };
  return { status: answer.init?.status ?? 200, message: answer.data.message ?? "" };
}

describe("go/no-go", () => {
  it("mails the owner and shows the badge once for a course below its minimum; « Annuler la session » tells everyone once and frees every seat", async () => {
    const sessionId = await course({ capacity: 2, minimum: 3 });
    const reg = (n: number, extra = {}) =>
      registerForSession(database.db, person(sessionId, n, extra), { siteUrl, now: NOW });
    const mailed = await reg(201);
    const unmailed = await reg(202, { email: undefined });
    const waitingFirst = await reg(203);
    await reg(204);
    expect([mailed.outcome, unmailed.outcome, waitingFirst.outcome]).toEqual(["confirmed", "confirmed", "waiting"]);
    if (mailed.outcome !== "confirmed" || unmailed.outcome !== "confirmed") throw new Error("not confirmed");
    // A day and a half later, 201 cancels: her seat is offered to 203, held past the go/no-go time.
    expect(await cancelRegistration(database.db, mailed.token, { siteUrl, now: hours(36) })).toBe("cancelled");
    expect(await database.db.select().from(courseOffers).where(eq(courseOffers.sessionId, sessionId))).toMatchObject([
      { state: "open" },
    ]);

    // Before its go/no-go time (3 days before the course: in 2 days), nothing.
    expect(await runGoNoGoJob(database.db, hours(47), { siteUrl })).toMatchObject({ below: 0 });
    expect(await ownerNotices(sessionId)).toHaveLength(0);

    // At it, two runners at once, then again later: one notice, one badge leading to the session page.
    const runs = await Promise.all([1, 2].map(() => runGoNoGoJob(database.db, hours(48), { siteUrl })));
    expect(runs.reduce((sum, run) => sum + run.below, 0)).toBe(1);
    expect(await runGoNoGoJob(database.db, hours(60), { siteUrl })).toMatchObject({ below: 0 });
    const [notice] = await ownerNotices(sessionId);
    expect(await ownerNotices(sessionId)).toHaveLength(1);
    expect(notice!.recipient).toBeNull();
    expect(notice!.textBody!.replaceAll("\u00a0", " ")).toContain("1 place prise pour un minimum de 3");
    expect(await deskSnapshot(database.db)).toMatchObject({ decisions: 1, decisionSession: sessionId });

    // « Annuler la session » without its confirmation changes nothing.
    expect(await post(sessionId, { intent: "cancel-below-minimum" }, hours(61))).toMatchObject({ status: 400 });
    expect((await deskSnapshot(database.db)).decisions).toBe(1);

    // Confirmed: everyone told by their channel, once; every seat freed; the offer withdrawn; the badge gone.
    const answer = await post(sessionId, { intent: "cancel-below-minimum", confirm: "oui" }, hours(61));
    expect(answer.status).toBe(200);
    expect(answer.message).toContain("2 e-mails d’annulation en route");
    expect(answer.message).toContain("1 personne sans e-mail à appeler");
    const told = await database.db
      .select({ recipient: outbox.recipient })
      .from(outbox)
      .where(and(eq(outbox.kind, BOOKING_MAIL.sessionCancelled), sql`${outbox.recipient} like 'marie20%'`));
    expect(told.map((mail) => mail.recipient).sort()).toEqual(["marie203@example.ch", "marie204@example.ch"]);
    const calls = await database.db.select().from(courseCalls).where(eq(courseCalls.sessionId, sessionId));
    expect(calls).toMatchObject([{ registrationId: unmailed.registrationId, reason: "cancelled", calledAt: null }]);
    const [session] = await database.db.select().from(courseSessions).where(eq(courseSessions.id, sessionId));
    expect(session).toMatchObject({ seatsTaken: 0 });
    expect(session!.cancelledAt).not.toBeNull();
    const statuses = await database.db
      .select({ status: courseRegistrations.status })
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId));
    expect(statuses.every((row) => row.status === "cancelled")).toBe(true);
    expect(await database.db.select().from(courseOffers).where(eq(courseOffers.sessionId, sessionId))).toMatchObject([
      { state: "withdrawn" },
    ]);
    // No reminder of the cancelled course is left to go.
    const reminders = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, BOOKING_MAIL.reminder), sql`${outbox.recipient} like 'marie20%'`));
    expect(reminders).toEqual([]);
    expect((await deskSnapshot(database.db)).decisions).toBe(0);

    // A second click tells nobody again.
    expect(await post(sessionId, { intent: "cancel-below-minimum", confirm: "oui" }, hours(62))).toMatchObject({
      status: 409,
    });
    const again = await database.db.select().from(outbox).where(eq(outbox.kind, BOOKING_MAIL.sessionCancelled));
    expect(again.filter((mail) => mail.recipient?.startsWith("marie20"))).toHaveLength(2);
    expect(await database.db.select().from(courseCalls).where(eq(courseCalls.sessionId, sessionId))).toHaveLength(1);
  });

  it("says nothing of a course at its minimum", async () => {
    const sessionId = await course({ capacity: 8, minimum: 2 });
    for (const n of [211, 212]) await registerForSession(database.db, person(sessionId, n), { siteUrl, now: NOW });
    expect(await runGoNoGoJob(database.db, hours(49), { siteUrl })).toMatchObject({ below: 0 });
    expect(await ownerNotices(sessionId)).toHaveLength(0);
    expect((await deskSnapshot(database.db)).decisions).toBe(0);
  });

  it("« La maintenir quand même » ends the badge, and the course is not asked about again", async () => {
    const sessionId = await course({ capacity: 8, minimum: 4 });
    await registerForSession(database.db, person(sessionId, 221), { siteUrl, now: NOW });
    // The server was down at the go/no-go time: the first run after, a day late, checks it once.
    expect(await runGoNoGoJob(database.db, days(3), { siteUrl })).toMatchObject({ below: 1 });
    expect(await deskSnapshot(database.db)).toMatchObject({ decisions: 1, decisionSession: sessionId });
    expect(await post(sessionId, { intent: "keep-course" }, days(3))).toMatchObject({
      status: 200,
      message: "C’est noté : le cours est maintenu.",
    });
    expect((await deskSnapshot(database.db)).decisions).toBe(0);
    expect(await runGoNoGoJob(database.db, days(4), { siteUrl })).toMatchObject({ below: 0 });
    expect(await ownerNotices(sessionId)).toHaveLength(1);
    expect(await post(sessionId, { intent: "keep-course" }, days(4))).toMatchObject({ status: 409 });
    const [session] = await database.db.select().from(courseSessions).where(eq(courseSessions.id, sessionId));
    expect(session!.cancelledAt).toBeNull();
  });
});
