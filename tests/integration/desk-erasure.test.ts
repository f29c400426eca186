/**
 * Issue 24, item 5: erasing a person in the desk, through the running site
 * as the owner's browser uses it (decision 019).
 * - Erasing the relative who registered someone keeps the attendee's
 *   registration and seat, removes only the relative's data, and says so
 *   before and after; the attendee's link still works.
 * - Erasing an attendee frees their seat through the cancellation's path:
 *   the owner's mail names the first on the waiting list (not the erased
 *   person), and the page says a seat was freed.
 * - A telephone shared by two people: the page lists them apart, the
 *   erasure refuses to guess, and erasing one leaves the other's rows.
 * - The owner's notice naming the first on the waiting list (written in the
 *   cancelling person's record) is found by the name it carries: emptied
 *   when sent, deleted when not.
 * - The export as a page: French labels, times in Swiss words, guarded,
 *   audited without personal data, never cached.
 * - Mails written before migration 0013 get the people they name, so the
 *   erasure finds them too.
 */
import fs from "node:fs";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelRegistration, findRegistrationByToken, registerForSession } from "../../app/courses/booking.server";
import { BOOKING_MAIL } from "../../app/courses/mails.server";
import { createSession, getSession, zurichToUtc } from "../../app/courses/sessions.server";
import type { BookingInput } from "../../app/courses/schema";
import { openDatabase } from "../../app/db/client.server";
import { auditLog, courseRegistrations, outbox } from "../../app/db/schema";
import type { PersonKey } from "../../app/desk/person-types";
import { countsOf, erasePerson, findPerson } from "../../app/features.server";
import {
  createOwner,
  dataDirBeforeMigration,
  deskFetch,
  pageText,
  sessionFields,
  signIn,
  startTestServer,
  type CookieJar,
} from "../support/harness";

let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;
const siteUrl = "http://localhost:3000";

beforeAll(async () => {
  site = await startTestServer({});
  const owner = await createOwner(site.database.db);
  jar = await signIn(site.url, owner);
}, 120_000);

afterAll(async () => {
  await site?.close();
});

/** A session on Tuesday 15 January 2030 at 14:00 (Zurich) holding `capacity` seats. */
const newSession = (capacity = 8) =>
  createSession(site.database.db, sessionFields({ startsAt: zurichToUtc("2030-01-15", "14:00"), capacity }));

/** Registers one seat with the app's own function (as the public form does). */
async function register(sessionId: number, fields: Partial<BookingInput>) {
  const result = await registerForSession(
    site.database.db,
    { sessionId, seats: "1", firstName: "", lastName: "", phone: "", message: "", ...fields } as BookingInput,
    { siteUrl },
  );
  if (result.outcome !== "confirmed" && result.outcome !== "waiting") throw new Error(result.outcome);
  return result;
}

const registration = async (id: number) =>
  (await site.database.db.select().from(courseRegistrations).where(eq(courseRegistrations.id, id)))[0];

/** Every outbox row whose text holds `needle` (lower case). */
const mailsHolding = (needle: string) =>
  site.database.db
    .select()
    .from(outbox)
    .where(
      sql`strpos(lower(coalesce(${outbox.subject}, '') || ${outbox.textBody} || coalesce(${outbox.htmlBody}, '')), ${needle}) > 0`,
    );

/** The page's text for a query of `/admin/personne`. */
const personPage = async (query: string) =>
  pageText(await (await deskFetch(site.url, `/admin/personne?${query}`, { jar })).text());

/** Marks every mail sent, as the worker would once SMTP answered. */
const markAllSent = () =>
  site.database.db
    .update(outbox)
    .set({ sentAt: new Date().toISOString() })
    .where(sql`${outbox.sentAt} is null`);

