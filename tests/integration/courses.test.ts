/**
 * Course registrations over HTTP, as browsers without JavaScript post them:
 * 50 concurrent registrations for 8 seats on one server with PGlite (two
 * processes sharing one PostgreSQL: courses-shared.test.ts): exactly 8 seats taken, the
 * rest on the waiting list in arrival order; a 2-seat request for the last
 * seat refused with a French message; the cancellation link (a page with a
 * button that posts) frees the seat once; the calendar file, downloaded and
 * attached to the confirmation mail (a real SMTP peer); the owner
 * creates, duplicates and cancels a session in the desk; the sitemap.
 */
import { and, eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import { type Database } from "../../app/db/client.server";
import { auditLog, courseRegistrations, courseSessions, outbox } from "../../app/db/schema";
import {
  createOwner,
  deskFetch,
  signIn,
  startSmtp,
  startTestServer,
  waitFor,
  bookingForm as registration,
  placesShown,
  sessionFields,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { session, register, rowsOf, expectEightSeatsAndAWaitingList } from "./courses-support";

describe("registrations on one server (PGlite)", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let db: Database;
  beforeAll(async () => {
    site = await startTestServer({}, undefined, { database: "embedded" });
    db = site.database.db;
  });
  afterAll(async () => site?.close());

  it("takes exactly 8 seats of 50 concurrent registrations and puts the rest on the waiting list in order", async () => {
    const sessionId = await createSession(db, session());
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => register(site.url, registration(sessionId, n))),
    );
    await expectEightSeatsAndAWaitingList(db, sessionId, answers, [site.url]);
    const page = await fetch(`${site.url}/cours/securite`).then((res) => res.text());
    expect(page).toContain("Complet");
    expect(page).toContain("42 personnes en liste d’attente");
  });

  it("refuses 2 seats for the last one with a French message, keeping what was typed", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-19`, "14:00"), 3));
    expect((await register(site.url, registration(sessionId, 1, { seats: "2" }))).status).toBe(303);
    const answer = await register(site.url, registration(sessionId, 2, { seats: "2" }));
    expect(answer.status).toBe(409);
    const html = await answer.text();
    expect(html).toContain("Il ne reste qu’une place pour cette séance.");
    expect(html).toContain('value="Dupont 2"');
    expect((await rowsOf(db, sessionId)).length).toBe(1);
  });

  it("shows « J’accepte de recevoir un rappel par SMS » after the telephone, and stores the person's answer", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-20`, "14:00"), 3));
    const form = await fetch(`${site.url}/cours/securite`).then((res) => res.text());
    const phone = form.indexOf('name="phone"');
    const consent = form.indexOf('name="smsConsent"');
    expect(phone).toBeGreaterThan(0);
    expect(consent).toBeGreaterThan(phone);
    expect(consent).toBeLessThan(form.indexOf('name="email"'));
    expect(form).toContain("J’accepte de recevoir un rappel par SMS");
    expect((await register(site.url, registration(sessionId, 1, { smsConsent: "on" }))).status).toBe(303);
    expect((await register(site.url, registration(sessionId, 2))).status).toBe(303);
    const rows = await db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId))
      .orderBy(courseRegistrations.id);
    expect(rows.map((row) => [row.lastName, row.smsConsent])).toEqual([
      ["Dupont 1", true],
      ["Dupont 2", false],
    ]);
  });

  it("refuses a second registration of one telephone for a session, beside the field, even when both are posted at once", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-22`, "14:00")));
    const answers = await Promise.all(
      [1, 2].map((n) => register(site.url, registration(sessionId, n, { phone: "079 777 88 99" }))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    const html = await refused.text();
    expect(html).toContain("Une inscription à cette séance existe déjà avec ce numéro de téléphone.");
    // It says how to change the first: its link cancels it, then register again; or telephone (issue 22 item 5).
    expect(html).toContain("Pour la changer, ouvrez le lien reçu avec sa confirmation");
    expect(html).toContain("puis de vous inscrire à nouveau. Sans ce lien, ou pour inscrire une autre personne");
    expect(html).toMatch(/id="[^"]*phone[^"]*"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="[^"]*phone/);
    // Written another way, still the same telephone.
    expect((await register(site.url, registration(sessionId, 3, { phone: "+41 79 777 88 99" }))).status).toBe(409);
    expect((await rowsOf(db, sessionId)).length).toBe(1);
  });

  it("answers missing fields with the French messages beside them, and registers nobody", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-20`, "14:00")));
    const answer = await register(site.url, { sessionId: String(sessionId), firstName: "M", website: "" });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("Le prénom doit contenir au moins 2 caractères");
    expect(html).toContain("Veuillez entrer un numéro de téléphone valide");
    expect((await rowsOf(db, sessionId)).length).toBe(0);
  });

  it("registers a relative: both get the confirmation, and the owner is told who registered whom", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-21`, "14:00")));
    const answer = await register(
      site.url,
      registration(sessionId, 1, {
        email: "",
        bookerFirstName: "Luc",
        bookerLastName: "Dupont",
        bookerPhone: "021 123 45 67",
        bookerEmail: "luc@example.ch",
      }),
    );
    expect(answer.status).toBe(303);
    const mails = await db.select().from(outbox).where(eq(outbox.kind, "booking-confirmation"));
    expect(mails.filter((mail) => mail.recipient === "luc@example.ch")).toHaveLength(1);
    const notices = await db.select().from(outbox).where(eq(outbox.kind, "booking-owner-registration"));
    expect(notices.at(-1)!.textBody).toContain("Inscrit(e) par : Luc Dupont, 021 123 45 67, luc@example.ch");
  });

  it("frees the seat once: the link's page changes nothing, its button cancels, a second post changes nothing", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-26`, "14:00"), 1));
    const first = await register(site.url, registration(sessionId, 1));
    const link = first.headers.get("location")!;
    expect(link).toMatch(/^\/cours\/inscription\/[A-Za-z0-9_-]{43}$/);
    await register(site.url, registration(sessionId, 2));
    const seats = async () =>
      (await db.select().from(courseSessions).where(eq(courseSessions.id, sessionId)))[0]!.seatsTaken;

    const page = await fetch(`${site.url}${link}`).then((res) => res.text());
    expect(page).toContain("Votre inscription est confirmée");
    // "Annuler mon inscription" is a link that asks once; only the question's "Oui, annuler" posts.
    expect(page).toContain(`href="${link}?annuler#annuler"`);
    expect(page).not.toContain("Oui, annuler");
    // (React separates text from a value with an empty comment.)
    const asking = (await fetch(`${site.url}${link}?annuler`).then((res) => res.text())).replace(/<!-- -->/g, "");
    expect(asking).toContain("Voulez-vous vraiment annuler l’inscription de Marie Dupont 1");
    expect(asking).toMatch(/<form[^>]*method="post"[^>]*>(?:(?!<\/form>).)*Oui, annuler/s);
    expect(page).toContain(`mardi 26 janvier ${COURSE_YEAR}, 14\u00a0h\u00a000 – 16\u00a0h\u00a000`);
    expect(await seats()).toBe(1);
    // The registration's code word (issue 23), as stored, with the link to /confiance.
    const [stored] = await db
      .select()
      .from(courseRegistrations)
      .where(eq(courseRegistrations.sessionId, sessionId))
      .orderBy(courseRegistrations.id);
    expect(stored!.codeWord).toBeTruthy();
    expect(page).toContain(`«\u00a0${stored!.codeWord}\u00a0»`);
    expect(page).toContain('href="/confiance"');

    const cancel = () =>
      fetch(`${site.url}${link}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
        body: "intent=cancel&website=",
      });
    const answer = await cancel();
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("Votre inscription est annulée.");
    expect(await seats()).toBe(0);
    await cancel();
    expect(await seats()).toBe(0);
    const notices = await db.select().from(outbox).where(eq(outbox.kind, "booking-owner-cancellation"));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.textBody).toContain("Première personne sur la liste d’attente : Marie Dupont 2");
  });

  it("the SMS reminder's short link /r/{token}: its page and other methods change nothing, its button frees the seat", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-27`, "14:00"), 1));
    const token = (await register(site.url, registration(sessionId, 1))).headers.get("location")!.split("/").pop()!;
    const seats = async () =>
      (await db.select().from(courseSessions).where(eq(courseSessions.id, sessionId)))[0]!.seatsTaken;
    const page = await fetch(`${site.url}/r/${token}`).then((res) => res.text());
    expect(page).toContain("Toujours partant·e");
    const send = (method: string, path: string) =>
      fetch(`${site.url}${path}`, {
        method,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
        body: "intent=cancel&website=",
        redirect: "manual",
      });
    // Any other method, on the path and on its encoded spelling, is refused and cancels nothing.
    for (const method of ["PUT", "PATCH", "DELETE"])
      for (const path of [`/r/${token}`, `/%72/${token}`])
        expect((await send(method, path)).status, `${method} ${path}`).toBe(405);
    expect(await seats()).toBe(1);
    const answer = await send("POST", `/r/${token}`);
    expect(answer.status).toBe(200);
    expect(await seats()).toBe(0);
  });

  it("past the cancellation deadline, refuses the link's cancellation with 409 on every spelling of its path", async () => {
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-01-28`, "14:00"), 2));
    const token = (await register(site.url, registration(sessionId, 1))).headers.get("location")!.split("/").pop()!;
    // The lesson now starts in 24 hours (the server reads the system's clock): the deadline (48 h before) has passed.
    const startsAt = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 24 * 3_600_000).toISOString();
    await db.update(courseSessions).set({ startsAt }).where(eq(courseSessions.id, sessionId));
    const seat = async () => ({
      taken: (await db.select().from(courseSessions).where(eq(courseSessions.id, sessionId)))[0]!.seatsTaken,
      status: (await rowsOf(db, sessionId))[0]!.status,
    });
    const paths = [
      `/cours/inscription/${token}`,
      `/cours/inscription/${token}.data`,
      `/cours/inscription/${token}/`,
      `/COURS/Inscription/${token}`,
      `/cours/%69nscription/${token}`,
      `/%63ours/inscription/${token}.data`,
    ];
    for (const path of paths) {
      const answer = await fetch(`${site.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
        body: "intent=cancel&website=",
        redirect: "manual",
      });
      expect(answer.status, path).toBe(409);
      expect(await answer.text(), path).toContain("Le délai pour annuler en ligne est passé");
      expect(await seat(), path).toEqual({ taken: 1, status: "confirmed" });
    }
  });

  it("serves the calendar file of a registration, and 404 for an unknown link", async () => {
    // The last Sunday of October: winter time (UTC+1) since 3 h 00 that morning.
    const sessionId = await createSession(db, session(zurichToUtc(`${COURSE_YEAR}-10-31`, "14:00")));
    const link = (await register(site.url, registration(sessionId, 1))).headers.get("location")!;
    const ics = await fetch(`${site.url}${link}/calendrier.ics`);
    expect(ics.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(await ics.text()).toContain(`DTSTART:${COURSE_YEAR}1031T130000Z`);
    expect((await fetch(`${site.url}/cours/inscription/${"a".repeat(43)}`)).status).toBe(404);
  });

  it("mails the confirmation with the calendar file attached and a link to it; the waiting list gets no file", async () => {
    const smtp = await startSmtp();
    const mailing = await startTestServer({ SMTP_URL: smtp.url, OUTBOX_POLL_SECONDS: "1" });
    try {
      const sessionId = await createSession(
        mailing.database.db,
        session(zurichToUtc(`${COURSE_YEAR}-10-31`, "14:00"), 1),
      );
      await register(mailing.url, registration(sessionId, 1, { email: "confirmee@example.ch" }));
      await register(mailing.url, registration(sessionId, 2, { email: "attente@example.ch" }));
      await waitFor(() => smtp.mails.length >= 2 + 2, 15_000, "the two mails and the owner's two notices");
      const confirmed = smtp.mails.find((mail) => mail.to === "confirmee@example.ch")!;
      expect(confirmed.subject).toMatch(/^Inscription confirmée/);
      expect(confirmed.attachments).toHaveLength(1);
      const [file] = confirmed.attachments;
      expect([file!.filename, file!.mimeType]).toEqual(["cours.ics", "text/calendar"]);
      // Parsed by a library: the start in UTC on the last Sunday of October (winter time since that morning).
      const event = new ICAL.Event(new ICAL.Component(ICAL.parse(file!.content)).getFirstSubcomponent("vevent")!);
      expect(event.startDate.toJSDate().toISOString()).toBe(`${COURSE_YEAR}-10-31T13:00:00.000Z`);
      expect(event.summary).toBe("Sécurité et protection");
      // The link beside it answers the same file.
      const link = /(http\S+\/calendrier\.ics)/.exec(confirmed.text)![1]!;
      expect(confirmed.html).toContain(`href="${link}"`);
      const download = await fetch(link.replace(/^https?:\/\/[^/]+/, mailing.url));
      expect(download.status).toBe(200);
      const downloaded = new ICAL.Event(
        new ICAL.Component(ICAL.parse(await download.text())).getFirstSubcomponent("vevent")!,
      );
      expect([downloaded.uid, downloaded.startDate.toJSDate().toISOString()]).toEqual([
        event.uid,
        `${COURSE_YEAR}-10-31T13:00:00.000Z`,
      ]);

      const waiting = smtp.mails.find((mail) => mail.to === "attente@example.ch")!;
      expect(waiting.subject).toMatch(/^Liste d’attente/);
      expect(waiting.attachments).toEqual([]);
      expect(waiting.text).not.toContain("calendrier.ics");
    } finally {
      await mailing.close();
      await smtp.close();
    }
  });

  it("shows on /cours the next three dates of a course and a link to all of them on its own page", async () => {
    const ids: number[] = [];
    for (const day of ["03", "10", "17", "24"]) {
      ids.push(
        await createSession(
          db,
          sessionFields({
            courseId: "intelligence-artificielle",
            startsAt: zurichToUtc(`${COURSE_YEAR}-03-${day}`, "09:00"),
          }),
        ),
      );
    }
    const list = await fetch(`${site.url}/cours`).then((res) => res.text());
    const section = /<section[^>]*aria-labelledby="cours-intelligence-artificielle"[\s\S]*?<\/section>/.exec(list)![0];
    for (const id of ids.slice(0, 3)) expect(placesShown(section, id), `session ${id}`).toBe("8 places restantes");
    expect(list).not.toContain(`id="seance-${ids[3]}"`);
    expect(section).toContain("Les 3 prochaines dates sur 4");
    expect(section).toMatch(/<a href="\/cours\/intelligence-artificielle#dates"[^>]*>Voir toutes les dates/);
    const own = await fetch(`${site.url}/cours/intelligence-artificielle`).then((res) => res.text());
    for (const id of ids) expect(own).toContain(`id="seance-${id}"`);
  });

  it("lists the course pages in the sitemap", async () => {
    const xml = await fetch(`${site.url}/sitemap.xml`).then((res) => res.text());
    expect(xml).toContain("/cours/securite</loc>");
  });

  it("lets the owner create, duplicate and cancel a session; cancelling mails registrants and lists those to call", async () => {
    expect((await fetch(`${site.url}/admin/cours`, { redirect: "manual" })).status).toBe(303);
    const owner = await createOwner(db, "courses-owner@example.ch");
    const jar = await signIn(site.url, owner);
    const created = await deskFetch(site.url, "/admin/cours", {
      jar,
      form: {
        intent: "create",
        courseId: "applications-mobiles",
        date: `${COURSE_YEAR}-03-02`,
        time: "09:30",
        durationMinutes: "90",
        placeName: "Espace Seniors",
        placeAddress: "Avenue de la Gare 5, 1003 Lausanne",
        placeAccess: "1er étage, ascenseur",
        capacity: "8",
        minimum: "4",
        priceChf: "55",
      },
    });
    expect(created.status).toBe(303);
    const path = created.headers.get("location")!;
    const sessionId = Number(/\/admin\/cours\/(\d+)$/.exec(path)![1]);
    const [row] = await db.select().from(courseSessions).where(eq(courseSessions.id, sessionId));
    expect(new Date(row!.startsAt).toISOString()).toBe(`${COURSE_YEAR}-03-02T08:30:00.000Z`);

    const duplicated = await deskFetch(site.url, path, { jar, form: { intent: "duplicate" } });
    expect(duplicated.status).toBe(303);
    expect(await deskFetch(site.url, duplicated.headers.get("location")!, { jar }).then((res) => res.text())).toContain(
      `mardi 9 mars ${COURSE_YEAR}, 9\u00a0h\u00a030 – 11\u00a0h\u00a000`,
    );

    await register(site.url, registration(sessionId, 1), "applications-mobiles");
    const byPhone = await deskFetch(site.url, path, {
      jar,
      form: {
        intent: "register",
        sessionId: String(sessionId),
        firstName: "Paul",
        lastName: "Sans",
        phone: "021 555 66 77",
        seats: "1",
      },
    });
    expect(byPhone.status).toBe(200);
    const csv = await deskFetch(site.url, `${path}/inscrits.csv`, { jar }).then((res) => res.text());
    expect(csv).toContain("Dupont 1");
    expect(csv).toContain("Sans;021 555 66 77;;;;;;Sur place;;Téléphone");

    // The owner cancels one registration: the page asks once, "Oui, annuler" posts, it is audited (ids only).
    await register(site.url, registration(sessionId, 2), "applications-mobiles");
    const [second] = await db
      .select()
      .from(courseRegistrations)
      .where(and(eq(courseRegistrations.email, "marie2@example.ch"), eq(courseRegistrations.sessionId, sessionId)));
    const sessionPage = await deskFetch(site.url, path, { jar }).then((res) => res.text());
    expect(sessionPage).toContain(`href="${path}?annuler=${second!.id}#personne-${second!.id}"`);
    expect(sessionPage).not.toContain("Oui, annuler");
    const asking = await deskFetch(site.url, `${path}?annuler=${second!.id}`, { jar }).then((res) => res.text());
    expect(asking).toContain("Oui, annuler");
    expect(asking).toContain("Un e-mail confirmera l’annulation.");
    const cancelOne = () =>
      deskFetch(site.url, path, { jar, form: { intent: "cancel-registration", registration: String(second!.id) } });
    // From another session's page, nothing changes.
    const elsewhere = await deskFetch(site.url, `/admin/cours/${sessionId + 1}`, {
      jar,
      form: { intent: "cancel-registration", registration: String(second!.id) },
    });
    expect(elsewhere.status).toBe(404);
    const cancelMailsBefore = await db
      .select({ id: outbox.id })
      .from(outbox)
      .where(eq(outbox.kind, "booking-cancelled"));
    const done = await cancelOne();
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("L’inscription est annulée et sa place est libre.");
    expect((await cancelOne()).status).toBe(409);
    const [afterCancel] = await db.select().from(courseSessions).where(eq(courseSessions.id, sessionId));
    expect(afterCancel!.seatsTaken).toBe(2);
    // The other tests of this server cancelled registrations too: only this cancellation's mails count.
    const earlier = new Set(cancelMailsBefore.map((mail) => mail.id));
    const cancelMails = (await db.select().from(outbox).where(eq(outbox.kind, "booking-cancelled"))).filter(
      (mail) => !earlier.has(mail.id),
    );
    expect(cancelMails.map((mail) => mail.recipient)).toEqual(["marie2@example.ch"]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "registration-cancelled"));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.details).toEqual({ session: sessionId, registration: second!.id });
    expect(audits[0]!.actor).toBeTruthy();

    const unconfirmed = await deskFetch(site.url, path, { jar, form: { intent: "cancel-session" } });
    expect(unconfirmed.status).toBe(400);
    expect(await db.select().from(outbox).where(eq(outbox.kind, "booking-session-cancelled"))).toEqual([]);
    const cancelled = await deskFetch(site.url, path, { jar, form: { intent: "cancel-session", confirm: "oui" } });
    const html = await cancelled.text();
    expect(html).toContain("Séance annulée. 1 e-mail d’annulation en route.");
    expect(html).toContain("Paul Sans");
    const mails = await db.select().from(outbox).where(eq(outbox.kind, "booking-session-cancelled"));
    expect(mails.map((mail) => mail.recipient)).toEqual(["marie1@example.ch"]);
    const publicPage = await fetch(`${site.url}/cours/applications-mobiles`).then((res) => res.text());
    expect(publicPage).not.toContain(`mardi 2 mars ${COURSE_YEAR}`);
  });
});
