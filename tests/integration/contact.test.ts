/**
 * The contact flow end to end, on the embedded PGlite and on a real
 * PostgreSQL server (when Debian's PostgreSQL is installed; `.ci/run`
 * installs it), with smtp-server as the real SMTP peer.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contactMessages } from "../../app/contact/schema";
import { contacts, outbox } from "../../app/db/schema";
import { unavailableWords } from "../../app/utils/unavailable";
import {
  createOwner,
  deskFetch,
  freePort,
  pageText,
  postContact,
  postgresBinaries,
  signIn,
  startPostgres,
  startSmtp,
  startTestServer,
  validForm,
  waitFor,
} from "../support/harness";

const backends = ["pglite", ...(postgresBinaries() || process.env.CI ? ["postgres"] : [])] as const;

describe.each(backends)("contact requests on %s", (backend) => {
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  beforeAll(async () => {
    if (backend === "postgres") postgres = await startPostgres({ own: true });
  }, 60_000);
  afterAll(() => postgres?.destroy());

  /** A server on this backend; each PostgreSQL-backed server gets an empty database. */
  async function server(overrides: Record<string, string | undefined> = {}) {
    if (postgres) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      await client.query("drop schema public cascade; create schema public; drop schema if exists drizzle cascade");
      await client.end();
    }
    return startTestServer({ DATABASE_URL: postgres?.url, ...overrides }, undefined, { database: "embedded" });
  }

  it("stores a valid request and sends exactly one notification with every field", async () => {
    const smtp = await startSmtp();
    const site = await server({ SMTP_URL: smtp.url });
    try {
      const { status, body } = await postContact(site.url, { ...validForm(), newsletterConsent: "on" });
      expect(status).toBe(200);
      expect(body).toContain(contactMessages.successTitle);

      const rows = await site.database.db.select().from(contacts);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        firstName: "Marie",
        lastName: "Dupont",
        email: "marie.dupont@example.ch",
        phone: "+41 21 123 45 67",
        service: "one-to-one-course",
        newsletterConsent: true,
        contactConsent: true,
      });
      expect(Math.abs(Date.parse(rows[0]!.consentTimestamp) - Date.now())).toBeLessThan(60_000);

      // The owner's notification, and (the newsletter box was ticked) the visitor's confirmation mail.
      await waitFor(() => smtp.mails.length === 2, 10_000, "the notification and the confirmation");
      await waitFor(
        async () => (await site.database.db.select().from(outbox)).every((row) => row.sentAt !== null),
        5000,
        "sent_at",
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // no third mail comes
      expect(smtp.mails).toHaveLength(2);
      const confirmation = smtp.mails.find((mail) => mail.to === "marie.dupont@example.ch");
      expect(confirmation!.subject).toBe("Confirmez votre abonnement à la lettre d’information");
      const mail = smtp.mails.find((received) => received.to === "owner@example.ch");
      expect(mail!.to).toBe("owner@example.ch");
      expect(mail!.replyTo).toBe("marie.dupont@example.ch");
      expect(mail!.subject).toBe("Nouvelle demande de contact : Marie Dupont (Cours individuel)");
      for (const value of [
        "Marie",
        "Dupont",
        "marie.dupont@example.ch",
        "+41 21 123 45 67",
        "Cours individuel",
        "j’aimerais apprendre",
        "oui",
      ])
        expect(mail!.text).toContain(value);
      expect(mail!.html).toContain("j’aimerais apprendre à utiliser mon smartphone.");
      const [queued] = await site.database.db.select().from(outbox);
      expect(queued!.sentAt).not.toBeNull();
    } finally {
      await site.close();
      await smtp.close();
    }
  });

  it("stores a talk for a group with its organisation, commune and size, shown in the mail, the desk and the CSV", async () => {
    const smtp = await startSmtp();
    const site = await server({ SMTP_URL: smtp.url });
    try {
      const group = { service: "group-talk", organisation: " Club des aînés de Morges ", commune: "Morges" };
      // Without the size: 400, its message beside the field and in the error summary, nothing stored.
      const refused = await postContact(site.url, { ...validForm(), ...group, groupSize: "1" });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain("Il y a 1 erreur dans le formulaire");
      expect(refused.body).toContain('href="#contact-page-form-groupSize"');
      expect(refused.body).toContain(contactMessages.groupSize);
      expect(await site.database.db.select().from(contacts)).toHaveLength(0);

      const { status } = await postContact(site.url, { ...validForm(), ...group, groupSize: " 25 " });
      expect(status).toBe(200);
      const [row] = await site.database.db.select().from(contacts);
      expect(row).toMatchObject({
        service: "group-talk",
        organisation: "Club des aînés de Morges",
        commune: "Morges",
        groupSize: 25,
      });

      await waitFor(() => smtp.mails.length === 1, 10_000, "the notification");
      const mail = smtp.mails[0]!;
      expect(mail.subject).toBe("Nouvelle demande de contact : Marie Dupont (Conférence ou atelier pour un groupe)");
      for (const line of ["Organisation : Club des aînés de Morges", "Commune : Morges", "Nombre de personnes : 25"])
        expect(mail.text).toContain(line);

      const owner = await createOwner(site.database.db);
      const jar = await signIn(site.url, owner);
      const page = await (await deskFetch(site.url, `/admin/demandes/${row!.id}`, { jar })).text();
      for (const value of ["Conférence ou atelier pour un groupe", "Club des aînés de Morges", "Nombre de personnes"])
        expect(page).toContain(value);
      const csv = await (await deskFetch(site.url, "/admin/demandes.csv", { jar })).text();
      const [header, line] = csv.replace(/^\uFEFF/, "").split("\r\n");
      expect(header).toContain("Service;Organisation;Commune;Nombre de personnes;");
      expect(line).toContain("Conférence ou atelier pour un groupe;Club des aînés de Morges;Morges;25;");
    } finally {
      await site.close();
      await smtp.close();
    }
  });

  it("keeps the notification while SMTP is down and sends it after the retry", async () => {
    const smtpPort = await freePort();
    const site = await server({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
    try {
      expect((await postContact(site.url, validForm())).status).toBe(200);
      // The first attempt fails (nobody listens) and is scheduled again.
      await waitFor(
        async () => {
          const [row] = await site.database.db.select().from(outbox);
          return !!row && row.attempts >= 1 && row.lastError !== null;
        },
        10_000,
        "a failed attempt",
      );
      const [failed] = await site.database.db.select().from(outbox);
      expect(failed!.sentAt).toBeNull();
      expect(Date.parse(failed!.nextAttemptAt) - Date.now()).toBeGreaterThan(30_000); // back-off: about a minute

      const smtp = await startSmtp(smtpPort);
      try {
        // Let the minute pass, then the worker retries on its own.
        await site.database.db.update(outbox).set({ nextAttemptAt: sql`now()` });
        await waitFor(() => smtp.mails.length === 1, 10_000, "the retried notification");
        await waitFor(async () => (await site.database.db.select().from(outbox))[0]!.sentAt !== null, 5000, "sent_at");
        const [sent] = await site.database.db.select().from(outbox);
        expect(sent!.attempts).toBe(2);
      } finally {
        await smtp.close();
      }
    } finally {
      await site.close();
    }
  });

  it("answers 503 with the outage's words and the values kept when the database is down, and writes nothing", async () => {
    const smtp = await startSmtp();
    const site = await server({ SMTP_URL: smtp.url });
    try {
      if (postgres) postgres.stop();
      else await site.database.close();
      const { status, body } = await postContact(site.url, validForm("pendant.la.panne@example.ch"));
      expect(status).toBe(503);
      // The database down: the outage's words (retry in a few minutes, or call), the values kept (issue 33, item 10).
      expect(pageText(body)).toContain(unavailableWords.form);
      expect(body).toContain('value="pendant.la.panne@example.ch"');
    } finally {
      if (postgres) postgres.start();
      await site.close().catch(() => {});
    }
    if (postgres) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      const { rows } = await client.query("select count(*)::int as n from contacts");
      await client.end();
      expect(rows[0].n).toBe(0);
    }
    expect(smtp.mails).toHaveLength(0);
    await smtp.close();
  });

  it("says on /healthz whether the database answers: 200, then 503 while it is down, never cached", async () => {
    const site = await server();
    let stopped = false;
    try {
      const up = await fetch(`${site.url}/healthz`);
      expect(up.status).toBe(200);
      expect(up.headers.get("cache-control")).toBe("no-store");
      if (postgres) {
        postgres.stop();
        stopped = true;
      } else await site.database.close();
      const down = await fetch(`${site.url}/healthz`);
      expect(down.status).toBe(503);
      expect(await down.text()).toBe("database unavailable");
      if (postgres) {
        postgres.start();
        stopped = false;
        await waitFor(async () => (await fetch(`${site.url}/healthz`)).status === 200, 10_000, "healthz back to 200");
      }
    } finally {
      if (stopped) postgres?.start();
      await site.close().catch(() => {});
    }
  });

  it("keeps React Router's same-origin check: a post from another site is refused and stores nothing", async () => {
    const site = await server();
    try {
      expect((await postContact(site.url, validForm("same@example.ch"), { Origin: site.url })).status).toBe(200);
      const foreign = await postContact(site.url, validForm("foreign@example.ch"), { Origin: "https://evil.example" });
      expect(foreign.status).toBe(400);
      const rows = await site.database.db.select().from(contacts);
      expect(rows.map((row) => row.email)).toEqual(["same@example.ch"]);
    } finally {
      await site.close();
    }
  });

  it("answers a service sent twice with the French message beside the field, keeps the other answers, stores nothing", async () => {
    const site = await server();
    const reactWarnings = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const body = new URLSearchParams(validForm("twice@example.ch"));
      body.append("service", "small-group");
      const response = await fetch(`${site.url}/contact`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: body.toString(),
      });
      const html = await response.text();
      expect(response.status).toBe(400);
      expect(html).toContain(contactMessages.service);
      expect(html).toContain('value="twice@example.ch"');
      const selected = [...html.matchAll(/<option value="([^"]*)" selected/g)].map((match) => match[1]);
      expect(selected, "the empty choice is selected, not one of the two sent").toEqual([""]);
      expect(reactWarnings).not.toHaveBeenCalled();
      expect(await site.database.db.select().from(contacts)).toHaveLength(0);
    } finally {
      reactWarnings.mockRestore();
      await site.close();
    }
  });

  it("drops a filled honeypot as spam, answering like a success", async () => {
    const site = await server();
    try {
      const { status, body } = await postContact(site.url, { ...validForm(), website: "https://spam.example" });
      expect(status).toBe(200);
      expect(body).toContain(contactMessages.successTitle);
      expect(await site.database.db.select().from(contacts)).toHaveLength(0);
      expect(await site.database.db.select().from(outbox)).toHaveLength(0);
    } finally {
      await site.close();
    }
  });

  it("refuses the 6th request in 10 minutes from one address with 429 and a French message", async () => {
    const site = await server({ CONTACT_RATE_LIMIT_MAX: undefined });
    try {
      for (let index = 1; index <= 5; index++)
        expect((await postContact(site.url, validForm(`personne${index}@example.ch`))).status).toBe(200);
      const { status, body } = await postContact(site.url, validForm("sixieme@example.ch"));
      expect(status).toBe(429);
      expect(body).toContain("Vous avez envoyé plusieurs messages en peu de temps.");
      expect(await site.database.db.select().from(contacts)).toHaveLength(5);
    } finally {
      await site.close();
    }
  });
});