describe("erasing the relative who registered someone", () => {
  it("keeps the attendee's registration and seat, erases only the relative's data, and says so", async () => {
    const sessionId = await newSession();
    // Pierre Rochat registers his mother Jeanne Favre, who has no e-mail.
    const booked = await register(sessionId, {
      firstName: "Jeanne",
      lastName: "Favre",
      phone: "021 311 22 33",
      bookerFirstName: "Pierre",
      bookerLastName: "Rochat",
      bookerPhone: "079 444 55 66",
      bookerEmail: "pierre.rochat@example.ch",
      message: "Ma mère entend mal, merci de parler fort.",
    });
    await markAllSent();
    const pierre: PersonKey = { email: "pierre.rochat@example.ch", phoneE164: null };

    const confirm = await personPage("email=pierre.rochat%40example.ch&effacer=1");
    expect(confirm).toContain(
      "Cela efface définitivement : 0 demande de contact, 0 changement de statut, 0 abonnement, 0 inscription à un cours, 0 devis, 0 lettre envoyée par la poste, 2 e-mails et 0 compte d’envois du jour.",
    );
    // His confirmation and his reminder go; the owner's notice of the registration, sent, is kept emptied.
    expect(confirm).toContain(
      "L’inscription de Jeanne Favre (« Sécurité et protection », mardi 15 janvier 2030, 14 h 00) est gardée : sa place reste prise. Seules les coordonnées de Pierre Rochat, qui l’a inscrit(e), et son message en sont effacés.",
    );
    expect(confirm).toContain(
      "1 e-mail déjà envoyé, qui concerne aussi une autre personne, est gardé sans son contenu.",
    );

    const answer = await deskFetch(site.url, "/admin/personne", { jar, form: { email: pierre.email!, telephone: "" } });
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location")!;
    expect(location).toBe(
      `/admin/personne?effacement=contacts:0,contact_events:0,newsletter_subscribers:0,course_registrations:0,quotes:0,postal_letters:0,outbox:2,recipient_mail_days:0&gardees=${booked.registrationId}&videes=1`,
    );
    const result = pageText(await (await deskFetch(site.url, location, { jar })).text());
    expect(result).toContain(
      "L’inscription de Jeanne Favre (« Sécurité et protection », mardi 15 janvier 2030, 14 h 00) est gardée ; les coordonnées de la personne qui l’avait inscrit(e) sont effacées.",
    );
    expect(result).not.toContain("Rochat");

    // The registration and its seat stay; Pierre's name, telephone, e-mail and message are gone.
    const kept = (await registration(booked.registrationId))!;
    expect(kept).toMatchObject({
      status: "confirmed",
      firstName: "Jeanne",
      phone: "021 311 22 33",
      bookerFirstName: null,
      bookerLastName: null,
      bookerPhone: null,
      bookerPhoneE164: null,
      bookerEmail: null,
      message: null,
    });
    expect(kept.bookerErasedAt).not.toBeNull();
    expect((await getSession(site.database.db, sessionId))!.seatsTaken).toBe(1);
    expect((await findRegistrationByToken(site.database.db, booked.token))?.registration.id).toBe(
      booked.registrationId,
    );
    // Jeanne's row names nobody else; no mail holds Pierre any more; the owner's notice is kept, emptied.
    expect(JSON.stringify(kept).toLowerCase()).not.toMatch(/rochat|pierre|444 55 66/);
    for (const needle of ["rochat", "pierre.rochat@example.ch", "079 444 55 66"])
      expect(await mailsHolding(needle), needle).toEqual([]);
    const notices = await site.database.db.select().from(outbox).where(inArray(outbox.id, kept.mailIds));
    expect(notices.find((mail) => mail.kind === BOOKING_MAIL.ownerRegistration)).toMatchObject({
      subject: "(contenu effacé)",
      htmlBody: null,
      named: [],
    });
    expect(countsOf(await findPerson(site.database.db, pierre))).toEqual({
      contacts: 0,
      contact_events: 0,
      newsletter_subscribers: 0,
      course_registrations: 0,
      invoices: 0,
      quotes: 0,
      postal_letters: 0,
      outbox: 0,
      recipient_mail_days: 0,
    });
    // Jeanne's page still finds her registration, and says who registered her is erased.
    const jeanne = await personPage("telephone=021+311+22+33");
    expect(jeanne).toContain("un proche, dont les données ont été effacées le");
  });
});

