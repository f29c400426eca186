/**
 * Registrations against a real embedded database (PGlite, migrated):
 * seats never overbook under concurrency, the waiting list keeps arrival
 * order, a 2-seat request for the last seat is refused, a cancellation link
 * frees the seat once, the reminder leaves once, 24 h before. One telephone
 * holds one registration of a session, even when two posts arrive at once;
 * the owner cancels a registration and gives the seat, and whoever has an
 * e-mail is told. Mails, sessions, the calendar file, the registry and
 * retention: booking-mails.server.test.ts.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, silentLogger, type TestDatabase } from "../../tests/support/harness";
import { courseOffers, courseRegistrations, outbox } from "~/db/schema";
import { OutboxWorker, type OutgoingMail } from "~/mail/outbox.server";
import { OUTBOX_PLUGS } from "~/features.server";
import {
  cancelRegistration,
  cancelRegistrationByOwner,
  cancelSession,
  findRegistrationByToken,
  giveSeat,
  registerForSession,
  REMINDER_BEFORE_MS,
} from "./booking.server";
import { getSession, zurichToUtc } from "./sessions.server";
import { BOOKING_NOW as NOW, BOOKING_SITE_URL as siteUrl, newSessionIn, person } from "../../tests/support/bookings";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const newSession = (overrides: Parameters<typeof newSessionIn>[1] = {}) => newSessionIn(database.db, overrides);

// First: the worker then sees only this test's mails.
describe("reminder", () => {
  it("is sent once, 24 hours before the start", async () => {
    // The fixed clock of the registration; the start is 24 h and 1 hour after it: the reminder is due in an hour.
    const now = new Date();
    const startsAt = new Date(now.getTime() + REMINDER_BEFORE_MS + 3_600_000);
    const sessionId = await newSession({ startsAt });
    const result = await registerForSession(database.db, person(sessionId, 1, { email: "rappel@example.ch" }), {
      siteUrl,
      now,
    });
    expect(result.outcome).toBe("confirmed");
    const [reminder] = await database.db.select().from(outbox).where(eq(outbox.kind, "booking-reminder"));
    expect(new Date(reminder!.notBefore).getTime()).toBe(startsAt.getTime() - REMINDER_BEFORE_MS);

    const sent: OutgoingMail[] = [];
    const worker = new OutboxWorker({
      db: database.db,
      plugs: OUTBOX_PLUGS,
      logger: silentLogger,
      transport: { sendMail: async (mail) => void sent.push(mail) },
      from: "site@example.ch",
      ownerAddress: "owner@example.ch",
    });
    const reminders = () => sent.filter((mail) => mail.subject.startsWith("Rappel") && mail.to === "rappel@example.ch");
    await worker.processOnce();
    expect(reminders()).toHaveLength(0);
    expect(sent.some((mail) => mail.to === "rappel@example.ch")).toBe(true); // the confirmation left at once
    // The hour passes (the outbox compares `not_before` and `next_attempt_at` with its clock, the real one here): due now.
    await database.db
      .update(outbox)
      .set({ notBefore: sql`now()`, nextAttemptAt: sql`now()` })
      .where(eq(outbox.id, reminder!.id));
    await worker.processOnce();
    await worker.processOnce();
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]!.to).toBe("rappel@example.ch");
    expect(reminders()[0]!.text).toContain("Petit rappel");
  });
});

describe("registrations", () => {
  it("takes exactly 8 seats of 50 concurrent requests and puts the rest on the waiting list in arrival order", async () => {
    const sessionId = await newSession();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        registerForSession(database.db, person(sessionId, n), { siteUrl, now: NOW }),
      ),
    );
    expect(results.filter((result) => result.outcome === "confirmed")).toHaveLength(8);
    const waiting = results.flatMap((result) => (result.outcome === "waiting" ? [result] : []));
    expect(waiting).toHaveLength(42);
    expect(waiting.map((result) => result.position).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 42 }, (_, n) => n + 1),
    );
    const rows = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId))
      .orderBy(courseRegistrations.id);
    // Arrival order: the first eight rows took the seats; positions follow the rows' order.
    expect(rows.slice(0, 8).every((row) => row.status === "confirmed")).toBe(true);
    expect(rows.slice(8).every((row) => row.status === "waiting")).toBe(true);
    const positionById = new Map(waiting.map((result) => [result.registrationId, result.position]));
    expect(rows.slice(8).map((row) => positionById.get(row.id))).toEqual(Array.from({ length: 42 }, (_, n) => n + 1));
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(8);
  });

  it("refuses 2 seats when only the last one is left, and writes nothing", async () => {
    const sessionId = await newSession({ capacity: 3 });
    await registerForSession(database.db, person(sessionId, 1, { seats: "2" }), { siteUrl, now: NOW });
    const result = await registerForSession(database.db, person(sessionId, 2, { seats: "2" }), { siteUrl, now: NOW });
    expect(result).toEqual({ outcome: "too-few-seats", left: 1 });
    const rows = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId));
    expect(rows).toHaveLength(1);
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(2);
  });

  it("frees the seat once when the cancellation link is used twice, and tells the owner who waits first", async () => {
    const sessionId = await newSession({ capacity: 1 });
    const first = await registerForSession(database.db, person(sessionId, 1), { siteUrl, now: NOW });
    const second = await registerForSession(database.db, person(sessionId, 2), { siteUrl, now: NOW });
    expect(first.outcome).toBe("confirmed");
    expect(second.outcome).toBe("waiting");
    if (first.outcome !== "confirmed") return;
    expect(await cancelRegistration(database.db, first.token, { siteUrl, now: NOW })).toBe("cancelled");
    expect(await cancelRegistration(database.db, first.token, { siteUrl, now: NOW })).toBe("already-cancelled");
    const session = (await getSession(database.db, sessionId))!;
    expect(session.seatsTaken).toBe(0);
    expect(session.waiting).toBe(1);
    const ownerMails = await database.db.select().from(outbox).where(eq(outbox.kind, "booking-owner-cancellation"));
    expect(ownerMails.at(-1)!.textBody).toContain("Première personne sur la liste d’attente : Marie Dupont 2");
    // The owner gives the seat to the first in line.
    if (second.outcome !== "waiting") return;
    expect(await giveSeat(database.db, second.registrationId, { siteUrl, now: NOW })).toBe(true);
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(1);
    expect((await findRegistrationByToken(database.db, second.token, NOW))!.registration.status).toBe("confirmed");
  });

  it("frees the seat once when two cancellations of one link arrive together", async () => {
    const sessionId = await newSession({ capacity: 2 });
    const result = await registerForSession(database.db, person(sessionId, 1, { seats: "2" }), { siteUrl, now: NOW });
    if (result.outcome !== "confirmed") throw new Error(result.outcome);
    const outcomes = await Promise.all(
      [1, 2].map(() => cancelRegistration(database.db, result.token, { siteUrl, now: NOW })),
    );
    expect(outcomes.sort()).toEqual(["already-cancelled", "cancelled"]);
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(0);
  });

  it("opens the registration by its link as often as asked until 7 days after the start, and not after", async () => {
    const startsAt = zurichToUtc("2026-10-25", "14:00");
    const sessionId = await newSession({ startsAt });
    const result = await registerForSession(database.db, person(sessionId, 1), { siteUrl, now: NOW });
    if (result.outcome !== "confirmed") throw new Error(result.outcome);
    const lastMoment = new Date(startsAt.getTime() + 7 * 86_400_000 - 1);
    for (const at of [NOW, NOW, lastMoment])
      expect((await findRegistrationByToken(database.db, result.token, at))?.registration.id).toBe(
        result.registrationId,
      );
    expect(
      await findRegistrationByToken(database.db, result.token, new Date(lastMoment.getTime() + 1)),
    ).toBeUndefined();
    expect(
      await cancelRegistration(database.db, result.token, { siteUrl, now: new Date(lastMoment.getTime() + 1) }),
    ).toBe("not-found");
  });

  it("refuses a link that is not a registration's", async () => {
    expect(await cancelRegistration(database.db, "x".repeat(43), { siteUrl, now: NOW })).toBe("not-found");
  });

  it("sends confirmations to the attendee and to the relative who registered them", async () => {
    const sessionId = await newSession();
    await registerForSession(
      database.db,
      person(sessionId, 1, {
        email: "grand-maman@example.ch",
        bookerFirstName: "Luc",
        bookerLastName: "Dupont",
        bookerPhone: "+41 21 123 45 67",
        bookerEmail: "luc@example.ch",
      }),
      { siteUrl, now: NOW },
    );
    const mails = await database.db.select().from(outbox).where(eq(outbox.kind, "booking-confirmation"));
    const recipients = mails.map((mail) => mail.recipient);
    expect(recipients).toContain("grand-maman@example.ch");
    expect(recipients).toContain("luc@example.ch");
    const mail = mails.find((row) => row.recipient === "luc@example.ch")!;
    expect(mail.textBody).toContain("dimanche 25 octobre 2026, 14\u00a0h\u00a000 – 16\u00a0h\u00a000");
    expect(mail.textBody).toContain("CHF 55.–");
    expect(mail.textBody).toContain("Rez-de-chaussée, ascenseur");
    expect(mail.textBody).toMatch(/https:\/\/cours\.example\.ch\/cours\/inscription\/[A-Za-z0-9_-]{43}/);
  });

  it("gives each registration a code word, in the attendee's mail, the owner's notice and on its row", async () => {
    const sessionId = await newSession();
    const result = await registerForSession(database.db, person(sessionId, 7, { email: "code@example.ch" }), {
      siteUrl,
      now: NOW,
    });
    if (result.outcome !== "confirmed") throw new Error(result.outcome);
    const [row] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, result.registrationId));
    expect(row!.codeWord).toMatch(/^\p{Ll}+ \p{Ll}+$/u);
    const mails = await database.db.select().from(outbox).where(inArray(outbox.id, row!.mailIds!));
    const attendee = mails.find((mail) => mail.recipient === "code@example.ch")!;
    expect(attendee.textBody).toContain(`Votre mot de code : « ${row!.codeWord} »`);
    expect(attendee.textBody).toContain(`${siteUrl}/confiance`);
    const owner = mails.find((mail) => mail.kind === "booking-owner-registration")!;
    expect(owner.textBody).toContain(`Mot de code : « ${row!.codeWord} »`);
  });

  it("cancelling a session mails those with an e-mail and lists the others to call", async () => {
    const sessionId = await newSession();
    await registerForSession(database.db, person(sessionId, 1), { siteUrl, now: NOW });
    await registerForSession(database.db, person(sessionId, 2, { email: undefined, phone: "021 555 66 77" }), {
      siteUrl,
      now: NOW,
    });
    const result = await cancelSession(database.db, sessionId, NOW);
    expect(result).toEqual({ mailed: 1, texted: 0, toCall: [{ name: "Marie Dupont 2", phone: "021 555 66 77" }] });
    expect(await cancelSession(database.db, sessionId, NOW)).toBeUndefined();
    const later = await registerForSession(database.db, person(sessionId, 3), { siteUrl, now: NOW });
    expect(later.outcome).toBe("closed");
  });
});

describe("one telephone, one registration per session", () => {
  it("refuses the same telephone, however it is written, while its registration stands, and accepts it once cancelled", async () => {
    const sessionId = await newSession();
    const first = await registerForSession(database.db, person(sessionId, 1, { phone: "079 555 12 34" }), {
      siteUrl,
      now: NOW,
    });
    if (first.outcome !== "confirmed") throw new Error(first.outcome);
    const again = await registerForSession(
      database.db,
      person(sessionId, 2, { phone: "+41 79 555 12 34", email: "autre@example.ch" }),
      { siteUrl, now: NOW },
    );
    expect(again).toEqual({ outcome: "already-registered", series: false });
    // Another session of the same person is fine.
    const otherSession = await newSession();
    expect(
      (
        await registerForSession(database.db, person(otherSession, 1, { phone: "079 555 12 34" }), {
          siteUrl,
          now: NOW,
        })
      ).outcome,
    ).toBe("confirmed");
    expect(await cancelRegistration(database.db, first.token, { siteUrl, now: NOW })).toBe("cancelled");
    const afterCancel = await registerForSession(database.db, person(sessionId, 3, { phone: "0041 79 555 12 34" }), {
      siteUrl,
      now: NOW,
    });
    expect(afterCancel.outcome).toBe("confirmed");
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(1);
  });

  it("gives one registration when two posts with the same telephone arrive at once", async () => {
    const sessionId = await newSession();
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        registerForSession(database.db, person(sessionId, n, { phone: "021 555 00 11" }), { siteUrl, now: NOW }),
      ),
    );
    expect(results.filter((result) => result.outcome === "confirmed")).toHaveLength(1);
    expect(results.filter((result) => result.outcome === "already-registered")).toHaveLength(3);
    const rows = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId));
    expect(rows).toHaveLength(1);
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(1);
  });
});

describe("the owner cancels a registration", () => {
  it("frees the seat once, mails whoever has an e-mail, and the seat given mails the person taken in", async () => {
    const sessionId = await newSession({ capacity: 1 });
    const noEmail = await registerForSession(database.db, person(sessionId, 1, { email: undefined }), {
      siteUrl,
      now: NOW,
    });
    const waiting = await registerForSession(
      database.db,
      person(sessionId, 2, {
        email: undefined,
        bookerFirstName: "Luc",
        bookerLastName: "Fils",
        bookerPhone: "021 444 55 66",
        bookerEmail: "luc.fils@example.ch",
      }),
      { siteUrl, now: NOW },
    );
    if (noEmail.outcome !== "confirmed" || waiting.outcome !== "waiting") throw new Error("unexpected");
    const before = await database.db.select({ id: outbox.id }).from(outbox);
    expect(await cancelRegistrationByOwner(database.db, noEmail.registrationId, { siteUrl, now: NOW })).toBe(
      "cancelled",
    );
    expect(await cancelRegistrationByOwner(database.db, noEmail.registrationId, { siteUrl, now: NOW })).toBe(
      "already-cancelled",
    );
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(0);
    // She has no e-mail: no mail to her (and no notice to the owner, who did it); the seat is offered to the
    // one who waits (decision 049).
    const afterCancel = await database.db.select().from(outbox);
    expect(
      afterCancel
        .filter((mail) => !before.some((row) => row.id === mail.id))
        .map((mail) => [mail.kind, mail.recipient]),
    ).toEqual([["booking-offer", "luc.fils@example.ch"]]);
    // Her reminder is gone too.
    const [cancelled] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.id, noEmail.registrationId));
    expect(cancelled!.reminderMailIds).toEqual([]);

    // The owner gives her the seat by hand before she answers: her offer closes, taken in by the owner.
    expect(await giveSeat(database.db, waiting.registrationId, { siteUrl, now: NOW })).toBe(true);
    expect(
      await database.db
        .select({ state: courseOffers.state, closedBy: courseOffers.closedBy })
        .from(courseOffers)
        .where(eq(courseOffers.registrationId, waiting.registrationId)),
    ).toEqual([{ state: "accepted", closedBy: "owner" }]);
    const lastBefore = Math.max(...before.map((row) => row.id));
    const given = (await database.db.select().from(outbox).where(eq(outbox.kind, "booking-seat-given"))).filter(
      (mail) => mail.id > lastBefore,
    );
    expect(given.map((mail) => mail.recipient)).toEqual(["luc.fils@example.ch"]);
    expect(given[0]!.textBody).toContain("Bonjour Luc Fils,");
    expect(given[0]!.textBody).toContain("L’inscription de Marie Dupont 2 est maintenant confirmée");
    // Its link opens the registration, now confirmed.
    const link = given[0]!.textBody!.match(/\/cours\/inscription\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await findRegistrationByToken(database.db, link, NOW))!.registration.status).toBe("confirmed");

    // The owner cancels a registration with an e-mail: the mail confirms it.
    const third = await newSession();
    const withEmail = await registerForSession(database.db, person(third, 3), { siteUrl, now: NOW });
    if (withEmail.outcome !== "confirmed") throw new Error(withEmail.outcome);
    await cancelRegistrationByOwner(database.db, withEmail.registrationId, { siteUrl, now: NOW });
    const [mail] = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "booking-cancelled"), eq(outbox.recipient, "marie3@example.ch")));
    expect(mail!.textBody).toContain("Bonjour Marie Dupont 3,");
    expect(mail!.textBody).toContain("votre inscription à ce cours est annulée");
  });
});
