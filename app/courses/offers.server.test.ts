/**
 * Offers of a freed seat on one database (PGlite, a fixed clock; decision
 * 054): a couple is offered 2 seats or none, the hold stops 2 hours before
 * the course, a course too close gets no offer, the job expires a hold
 * past due once, a session cancelled withdraws its offers, and the person
 * registry shows an offer with its registration and erases it with her.
 * The two processes' races: tests/integration/course-offers.test.ts.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, sessionFields, type TestDatabase } from "../../tests/support/harness";
import { BOOKING_NOW as NOW, BOOKING_SITE_URL as siteUrl, newSessionIn, person } from "../../tests/support/bookings";
import { courseOffers, courseRegistrations, linkTokens, outbox } from "~/db/schema";
import { erasePerson, fieldNamesOf, findPerson } from "~/features.server";
import { cancelRegistration, cancelSession, registerForSession } from "./booking.server";
import { offerSeatsOf, runOfferJob } from "./offer-job.server";
import { OFFER_TOKEN_PURPOSE } from "./offers.server";
import { createSession, updateSession } from "./sessions.server";
import { registrationFields } from "./person.server";
import { saveSettingsSection } from "~/settings/site.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
  // These courses begin within hours: the person's link cancels until the start (no deadline, decision 052).
  await saveSettingsSection(database.db, "courses", { offerHoldHours: 24, goNoGoDays: 3, cancelDeadlineHours: 0 });
});
afterAll(() => database?.close());

const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

/** A session of `capacity` seats starting at `startsAt`, full with person `holder`, and `waiting` people after. */
async function fullSession(startsAt: Date, waiting: { n: number; seats: "1" | "2"; email?: string }[], holder: number) {
  const sessionId = await newSessionIn(database.db, { startsAt, capacity: 2, minimum: 1 });
  const held = await registerForSession(database.db, person(sessionId, holder, { seats: "2" }), { siteUrl, now: NOW });
  if (held.outcome !== "confirmed") throw new Error(held.outcome);
  const ids: number[] = [];
  for (const { n, seats, email } of waiting) {
    const result = await registerForSession(
      database.db,
      person(sessionId, n, { seats, ...(email === undefined ? {} : { email }) }),
      { siteUrl, now: NOW },
    );
    if (result.outcome !== "waiting") throw new Error(result.outcome);
    ids.push(result.registrationId);
  }
  return { sessionId, held, ids };
}

const offersOfRegistration = (registrationId: number) =>
  database.db.select().from(courseOffers).where(eq(courseOffers.registrationId, registrationId));