describe("erasing an attendee whose seat someone waits for", () => {
  it("frees the seat through the waiting list's path: the owner's mail names the first waiting, not the erased person", async () => {
    const sessionId = await newSession(1);
    const alice = await register(sessionId, {
      firstName: "Alice",
      lastName: "Bovet",
      phone: "079 100 20 30",
      email: "alice.bovet@example.ch",
    });
    const waiting = await register(sessionId, { firstName: "Bruno", lastName: "Cuche", phone: "079 200 30 40" });
    expect(waiting.outcome).toBe("waiting");

    const confirm = await personPage("email=alice.bovet%40example.ch&effacer=1");
    expect(confirm).toContain(
      "1 place se libère pour « Sécurité et protection », mardi 15 janvier 2030, 14 h 00 : vous recevrez un e-mail « Place libérée » avec la première personne de la liste d’attente, s’il y en a une.",
    );
    const answer = await deskFetch(site.url, "/admin/personne", {
      jar,
      form: { email: "alice.bovet@example.ch", telephone: "" },
    });
    expect(answer.headers.get("location")).toMatch(
      new RegExp(
        `course_registrations:1,quotes:0,postal_letters:0,outbox:\\d+,recipient_mail_days:0&liberees=${sessionId}$`,
      ),
    );
    const result = pageText(await (await deskFetch(site.url, answer.headers.get("location")!, { jar })).text());
    expect(result).toContain(
      "Place libérée pour « Sécurité et protection », mardi 15 janvier 2030, 14 h 00 : l’e-mail « Place libérée » vous dit qui attend en premier sur la liste d’attente.",
    );

    expect(await registration(alice.registrationId)).toBeUndefined();
    expect((await getSession(site.database.db, sessionId))!.seatsTaken).toBe(0);
    const [notice] = await site.database.db.select().from(outbox).where(eq(outbox.kind, BOOKING_MAIL.ownerErasure));
    expect(notice!.recipient).toBeNull();
    expect(notice!.textBody).toContain(
      "Première personne sur la liste d’attente : Bruno Cuche, 079 200 30 40, sans e-mail.",
    );
    expect(notice!.textBody).toContain("1 place libérée");
    expect(`${notice!.subject} ${notice!.textBody}`.toLowerCase()).not.toMatch(/alice|bovet/);
    // The notice is among Bruno's mails: erasing him later erases it too.
    expect((await registration(waiting.registrationId))!.mailIds).toContain(notice!.id);
    expect(notice!.named).toEqual([{ name: "Bruno Cuche", phone: "+41792003040" }]);
    expect(await mailsHolding("bovet")).toEqual([]);
  });
});

