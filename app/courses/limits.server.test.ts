/**
 * The limits on what one person can book (issue 22 item 5), against a real
 * embedded database (PGlite, migrated), with a fixed clock:
 * - one client address takes at most its seats of the day, waiting or
 *   confirmed, even with posts sent at once; a cancelled registration gives
 *   its seats back; the next day counts anew; the desk is not counted;
 * - one recipient gets at most its mails of the day from public actions:
 *   past it the registration is kept, the mail not written, the owner told
 *   once that day (the address in the notice, none in the counts' table);
 *   the next day counts anew; a newsletter confirmation counts too;
 * - keys of the day change with the day; old salts and counts are deleted;
 * - bursts: registrations of one session sharing a key, past the threshold.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, sessionFields, type TestDatabase } from "../../tests/support/harness";
import { courseRegistrations, courseSessions, dailySalts, outbox, recipientMailDays } from "~/db/schema";
import { dailyKey, deleteOldSalts, keyWithSalt } from "~/guards/daily-key.server";
import { deleteOldMailDays, MAIL_HELD_NOTICE, type RecipientCap } from "~/mail/recipient-cap.server";
import { requestSubscription } from "~/newsletter/subscriptions.server";
import { cancelRegistration, registerForSession } from "./booking.server";
import { burstsOf, clientNetwork, type ClientLimit } from "./limits.server";
import type { BookingInput } from "./schema";
import { createSession, zurichToUtc } from "./sessions.server";

const siteUrl = "https://cours.example.ch";
let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

/** 10 h in Zurich on 1 October 2026; the next day is `TOMORROW`. */
const NOW = new Date("2026-10-01T08:00:00Z");
const TOMORROW = new Date("2026-10-02T08:00:00Z");

async function newSession(capacity = 40) {
  return createSession(database.db, sessionFields({ startsAt: zurichToUtc("2026-10-25", "14:00"), capacity }));
}

let people = 0;
/** A new person (a telephone of their own), for `sessionId`. */
const person = (sessionId: number, extra: Partial<BookingInput> = {}): BookingInput => {
  people += 1;
  return {
    sessionId,
    firstName: "Marie",
    lastName: `Dupont ${people}`,
    phone: `079 2${String(people).padStart(6, "0")}`,
    email: "",
    seats: "1",
    ...extra,
  };
};

const clientLimit = async (address: string, now = NOW, seatsPerDay = 6): Promise<ClientLimit> => ({
  key: await dailyKey(database.db, `address:${clientNetwork(address)}`, now),
  seatsPerDay,
});

const cap = (perDay: number, now = NOW): RecipientCap => ({ perDay, siteUrl, now });

const seatsTaken = async (sessionId: number) =>
  (await database.db.select().from(courseSessions).where(eq(courseSessions.id, sessionId)))[0]!.seatsTaken;

