/**
 * The cancellation deadline (decision 052; 48 hours before the first date
 * by default) on one database (PGlite, a fixed clock): it is said on the
 * course page's dates, in the confirmation mail and its calendar file, and
 * in the reminder (which leaves after it: « appelez-moi », no cancel link);
 * after it, the person's own page (`/cours/inscription/{token}`, its loader
 * and its action) refuses to cancel a confirmed seat and gives the owner's
 * telephone, on every method; a person on the waiting list still leaves
 * it; the owner still cancels from the desk.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOKING_NOW as NOW, BOOKING_SITE_URL as siteUrl, newSessionIn, person } from "../../tests/support/bookings";
import { silentLogger, testSettings } from "../../tests/support/sites";
import { openTestDatabase, type TestDatabase } from "../../tests/support/harness";
import { requestContext } from "~/context.server";
import { courseRegistrations, courseSessions, outbox } from "~/db/schema";
import { action, loader } from "~/routes/course-registration";
import { readSiteSettings } from "~/settings/site.server";
import { cancelRegistrationByOwner, registerForSession } from "./booking.server";
import { BOOKING_MAIL } from "./mails.server";
import { publicChoice, upcomingChoices } from "./public.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

/** The course starts on Sunday 25 October 2026 at 14h00 (Zurich): the deadline is Friday 23 October, 14h00. */
const DEADLINE_WORDS = "vendredi 23 octobre 2026, 14 h 00";
const JUST_AFTER = new Date("2026-10-23T12:00:01Z");
const plain = (text: string) => text.replaceAll("\u00a0", " ");

/** The registration page's context at `now`, as the server gives it (the guard's limiter lets everything through). */
const context = (now: Date) =>
  requestContext({
    db: database.db,
    logger: silentLogger,
    settings: testSettings({ SITE_URL: siteUrl }),
    clock: { now: () => now },
    wakeOutbox: () => {},
    clientAddress: "127.0.0.1",
    rateLimit: { consume: async () => ({ limited: false }) } as never,
  });

async function page(token: string, now: Date) {
  const answer = (await loader({
    request: new Request(`${siteUrl}/cours/inscription/${token}`),
    context: context(now),
    params: { token },
  } as never)) as { registration: { deadline: { until: string; passed: boolean; phone: string } } };
  return answer.registration.deadline;
}

async function post(token: string, now: Date, method = "POST") {
  const request = new Request(`${siteUrl}/cours/inscription/${token}`, {
    method,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: siteUrl },
    body: "intent=cancel&website=",
  });
  try {
    const answer = (await action({ request, context: context(now), params: { token } } as never)) as unknown as {
      data?: { message: string };
      init?: { status?: number } | null;
      message?: string;
    };
    return { status: answer.init?.status ?? 200, message: answer.data?.message ?? answer.message ?? "" };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, message: "" };
    throw thrown;
  }
}

const statusOf = async (registrationId: number) =>
  (await database.db.select().from(courseRegistrations).where(eq(courseRegistrations.id, registrationId)))[0]!.status;

describe("the cancellation deadline", () => {
  it("is said on the course page, in the confirmation mail and its calendar file, and in the reminder", async () => {
    const sessionId = await newSessionIn(database.db);
    const booked = await registerForSession(database.db, person(sessionId, 301), { siteUrl, now: NOW });
    expect(booked.outcome).toBe("confirmed");

    const choice = (await upcomingChoices(database.db, NOW, "securite")).find((one) => one.row.id === sessionId)!;
    expect(plain(publicChoice(choice, NOW).cancelUntil!)).toBe(DEADLINE_WORDS);

    const mails = await database.db.select().from(outbox).where(eq(outbox.recipient, "marie301@example.ch"));
    const confirmation = mails.find((mail) => mail.kind === BOOKING_MAIL.confirmation)!;
    expect(plain(confirmation.textBody!)).toContain(`Annulation possible jusqu’au ${DEADLINE_WORDS}, avec le lien`);
    // RFC 5545 folds lines at 75 octets and escapes commas and semicolons.
    const ics = confirmation.attachments![0]!.content.replace(/\r\n[ \t]/g, "").replace(/\\([,;])/g, "$1");
    expect(plain(ics)).toMatch(new RegExp(`DESCRIPTION:.*Annulation possible jusqu’au ${DEADLINE_WORDS} par le lien`));

    // The reminder leaves 24 hours before, past the deadline: it says to call, and its link no longer cancels.
    const reminder = mails.find((mail) => mail.kind === BOOKING_MAIL.reminder)!;
    expect(plain(reminder.textBody!)).toContain(
      "Le délai pour annuler en ligne est passé. Un empêchement ? Appelez-moi",
    );
    expect(reminder.textBody).toContain("Voir l’inscription");
    expect(reminder.textBody).not.toContain("Annuler l’inscription");
  });

  it("after it, the person's link refuses to cancel a confirmed seat on every method and gives the telephone; the owner still cancels", async () => {
    const sessionId = await newSessionIn(database.db, { capacity: 1 });
    const booked = await registerForSession(database.db, person(sessionId, 311), { siteUrl, now: NOW });
    const waiting = await registerForSession(database.db, person(sessionId, 312), { siteUrl, now: NOW });
    if (booked.outcome !== "confirmed" || waiting.outcome !== "waiting") throw new Error("unexpected outcome");
    const phone = (await readSiteSettings(database.db)).identity.phoneDisplay;

    expect(await page(booked.token, NOW)).toMatchObject({ passed: false });
    expect(plain((await page(booked.token, NOW)).until)).toBe(DEADLINE_WORDS);
    expect(await page(booked.token, JUST_AFTER)).toMatchObject({ passed: true, phone });

    const refused = await post(booked.token, JUST_AFTER);
    expect(refused.status).toBe(409);
    expect(refused.message).toContain(`Appelez-moi au ${phone}`);
    for (const method of ["PUT", "PATCH", "DELETE"])
      expect((await post(booked.token, JUST_AFTER, method)).status).toBe(405);
    expect(await statusOf(booked.registrationId)).toBe("confirmed");
    const [session] = await database.db.select().from(courseSessions).where(eq(courseSessions.id, sessionId));
    expect(session!.seatsTaken).toBe(1);

    // The waiting list holds no seat: its person still leaves it by her link.
    expect((await post(waiting.token, JUST_AFTER)).status).toBe(200);
    expect(await statusOf(waiting.registrationId)).toBe("cancelled");
    // The owner's hand is not bound by the deadline.
    expect(await cancelRegistrationByOwner(database.db, booked.registrationId, { siteUrl, now: JUST_AFTER })).toBe(
      "cancelled",
    );
  });

  it("before it, the link cancels", async () => {
    const sessionId = await newSessionIn(database.db);
    const booked = await registerForSession(database.db, person(sessionId, 321), { siteUrl, now: NOW });
    if (booked.outcome !== "confirmed") throw new Error(booked.outcome);
    expect(await post(booked.token, new Date("2026-10-23T11:59:00Z"))).toMatchObject({ status: 200 });
    expect(await statusOf(booked.registrationId)).toBe("cancelled");
  });
});