describe("offers", () => {
  it("offers a couple 2 seats or none, and holds them until 2 hours before the course at most", async () => {
    const { ids, held } = await fullSession(
      hours(10),
      [
        { n: 101, seats: "2" },
        { n: 102, seats: "1" },
      ],
      100,
    );
    // The couple waits first; both seats free at once: the couple is offered the 2, the single person nothing.
    expect(await cancelRegistration(database.db, held.token, { siteUrl, now: NOW })).toBe("cancelled");
    const [couple] = await offersOfRegistration(ids[0]!);
    expect(couple).toMatchObject({ seats: 2, state: "open", channel: "mail" });
    // 24 hours asked, the course in 10: held until 8 hours from now.
    expect(new Date(couple!.holdUntil)).toEqual(hours(8));
    expect(await offersOfRegistration(ids[1]!)).toEqual([]);
    const [mail] = await database.db.select().from(outbox).where(eq(outbox.recipient, "marie101@example.ch"));
    expect(mail).toBeDefined();
    const offerMails = await database.db.select().from(outbox).where(eq(outbox.kind, "booking-offer"));
    expect(offerMails.filter((row) => row.recipient === "marie101@example.ch")).toHaveLength(1);
    expect(
      offerMails.find((row) => row.recipient === "marie101@example.ch")!.textBody!.replaceAll("\u00a0", " "),
    ).toContain("Je vous les garde jusqu’au jeudi 1er octobre 2026, 18 h 00.");
  });

  it("skips a couple for a single free seat: the next single person is offered it", async () => {
    const sessionId = await newSessionIn(database.db, { startsAt: hours(72), capacity: 2, minimum: 1 });
    const first = await registerForSession(database.db, person(sessionId, 110), { siteUrl, now: NOW });
    await registerForSession(database.db, person(sessionId, 111), { siteUrl, now: NOW });
    const couple = await registerForSession(database.db, person(sessionId, 112, { seats: "2" }), { siteUrl, now: NOW });
    const single = await registerForSession(database.db, person(sessionId, 113), { siteUrl, now: NOW });
    if (first.outcome !== "confirmed" || couple.outcome !== "waiting" || single.outcome !== "waiting")
      throw new Error();
    await cancelRegistration(database.db, first.token, { siteUrl, now: NOW });
    expect(await offersOfRegistration(couple.registrationId)).toEqual([]);
    const [offer] = await offersOfRegistration(single.registrationId);
    expect(offer).toMatchObject({ seats: 1, state: "open" });
    expect(new Date(offer!.holdUntil)).toEqual(hours(24));

    // The hold passes: the job expires it once (a second run finds nothing), she leaves the list.
    // (The first run also expires the other tests' holds past by then: they share the database.)
    expect((await runOfferJob(database.db, hours(25), { siteUrl })).expired).toBeGreaterThanOrEqual(1);
    expect(await runOfferJob(database.db, hours(25), { siteUrl })).toEqual({ expired: 0, offered: 0 });
    expect((await offersOfRegistration(single.registrationId))[0]!.state).toBe("expired");
    const [row] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, single.registrationId));
    expect(row!.status).toBe("cancelled");
  });

  it("offers the seats the owner adds to a full session", async () => {
    const fields = sessionFields({ startsAt: hours(72), capacity: 1, minimum: 1 });
    const sessionId = await createSession(database.db, fields);
    await registerForSession(database.db, person(sessionId, 140), { siteUrl, now: NOW });
    const waiting = await registerForSession(database.db, person(sessionId, 141), { siteUrl, now: NOW });
    if (waiting.outcome !== "waiting") throw new Error(waiting.outcome);
    expect(await updateSession(database.db, sessionId, { ...fields, capacity: 2 })).toBe("updated");
    expect(await offerSeatsOf(database.db, sessionId, { siteUrl, now: NOW })).toBe(1);
    expect(await offersOfRegistration(waiting.registrationId)).toMatchObject([{ state: "open", seats: 1 }]);
  });

  it("makes no offer when the course is too close, and withdraws open offers when the session is cancelled", async () => {
    const close = await fullSession(hours(2.5), [{ n: 121, seats: "1" }], 120);
    await cancelRegistration(database.db, close.held.token, { siteUrl, now: NOW });
    expect(await offersOfRegistration(close.ids[0]!)).toEqual([]);

    const far = await fullSession(hours(48), [{ n: 123, seats: "1", email: "" }], 122);
    await cancelRegistration(database.db, far.held.token, { siteUrl, now: NOW });
    // Without an e-mail: no mail, an offer for the owner to call.
    expect(await offersOfRegistration(far.ids[0]!)).toMatchObject([{ state: "open", channel: "call" }]);
    await cancelSession(database.db, far.sessionId, NOW);
    expect(await offersOfRegistration(far.ids[0]!)).toMatchObject([{ state: "withdrawn", closedBy: "job" }]);
  });

  it("shows an offer with its registration in the person registry, and erases it with her", async () => {
    const { held, ids } = await fullSession(
      hours(96),
      [{ n: 131, seats: "1", email: "offre.effacee@example.ch" }],
      130,
    );
    await cancelRegistration(database.db, held.token, { siteUrl, now: NOW });
    const key = { email: "offre.effacee@example.ch", phoneE164: null };
    const found = await findPerson(database.db, key);
    const names = await fieldNamesOf(database.db, found);
    const [registration] = found.find((rows) => rows.entry.table === courseRegistrations)!.rows;
    const fields = new Map(
      registrationFields(registration as typeof courseRegistrations.$inferSelect, {
        sessions: names.sessions ?? new Map(),
        offers: names.offers,
      }),
    );
    expect(fields.get("Places proposées")!.replaceAll("\u00a0", " ")).toMatch(
      /^1 place proposée le jeudi 1er octobre 2026, 10 h 00, gardée jusqu’au vendredi 2 octobre 2026, 10 h 00 : proposée$/,
    );
    const [offer] = await offersOfRegistration(ids[0]!);
    await erasePerson(database.db, key, null, "owner", { siteUrl, now: NOW });
    expect(await offersOfRegistration(ids[0]!)).toEqual([]);
    const tokens = await database.db.select().from(linkTokens).where(eq(linkTokens.purpose, OFFER_TOKEN_PURPOSE));
    expect(tokens.map((token) => token.subject)).not.toContain(String(offer!.id));
  });
});
