/**
 * The mails a registration sends (each reader greeted by name, the relative
 * spoken to as the relative), sessions duplicated and updated, the calendar
 * file's UTC start across the October daylight-saving change, the person
 * registry's find and erase, and retention. Registrations and seats:
 * booking.server.test.ts.
 */
import ICAL from "ical.js";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, sessionFields, type TestDatabase } from "../../tests/support/harness";
import { linkTokens, outbox } from "~/db/schema";
import { erasePerson } from "~/features.server";
import { findRegistrationByToken, registerForSession } from "./booking.server";
import { calendarFile } from "./ics.server";
import { sessionWhen } from "./mails.server";
import { deleteRegistrationsOfSessionsBefore, findRegistrations } from "./person.server";
import {
  createSession,
  duplicateSession,
  getSession,
  updateSession,
  utcToZurich,
  zurichToUtc,
} from "./sessions.server";
import { BOOKING_NOW as NOW, BOOKING_SITE_URL as siteUrl, newSessionIn, person } from "../../tests/support/bookings";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const newSession = (overrides: Parameters<typeof newSessionIn>[1] = {}) => newSessionIn(database.db, overrides);

describe("the registrants' mails", () => {
  it("greet each reader by name, and speak to the relative of the person they registered", async () => {
    const sessionId = await newSession();
    const session = (await getSession(database.db, sessionId))!;
    await registerForSession(
      database.db,
      person(sessionId, 7, {
        firstName: "Jeanne",
        lastName: "Rochat",
        email: "jeanne@example.ch",
        bookerFirstName: "Paul",
        bookerLastName: "Rochat",
        bookerPhone: "021 765 43 21",
        bookerEmail: "paul@example.ch",
      }),
      { siteUrl, now: NOW },
    );
    const mails = await database.db
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, "booking-confirmation"),
          inArray(outbox.recipient, ["jeanne@example.ch", "paul@example.ch"]),
        ),
      );
    const to = (address: string) => mails.find((mail) => mail.recipient === address)!.textBody!;
    expect(to("jeanne@example.ch")).toMatch(/^Bonjour Jeanne Rochat,\n\nVotre inscription est confirmée \(1 place\)/);
    expect(to("paul@example.ch")).toMatch(
      /^Bonjour Paul Rochat,\n\nVous avez inscrit Jeanne Rochat : son inscription est confirmée \(1 place\)/,
    );
    // The relative cancels "the" registration, not "yours"; the date and place come before the practical notes.
    expect(to("paul@example.ch")).toContain("Annulez l’inscription avec le lien ci-dessous");
    expect(to("paul@example.ch")).not.toContain("votre inscription");
    expect(to("jeanne@example.ch")).toContain("Annulez votre inscription");
    expect(to("jeanne@example.ch").indexOf("Date :")).toBeLessThan(to("jeanne@example.ch").indexOf("À apporter"));
    const reminders = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "booking-reminder"), eq(outbox.recipient, "paul@example.ch")));
    // It names the date, never « demain » (it may leave late), and is given up at the lesson's start.
    expect(reminders[0]!.textBody).toContain(
      `le cours de Jeanne Rochat, que vous avez inscrit(e), a lieu le ${sessionWhen(session)}.`,
    );
    expect(reminders[0]!.subject).not.toContain("demain");
    expect(reminders[0]!.textBody).not.toContain("demain");
    expect(Date.parse(reminders[0]!.notAfter!)).toBe(Date.parse(session.startsAt));
  });
});

describe("sessions", () => {
  it("keeps the date and place that registrants were promised, while the places and price may change", async () => {
    const base = sessionFields({ startsAt: zurichToUtc("2026-11-10", "14:00"), placeAccess: "" });
    const sessionId = await createSession(database.db, base);
    const later = { ...base, startsAt: zurichToUtc("2026-11-17", "14:00") };
    expect(await updateSession(database.db, sessionId, later)).toBe("updated");
    await registerForSession(database.db, person(sessionId, 1), { siteUrl, now: NOW });
    expect(await updateSession(database.db, sessionId, { ...later, startsAt: base.startsAt })).toBe("promised");
    expect(await updateSession(database.db, sessionId, { ...later, placeName: "Ailleurs" })).toBe("promised");
    expect(await updateSession(database.db, sessionId, { ...later, capacity: 10, priceChf: 50 })).toBe("updated");
    const session = (await getSession(database.db, sessionId))!;
    expect([session.capacity, session.priceChf, new Date(session.startsAt).toISOString()]).toEqual([
      10,
      50,
      "2026-11-17T13:00:00.000Z",
    ]);
    expect(await updateSession(database.db, 999_999, base)).toBe("not-found");
  });

  it("duplicates a session a week later at the same Swiss hour across the October change", async () => {
    const sessionId = await newSession({ startsAt: zurichToUtc("2026-10-20", "14:00") });
    const copy = (await getSession(database.db, (await duplicateSession(database.db, sessionId))!))!;
    expect(utcToZurich(new Date(copy.startsAt))).toEqual({ date: "2026-10-27", time: "14:00" });
    expect(new Date(copy.startsAt).toISOString()).toBe("2026-10-27T13:00:00.000Z");
    expect(copy.seatsTaken).toBe(0);
  });
});

