/**
 * Courses as series of dates (issue 22, item 1), over HTTP on two server
 * processes sharing one real PostgreSQL: a series of 4 weekly dates of 8
 * seats across the end of summer time (Sunday 31 October of COURSE_YEAR); 30
 * registrations posted at once, half to each process: 8 hold a seat on all
 * 4 dates, never more, the 22 others wait in arrival order; the same
 * telephone is refused a second time, whichever date it names; cancelling
 * one registration by its link frees its seat on every date once, and the
 * owner's "Donner la place" takes the first waiting in once; the calendar
 * file, parsed by ical.js, holds 4 events at the right UTC times; the
 * confirmation names the 4 dates and a reminder is queued before each;
 * cancelling one date keeps the registrations for the 3 others and tells
 * everyone. The attendance of a date is ticked by a plain post and shows in
 * the CSV and on the person's page.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import ICAL from "ical.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeries, zurichToUtc } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import { courseAttendance, courseRegistrations, courseSessions, outbox } from "../../app/db/schema";
import {
  createOwner,
  deskFetch,
  postgresBinaries,
  sessionFields,
  signIn,
  spawnSite,
  startPostgres,
  waitFor,
  type CookieJar,
  type SpawnedSite,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { DAYS, UTC_STARTS, readable, register, registration } from "./course-series-support";

describe.skipIf(!postgresBinaries())("a series of 4 dates on two server processes sharing one PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let sites: SpawnedSite[] = [];
  let pool: pg.Pool;
  let db: Database;
  let jar: CookieJar;
  let sessionIds: number[];
  /** Registration links by last name ("Série 3" → /cours/inscription/…). */
  const links = new Map<string, string>();

  const seatsTaken = async () =>
    (
      await db
        .select({ seatsTaken: courseSessions.seatsTaken })
        .from(courseSessions)
        .where(inArray(courseSessions.id, sessionIds))
        .orderBy(asc(courseSessions.id))
    ).map((row) => row.seatsTaken);
  const rows = () =>
    db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionIds[0]!))
      .orderBy(asc(courseRegistrations.id));

  beforeAll(async () => {
    postgres = await startPostgres();
    sites = [await spawnSite({ DATABASE_URL: postgres.url }), await spawnSite({ DATABASE_URL: postgres.url })];
    await Promise.all(sites.map((site) => site.ready()));
    pool = new pg.Pool({ connectionString: postgres.url });
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const schema = await import("../../app/db/schema");
    db = drizzle(pool, { schema }) as unknown as Database;
    const owner = await createOwner(postgres.url);
    jar = await signIn(sites[0]!.url, owner);
    ({ sessionIds } = await createSeries(
      db,
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90, capacity: 8, priceChf: 180 }),
      DAYS.map((day) => zurichToUtc(day, "14:00")),
    ));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await pool?.end();
    postgres?.destroy();
  });

  it("shows the series on /cours/applications-mobiles as one choice with its 4 dates in words", async () => {
    // The series was written by this test, not through a site: the render cache's warm-up, started at boot, may
    // answer with the page it rendered before until the database's notice of the change arrives (decision 018).
    let page = "";
    await waitFor(
      async () => {
        page = readable(await fetch(`${sites[1]!.url}/cours/applications-mobiles`).then((res) => res.text()));
        return page.includes(`id="seance-${sessionIds[0]}"`);
      },
      10_000,
      "the page listing the series",
    );
    expect(page).toContain("4 séances, une inscription pour toutes les dates");
    for (const words of [
      `mardi 19 octobre ${COURSE_YEAR}, 14 h 00 – 15 h 30`,
      `mardi 26 octobre ${COURSE_YEAR}, 14 h 00 – 15 h 30`,
      `mardi 2 novembre ${COURSE_YEAR}, 14 h 00 – 15 h 30`,
      `mardi 9 novembre ${COURSE_YEAR}, 14 h 00 – 15 h 30`,
    ]) {
      expect(page).toContain(words);
    }
    // One radio for the series (its first date's number), none for the three other dates.
    expect(page.match(/name="sessionId"/g)).toHaveLength(1);
    expect(page).toContain(`value="${sessionIds[0]}"`);
    expect(page).toContain("8 places restantes");
    // The course's card on / names the first date and how many there are.
    await waitFor(
      async () =>
        readable(await fetch(`${sites[0]!.url}/`).then((res) => res.text())).includes(
          `mardi 19 octobre ${COURSE_YEAR}, 14 h 00 – 15 h 30, 4 séances`,
        ),
      10_000,
      "the course card with the series",
    );
  });

  it("seats 8 of 30 concurrent registrations on all 4 dates, never more, the 22 others waiting in arrival order", async () => {
    const urls = sites.map((site) => site.url);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) => register(urls[n % 2]!, registration(sessionIds[0]!, n))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(303));
    for (const [n, answer] of answers.entries()) links.set(`Série ${n}`, answer.headers.get("location")!);
    const stored = await rows();
    expect(stored.map((row) => row.status)).toEqual([...Array(8).fill("confirmed"), ...Array(22).fill("waiting")]);
    expect(stored.every((row) => row.seriesId !== null)).toBe(true);
    expect(await seatsTaken()).toEqual([8, 8, 8, 8]);
    // Arrival order: the order the series' locks were granted is the id order, and each waiting page says it.
    for (const [index, row] of stored.entries()) {
      if (index < 8) continue;
      const page = await fetch(`${urls[index % 2]}${links.get(row.lastName)}`).then((res) => res.text());
      expect(page).toContain(`position <strong>${index - 7}</strong>`);
    }
  });

  it("refuses the same telephone a second time for the series, whichever of its dates is posted", async () => {
    const [first] = await rows();
    const n = Number(first!.lastName.replace("Série ", ""));
    for (const sessionId of [sessionIds[0]!, sessionIds[2]!]) {
      const answer = await register(sites[1]!.url, registration(sessionId, n, { firstName: "Autre" }));
      expect(answer.status).toBe(409);
      expect(await answer.text()).toContain(
        "Une inscription à cette série de séances existe déjà avec ce numéro de téléphone. Pour la changer, ouvrez le lien reçu avec sa confirmation",
      );
    }
    expect((await rows()).length).toBe(30);
  });

  it("gives the confirmed a calendar file of 4 events at the right UTC times across the change to winter time", async () => {
    const [first] = await rows();
    const link = links.get(first!.lastName)!;
    const file = await fetch(`${sites[1]!.url}${link}/calendrier.ics`);
    expect(file.status).toBe(200);
    const events = new ICAL.Component(ICAL.parse(await file.text()))
      .getAllSubcomponents("vevent")
      .map((vevent) => new ICAL.Event(vevent));
    expect(events.map((event) => event.startDate.toJSDate().toISOString())).toEqual(UTC_STARTS);
    expect(events.map((event) => event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime())).toEqual(
      Array(4).fill(90 * 60_000),
    );
    expect(new Set(events.map((event) => event.uid)).size).toBe(4);
    expect(events.every((event) => event.summary === "Applications mobiles")).toBe(true);

    // The confirmation names the 4 dates; a reminder leaves 24 hours before each.
    const mails = await db.select().from(outbox).where(inArray(outbox.id, first!.mailIds));
    const confirmation = mails.find((mail) => mail.kind === "booking-confirmation")!;
    expect(confirmation.subject).toBe(
      `Inscription confirmée : Applications mobiles, 4 séances dès le mardi 19 octobre ${COURSE_YEAR}`,
    );
    expect(confirmation.textBody).toContain("Dates (4 séances)");
    expect(confirmation.attachments![0]!.content.match(/BEGIN:VEVENT/g)).toHaveLength(4);
    const reminders = mails.filter((mail) => mail.kind === "booking-reminder");
    expect(reminders.map((mail) => new Date(mail.notBefore).toISOString()).sort()).toEqual(
      UTC_STARTS.map((start) => new Date(new Date(start).getTime() - 86_400_000).toISOString()),
    );
    expect(reminders.map((mail) => /séance (\d) sur 4/.exec(mail.textBody!)?.[1]).sort()).toEqual(["1", "2", "3", "4"]);
  });

  it("frees a cancelled registration's seat on every date once; the first waiting is taken in once", async () => {
    const stored = await rows();
    const link = links.get(stored[3]!.lastName)!;
    const cancel = () =>
      fetch(`${sites[0]!.url}${link}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: sites[0]!.url },
        body: "intent=cancel&website=",
      });
    const [answer, again] = await Promise.all([cancel(), cancel()]);
    expect([answer.status, again.status]).toEqual([200, 200]);
    expect(await seatsTaken()).toEqual([7, 7, 7, 7]);
    expect(await cancel().then((res) => res.status)).toBe(200);
    expect(await seatsTaken()).toEqual([7, 7, 7, 7]);
    // Its 4 reminders are gone.
    expect(await db.select().from(outbox).where(inArray(outbox.id, stored[3]!.reminderMailIds))).toEqual([]);

    // The owner gives the seat to the first waiting, from the page of the third date; a second try for the next finds no seat.
    const give = (registrationId: number) =>
      deskFetch(sites[1]!.url, `/admin/cours/${sessionIds[2]}`, {
        jar,
        form: { intent: "give-seat", registration: String(registrationId) },
      });
    expect((await give(stored[8]!.id)).status).toBe(200);
    expect((await give(stored[9]!.id)).status).toBe(409);
    expect(await seatsTaken()).toEqual([8, 8, 8, 8]);
    const after = await rows();
    expect(after.map((row) => row.status)).toEqual([
      ...Array(3).fill("confirmed"),
      "cancelled",
      ...Array(5).fill("confirmed"),
      ...Array(21).fill("waiting"),
    ]);
  });

  it("cancels one date: everyone is told, the registrations hold for the 3 others, whose reminders stay", async () => {
    const answer = await deskFetch(sites[0]!.url, `/admin/cours/${sessionIds[1]}`, {
      jar,
      form: { intent: "cancel-session", confirm: "oui" },
    });
    expect(answer.status).toBe(200);
    const stored = await rows();
    const held = stored.filter((row) => row.status !== "cancelled");
    expect(held.map((row) => row.status)).toEqual([...Array(8).fill("confirmed"), ...Array(21).fill("waiting")]);
    const told = await db.select().from(outbox).where(eq(outbox.kind, "booking-session-cancelled"));
    expect(told).toHaveLength(29);
    expect(told[0]!.subject!.replaceAll("\u00a0", " ")).toBe(
      `Séance annulée : Applications mobiles, mardi 26 octobre ${COURSE_YEAR}, 14 h 00 – 15 h 30`,
    );
    expect(told[0]!.textBody).toContain("Les autres séances ont lieu comme prévu");
    const first = held[0]!;
    const reminders = await db
      .select()
      .from(outbox)
      .where(and(inArray(outbox.id, first.reminderMailIds), eq(outbox.kind, "booking-reminder")));
    expect(reminders).toHaveLength(3);
    // The public page and the calendar file keep the 3 dates still held.
    const page = readable(await fetch(`${sites[1]!.url}/cours/applications-mobiles`).then((res) => res.text()));
    expect(page).toContain("3 séances, une inscription pour toutes les dates");
    expect(page).not.toContain(`mardi 26 octobre ${COURSE_YEAR}`);
    const file = await fetch(`${sites[1]!.url}${links.get(first.lastName)}/calendrier.ics`).then((res) => res.text());
    expect(file.match(/BEGIN:VEVENT/g)).toHaveLength(3);
  });

  it("ticks the attendance of a date by a plain post, shown in the CSV and on the person's page", async () => {
    const confirmed = (await rows()).filter((row) => row.status === "confirmed");
    const form: Record<string, string> = { intent: "attendance" };
    confirmed.forEach((row, index) => {
      form[`presence-${row.id}`] = index === 0 ? "absent" : index === 1 ? "excused" : "present";
    });
    // A registration still waiting is not on the list: its tick is left out.
    const waiting = (await rows()).find((row) => row.status === "waiting")!;
    form[`presence-${waiting.id}`] = "present";
    const path = `/admin/cours/${sessionIds[0]}/presences`;
    // A date still to come has nothing to tick: the post is refused, nothing saved (issue 33, item 13).
    const early = await deskFetch(sites[0]!.url, path, { jar, form });
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("Cette séance n’a pas encore eu lieu");
    expect(await db.select().from(courseAttendance).where(eq(courseAttendance.sessionId, sessionIds[0]!))).toEqual([]);
    // The date has begun (an hour ago) for the ticks, then goes back to its day for what follows.
    const [planned] = await db.select().from(courseSessions).where(eq(courseSessions.id, sessionIds[0]!));
    const begun = new Date(Date.now() - 60 * 60_000).toISOString();
    await db.update(courseSessions).set({ startsAt: begun }).where(eq(courseSessions.id, sessionIds[0]!));
    const answer = await deskFetch(sites[0]!.url, path, { jar, form });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("Présences enregistrées : 6 présent(e)s, 1 absent(e), 1 excusé(e).");
    const ticks = await db.select().from(courseAttendance).where(eq(courseAttendance.sessionId, sessionIds[0]!));
    expect(ticks).toHaveLength(8);
    // Changed once more: the tick is replaced, not added.
    await deskFetch(sites[1]!.url, path, {
      jar,
      form: { intent: "attendance", [`presence-${confirmed[0]!.id}`]: "present" },
    });
    const [changed] = await db
      .select()
      .from(courseAttendance)
      .where(eq(courseAttendance.registrationId, confirmed[0]!.id));
    expect(changed!.state).toBe("present");
    await db.update(courseSessions).set({ startsAt: planned!.startsAt }).where(eq(courseSessions.id, sessionIds[0]!));

    const csv = await deskFetch(sites[0]!.url, `/admin/cours/${sessionIds[0]}/inscrits.csv`, { jar }).then((res) =>
      res.text(),
    );
    const lines = csv.split(/\r?\n/);
    // A field equal to the name: "Série 1" is also the start of "Série 12".
    const lineOf = (lastName: string) => lines.find((line) => line.split(";").includes(lastName))!;
    expect(lines[0]!.split(";").at(-1)).toBe("Présence");
    expect(lineOf(confirmed[1]!.lastName).split(";").at(-1)).toBe("Excusé(e)");
    expect(lineOf(waiting.lastName).split(";").at(-1)).toBe("");

    const person = await deskFetch(sites[0]!.url, `/admin/personne?email=${encodeURIComponent(confirmed[1]!.email!)}`, {
      jar,
    }).then((res) => res.text());
    expect(readable(person)).toContain(`mardi 19 octobre ${COURSE_YEAR}, 14 h 00 : excusé(e)`);
  });

  it("moves date 3 of the series (day, time and place): everyone is told, reminders and calendar follow", async () => {
    // A waiting person registered by telephone, without e-mail: the owner calls her.
    const byPhone = await deskFetch(sites[1]!.url, `/admin/cours/${sessionIds[2]}`, {
      jar,
      form: {
        intent: "register",
        sessionId: String(sessionIds[2]),
        firstName: "Odette",
        lastName: "Sansmail",
        phone: "079 555 12 34",
        seats: "1",
      },
    });
    expect(byPhone.status).toBe(200);
    const before = (await rows()).filter((row) => row.status !== "cancelled");
    const withMail = before.filter((row) => row.email);
    expect(before.length - withMail.length).toBe(1);
    const oldReminderTime = new Date(new Date(UTC_STARTS[2]!).getTime() - 86_400_000).toISOString();
    const [form] = await db.select().from(courseSessions).where(eq(courseSessions.id, sessionIds[2]!));

    // Tuesday 2 November 14:00 → Thursday 4 November 15:00, in another room.
    const answer = await deskFetch(sites[0]!.url, `/admin/cours/${sessionIds[2]}`, {
      jar,
      form: {
        intent: "edit",
        courseId: form!.courseId,
        date: `${COURSE_YEAR}-11-04`,
        time: "15:00",
        durationMinutes: String(form!.durationMinutes),
        placeName: "Salle du Conseil",
        placeAddress: "Place du Marché 1, 1800 Vevey",
        placeAccess: "",
        capacity: String(form!.capacity),
        minimum: String(form!.minimum),
        priceChf: String(form!.priceChf),
      },
    });
    expect(answer.status).toBe(200);
    const page = readable(await answer.text());
    expect(page).toContain("Date de la séance changée.");
    expect(page).toContain("Odette Sansmail");
    const newStart = `${COURSE_YEAR}-11-04T14:00:00.000Z`;

    // Everyone with an e-mail, confirmed or waiting, is told; the mail lists every date, the moved one with its place.
    const told = await db.select().from(outbox).where(eq(outbox.kind, "booking-date-moved"));
    expect(told.map((mail) => mail.recipient).sort()).toEqual(withMail.map((row) => row.email).sort());
    const mail = told.find((row) => row.recipient === withMail[0]!.email)!;
    expect(mail.subject!.replaceAll("\u00a0", " ")).toBe(
      `Changement de date : Applications mobiles, jeudi 4 novembre ${COURSE_YEAR}, 15 h 00 – 16 h 30`,
    );
    expect(mail.textBody!.replaceAll("\u00a0", " ")).toContain(
      `jeudi 4 novembre ${COURSE_YEAR}, 15 h 00 – 16 h 30 (lieu : Salle du Conseil, Place du Marché 1, 1800 Vevey)`,
    );
    const text = mail.textBody!.replaceAll("\u00a0", " ");
    expect(text).toContain(
      `Une séance de votre cours change de date et de lieu : celle du mardi 2 novembre ${COURSE_YEAR}, 14 h 00 – 15 h 30 a lieu le jeudi 4 novembre ${COURSE_YEAR}, 15 h 00 – 16 h 30 et à cette adresse : Salle du Conseil, Place du Marché 1, 1800 Vevey.`,
    );
    // The old date is named once, in that sentence: the list of dates has the new one only.
    expect(text.split(`mardi 2 novembre ${COURSE_YEAR}`)).toHaveLength(2);

    // A waiting person keeps her place in line and gets no calendar file.
    const waitingMail = told.find((row) => row.recipient === before.find((r) => r.status === "waiting")!.email)!;
    expect(waitingMail.textBody).toContain("Vous restez sur la liste d’attente, à la même position.");
    expect(waitingMail.attachments ?? []).toEqual([]);

    // No reminder announces the old date any more; each confirmed registration has one before the new date.
    const pendingReminders = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "booking-reminder")));
    expect(pendingReminders.filter((row) => new Date(row.notBefore).toISOString() === oldReminderTime)).toEqual([]);
    const after = (await rows()).filter((row) => row.status === "confirmed");
    for (const registration of after) {
      const own = pendingReminders.filter((row) => registration.reminderMailIds.includes(row.id));
      expect(own.map((row) => new Date(row.notBefore).toISOString())).toContain(
        new Date(new Date(newStart).getTime() - 86_400_000).toISOString(),
      );
      expect(own).toHaveLength(3);
    }

    // The calendar file sent to a confirmed person holds the new date at its new place, and not the old one.
    const confirmedMail = told.find((row) => row.recipient === after[0]!.email)!;
    const events = new ICAL.Component(ICAL.parse(confirmedMail.attachments![0]!.content))
      .getAllSubcomponents("vevent")
      .map((vevent) => new ICAL.Event(vevent));
    const starts = events.map((event) => event.startDate.toJSDate().toISOString());
    expect(starts).toContain(newStart);
    expect(starts).not.toContain(UTC_STARTS[2]);
    expect(events.find((event) => event.startDate.toJSDate().toISOString() === newStart)!.location).toContain(
      "Salle du Conseil",
    );

    // The public page lists the moved date with its own place.
    await waitFor(
      async () =>
        readable(await fetch(`${sites[1]!.url}/cours/applications-mobiles`).then((res) => res.text())).includes(
          `jeudi 4 novembre ${COURSE_YEAR}, 15 h 00 – 16 h 30 (lieu : Salle du Conseil, Place du Marché 1, 1800 Vevey)`,
        ),
      10_000,
      "the public page with the moved date",
    );
  });

  it("copies a date of a series as a new series after its last date, never as one date at the series' price", async () => {
    const answer = await deskFetch(sites[0]!.url, `/admin/cours/${sessionIds[3]}`, {
      jar,
      form: { intent: "duplicate" },
    });
    expect(answer.status).toBe(303);
    const copyId = Number(answer.headers.get("location")!.split("/").at(-1));
    const [copy] = await db.select().from(courseSessions).where(eq(courseSessions.id, copyId));
    expect(copy!.seriesId).not.toBeNull();
    const copied = await db
      .select()
      .from(courseSessions)
      .where(eq(courseSessions.seriesId, copy!.seriesId!))
      .orderBy(asc(courseSessions.startsAt));
    // The 3 dates still held (19 Oct, 4 Nov moved, 9 Nov), 4 weeks later: the series spans 3 weeks, plus one.
    expect(copied.map((row) => new Date(row.startsAt).toISOString())).toEqual([
      `${COURSE_YEAR}-11-16T13:00:00.000Z`,
      `${COURSE_YEAR}-12-02T14:00:00.000Z`,
      `${COURSE_YEAR}-12-07T13:00:00.000Z`,
    ]);
    expect(copied.map((row) => row.placeName)[1]).toBe("Salle du Conseil");
    expect(copied.every((row) => row.seatsTaken === 0 && row.priceChf === 180)).toBe(true);
  });
});