describe("a telephone shared by two people", () => {
  const shared = "021 555 66 77";
  let marie: Awaited<ReturnType<typeof register>>;
  let paul: Awaited<ReturnType<typeof register>>;

  beforeAll(async () => {
    const sessionId = await newSession();
    marie = await register(sessionId, {
      firstName: "Marie",
      lastName: "Jaquet",
      phone: shared,
      email: "marie.jaquet@example.ch",
    });
    // Another session: one telephone books a session once (issue 24, item 6).
    paul = await register(await newSession(), {
      firstName: "Paul",
      lastName: "Jaquet",
      phone: "+41 21 555 66 77",
      email: "paul.jaquet@example.ch",
    });
  });

  it("shows the two people apart, and erases nobody without the owner's choice", async () => {
    const page = await personPage("telephone=021+555+66+77");
    expect(page).toContain("2 personnes trouvées");
    expect(page).toContain("Marie Jaquet marie.jaquet@example.ch 021 555 66 77 participe à 1 cours");
    expect(page).toContain("Paul Jaquet paul.jaquet@example.ch +41 21 555 66 77 participe à 1 cours");
    expect(page).toContain("Effacer les personnes cochées");
    expect(page).not.toContain("Effacer cette personne");
    // Ticking nobody asks again.
    expect(await personPage("telephone=021+555+66+77&effacer=1")).toContain("Cochez au moins une personne à effacer.");
    // A post naming nobody erases nothing.
    const refused = await deskFetch(site.url, "/admin/personne", { jar, form: { email: "", telephone: shared } });
    expect(refused.status).toBe(400);
    expect(pageText(await refused.text())).toContain("Plusieurs personnes utilisent cette adresse ou ce numéro");
    expect(await registration(marie.registrationId)).toBeDefined();
    expect(await registration(paul.registrationId)).toBeDefined();
  });

  it("erases the one the owner ticked and nothing of the other", async () => {
    const confirm = await personPage("telephone=021+555+66+77&effacer=1&personne=marie+jaquet");
    expect(confirm).toContain("Effacer Marie Jaquet ?");
    expect(confirm).toContain("1 inscription à un cours");
    expect(confirm).toContain("Rien n’est effacé pour Paul Jaquet.");
    const paulMailsBefore = (await registration(paul.registrationId))!.mailIds;

    const answer = await deskFetch(site.url, "/admin/personne", {
      jar,
      form: { email: "", telephone: shared, personne: "marie jaquet" },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/course_registrations:1,/);
    expect(await registration(marie.registrationId)).toBeUndefined();
    const paulAfter = (await registration(paul.registrationId))!;
    expect(paulAfter).toMatchObject({ firstName: "Paul", status: "confirmed", phoneE164: "+41215556677" });
    expect(paulAfter.mailIds).toEqual(paulMailsBefore);
    expect(await site.database.db.select().from(outbox).where(inArray(outbox.id, paulMailsBefore))).toHaveLength(
      paulMailsBefore.length,
    );
    expect(await mailsHolding("marie jaquet")).toEqual([]);
    const after = await personPage("telephone=021+555+66+77");
    expect(after).not.toContain("personnes trouvées");
    expect(after).toContain("Paul Jaquet");
    expect(after).not.toContain("Marie Jaquet");
  });
});

describe("the owner's notice naming the first on the waiting list", () => {
  it("is emptied when sent and deleted when not, when that person is erased", async () => {
    // Two sessions, each full with someone waiting: one cancellation notice sent, one still queued.
    const notices: number[] = [];
    for (const [index, sent] of [
      [1, true],
      [2, false],
    ] as const) {
      const sessionId = await newSession(1);
      const first = await register(sessionId, {
        firstName: "Claude",
        lastName: `Dubois ${index}`,
        phone: `079 300 40 5${index}`,
      });
      await register(sessionId, {
        firstName: "Denise",
        lastName: "Rey",
        phone: "079 555 11 22",
        email: "denise.rey@example.ch",
      });
      expect(await cancelRegistration(site.database.db, first.token, { siteUrl })).toBe("cancelled");
      const [notice] = await site.database.db
        .select()
        .from(outbox)
        .where(inArray(outbox.id, (await registration(first.registrationId))!.mailIds))
        .then((rows) => rows.filter((row) => row.kind === BOOKING_MAIL.ownerCancellation));
      expect(notice!.textBody).toContain("Première personne sur la liste d’attente : Denise Rey, 079 555 11 22");
      if (sent)
        await site.database.db
          .update(outbox)
          .set({ sentAt: new Date().toISOString() })
          .where(eq(outbox.id, notice!.id));
      notices.push(notice!.id);
    }
    const answer = await deskFetch(site.url, "/admin/personne", {
      jar,
      form: { email: "denise.rey@example.ch", telephone: "" },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/course_registrations:2,.*&videes=1$/);
    const left = await site.database.db.select().from(outbox).where(inArray(outbox.id, notices));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ id: notices[0], subject: "(contenu effacé)", named: [] });
    expect(left[0]!.textBody).toMatch(
      /^Ce message nommait une personne dont les données ont été effacées à sa demande le /,
    );
    for (const needle of ["denise", "rey@", "555 11 22"]) expect(await mailsHolding(needle), needle).toEqual([]);
  });
});

