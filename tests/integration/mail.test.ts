/**
 * One outbox for every mail (app/mail/), on the embedded PGlite with a real
 * SMTP peer: rendered rows go out exactly as stored, to their recipient or
 * to the owner; scheduled rows wait for their time; the desk's resend,
 * state and retention functions; per-kind rates; rows stored by the
 * previous version (a payload, no rendered body) are still sent. Every
 * kind of mail to a visitor, driven through its own flow, has Reply-To the
 * owner, the owner's telephone and the letters' one-column layout.
 */
import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveContactRequest } from "../../app/contact/save.server";
import type { ContactRequest } from "../../app/contact/schema";
import { openDatabase, type OpenDatabase } from "../../app/db/client.server";
import { identity } from "../../app/content/identity";
import {
  cancelRegistration,
  cancelRegistrationByOwner,
  cancelSession,
  giveSeat,
  registerForSession,
} from "../../app/courses/booking.server";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import { newsletterSubscribers, outbox } from "../../app/db/schema";
import { enqueueMail, ownerReplyTo, type MailToSend } from "../../app/mail/enqueue.server";
import { createLetter, getLetter, sendLetter, sendTest } from "../../app/newsletter/letters.server";
import { requestSubscription } from "../../app/newsletter/subscriptions.server";
import { deleteSentMailOlderThan, mailStateOf, resendMail } from "../../app/mail/manage.server";
import { OutboxWorker, type MailTransport, type OutboxWorkerOptions } from "../../app/mail/outbox.server";
import { OUTBOX_PLUGS } from "../../app/features.server";
import { mailbox } from "../../app/mail/render.server";
import {
  dataDirBeforeMigration,
  freshDataDir,
  sessionFields,
  silentLogger,
  startSmtp,
  waitFor,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";

const REQUEST: ContactRequest = {
  firstName: "Marie",
  lastName: "Dupont",
  email: "marie.dupont@example.ch",
  phone: "+41 21 123 45 67",
  service: "one-to-one-course",
  message: "Bonjour, j’aimerais apprendre à utiliser mon smartphone.",
  newsletterConsent: false,
};

const BOOKING: MailToSend = {
  kind: "booking-confirmation",
  recipient: "eleve@example.ch",
  replyTo: mailbox("Formation (exemple)", "owner@example.ch"),
  subject: "Votre place au cours « Smartphone » est réservée",
  text: "Bonjour,\n\nVotre place est réservée pour le mardi 12 janvier 2027, 14 h 00.\n",
  html: "<p>Bonjour,</p><p>Votre place est réservée pour le <strong>mardi 12 janvier 2027, 14 h 00</strong>.</p>",
  headers: { "List-Unsubscribe": "<https://example.ch/desinscription/abc>", "X-Course-Id": "42" },
};

let dataDir: string;
let database: OpenDatabase;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let transport: MailTransport;

beforeAll(async () => {
  dataDir = freshDataDir();
  database = await openDatabase({ dataDir });
  smtp = await startSmtp();
  transport = nodemailer.createTransport({ url: smtp.url });
});

afterAll(async () => {
  await database.close();
  await smtp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await database.db.delete(outbox);
  smtp.mails.length = 0;
});

/** A worker on the test database, sending to the SMTP peer; the owner is owner@example.ch. */
function worker(options: Partial<OutboxWorkerOptions> = {}) {
  return new OutboxWorker({
    db: database.db,
    plugs: OUTBOX_PLUGS,
    logger: silentLogger,
    transport,
    from: "site@example.ch",
    ownerAddress: "owner@example.ch",
    ...options,
  });
}

/**
 * A received part's body as it was sent: the line break before a MIME
 * boundary belongs to the boundary (RFC 2046, 5.1.1), postal-mime keeps it.
 */
const sentBody = (received: string) => received.replace(/\r?\n$/, "");

async function rowOf(id: number) {
  const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
  return row!;
}

describe("a rendered mail", () => {
  it("goes to its recipient with its stored subject, bodies, Reply-To and headers, exactly", async () => {
    const id = await enqueueMail(database.db, BOOKING);
    expect(await worker().processOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail).toMatchObject({
      from: "site@example.ch",
      to: "eleve@example.ch",
      replyTo: "owner@example.ch",
      replyToName: "Formation (exemple)",
      subject: BOOKING.subject,
    });
    expect(sentBody(mail!.text)).toBe(BOOKING.text);
    expect(sentBody(mail!.html)).toBe(BOOKING.html);
    expect(mail!.headers["list-unsubscribe"]).toBe("<https://example.ch/desinscription/abc>");
    expect(mail!.headers["x-course-id"]).toBe("42");
    expect((await rowOf(id)).sentAt).not.toBeNull();
  });

  it("is written with the request it announces: the contact notification is stored rendered, for the owner", async () => {
    const contactId = await saveContactRequest(database.db, REQUEST);
    const [row] = await database.db.select().from(outbox).where(eq(outbox.contactId, contactId));
    expect(row).toMatchObject({
      kind: "contact-notification",
      recipient: null,
      payload: null,
      replyTo: '"Marie Dupont" <marie.dupont@example.ch>',
      subject: "Nouvelle demande de contact : Marie Dupont (Cours individuel)",
    });
    expect(row!.textBody).toContain("j’aimerais apprendre à utiliser mon smartphone.");
    await worker().processOnce();
    expect(smtp.mails.map((mail) => [mail.to, mail.replyTo, mail.replyToName, mail.subject])).toEqual([
      ["owner@example.ch", "marie.dupont@example.ch", "Marie Dupont", row!.subject],
    ]);
    expect(sentBody(smtp.mails[0]!.text)).toBe(row!.textBody);
    expect(sentBody(smtp.mails[0]!.html)).toBe(row!.htmlBody);
  });

  it("for the owner fails, and is kept to be retried, while CONTACT_NOTIFY_TO is unset", async () => {
    const id = await enqueueMail(database.db, { ...BOOKING, recipient: null });
    expect(await worker({ ownerAddress: undefined }).processOnce()).toEqual({ claimed: 1, sent: 0, failed: 1 });
    const row = await rowOf(id);
    expect(row).toMatchObject({ sentAt: null, failedAt: null, attempts: 1, lastError: "CONTACT_NOTIFY_TO is not set" });
    expect(smtp.mails).toHaveLength(0);
  });
});

describe("every mail to a visitor", () => {
  it("has Reply-To the owner, the owner's telephone, and the letters' one-column layout, whatever its kind", async () => {
    const db = database.db;
    const siteUrl = "https://cours.example.ch";
    const now = new Date(`${COURSE_YEAR - 1}-12-01T08:00:00Z`);
    // The newsletter: a confirmation, a letter to a confirmed subscriber, the owner's test send.
    await requestSubscription(db, { email: "abonne@example.ch", source: "test", siteUrl, now });
    await db.update(newsletterSubscribers).set({ status: "confirmed" });
    const letterId = await createLetter(db, { subject: "Lettre de décembre", body: "Bonjour à toutes et à tous." });
    await sendTest(db, (await getLetter(db, letterId))!, { to: "essai@example.ch", siteUrl });
    await sendLetter(db, letterId, { siteUrl, now });
    // The bookings: a confirmation (attendee and relative), a waiting-list notice, reminders, a cancellation by
    // the person, a seat given, a cancellation by the owner, a session cancelled.
    const full = await createSession(
      db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-01-12`, "14:00"), capacity: 1 }),
    );
    const person = (n: number, extra = {}) => ({
      sessionId: full,
      firstName: "Marie",
      lastName: `Dupont ${n}`,
      phone: `079 100 00 0${n}`,
      email: `marie${n}@example.ch`,
      seats: "1" as const,
      ...extra,
    });
    const first = await registerForSession(
      db,
      person(1, {
        bookerFirstName: "Luc",
        bookerLastName: "Dupont",
        bookerPhone: "021 111 22 33",
        bookerEmail: "luc@example.ch",
      }),
      { siteUrl, now },
    );
    const second = await registerForSession(db, person(2), { siteUrl, now });
    if (first.outcome !== "confirmed" || second.outcome !== "waiting") throw new Error("unexpected outcomes");
    expect(await cancelRegistration(db, first.token, { siteUrl, now })).toBe("cancelled");
    expect(await giveSeat(db, second.registrationId, { siteUrl, now })).toBe(true);
    const other = await createSession(db, sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-01-19`, "14:00") }));
    const third = await registerForSession(db, { ...person(3), sessionId: other }, { siteUrl, now });
    if (third.outcome !== "confirmed") throw new Error(third.outcome);
    expect(await cancelRegistrationByOwner(db, third.registrationId, { siteUrl, now })).toBe("cancelled");
    await registerForSession(db, { ...person(4), sessionId: other }, { siteUrl, now });
    await cancelSession(db, other, now);

    const rows = await db
      .select()
      .from(outbox)
      .where(sql`${outbox.recipient} is not null`);
    expect(new Set(rows.map((row) => row.kind))).toEqual(
      new Set([
        "newsletter-confirmation",
        "newsletter-test",
        "newsletter-letter",
        "booking-confirmation",
        "booking-waiting",
        "booking-reminder",
        "booking-cancelled",
        "booking-seat-given",
        // The seat the cancellation freed, offered to the one who waits (decision 049).
        "booking-offer",
        "booking-session-cancelled",
      ]),
    );
    for (const row of rows) {
      const where = `${row.kind} to ${row.recipient}`;
      expect(row.replyTo, where).toBe(ownerReplyTo(identity));
      // The letters' layout: one column of at most 600 px, 19 px text.
      expect(row.htmlBody, where).toContain("max-width: 600px");
      expect(row.htmlBody, where).toContain("font-size: 19px");
    }
    // And the worker sends the Reply-To: a visitor's "Répondre" reaches the owner.
    await worker().processOnce();
    const toVisitors = smtp.mails.filter((mail) => mail.to !== "owner@example.ch");
    expect(toVisitors.length).toBeGreaterThan(0);
    for (const mail of toVisitors) {
      expect(mail.replyTo).toBe(identity.email);
      expect(mail.replyToName).toBe(identity.name);
      // The footer's telephone, filled in as the owner's settings hold it when the mail leaves.
      expect(sentBody(mail.text), mail.subject).toContain(identity.phoneDisplay);
      expect(sentBody(mail.html), mail.subject).toContain(`href="tel:${identity.phone}"`);
    }
  });
});

