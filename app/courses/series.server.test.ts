/**
 * Series of dates against a real embedded database (PGlite, migrated), on
 * a fixed clock: the desk's series form (every week across the end of
 * summer time, dates picked one by one, the number of lessons from the
 * course, French messages); cancelling one date lists the people without
 * e-mail to call and keeps their registration; moving one date tells
 * everyone and moves its reminder; erasing a person gives
 * their seat back on every date and takes their attendance with them; the
 * retention rule waits for a series' last date; a date of a series cannot
 * be booked once the series has begun.
 */
import type { PGlite } from "@electric-sql/pglite";
import { eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, sessionFields, type TestDatabase } from "../../tests/support/harness";
import type { Database } from "~/db/client.server";
import * as schema from "~/db/schema";
import { courseAttendance, courseRegistrations, courseSessions, outbox } from "~/db/schema";
import { erasePerson } from "~/features.server";
import { markAttendance } from "./attendance.server";
import { cancelSession, moveSeriesDate, registerForSession } from "./booking.server";
import { lessonsOfCourse, readSeriesForm } from "./desk.server";
import { deleteRegistrationsOfSessionsBefore } from "./person.server";
import type { BookingInput } from "./schema";
import { createSeries, createSession, zurichToUtc } from "./sessions.server";

const siteUrl = "https://cours.example.ch";
const NOW = new Date("2027-09-01T08:00:00Z");
let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  const all: Record<string, string | string[]> = {
    courseId: "applications-mobiles",
    date: "2027-10-19",
    time: "14:00",
    durationMinutes: "90",
    placeName: "Espace Seniors",
    placeAddress: "Avenue de la Gare 5, 1003 Lausanne",
    placeAccess: "",
    capacity: "8",
    minimum: "4",
    priceChf: "180",
    repeat: "weekly",
    count: "",
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) for (const one of [value].flat()) data.append(name, one);
  return data;
};

describe("the desk's series form", () => {
  it("takes the number of lessons from the course, every week at the same Swiss time across the change of time", () => {
    expect(lessonsOfCourse("applications-mobiles")).toBe(4);
    expect(lessonsOfCourse("cafe-numerique")).toBeNull();
    const result = readSeriesForm(form({}));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.starts.map((start) => start.toISOString())).toEqual([
      "2027-10-19T12:00:00.000Z",
      "2027-10-26T12:00:00.000Z",
      "2027-11-02T13:00:00.000Z",
      "2027-11-09T13:00:00.000Z",
    ]);
  });

  it("takes the dates picked one by one, and says in French what is missing or wrong", () => {
    const picked = readSeriesForm(
      form({ repeat: "picked", count: "3", otherDates: ["2027-11-16", "2027-10-28", "", ""] }),
    );
    expect(picked.ok && picked.starts.map((start) => start.toISOString())).toEqual([
      "2027-10-19T12:00:00.000Z",
      "2027-10-28T12:00:00.000Z",
      "2027-11-16T13:00:00.000Z",
    ]);
    const short = readSeriesForm(form({ repeat: "picked", otherDates: ["2027-10-26"] }));
    expect(!short.ok && short.errors.otherDates).toBe(
      "Pour 4 séances, indiquez 3 autres dates (vous en avez indiqué 1)",
    );
    const before = readSeriesForm(form({ repeat: "picked", count: "2", otherDates: ["2027-10-12"] }));
    expect(!before.ok && before.errors.otherDates).toBe("Les autres dates viennent après la première");
    const twice = readSeriesForm(form({ repeat: "picked", count: "2", otherDates: ["2027-10-19"] }));
    expect(!twice.ok && twice.errors.otherDates).toBe("Une date est donnée deux fois");
    const noCount = readSeriesForm(form({ courseId: "cafe-numerique" }));
    expect(!noCount.ok && noCount.errors.count).toBe("Indiquez le nombre de séances, de 2 à 12");
    const noPlace = readSeriesForm(form({ placeName: "", repeat: "" }));
    expect(!noPlace.ok && [noPlace.errors.placeName, noPlace.errors.repeat]).toEqual([
      "Indiquez le nom du lieu",
      "Choisissez « chaque semaine » ou « dates choisies une à une »",
    ]);
  });
});