describe("seats one client address takes in a day", () => {
  it("lets one address take 6 seats, then refuses with nothing written, even when posts arrive at once", async () => {
    const sessionId = await newSession();
    const limit = await clientLimit("203.0.113.7");
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        registerForSession(database.db, person(sessionId, { seats: "2" }), { siteUrl, now: NOW, clientLimit: limit }),
      ),
    );
    expect(results.map((result) => result.outcome).sort()).toEqual([
      "address-limit",
      "address-limit",
      "confirmed",
      "confirmed",
      "confirmed",
    ]);
    expect(await seatsTaken(sessionId)).toBe(6);
    const rows = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId));
    expect(rows).toHaveLength(3);
    // No address is stored: the key of the day only.
    expect(rows.every((row) => row.clientKey === limit.key && !row.clientKey!.includes("203.0.113"))).toBe(true);

    // Another address is not concerned; the same address on another session is.
    const other = await newSession();
    expect(
      (await registerForSession(database.db, person(other), { siteUrl, now: NOW, clientLimit: limit })).outcome,
    ).toBe("address-limit");
    const neighbour = await clientLimit("203.0.113.8");
    expect(
      (await registerForSession(database.db, person(other), { siteUrl, now: NOW, clientLimit: neighbour })).outcome,
    ).toBe("confirmed");
    // The owner, taking a registration by telephone, meets no such limit.
    expect((await registerForSession(database.db, person(other), { siteUrl, now: NOW, source: "desk" })).outcome).toBe(
      "confirmed",
    );
  });

  it("counts an IPv6 address by its /56 network, waiting seats too, and gives back a cancelled registration's", async () => {
    const sessionId = await newSession(1);
    const first = await clientLimit("2001:db8:0:1::1", NOW, 2);
    const sameNetwork = await clientLimit("2001:db8:0:2::99", NOW, 2);
    expect(sameNetwork.key).toBe(first.key);
    const confirmed = await registerForSession(database.db, person(sessionId), {
      siteUrl,
      now: NOW,
      clientLimit: first,
    });
    expect(confirmed.outcome).toBe("confirmed");
    // The session is full: this one waits, and its seat counts.
    expect(
      (await registerForSession(database.db, person(sessionId), { siteUrl, now: NOW, clientLimit: sameNetwork }))
        .outcome,
    ).toBe("waiting");
    expect(
      (await registerForSession(database.db, person(sessionId), { siteUrl, now: NOW, clientLimit: first })).outcome,
    ).toBe("address-limit");
    if (confirmed.outcome !== "confirmed") throw new Error("expected a confirmed registration");
    expect(await cancelRegistration(database.db, confirmed.token, { siteUrl, now: NOW })).toBe("cancelled");
    expect(
      (await registerForSession(database.db, person(sessionId), { siteUrl, now: NOW, clientLimit: first })).outcome,
    ).toBe("waiting");
  });

  it("starts again the next day (Zurich), with another key", async () => {
    const sessionId = await newSession();
    const today = await clientLimit("198.51.100.20", NOW, 1);
    expect(
      (await registerForSession(database.db, person(sessionId), { siteUrl, now: NOW, clientLimit: today })).outcome,
    ).toBe("confirmed");
    expect(
      (await registerForSession(database.db, person(sessionId), { siteUrl, now: NOW, clientLimit: today })).outcome,
    ).toBe("address-limit");
    const tomorrow = await clientLimit("198.51.100.20", TOMORROW, 1);
    expect(tomorrow.key).not.toBe(today.key);
    expect(
      (await registerForSession(database.db, person(sessionId), { siteUrl, now: TOMORROW, clientLimit: tomorrow }))
        .outcome,
    ).toBe("confirmed");
  });
});