describe("a scheduled mail", () => {
  it("is not sent before its not_before, even when due for the worker, and is sent after it", async () => {
    // Two seconds after the database's clock, the one the worker compares with.
    const { rows } = (await database.db.execute(
      sql`select (now() + interval '2 seconds')::text as later`,
    )) as unknown as {
      rows: { later: string }[];
    };
    const notBefore = new Date(rows[0]!.later);
    const id = await enqueueMail(database.db, { ...BOOKING, notBefore });
    const sender = worker();
    expect(await sender.processOnce()).toEqual({ claimed: 0, sent: 0, failed: 0 });
    // The worker's own schedule says now (as after a resend): not_before still holds it back.
    await database.db
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outbox.id, id));
    expect((await sender.processOnce()).claimed).toBe(0);
    expect(smtp.mails).toHaveLength(0);

    await waitFor(async () => (await sender.processOnce()).sent === 1, 10_000, "the scheduled mail");
    const row = await rowOf(id);
    expect(Date.parse(row.sentAt!)).toBeGreaterThanOrEqual(notBefore.getTime());
    expect(smtp.mails.map((mail) => mail.to)).toEqual(["eleve@example.ch"]);
  });

  it("past its not_after (a reminder whose lesson has started), is given up unsent and kept as failed; one in time leaves", async () => {
    const late = await enqueueMail(database.db, {
      ...BOOKING,
      recipient: "trop-tard@example.ch",
      notAfter: new Date(Date.now() - 60_000),
    });
    const inTime = await enqueueMail(database.db, { ...BOOKING, notAfter: new Date(Date.now() + 3_600_000) });
    expect(await worker().processOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(smtp.mails.map((mail) => mail.to)).toEqual(["eleve@example.ch"]);
    expect((await rowOf(inTime)).sentAt).not.toBeNull();
    const givenUp = await rowOf(late);
    expect(givenUp.sentAt).toBeNull();
    expect(givenUp.failedAt).not.toBeNull();
    expect(givenUp.lastError).toMatch(/^expired/);
    expect((await worker().processOnce()).claimed, "never claimed later").toBe(0);
  });
});

