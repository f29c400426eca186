/**
 * The « à appeler » list (issue 33, item 2), over HTTP on one in-process
 * server (PGlite): cancelling a session, or moving one date of a series,
 * puts each registrant without e-mail on that date's call list; the list
 * stays on the session page after a reload, the desk's navigation counts
 * it (« 2 à appeler » beside « Cours »), and « Appelé·e » ticks one person
 * with the time, once, from that session's page only. The owner ticks and
 * unticks « Accepte les SMS » on a registration (audited, ids only); a
 * cancellation then texts her too (decision 060).
 */
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeries, createSession, zurichToUtc } from "../../app/courses/sessions.server";
import type { Database } from "../../app/db/client.server";
import { auditLog, courseCalls, courseOffers, courseRegistrations, outbox } from "../../app/db/schema";
import { formatDateTime } from "../../app/utils/format";
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

/** A registration taken by telephone in the desk, without e-mail unless given. */
const byPhone = (sessionId: number, lastName: string, phone: string, email = "") => ({
  intent: "register",
  sessionId: String(sessionId),
  firstName: "Paul",
  lastName,
  phone,
  email,
  seats: "1",
});

/** The count beside « Cours » in the desk's navigation, as read (« 2 à appeler »), or "" when none. */
const callsBadge = (html: string) => pageText(/data-calls-count="\d+"[^>]*>(.*?)<\/span>/.exec(html)?.[1] ?? "");