describe("mails to one recipient in a day", () => {
  /** The kinds of the mails written to `address` (any case), oldest first. */
  const mailsTo = async (address: string) =>
    (
      await database.db
        .select()
        .from(outbox)
        .where(sql`lower(${outbox.recipient}) = ${address}`)
        .orderBy(outbox.id)
    ).map((row) => row.kind);
  const notices = async () => database.db.select().from(outbox).where(eq(outbox.kind, MAIL_HELD_NOTICE));

  it("writes at most the day's mails to a relative named by twelve registrations, keeps them all, tells the owner once", async () => {
    const sessionId = await newSession();
    const stranger = "inconnue@example.ch";
    const before = (await notices()).length;
    for (let n = 0; n < 12; n += 1) {
      const result = await registerForSession(
        database.db,
        person(sessionId, {
          bookerFirstName: "Luc",
          bookerLastName: "Proche",
          bookerPhone: `021 3${String(n).padStart(6, "0")}`,
          // Typed another way each time: still one address.
          bookerEmail: n % 2 ? stranger.toUpperCase() : stranger,
        }),
        { siteUrl, now: NOW, mailCap: cap(5) },
      );
      expect(result.outcome).toBe("confirmed");
    }
    const registrations = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId));
    expect(registrations).toHaveLength(12);
    // Confirmation then reminder of the first registrations, until 5.
    expect(await mailsTo(stranger)).toEqual([
      "booking-confirmation",
      "booking-reminder",
      "booking-confirmation",
      "booking-reminder",
      "booking-confirmation",
    ]);
    const told = (await notices()).slice(before);
    expect(told).toHaveLength(1);
    expect(told[0]!.recipient).toBeNull();
    expect(told[0]!.textBody).toContain("5 e-mails à l’adresse inconnue@example.ch");
    expect(told[0]!.textBody).toContain("/admin/personne?email=inconnue%40example.ch");
    // Each registration's mails are the ones written (a held mail has no row).
    const ids = registrations.flatMap((row) => row.mailIds);
    expect(new Set(ids).size).toBe(ids.length);
    // The counts hold no address.
    const counts = await database.db.select().from(recipientMailDays);
    expect(JSON.stringify(counts)).not.toContain("inconnue");
    expect(counts.find((row) => row.queued === 5)).toMatchObject({ day: "2026-10-01", held: 19 });

    // The next day, the address may be written to again.
    expect(
      (
        await registerForSession(database.db, person(sessionId, { email: stranger }), {
          siteUrl,
          now: TOMORROW,
          mailCap: cap(5, TOMORROW),
        })
      ).outcome,
    ).toBe("confirmed");
    expect(await mailsTo(stranger)).toHaveLength(7);
  });

  it("counts a newsletter confirmation; the desk's own mails are never held", async () => {
    const sessionId = await newSession();
    const address = "abonnee@example.ch";
    await database.db.transaction((tx) =>
      requestSubscription(tx, { email: address, source: "home", siteUrl, now: NOW, mailCap: cap(1) }),
    );
    expect(await mailsTo(address)).toEqual(["newsletter-confirmation"]);
    const held = await registerForSession(database.db, person(sessionId, { email: address }), {
      siteUrl,
      now: NOW,
      mailCap: cap(1),
    });
    expect(held.outcome).toBe("confirmed");
    expect(await mailsTo(address)).toEqual(["newsletter-confirmation"]);
    // Taken by the owner in the desk: no cap.
    await registerForSession(database.db, person(sessionId, { email: address }), { siteUrl, now: NOW, source: "desk" });
    expect(await mailsTo(address)).toEqual(["newsletter-confirmation", "booking-confirmation", "booking-reminder"]);
  });
});

describe("keys of the day", () => {
  it("are sha256 of the day's salt and the value; old salts and counts go two days after their day", async () => {
    const key = await dailyKey(database.db, "address:192.0.2.1", NOW);
    const [salt] = await database.db.select().from(dailySalts).where(eq(dailySalts.day, "2026-10-01"));
    expect(key).toBe(keyWithSalt(salt!.salt, "address:192.0.2.1"));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // Two days after: the 1st is still kept; three days after, it goes, with its counts.
    expect(await deleteOldSalts(database.db, new Date("2026-10-03T08:00:00Z"))).toBe(0);
    expect(await deleteOldMailDays(database.db, new Date("2026-10-04T08:00:00Z"))).toBeGreaterThan(0);
    expect(await deleteOldSalts(database.db, new Date("2026-10-04T08:00:00Z"))).toBe(1);
    expect(await database.db.select().from(dailySalts).where(eq(dailySalts.day, "2026-10-01"))).toEqual([]);
  });
});

describe("bursts", () => {
  it("groups registrations of one key from the threshold on, numbered in order of arrival", () => {
    const rows = [
      { id: 1, clientKey: "a" },
      { id: 2, clientKey: "b" },
      { id: 3, clientKey: "a" },
      { id: 4, clientKey: null },
      { id: 5, clientKey: "b" },
      { id: 6, clientKey: "a" },
      { id: 7, clientKey: "c" },
    ];
    expect([...burstsOf(rows, 3)]).toEqual([
      [1, 1],
      [3, 1],
      [6, 1],
    ]);
    expect(burstsOf(rows, 2).get(5)).toBe(2);
    expect(burstsOf(rows, 4).size).toBe(0);
  });
});