describe("the desk's functions", () => {
  it("resendMail makes a failed mail go out again, and leaves a sent one alone", async () => {
    const id = await enqueueMail(database.db, BOOKING);
    const refusing: MailTransport = {
      sendMail: async () => {
        throw new Error("550 mailbox unavailable");
      },
    };
    await worker({ transport: refusing, maxAttempts: 1 }).processOnce();
    expect(await rowOf(id)).toMatchObject({ attempts: 1, sentAt: null, lastError: "550 mailbox unavailable" });
    expect((await rowOf(id)).failedAt).not.toBeNull();
    // A failed mail is final: the worker leaves it.
    expect((await worker().processOnce()).claimed).toBe(0);

    expect(await resendMail(database.db, id)).toBe(true);
    expect(await rowOf(id)).toMatchObject({ attempts: 0, failedAt: null, sentAt: null });
    expect(await worker().processOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(smtp.mails.map((mail) => [mail.to, mail.subject])).toEqual([["eleve@example.ch", BOOKING.subject]]);

    expect(await resendMail(database.db, id)).toBe(false);
    expect(await resendMail(database.db, id + 1000)).toBe(false);
    await worker().processOnce();
    expect(smtp.mails).toHaveLength(1);
  });

  it("mailStateOf lists a contact's mails with their state", async () => {
    const contactId = await saveContactRequest(database.db, REQUEST);
    const [pending] = await mailStateOf(database.db, { contactId });
    expect(pending).toMatchObject({
      kind: "contact-notification",
      sentAt: null,
      attempts: 0,
      lastError: null,
      failedAt: null,
    });
    expect(Math.abs(Date.parse(pending!.notBefore) - Date.now())).toBeLessThan(60_000);
    await worker().processOnce();
    const states = await mailStateOf(database.db, { contactId });
    expect(states).toHaveLength(1);
    expect(states[0]).toMatchObject({ id: pending!.id, attempts: 1, lastError: null, failedAt: null });
    expect(states[0]!.sentAt).not.toBeNull();
    expect(await mailStateOf(database.db, { contactId: contactId + 1000 })).toEqual([]);
  });

  it("deleteSentMailOlderThan deletes the mails sent more than that many days before now, and nothing else", async () => {
    const now = new Date("2027-01-15T12:00:00.000Z");
    const daysBefore = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const ids: Record<string, number> = {};
    for (const [name, state] of Object.entries({
      sent40: { sentAt: daysBefore(40) },
      sent31: { sentAt: daysBefore(31) },
      sent29: { sentAt: daysBefore(29) },
      failed90: { failedAt: daysBefore(90) },
      pending: null,
    })) {
      ids[name] = await enqueueMail(database.db, BOOKING);
      if (state) await database.db.update(outbox).set(state).where(eq(outbox.id, ids[name]!));
    }
    expect(await deleteSentMailOlderThan(database.db, 30, now)).toBe(2);
    const left = (await database.db.select({ id: outbox.id }).from(outbox)).map((row) => row.id).sort();
    expect(left).toEqual([ids.sent29, ids.failed90, ids.pending].sort());
    expect(await deleteSentMailOlderThan(database.db, 30, now)).toBe(0);
    await expect(deleteSentMailOlderThan(database.db, -1, now)).rejects.toThrow(RangeError);
  });
});

describe("a per-kind rate", () => {
  it("claims at most that many mails of the kind a minute, and slows no other kind", async () => {
    let clock = Date.parse("2027-01-15T12:00:00.000Z");
    const sender = worker({ rates: { "newsletter-letter": 2 }, clock: () => clock });
    for (let index = 0; index < 5; index++)
      await enqueueMail(database.db, {
        ...BOOKING,
        kind: "newsletter-letter",
        recipient: `abonne${index}@example.ch`,
      });
    await enqueueMail(database.db, BOOKING);

    expect(await sender.processOnce()).toEqual({ claimed: 3, sent: 3, failed: 0 });
    expect(smtp.mails.map((mail) => mail.to).sort()).toEqual([
      "abonne0@example.ch",
      "abonne1@example.ch",
      "eleve@example.ch",
    ]);
    expect((await sender.processOnce()).claimed).toBe(0);
    clock += 59_000;
    expect((await sender.processOnce()).claimed).toBe(0);
    // Another kind is not held back by the letters' limit.
    await enqueueMail(database.db, { ...BOOKING, recipient: "autre@example.ch" });
    expect((await sender.processOnce()).claimed).toBe(1);
    clock += 2000;
    expect(await sender.processOnce()).toEqual({ claimed: 2, sent: 2, failed: 0 });
    clock += 60_001;
    expect(await sender.processOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });
    expect(smtp.mails.filter((mail) => mail.to.startsWith("abonne"))).toHaveLength(5);
  });

  it("must be a whole number of mails a minute, at least 1", () => {
    expect(() => worker({ rates: { "newsletter-letter": 0 } })).toThrow(RangeError);
    expect(() => worker({ rates: { "newsletter-letter": 1.5 } })).toThrow(RangeError);
  });
});