describe("calendar file", () => {
  it("parses with the right UTC start on the last Sunday of October and the day before", () => {
    const starts = {
      "2026-10-25": "2026-10-25T13:00:00.000Z", // winter time (UTC+1) since 3 h 00 that morning
      "2026-10-24": "2026-10-24T12:00:00.000Z", // still summer time (UTC+2)
    };
    for (const [date, utc] of Object.entries(starts)) {
      const text = calendarFile({
        id: 7,
        title: "Sécurité et protection",
        startsAt: zurichToUtc(date, "14:00"),
        durationMinutes: 120,
        placeName: "Salle paroissiale",
        placeAddress: "Rue du Lac 1, 1800 Vevey",
        description: "Rez-de-chaussée",
        url: `${siteUrl}/cours/inscription/abc`,
        host: "cours.example.ch",
      });
      const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!);
      expect(event.startDate.toJSDate().toISOString()).toBe(utc);
      expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(2 * 3_600_000);
      expect(event.summary).toBe("Sécurité et protection");
      expect(event.location).toBe("Salle paroissiale, Rue du Lac 1, 1800 Vevey");
    }
  });
});

describe("the person registry's functions", () => {
  it("find a person's registrations by e-mail or telephone, as attendee or relative, and erase them with their mails and seats", async () => {
    const sessionId = await newSession();
    const erased = await registerForSession(
      database.db,
      person(sessionId, 1, {
        email: "Efface.Moi@example.ch",
        bookerFirstName: "Luc",
        bookerLastName: "Proche",
        bookerPhone: "021 987 65 43",
      }),
      { siteUrl, now: NOW },
    );
    const kept = await registerForSession(
      database.db,
      person(sessionId, 2, { email: "reste@example.ch", phone: "078 111 22 33" }),
      { siteUrl, now: NOW },
    );
    if (erased.outcome !== "confirmed" || kept.outcome !== "confirmed") throw new Error("not confirmed");
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(2);
    const byEmail = await findRegistrations(database.db, { email: "efface.moi@example.ch", phoneE164: null });
    const byBookerPhone = await findRegistrations(database.db, { email: null, phoneE164: "+41219876543" });
    expect(byEmail.map((row) => row.lastName)).toEqual(["Dupont 1"]);
    expect(byBookerPhone.map((row) => row.id)).toEqual(byEmail.map((row) => row.id));
    // The owner's notice (no recipient) names the person: it is among their mails.
    const notice = await database.db.select().from(outbox).where(inArray(outbox.id, byEmail[0]!.mailIds));
    expect(notice.some((mail) => mail.recipient === null && mail.textBody!.includes("Marie Dupont 1"))).toBe(true);

    const { counts } = await erasePerson(
      database.db,
      { email: "efface.moi@example.ch", phoneE164: null },
      null,
      "owner",
      { siteUrl, now: NOW },
    );
    expect(counts.course_registrations).toBe(1);
    expect(counts.outbox).toBe(byEmail[0]!.mailIds.length);
    expect(await findRegistrations(database.db, { email: null, phoneE164: "+41219876543" })).toEqual([]);
    const left = await database.db.select().from(outbox).where(inArray(outbox.id, byEmail[0]!.mailIds));
    expect(left).toEqual([]);
    expect((await getSession(database.db, sessionId))!.seatsTaken).toBe(1);
    expect(await findRegistrations(database.db, { email: "reste@example.ch", phoneE164: null })).toHaveLength(1);
    // Her link's token is gone with her registration; the other person's link still opens theirs.
    const tokens = await database.db.select({ subject: linkTokens.subject }).from(linkTokens);
    expect(tokens.map((row) => row.subject)).not.toContain(String(erased.registrationId));
    expect(tokens.map((row) => row.subject)).toContain(String(kept.registrationId));
    expect((await findRegistrationByToken(database.db, kept.token, NOW))?.registration.lastName).toBe("Dupont 2");
  });
});

describe("retention", () => {
  it("deletes the registrations of sessions older than the limit, with their mails, and keeps the others", async () => {
    const old = await newSession({ startsAt: zurichToUtc("2024-03-05", "14:00") });
    const recent = await newSession({ startsAt: zurichToUtc("2026-10-27", "14:00") });
    const before = new Date("2023-01-01T00:00:00Z");
    const oldOne = await registerForSession(database.db, person(old, 1, { email: "ancien@example.ch" }), {
      siteUrl,
      now: before,
    });
    await registerForSession(database.db, person(recent, 2, { email: "recent@example.ch" }), { siteUrl, now: NOW });
    expect(oldOne.outcome).toBe("confirmed");
    const [oldRow] = await findRegistrations(database.db, { email: "ancien@example.ch", phoneE164: null });

    expect(await deleteRegistrationsOfSessionsBefore(database.db, new Date("2025-01-01T00:00:00Z"))).toBe(1);
    expect(await findRegistrations(database.db, { email: "ancien@example.ch", phoneE164: null })).toEqual([]);
    expect(await database.db.select().from(outbox).where(inArray(outbox.id, oldRow!.mailIds))).toEqual([]);
    expect(await findRegistrations(database.db, { email: "recent@example.ch", phoneE164: null })).toHaveLength(1);
  });
});