describe("the export as a page", () => {
  it("shows the person's data with French labels and Swiss times in words, guarded, audited, not cached", async () => {
    const sessionId = await newSession();
    await register(sessionId, {
      firstName: "Emma",
      lastName: "Golay",
      phone: "079 777 88 99",
      email: "emma.golay@example.ch",
    });
    const path = "/admin/personne/export?email=emma.golay%40example.ch";
    const anonymous = await deskFetch(site.url, path);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/admin/connexion");

    const answer = await deskFetch(site.url, path, { jar });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(answer.headers.get("cache-control")).toMatch(/no-store/);
    const text = pageText(await answer.text());
    expect(text).toContain("Vos données enregistrées");
    expect(text).toMatch(/sous emma\.golay@example\.ch, le (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d+/);
    expect(text).toContain("Inscriptions aux cours (1)");
    expect(text).toContain("Participant(e) Emma Golay");
    expect(text).toContain("Cours « Sécurité et protection », mardi 15 janvier 2030, 14 h 00");
    expect(text).toMatch(
      /Inscrit\(e\) le (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) (1er|\d+) [a-zéû]+ \d{4}, \d+ h \d{2}/,
    );
    expect(text).toMatch(/Type Confirmation d’inscription à un cours/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);

    const audits = await site.database.db.select().from(auditLog).where(eq(auditLog.action, "export"));
    expect(audits.at(-1)!.details).toMatchObject({ format: "html", course_registrations: 1 });
    // The phone as typed or as digits; "777" alone also matches the actor's random hash.
    expect(JSON.stringify(audits).toLowerCase()).not.toMatch(/emma|golay|@|777 ?88 ?99/);
  });
});

describe("mails written before migration 0013", () => {
  it("get the people they name, and the erasure of the first waiting finds the owner's notice naming her", async () => {
    const previous = await dataDirBeforeMigration("_outbox_named", async (client) => {
      await client.exec(`
        insert into course_sessions (id, course_id, starts_at, duration_minutes, place_name, place_address, capacity, price_chf, seats_taken)
          values (1, 'securite', '2030-01-15T13:00:00Z', 120, 'Salle', 'Rue du Lac 1', 1, 55, 1);
        insert into outbox (id, kind, recipient, subject, text_body, sent_at) values
          (1, 'booking-confirmation', 'pierre.rochat@example.ch', 'Inscription confirmée', 'L’inscription de Jeanne Favre est confirmée.', now()),
          (2, 'booking-owner-registration', null, 'Nouvelle inscription', 'Participant(e) : Jeanne Favre, 021 311 22 33, sans e-mail
Inscrit(e) par : Pierre Rochat, 079 444 55 66, pierre.rochat@example.ch', now()),
          (3, 'booking-owner-cancellation', null, 'Annulation', 'Claude Dubois a annulé son inscription (1 place).
Première personne sur la liste d’attente : Denise Rey, 079 555 11 22, denise.rey@example.ch. Appelez-la.', now()),
          (4, 'newsletter-letter', 'lecteur@example.ch', 'Lettre', 'Bonjour', now());
        insert into course_registrations (id, session_id, status, seats, first_name, last_name, phone, phone_e164, email,
          booker_first_name, booker_last_name, booker_phone, booker_phone_e164, booker_email, mail_ids) values
          (1, 1, 'confirmed', 1, 'Jeanne', 'Favre', '021 311 22 33', '+41213112233', null,
           'Pierre', 'Rochat', '079 444 55 66', '+41794445566', 'pierre.rochat@example.ch', '{1,2}'),
          (2, 1, 'cancelled', 1, 'Claude', 'Dubois', '079 300 40 51', '+41793004051', null, null, null, null, null, null, '{3}'),
          (3, 1, 'waiting', 1, 'Denise', 'Rey', '079 555 11 22', '+41795551122', 'denise.rey@example.ch', null, null, null, null, null, '{}');
      `);
    });
    const database = await openDatabase({ dataDir: previous.dir });
    try {
      const named = Object.fromEntries(
        (await database.db.select({ id: outbox.id, named: outbox.named }).from(outbox)).map((row) => [
          row.id,
          row.named,
        ]),
      );
      expect(named).toEqual({
        1: [
          { email: "pierre.rochat@example.ch" },
          { name: "Jeanne Favre", phone: "+41213112233" },
          { name: "Pierre Rochat", email: "pierre.rochat@example.ch", phone: "+41794445566" },
        ],
        2: [
          { name: "Jeanne Favre", phone: "+41213112233" },
          { name: "Pierre Rochat", email: "pierre.rochat@example.ch", phone: "+41794445566" },
        ],
        3: [
          { name: "Claude Dubois", phone: "+41793004051" },
          { name: "Denise Rey", email: "denise.rey@example.ch", phone: "+41795551122" },
        ],
        4: [{ email: "lecteur@example.ch" }],
      });
      const result = await erasePerson(database.db, { email: null, phoneE164: "+41795551122" }, null, "owner", {
        siteUrl,
      });
      expect(result).toMatchObject({ counts: { course_registrations: 1, outbox: 0 }, scrubbed: 1 });
      const [notice] = await database.db.select().from(outbox).where(eq(outbox.id, 3));
      expect(notice).toMatchObject({ subject: "(contenu effacé)", named: [] });
    } finally {
      await database.close();
      fs.rmSync(previous.dir, { recursive: true, force: true });
    }
  });
});