describe("a row stored by the previous version (a payload, no rendered body)", () => {
  /**
   * A PGlite folder migrated up to the migration before `*_outbox_rendered_mail`,
   * as a deployed site left it, with one contact request and its queued notification.
   */
  async function previousVersionDataDir(consentTimestamp: string) {
    const { dir, seeded: contactId } = await dataDirBeforeMigration("_outbox_rendered_mail", async (client) => {
      const {
        rows: [contact],
      } = await client.query<{ id: number }>(
        `insert into contacts (first_name, last_name, email, phone, service, message, newsletter_consent, contact_consent, consent_timestamp)
         values ($1, $2, $3, $4, $5, $6, false, true, $7) returning id`,
        [
          REQUEST.firstName,
          REQUEST.lastName,
          REQUEST.email,
          REQUEST.phone,
          REQUEST.service,
          REQUEST.message,
          consentTimestamp,
        ],
      );
      const payload = { ...REQUEST, contactId: contact!.id, consentTimestamp };
      await client.query("insert into outbox (kind, contact_id, payload) values ($1, $2, $3)", [
        "contact-notification",
        contact!.id,
        JSON.stringify(payload),
      ]);
      return contact!.id;
    });
    return { dir, contactId };
  }

  it("is kept by the upgrade, rendered when sent, and reaches the owner as before", async () => {
    const { dir, contactId } = await previousVersionDataDir("2026-11-22T10:30:00.000Z");
    const upgraded = await openDatabase({ dataDir: dir });
    try {
      const sender = worker({ db: upgraded.db });
      expect(await sender.processOnce()).toEqual({ claimed: 1, sent: 1, failed: 0 });
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]).toMatchObject({
        to: "owner@example.ch",
        replyTo: "marie.dupont@example.ch",
        replyToName: "Marie Dupont",
        subject: "Nouvelle demande de contact : Marie Dupont (Cours individuel)",
      });
      expect(smtp.mails[0]!.text).toContain(`N° de la demande : ${contactId}`);
      expect(smtp.mails[0]!.text).toContain("22 novembre 2026 à 11:30"); // the consent, in Zurich's time
      const [state] = await mailStateOf(upgraded.db, { contactId });
      expect(state!.sentAt).not.toBeNull();
    } finally {
      await upgraded.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("cannot be written without a payload or a rendered body", async () => {
    await expect(database.db.insert(outbox).values({ kind: "contact-notification" })).rejects.toThrow();
  });
});
