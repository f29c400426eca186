/**
 * Refusals understood (issue 32 item 1, decision 042), against a real SMTP
 * peer that answers like a provider:
 * - an address it does not know (550 at RCPT TO) and a message it refuses
 *   (554 at DATA) fail at once, after one attempt, with their reason; the
 *   desk shows them in French on the session's page, the person's page and
 *   the page of mails not delivered (its link and count in the header); the
 *   owner corrects the address and resends, and the mail arrives, the
 *   registration and its reminder taking the new address;
 * - a temporary refusal (451) is retried after the back-off;
 * - a subscriber whose address is refused for good gets no more letters;
 * - the action that corrects is the desk's: refused without a session
 *   (page and `.data`) and from another origin, the mail left as it was;
 * - a provider down for 3 hours gets every waiting mail within 30 minutes
 *   of its return (the worker's clock moved by hand, no real wait);
 * - every mail leaves with its plain-text part and a Message-ID on the
 *   domain of MAIL_FROM, which may carry the owner's name.
 */
import fs from "node:fs";
import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerForSession } from "../../app/courses/booking.server";
import { createSession } from "../../app/courses/sessions.server";
import { openDatabase } from "../../app/db/client.server";
import { courseRegistrations, newsletterSubscribers, outbox } from "../../app/db/schema";
import { createLetter, letterProgress, sendLetter } from "../../app/newsletter/letters.server";
import { countsOf, findPerson, OUTBOX_PLUGS } from "../../app/features.server";
import { enqueueMail } from "../../app/mail/enqueue.server";
import { OutboxWorker } from "../../app/mail/outbox.server";
import {
  createOwner,
  deskFetch,
  freePort,
  freshDataDir,
  pageText,
  sendRaw,
  sessionFields,
  signIn,
  silentLogger,
  startSmtp,
  startTestServer,
  waitFor,
  type CookieJar,
} from "../support/harness";

const UNKNOWN = "marie.inconnue@example.ch";
const SPAM = "refuse@example.ch";
const LATER = "plus-tard@example.ch";
const CORRECTED = "marie.dupont@example.ch";
/** A subscriber whose mailbox was closed: the provider refuses it for good. */
const CLOSED = "ancienne.boite@example.ch";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;
let sessionId: number;

beforeAll(async () => {
  smtp = await startSmtp(undefined, {
    rcpt: (address) => (address === UNKNOWN || address === CLOSED ? 550 : address === LATER ? 451 : undefined),
    data: (recipients) => (recipients.includes(SPAM) ? 554 : undefined),
  });
  site = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: "Jean-Marc Favre <site@exemple.ch>" });
  jar = await signIn(site.url, await createOwner(site.database.db));
  sessionId = await createSession(site.database.db, sessionFields());
}, 120_000);

afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

/** Registers `email` for the session (as the public form does); returns the registration's id and mails. */
let registered = 0;
async function register(email: string, lastName: string) {
  registered++;
  const phone = `079 100 00 ${String(registered).padStart(2, "0")}`;
  const result = await registerForSession(
    site.database.db,
    { sessionId, firstName: "Marie", lastName, phone, email, seats: "1" },
    { siteUrl: "https://cours.example.ch", now: new Date() },
  );
  if (result.outcome !== "confirmed") throw new Error(result.outcome);
  const [row] = await site.database.db
    .select({ id: courseRegistrations.id, mailIds: courseRegistrations.mailIds })
    .from(courseRegistrations)
    .where(eq(courseRegistrations.id, result.registrationId));
  return row!;
}

/** The outbox row of the confirmation sent to `recipient`, once the worker is done with it (sent, failed or waiting). */
async function confirmationTo(recipient: string) {
  const rows = await site.database.db.select().from(outbox).where(eq(outbox.recipient, recipient));
  return rows.sort((a, b) => a.id - b.id)[0]!;
}

const page = async (path: string) => {
  const answer = await deskFetch(site.url, path, { jar });
  expect(answer.status, path).toBe(200);
  return answer.text();
};