describe("a series in the database", () => {
  let sessionIds: number[];
  const person = (n: number, extra: Partial<BookingInput> = {}): BookingInput => ({
    sessionId: sessionIds[0]!,
    firstName: "Jeanne",
    lastName: `Série ${n}`,
    phone: `079 3${String(n).padStart(6, "0")}`,
    email: `jeanne${n}@example.ch`,
    seats: "1",
    ...extra,
  });
  const seatsTaken = async () =>
    (
      await database.db
        .select({ id: courseSessions.id, seatsTaken: courseSessions.seatsTaken })
        .from(courseSessions)
        .where(inArray(courseSessions.id, sessionIds))
    )
      .sort((a, b) => a.id - b.id)
      .map((row) => row.seatsTaken);

  beforeAll(async () => {
    ({ sessionIds } = await createSeries(
      database.db,
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90 }),
      ["2027-10-19", "2027-10-26", "2027-11-02"].map((day) => zurichToUtc(day, "14:00")),
    ));
  });

  it("lists the registrants without e-mail to call when one date is cancelled, and keeps every registration", async () => {
    await registerForSession(database.db, person(1), { siteUrl, now: NOW });
    await registerForSession(database.db, person(2, { email: "" }), { siteUrl, now: NOW });
    const cancelled = await cancelSession(database.db, sessionIds[2]!, NOW);
    expect(cancelled).toEqual({ mailed: 1, texted: 0, toCall: [{ name: "Jeanne Série 2", phone: "079 3000002" }] });
    const rows = await database.db
      .select({ status: courseRegistrations.status })
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionIds[0]!));
    expect(rows.map((row) => row.status)).toEqual(["confirmed", "confirmed"]);
    expect(await seatsTaken()).toEqual([2, 2, 2]);
  });

  it("moves one date: each registrant with an e-mail gets the new date and its calendar, the others are to call", async () => {
    const [before] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.email, "jeanne1@example.ch"));
    const moved = await moveSeriesDate(
      database.db,
      sessionIds[1]!,
      sessionFields({
        courseId: "applications-mobiles",
        durationMinutes: 90,
        startsAt: zurichToUtc("2027-10-28", "10:00"),
      }),
      { siteUrl, now: NOW },
    );
    expect(moved).toEqual({ mailed: 1, texted: 0, toCall: [{ name: "Jeanne Série 2", phone: "079 3000002" }] });
    const [after] = await database.db.select().from(courseRegistrations).where(eq(courseRegistrations.id, before!.id));
    const mails = await database.db.select().from(outbox).where(inArray(outbox.id, after!.mailIds));
    const notice = mails.find((mail) => mail.kind === "booking-date-moved")!;
    expect(notice.subject!.replaceAll("\u00a0", " ")).toBe(
      "Changement de date : Applications mobiles, jeudi 28 octobre 2027, 10 h 00 – 11 h 30",
    );
    expect(notice.textBody!.replaceAll("\u00a0", " ")).toContain(
      "celle du mardi 26 octobre 2027, 14 h 00 – 15 h 30 a lieu le jeudi 28 octobre 2027, 10 h 00 – 11 h 30",
    );
    expect(notice.attachments![0]!.content).toContain("DTSTART:20271028T080000Z");
    // The reminder of the former date is gone, one leaves the day before the new one; the other dates' stay.
    const reminders = await database.db.select().from(outbox).where(inArray(outbox.id, after!.reminderMailIds));
    expect(reminders.map((mail) => new Date(mail.notBefore).toISOString()).sort()).toEqual([
      "2027-10-18T12:00:00.000Z",
      "2027-10-27T08:00:00.000Z",
    ]);
    // A date of a single session is no series: nothing is done.
    const single = await createSession(database.db, sessionFields());
    expect(await moveSeriesDate(database.db, single, sessionFields(), { siteUrl, now: NOW })).toBeUndefined();
  });

  it("gives an erased person's seat back on every date, and their attendance goes with them", async () => {
    const [registration] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.email, "jeanne1@example.ch"));
    await markAttendance(database.db, sessionIds[0]!, [{ registrationId: registration!.id, state: "present" }]);
    expect(await database.db.select().from(courseAttendance)).toHaveLength(1);
    await erasePerson(database.db, { email: "jeanne1@example.ch", phoneE164: null }, null, "owner", {
      siteUrl,
      now: NOW,
    });
    expect(await seatsTaken()).toEqual([1, 1, 1]);
    expect(await database.db.select().from(courseAttendance)).toEqual([]);
  });

  it("keeps a series' registrations until its last date is older than the retention period", async () => {
    const afterFirst = new Date("2027-10-20T00:00:00Z");
    expect(await deleteRegistrationsOfSessionsBefore(database.db, afterFirst)).toBe(0);
    expect(await deleteRegistrationsOfSessionsBefore(database.db, new Date("2027-11-03T00:00:00Z"))).toBe(1);
  });

  it("takes no registration once the series has begun, whichever date is posted", async () => {
    const begun = new Date("2027-10-19T12:30:00Z");
    for (const sessionId of sessionIds) {
      expect(await registerForSession(database.db, person(3, { sessionId }), { siteUrl, now: begun })).toEqual({
        outcome: "closed",
      });
    }
  });
});

describe("a registration for a series, under its lock", () => {
  it("counts its confirmation and reminders against the address once and writes them in one statement", async () => {
    const { sessionIds } = await createSeries(
      database.db,
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90 }),
      ["2027-12-07", "2027-12-14", "2027-12-21"].map((day) => zurichToUtc(day, "14:00")),
    );
    // The same embedded database, through a Drizzle that logs every statement.
    const statements: string[] = [];
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const db = drizzle(client, {
      schema,
      logger: { logQuery: (query) => void statements.push(query) },
    }) as unknown as Database;
    const mailCap = { perDay: 10, siteUrl, now: NOW };
    const result = await registerForSession(
      db,
      {
        sessionId: sessionIds[0]!,
        firstName: "Paul",
        lastName: "Lot",
        phone: "079 411 22 33",
        email: "paul@example.ch",
        seats: "1",
      },
      { siteUrl, now: NOW, mailCap },
    );
    expect(result.outcome).toBe("confirmed");
    const [row] = await database.db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionIds[0]!));
    const mails = await database.db.select().from(outbox).where(inArray(outbox.id, row!.mailIds));
    // The confirmation, a reminder before each of the three dates, the owner's notice: all written, all counted.
    expect(mails.map((mail) => mail.kind).sort()).toEqual([
      "booking-confirmation",
      "booking-owner-registration",
      "booking-reminder",
      "booking-reminder",
      "booking-reminder",
    ]);
    expect(row!.reminderMailIds).toHaveLength(3);
    // One count for the address, one insert for its four mails, one for the owner's notice (it was four each, one a mail).
    expect(statements.filter((query) => /insert into "?recipient_mail_days/i.test(query))).toHaveLength(1);
    expect(statements.filter((query) => /^insert into "outbox"/.test(query))).toHaveLength(2);
  });
});