describe("the call list of a changed date", () => {
  let site: Awaited<ReturnType<typeof startTestServer>>;
  let db: Database;
  let jar: CookieJar;
  beforeAll(async () => {
    site = await startTestServer({});
    db = site.database.db;
    jar = await signIn(site.url, await createOwner(db, "calls-owner@example.ch"));
  });
  afterAll(async () => site?.close());

  it("keeps the people to call after a cancellation until each is ticked « appelé·e », with the time", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-04-06`, "14:00") }),
    );
    const path = `/admin/cours/${sessionId}`;
    for (const form of [
      byPhone(sessionId, "Sans", "021 555 66 77"),
      byPhone(sessionId, "Fixe", "021 555 66 78"),
      byPhone(sessionId, "Courriel", "079 555 66 79", "paul.courriel@example.ch"),
    ]) {
      expect((await deskFetch(site.url, path, { jar, form })).status).toBe(200);
    }
    const cancelled = await deskFetch(site.url, path, { jar, form: { intent: "cancel-session", confirm: "oui" } });
    expect(pageText(await cancelled.text())).toContain(
      "Séance annulée. 1 e-mail d’annulation en route. 2 personnes sans e-mail à appeler : la liste est ci-dessous.",
    );

    // A reload still shows the list, and the desk counts it.
    const reloaded = await deskFetch(site.url, path, { jar }).then((res) => res.text());
    const text = pageText(reloaded);
    expect(text).toContain("À appeler");
    expect(text).toContain("Paul Sans 021 555 66 77 · la séance est annulée");
    expect(text).toContain("Paul Fixe 021 555 66 78 · la séance est annulée");
    expect(text).not.toMatch(/Paul Courriel 079/);
    expect(text).toContain("(2 encore à appeler)");
    expect(callsBadge(reloaded)).toBe("2 à appeler");
    expect(callsBadge(await deskFetch(site.url, "/admin", { jar }).then((res) => res.text()))).toBe("2 à appeler");

    const calls = await db.select().from(courseCalls).where(eq(courseCalls.sessionId, sessionId));
    expect(calls.map((call) => call.reason)).toEqual(["cancelled", "cancelled"]);
    const first = calls[0]!;
    // From another session's page, nothing is ticked.
    const elsewhere = await deskFetch(site.url, `/admin/cours/${sessionId + 1000}`, {
      jar,
      form: { intent: "called", call: String(first.id) },
    });
    expect(elsewhere.status).toBe(404);
    const ticked = await deskFetch(site.url, path, { jar, form: { intent: "called", call: String(first.id) } });
    expect(ticked.status).toBe(200);
    expect(pageText(await ticked.text())).toContain("Appel noté.");
    const again = await deskFetch(site.url, path, { jar, form: { intent: "called", call: String(first.id) } });
    expect(again.status).toBe(404);

    const [row] = await db.select().from(courseCalls).where(eq(courseCalls.id, first.id));
    expect(row!.calledAt).toBeTruthy();
    const after = await deskFetch(site.url, path, { jar }).then((res) => res.text());
    expect(pageText(after)).toContain(
      `Paul Sans 021 555 66 77 · la séance est annulée ✓ Appelé·e le ${pageText(formatDateTime(row!.calledAt!))}`,
    );
    expect(pageText(after)).toContain("(1 encore à appeler)");
    expect(callsBadge(after)).toBe("1 à appeler");

    await deskFetch(site.url, path, { jar, form: { intent: "called", call: String(calls[1]!.id) } });
    const done = await deskFetch(site.url, path, { jar }).then((res) => res.text());
    expect(pageText(done)).toContain("Tout le monde a été appelé.");
    expect(callsBadge(done)).toBe("");
  });

  it("ticks and unticks « Accepte les SMS » on a registration, and a cancellation then texts her", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-04-13`, "14:00") }),
    );
    const path = `/admin/cours/${sessionId}`;
    for (const form of [byPhone(sessionId, "Mobile", "079 555 88 01"), byPhone(sessionId, "Fixe", "021 555 88 02")])
      expect((await deskFetch(site.url, path, { jar, form })).status).toBe(200);
    const [mobile] = await db
      .select()
      .from(courseRegistrations)
      .where(and(eq(courseRegistrations.sessionId, sessionId), eq(courseRegistrations.lastName, "Mobile")));
    expect(mobile!.smsConsent).toBe(false);
    const consent = (on: boolean, at = path) =>
      deskFetch(site.url, at, {
        jar,
        form: { intent: "sms-consent", registration: String(mobile!.id), ...(on ? { smsConsent: "on" } : {}) },
      });
    const stored = async () =>
      (await db.select().from(courseRegistrations).where(eq(courseRegistrations.id, mobile!.id)))[0]!.smsConsent;

    // From another session's page, nothing changes.
    expect((await consent(true, `/admin/cours/${sessionId + 1000}`)).status).toBe(404);
    expect(await stored()).toBe(false);
    const ticked = await consent(true);
    expect(ticked.status).toBe(200);
    expect(pageText(await ticked.text())).toContain("C’est noté : cette personne reçoit désormais ses rappels");
    expect(await stored()).toBe(true);
    const card = await deskFetch(site.url, path, { jar }).then((res) => res.text());
    expect(card).toMatch(new RegExp(`<input id="sms-${mobile!.id}"[^>]*checked`));
    expect((await consent(false)).status).toBe(200);
    expect(await stored()).toBe(false);
    await consent(true);
    const audits = await db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ["sms-consent-given", "sms-consent-withdrawn"]))
      .orderBy(auditLog.id);
    const mine = audits.filter((row) => (row.details as { registration?: number })?.registration === mobile!.id);
    expect(mine.map((row) => [row.action, row.details])).toEqual([
      ["sms-consent-given", { session: sessionId, registration: mobile!.id }],
      ["sms-consent-withdrawn", { session: sessionId, registration: mobile!.id }],
      ["sms-consent-given", { session: sessionId, registration: mobile!.id }],
    ]);

    // The session is cancelled: she gets an SMS; with SMS_PROVIDER log (no SMS leaves), she is called too.
    const cancelled = await deskFetch(site.url, path, { jar, form: { intent: "cancel-session", confirm: "oui" } });
    expect(pageText(await cancelled.text())).toContain(
      "Séance annulée. 0 e-mail d’annulation en route. 1 SMS en route. 2 personnes sans e-mail à appeler",
    );
    const texts = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, "+41795558801"), eq(outbox.channel, "sms")));
    expect(texts.map((row) => row.kind)).toEqual(["booking-session-cancelled-sms"]);
    expect(texts[0]!.textBody).not.toMatch(/Paul|Mobile/);
  });

  it("lists a freed seat offered to a landline without e-mail, with the hold's end", async () => {
    const sessionId = await createSession(
      db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-04-20`, "14:00"), capacity: 1 }),
    );
    const path = `/admin/cours/${sessionId}`;
    await deskFetch(site.url, path, { jar, form: byPhone(sessionId, "Tient", "021 555 99 01", "tient@example.ch") });
    await deskFetch(site.url, path, { jar, form: byPhone(sessionId, "Attend", "021 555 99 02") });
    const [holder] = await db
      .select()
      .from(courseRegistrations)
      .where(and(eq(courseRegistrations.sessionId, sessionId), eq(courseRegistrations.lastName, "Tient")));
    const freed = await deskFetch(site.url, path, {
      jar,
      form: { intent: "cancel-registration", registration: String(holder!.id) },
    });
    expect(freed.status).toBe(200);
    const [offer] = await db.select().from(courseOffers).where(eq(courseOffers.sessionId, sessionId));
    expect(offer).toMatchObject({ channel: "call", state: "open" });
    const page = pageText(await deskFetch(site.url, path, { jar }).then((res) => res.text()));
    expect(page).toContain("Paul Attend 021 555 99 02 · une place s’est libérée pour elle : la prend-elle ?");
    expect(page).toContain(`Place gardée jusqu’au ${pageText(formatDateTime(offer!.holdUntil))} : appelez avant.`);

    // Called: she cannot come. The line stays, without the hold's end, which would send the owner calling again.
    const declined = await deskFetch(site.url, path, {
      jar,
      form: { intent: "offer-declined", offer: String(offer!.id) },
    });
    expect(declined.status).toBe(200);
    const after = pageText(await deskFetch(site.url, path, { jar }).then((res) => res.text()));
    expect(after).toContain("Paul Attend 021 555 99 02 · une place s’est libérée pour elle : la prend-elle ?");
    expect(after).not.toContain("Place gardée jusqu’au");
    expect(after).toContain("Offre refusée : plus besoin d’appeler pour cette place.");
  });

  it("lists who has no e-mail on the page of a series' date that moved", async () => {
    const { sessionIds } = await createSeries(
      db,
      sessionFields({ courseId: "applications-mobiles", durationMinutes: 90, priceChf: 180 }),
      ["05-04", "05-11", "05-18", "05-25"].map((day) => zurichToUtc(`${COURSE_YEAR}-${day}`, "14:00")),
    );
    const first = `/admin/cours/${sessionIds[0]}`;
    expect(
      (await deskFetch(site.url, first, { jar, form: byPhone(sessionIds[0]!, "Série", "021 555 77 01") })).status,
    ).toBe(200);
    const third = `/admin/cours/${sessionIds[2]}`;
    const moved = await deskFetch(site.url, third, {
      jar,
      form: {
        intent: "edit",
        courseId: "applications-mobiles",
        date: `${COURSE_YEAR}-05-20`,
        time: "14:00",
        durationMinutes: "90",
        placeName: "Salle paroissiale",
        placeAddress: "Rue du Lac 1, 1800 Vevey",
        placeAccess: "",
        capacity: "8",
        minimum: "4",
        priceChf: "180",
      },
    });
    expect(pageText(await moved.text())).toContain("1 personne sans e-mail à appeler : la liste est ci-dessous.");
    const page = pageText(await deskFetch(site.url, third, { jar }).then((res) => res.text()));
    expect(page).toContain("Paul Série 021 555 77 01 · la date ou le lieu a changé");
    // The other dates' pages have no list: only the date that changed.
    expect(pageText(await deskFetch(site.url, first, { jar }).then((res) => res.text()))).not.toContain("À appeler");
  });
});