describe("a permanent refusal", () => {
  let unknownMail: number;

  it("fails at once (550 at RCPT, 554 at DATA), and the desk says why in French", async () => {
    await register(UNKNOWN, "Inconnue");
    await register(SPAM, "Refusée");
    site.worker.wake();
    await waitFor(
      async () => (await confirmationTo(UNKNOWN)).failedAt !== null && (await confirmationTo(SPAM)).failedAt !== null,
      15_000,
      "both confirmations failed",
    );
    const unknown = await confirmationTo(UNKNOWN);
    const spam = await confirmationTo(SPAM);
    unknownMail = unknown.id;
    // Once, not 40 times over 18 hours.
    expect(unknown).toMatchObject({ attempts: 1, sentAt: null, errorStage: "recipient", errorCode: 550 });
    expect(spam).toMatchObject({ attempts: 1, sentAt: null, errorStage: "message", errorCode: 554 });
    expect(unknown.lastError).toContain("550");

    const session = pageText(await page(`/admin/cours/${sessionId}`));
    expect(session).toContain("2 e-mails ne sont pas arrivés");
    expect(session).toContain("L’adresse n’existe pas chez son fournisseur (550)");
    expect(session).toContain("Le fournisseur a refusé le message (554)");
    expect(session).toContain("Confirmation d’inscription à un cours");
    expect(session).toContain("Corriger et renvoyer");

    const person = pageText(await page(`/admin/personne?email=${encodeURIComponent(UNKNOWN)}`));
    expect(person).toContain("Un e-mail n’est pas arrivé");
    expect(person).toContain("L’adresse n’existe pas chez son fournisseur (550)");
    expect(person).not.toContain("(554)");

    const inbox = await page("/admin");
    expect(inbox).toMatch(/href="\/admin\/non-remis"/);
    expect(inbox).toContain('data-undelivered-count="2"');
  });

  it("is corrected and resent by the owner, and arrives; the registration and its reminder take the new address", async () => {
    const answer = await deskFetch(site.url, "/admin/non-remis", {
      jar,
      form: {
        intent: "resend",
        id: String(unknownMail),
        [`email-${unknownMail}`]: ` ${CORRECTED.toUpperCase()} `,
        retour: `/admin/cours/${sessionId}`,
      },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/admin/cours/${sessionId}?envoi=renvoye`);
    await waitFor(() => smtp.mails.some((mail) => mail.to === CORRECTED), 15_000, "the corrected mail");
    const arrived = smtp.mails.find((mail) => mail.to === CORRECTED)!;
    expect(arrived.subject).toMatch(/inscription|place/i);

    const [registration] = await site.database.db
      .select({ email: courseRegistrations.email, mailIds: courseRegistrations.mailIds })
      .from(courseRegistrations)
      .where(eq(courseRegistrations.lastName, "Inconnue"));
    expect(registration!.email).toBe(CORRECTED);
    const mails = await site.database.db.select().from(outbox).where(eq(outbox.recipient, UNKNOWN));
    expect(mails, "no mail left for the wrong address (the reminder too)").toEqual([]);
    // The person registry finds the mails under the corrected address.
    const found = await findPerson(site.database.db, { email: CORRECTED, phoneE164: null });
    expect(countsOf(found).outbox).toBeGreaterThanOrEqual(2);

    const after = pageText(await page(`/admin/cours/${sessionId}?envoi=renvoye`));
    expect(after).toContain("L’e-mail est reparti");
    expect(after).toContain("Un e-mail n’est pas arrivé");
    expect(await page("/admin")).toContain('data-undelivered-count="1"');
  });

  it("is the owner's alone: refused without a session (page and .data) and from another origin, the mail as it was", async () => {
    const spam = await confirmationTo(SPAM);
    const form = new URLSearchParams({
      intent: "resend",
      id: String(spam.id),
      [`email-${spam.id}`]: "intrus@example.ch",
      retour: "/admin/non-remis",
    }).toString();
    for (const path of ["/admin/non-remis", "/admin/non-remis.data", "/Admin/Non-Remis/", "/%61dmin/non-remis"]) {
      const answer = await sendRaw(site.url, "POST", path, { body: form });
      const data = path.endsWith(".data");
      expect(answer.status, path).toBe(data ? 401 : 303);
      if (!data) expect(answer.headers.location, path).toBe("/admin/connexion");
      const foreign = await sendRaw(site.url, "POST", path, {
        body: form,
        headers: { Cookie: jar.header(), Origin: "https://evil.example" },
      });
      expect([400, 403], path).toContain(foreign.status);
    }
    expect(await confirmationTo(SPAM)).toMatchObject({ recipient: SPAM, failedAt: spam.failedAt, attempts: 1 });
    expect(await site.database.db.select().from(outbox).where(eq(outbox.recipient, "intrus@example.ch"))).toEqual([]);
  });

  it("refuses a wrong address in French, and « Ne pas renvoyer » takes the mail out of the count", async () => {
    const spam = await confirmationTo(SPAM);
    const wrong = await deskFetch(site.url, "/admin/non-remis", {
      jar,
      form: { intent: "resend", id: String(spam.id), [`email-${spam.id}`]: "pas-une-adresse" },
    });
    expect(wrong.status).toBe(400);
    expect(pageText(await wrong.text())).toContain("Cette adresse e-mail n’est pas valable");
    expect((await confirmationTo(SPAM)).failedAt).not.toBeNull();

    const dismissed = await deskFetch(site.url, "/admin/non-remis", {
      jar,
      form: { intent: "dismiss", id: String(spam.id) },
    });
    expect(dismissed.status).toBe(303);
    expect(dismissed.headers.get("location")).toBe("/admin/non-remis?envoi=ecarte");
    expect(pageText(await page("/admin/non-remis"))).toContain("aucun n’a été refusé");
    expect(await page("/admin")).not.toContain("data-undelivered-count");
  });
});

describe("a temporary refusal", () => {
  it("(451 at RCPT) is tried again after the back-off, not failed", async () => {
    await register(LATER, "Plus-tard");
    site.worker.wake();
    await waitFor(
      async () => (await confirmationTo(LATER)).attempts >= 1 && (await confirmationTo(LATER)).errorCode !== null,
      15_000,
      "a first attempt",
    );
    const row = await confirmationTo(LATER);
    expect(row).toMatchObject({ failedAt: null, sentAt: null, attempts: 1, errorStage: "recipient", errorCode: 451 });
    const wait = new Date(row.nextAttemptAt).getTime() - Date.now();
    expect(wait).toBeGreaterThan(30_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(pageText(await page("/admin/non-remis"))).not.toContain(LATER);
  });
});

describe("a subscriber whose address is refused for good", () => {
  it("gets the next letter no more (550 at RCPT TO on the first)", async () => {
    const db = site.database.db;
    await db.insert(newsletterSubscribers).values([
      { email: CLOSED, source: "home", consentVersion: "test", status: "confirmed" },
      { email: "lectrice@example.ch", source: "home", consentVersion: "test", status: "confirmed" },
    ]);
    const options = { siteUrl: "https://cours.example.ch" };
    const first = await createLetter(db, { subject: "Lettre de janvier", body: "Bonjour." });
    expect(await sendLetter(db, first, options)).toBe(2);
    site.worker.wake();
    await waitFor(
      async () => (await letterProgress(db, first)).waiting === 0,
      15_000,
      "the first letter sent or refused",
    );
    expect(await letterProgress(db, first)).toEqual({ sent: 1, waiting: 0, failed: 1 });
    const second = await createLetter(db, { subject: "Lettre de février", body: "Bonjour." });
    expect(await sendLetter(db, second, options)).toBe(1);
    const rows = await db.select({ recipient: outbox.recipient }).from(outbox).where(eq(outbox.letterId, second));
    expect(rows).toEqual([{ recipient: "lectrice@example.ch" }]);
  });
});

describe("what every mail carries", () => {
  it("a plain-text part, the sender's name from MAIL_FROM and a Message-ID on its domain", () => {
    const mail = smtp.mails.find((received) => received.to === CORRECTED)!;
    expect(mail.text.length).toBeGreaterThan(20);
    expect(mail.from).toBe("site@exemple.ch");
    expect(mail.headers.from).toContain("Jean-Marc Favre");
    expect(mail.messageId).toMatch(/^<[^@\s]+@exemple\.ch>$/);
  });
});

describe("a provider down for 3 hours", () => {
  it("gets every waiting mail within 30 minutes of its return (the worker's clock moved a minute at a time)", async () => {
    const dataDir = freshDataDir();
    const database = await openDatabase({ dataDir });
    const port = await freePort();
    let peer: Awaited<ReturnType<typeof startSmtp>> | undefined;
    const start = Date.now();
    let now = start;
    const worker = new OutboxWorker({
      db: database.db,
      plugs: OUTBOX_PLUGS,
      logger: silentLogger,
      transport: nodemailer.createTransport({ url: `smtp://127.0.0.1:${port}` }),
      from: "site@exemple.ch",
      ownerAddress: "owner@example.ch",
      clock: () => now,
    });
    const MINUTE = 60_000;
    const back = start + 180 * MINUTE;
    // Mails written while the provider is down (minutes after it went), each waiting for its next attempt.
    const written = [0, 10, 40, 90, 150, 175];
    const ids: number[] = [];
    try {
      for (let minute = 0; now <= back + 40 * MINUTE; minute++, now = start + minute * MINUTE) {
        if (written.includes(minute))
          ids.push(
            await enqueueMail(database.db, {
              kind: "booking-confirmation",
              recipient: `eleve${minute}@example.ch`,
              subject: "Votre place est réservée",
              text: "Bonjour,\n\nVotre place est réservée.\n",
              notBefore: new Date(now),
            }),
          );
        if (now >= back && !peer) peer = await startSmtp(port);
        await worker.processOnce();
        if (peer && peer.mails.length === written.length) break;
      }
      const rows = await database.db.select().from(outbox);
      expect(rows.map((row) => row.failedAt)).toEqual(written.map(() => null));
      // Minutes after the provider's return; a mail still unsent counts as never (Infinity).
      const lateness = rows.map((row) => (row.sentAt ? (new Date(row.sentAt).getTime() - back) / MINUTE : Infinity));
      expect(Math.max(...lateness), `minutes late: ${lateness.join(", ")}`).toBeLessThanOrEqual(30);
      expect(peer!.mails.map((mail) => mail.to).sort()).toEqual(
        written.map((minute) => `eleve${minute}@example.ch`).sort(),
      );
      expect(Math.min(...rows.map((row) => row.attempts))).toBeGreaterThan(1);
    } finally {
      await peer?.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
