/**
 * Paper from a session (issue 31, items 1 and 3), over HTTP on one
 * in-process server (PGlite), a series of 4 weekly dates and 4 registrants:
 * - attendance certificates name only the people marked present at least
 *   once, each on its own page with the dates that person attended and
 *   their hours; `?inscription=` prints one; the list to sign has a page
 *   per date naming every registrant;
 * - letters for the post: nothing to print without an address (the page
 *   says so), the desk's address form (a wrong NPA refused), the PDF for
 *   everyone without e-mail (one page per letter, no one else named),
 *   « Noter ces lettres envoyées » recorded once per ticked registrant of
 *   the session, shown on the person's page, erased with the person;
 * - from the call list « À appeler demain »: the same letters for the people
 *   on it who have an address, in one PDF, noted sent (ids only audited).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markAttendance } from "../../app/courses/attendance.server";
import { createSeries, createSession, utcToZurich, zurichToUtc } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import { auditLog, courseRegistrations, courseSessions, postalLetters } from "../../app/db/schema";
import { erasePerson } from "../../app/features.server";
import {
  createOwner,
  deskFetch,
  pageText,
  sessionFields,
  signIn,
  startTestServer,
  type CookieJar,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { readPdf } from "../support/paper";

const DAYS = ["03-02", "03-09", "03-16", "03-23"].map((day) => `${COURSE_YEAR}-${day}`);
const SAID = DAYS.map((day) => {
  const date = day.split("-")[2];
  return `mardi ${Number(date)} mars ${COURSE_YEAR}, 14 h 00 – 15 h 30`;
});
describe("paper from a session: certificates and letters for the post", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let db: Database;
  let jar: CookieJar;
  let sessionIds: number[];
  let seriesId: number;
  const ids: Record<string, number> = {};
  const pdf = async (path: string) => {
    const answer = await deskFetch(site.url, path, { jar });
    expect(answer.status, path).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/pdf");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    return Buffer.from(await answer.arrayBuffer());
  };

  beforeAll(async () => {
    site = await startTestServer({});
    db = site.database.db;
    jar = await signIn(site.url, await createOwner(db, "paper-owner@example.ch"));
    ({ sessionIds, seriesId } = await createSeries(
      db,
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90 }),
      DAYS.map((day) => zurichToUtc(day, "14:00")),
    ));
    for (const [firstName, phone, email] of [
      ["Anne", "+41215550001", null],
      ["Bruno", "+41215550002", null],
      ["Claire", "+41795550003", "claire@example.ch"],
      ["Denis", "+41215550004", null],
    ] as const) {
      const [row] = await db
        .insert(courseRegistrations)
        .values({
          sessionId: sessionIds[0]!,
          seriesId,
          status: "confirmed",
          seats: 1,
          firstName,
          lastName: "Papier",
          phone,
          phoneE164: phone,
          email,
          codeWord: `${firstName.toLowerCase()} bleu`,
          source: "desk",
        })
        .returning({ id: courseRegistrations.id });
      ids[firstName] = row!.id;
    }
    // Each holds its seat on every date, as a booking would have taken it.
    await db.update(courseSessions).set({ seatsTaken: 4 }).where(eq(courseSessions.seriesId, seriesId));
  });
  afterAll(async () => site?.close());

  it("prints certificates only for people present at least once, with the dates each attended", async () => {
    const mark = (date: number, states: Record<string, "present" | "absent" | "excused">) =>
      markAttendance(
        db,
        sessionIds[date]!,
        Object.entries(states).map(([name, state]) => ({ registrationId: ids[name]!, state })),
      );
    await mark(0, { Anne: "present", Bruno: "absent", Claire: "present", Denis: "excused" });
    await mark(1, { Anne: "present", Bruno: "absent", Claire: "absent" });
    await mark(2, { Anne: "absent", Bruno: "excused" });
    await mark(3, { Anne: "present", Bruno: "absent", Claire: "absent", Denis: "absent" });

    // Every file fetched before any is read: reading one keeps this process (the server's too) busy for seconds.
    // From any date of the series: the series' certificates.
    const files = {
      all: await pdf(`/admin/cours/${sessionIds[2]}/attestations.pdf`),
      one: await pdf(`/admin/cours/${sessionIds[0]}/attestations.pdf?inscription=${ids.Claire}`),
      list: await pdf(`/admin/cours/${sessionIds[0]}/liste-signatures.pdf`),
    };
    // Someone never present has none: back to the page, which says why.
    const none = await deskFetch(site.url, `/admin/cours/${sessionIds[0]}/attestations.pdf?inscription=${ids.Bruno}`, {
      jar,
    });
    expect(none.status).toBe(302);
    expect(none.headers.get("location")).toBe(`/admin/cours/${sessionIds[0]}?courrier=aucune-presence#courrier`);

    const all = await readPdf(files.all);
    expect(all.pages).toBe(2);
    const [anne, claire] = all.pageTexts.map((text) => text.replace(/\u00a0/g, " "));
    expect(anne).toContain("Attestation de participation");
    expect(anne).toContain("Anne Papier");
    for (const date of [SAID[0], SAID[1], SAID[3]]) expect(anne).toContain(date);
    expect(anne).not.toContain(SAID[2]);
    expect(anne).toContain("Durée : 4 h 30.");
    expect(claire).toContain("Claire Papier");
    expect(claire).toContain(SAID[0]);
    for (const date of SAID.slice(1)) expect(claire).not.toContain(date);
    expect(claire).toContain("Durée : 1 h 30.");
    for (const text of [anne, claire]) {
      expect(text).toContain("Salle paroissiale, Rue du Lac 1, 1800 Vevey");
      expect(text).not.toMatch(/Bruno|Denis/);
    }
    expect(anne).not.toContain("Claire");
    expect(claire).not.toContain("Anne");

    const one = await readPdf(files.one);
    expect(one.pages).toBe(1);
    expect(one.text).toContain("Claire Papier");

    const list = await readPdf(files.list);
    expect(list.pages).toBe(4);
    for (const [index, text] of list.pageTexts.entries()) {
      expect(text.replace(/\u00a0/g, " ")).toContain(SAID[index]);
      for (const name of ["Anne", "Bruno", "Claire", "Denis"]) expect(text).toContain(`${name} Papier`);
      expect(text).toContain("Signature");
    }
  });

  it("prints letters for the registrants without e-mail who have an address, notes them sent, shows and erases them", async () => {
    const page = `/admin/cours/${sessionIds[0]}`;
    const empty = await deskFetch(site.url, `${page}/lettres.pdf`, { jar });
    expect(empty.headers.get("location")).toBe(`${page}?courrier=vide#courrier`);
    expect(pageText(await deskFetch(site.url, `${page}?courrier=vide`, { jar }).then((res) => res.text()))).toContain(
      "Aucune lettre à imprimer",
    );
    // The page's form with no box ticked prints no one (not everyone without e-mail).
    const noneTicked = await deskFetch(site.url, `${page}/lettres.pdf?choix=1&fenetre=droite`, { jar });
    expect(noneTicked.headers.get("location")).toBe(`${page}?courrier=personne#courrier`);

    const address = (name: string, npa: string) => ({
      intent: "letter-address",
      inscription: String(ids[name]),
      rue: "Avenue des Alpes 12",
      npa,
      localite: "Vevey",
    });
    const refused = await deskFetch(site.url, page, { jar, form: address("Anne", "180") });
    expect(refused.status).toBe(400);
    expect(pageText(await refused.text())).toContain("Le NPA a 4 chiffres");
    for (const name of ["Anne", "Denis"]) {
      const saved = await deskFetch(site.url, page, { jar, form: address(name, "1800") });
      expect(saved.status).toBe(200);
      expect(pageText(await saved.text())).toContain("Adresse enregistrée");
    }
    // Each saved address is in the audit trail, by ids only (the refused one is not).
    const audited = async (action: string) =>
      (await db.select({ details: auditLog.details }).from(auditLog).where(eq(auditLog.action, action))).map(
        (row) => row.details,
      );
    expect(await audited("letter-address-saved")).toEqual([
      { session: sessionIds[0], registration: ids.Anne },
      { session: sessionIds[0], registration: ids.Denis },
    ]);

    // Everyone without e-mail who has an address: Anne and Denis (Bruno has none, Claire has an e-mail).
    const letterFile = await pdf(`${page}/lettres.pdf?fenetre=gauche`);

    const sent = await deskFetch(site.url, page, {
      jar,
      form: new URLSearchParams([
        ["intent", "letters-sent"],
        ["inscription", String(ids.Anne)],
        ["inscription", "999999"],
      ]),
    });
    expect(pageText(await sent.text())).toContain("1 lettre notée envoyée aujourd’hui.");
    expect(await db.select().from(postalLetters).where(eq(postalLetters.registrationId, ids.Anne!))).toHaveLength(1);
    expect(await db.select().from(postalLetters)).toHaveLength(1);
    expect(await audited("letters-sent")).toEqual([{ session: sessionIds[0], letters: 1 }]);

    const person = pageText(
      await deskFetch(site.url, `/admin/personne?telephone=${encodeURIComponent("021 555 00 01")}`, { jar }).then(
        (res) => res.text(),
      ),
    );
    expect(person).toContain("Lettres envoyées par la poste");
    expect(person).toMatch(/Envoyée le \d{1,2}(er)? \p{L}+ \d{4}/u);
    expect(person).toContain("Anne Papier, Avenue des Alpes 12, 1800 Vevey");

    const letters = await readPdf(letterFile);
    expect(letters.pages).toBe(2);
    expect(letters.pageTexts[0]).toContain("Bonjour Anne Papier,");
    expect(letters.pageTexts[0]).toContain("« anne bleu »");
    // The session's price as paper writes amounts (issue 31, item 4), not the site's « CHF 55.– ».
    expect(letters.pageTexts[0]).toContain("Prix : CHF 55.00 par personne.");
    expect(letters.pageTexts[0]).not.toMatch(/Denis|Bruno|Claire/);
    expect(letters.pageTexts[1]).toContain("Bonjour Denis Papier,");
    expect(letters.pageTexts[1]).not.toMatch(/Anne|Bruno|Claire/);

    // The person registry's export carries the letter noted sent (the registry finds it by her telephone).
    const exported = (await (
      await deskFetch(site.url, `/admin/personne.json?telephone=${encodeURIComponent("021 555 00 01")}`, { jar })
    ).json()) as { tables: Record<string, Record<string, unknown>[]> };
    expect(exported.tables.postal_letters).toEqual([expect.objectContaining({ registrationId: ids.Anne })]);
    await erasePerson(db, { email: null, phoneE164: "+41215550001" }, null, "test", { siteUrl: site.url });
    expect(await db.select().from(postalLetters)).toHaveLength(0);
    expect(await db.select().from(courseRegistrations).where(eq(courseRegistrations.id, ids.Anne!))).toHaveLength(0);
  });

  it("prints from the call list the letters of the people on it who have an address, and notes them sent", async () => {
    // Tomorrow's lesson: Emile (an address) and Fanny (none) have no e-mail; Gil has one, he gets reminders.
    const tomorrow = await createSession(
      db,
      sessionFields({ startsAt: zurichToUtc(utcToZurich(new Date(Date.now() + 86_400_000)).date, "14:00") }),
    );
    const people: Record<string, number> = {};
    for (const [firstName, email, street] of [
      ["Emile", null, "Rue du Simplon 5"],
      ["Fanny", null, null],
      ["Gil", "gil@example.ch", "Rue du Port 2"],
    ] as const) {
      const [row] = await db
        .insert(courseRegistrations)
        .values({
          sessionId: tomorrow,
          status: "confirmed",
          seats: 1,
          firstName,
          lastName: "Appel",
          phone: "+41215550009",
          phoneE164: "+41215550009",
          email,
          codeWord: `${firstName.toLowerCase()} vert`,
          source: "desk",
          ...(street ? { postalStreet: street, postalCode: "1800", postalLocality: "Vevey" } : {}),
        })
        .returning({ id: courseRegistrations.id });
      people[firstName] = row!.id;
    }
    const list = pageText(await (await deskFetch(site.url, "/admin/a-appeler", { jar })).text());
    expect(list).toContain("Lettres par la poste");
    expect(list).toContain("Emile Appel (sans e-mail) · Rue du Simplon 5, 1800 Vevey");
    expect(list).toContain("Fanny Appel (sans e-mail) · adresse postale manquante");
    expect(list).toContain("Ajouter l’adresse postale de Fanny Appel");
    expect(list).not.toContain("Gil Appel");

    const none = await deskFetch(site.url, "/admin/a-appeler/lettres.pdf?choix=1&fenetre=droite", { jar });
    expect(none.headers.get("location")).toBe("/admin/a-appeler?courrier=personne#courrier");
    // Someone without an address, or not on the list (Gil, Anne of the series): no letter.
    for (const who of [people.Fanny, people.Gil, ids.Denis]) {
      const empty = await deskFetch(site.url, `/admin/a-appeler/lettres.pdf?choix=1&inscription=${who}`, { jar });
      expect(empty.headers.get("location"), String(who)).toBe("/admin/a-appeler?courrier=vide#courrier");
    }
    const letterFile = await pdf("/admin/a-appeler/lettres.pdf?fenetre=gauche");

    const sent = await deskFetch(site.url, "/admin/a-appeler", {
      jar,
      form: new URLSearchParams([
        ["intent", "letters-sent"],
        ["inscription", String(people.Emile)],
        ["inscription", String(people.Gil)],
        ["inscription", String(ids.Denis)],
      ]),
    });
    expect(sent.status).toBe(200);
    expect(pageText(await sent.text())).toContain("1 lettre notée envoyée aujourd’hui.");
    const noted = await db.select().from(postalLetters).where(eq(postalLetters.registrationId, people.Emile!));
    expect(noted).toHaveLength(1);
    expect(await db.select().from(postalLetters).where(eq(postalLetters.registrationId, ids.Denis!))).toEqual([]);
    const audits = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, "letters-sent"));
    expect(audits.at(-1)!.details).toEqual({ session: tomorrow, letters: 1 });
    const person = await deskFetch(site.url, `/admin/personne?telephone=${encodeURIComponent("021 555 00 09")}`, {
      jar,
    });
    expect(pageText(await person.text())).toContain("Emile Appel, Rue du Simplon 5, 1800 Vevey");
    const nothing = await deskFetch(site.url, "/admin/a-appeler", { jar, form: { intent: "letters-sent" } });
    expect(nothing.status).toBe(400);
    expect(pageText(await (await deskFetch(site.url, "/admin/a-appeler", { jar })).text())).toMatch(
      /Emile Appel \(sans e-mail\) · Rue du Simplon 5, 1800 Vevey · lettre envoyée le \d/,
    );

    const letters = await readPdf(letterFile);
    expect(letters.pages).toBe(1);
    expect(letters.text).toContain("Bonjour Emile Appel,");
    expect(letters.text).toContain("« emile vert »");
    expect(letters.text).not.toMatch(/Fanny|Gil|Anne|Denis/);
  });
});
