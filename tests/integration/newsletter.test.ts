/**
 * The newsletter with a real SMTP peer (issue 14): the double opt-in from
 * the boxes and from the contact form, tokens tampered, expired or used
 * again, the 10-minute silence, one-click unsubscription (POST only), and a
 * letter to 200 subscribers (20 of the outbox's batches) that reaches each
 * exactly once when the SMTP peer stops half-way, and at most twice when
 * the site is killed mid-send. The pace of 1,000 letters is
 * `npm run bench:newsletter`'s.
 */
import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../app/db/client.server";
import { linkTokens, newsletterSubscribers, outbox } from "../../app/db/schema";
import { createLetter, sendLetter } from "../../app/newsletter/letters.server";
import { newsletterMessages } from "../../app/newsletter/words";
import {
  freshDataDir,
  lettersByAddress,
  seedLetter,
  linkIn,
  postContact,
  spawnSite,
  type ReceivedMail,
  startSmtp,
  startTestServer,
  validForm,
  waitFor,
} from "../support/harness";

type Site = Awaited<ReturnType<typeof startTestServer>>;

/** Posts the subscription box's form as a browser without JavaScript does. */
function subscribe(site: Site, email: string, extra: Record<string, string> = {}) {
  return fetch(`${site.url}/newsletter`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
    body: new URLSearchParams({ email, source: "home", website: "", ...extra }).toString(),
  });
}

/** The text of the answer's message (`role="status"` or `role="alert"`). */
async function messageOf(response: Response): Promise<string> {
  const match = /role="(?:status|alert)"[^>]*>([^<]*)</.exec(await response.text());
  return match?.[1] ?? "";
}

/** POSTs the button of a link's page (a form posts the honeypot, empty). */
function pressButton(url: string, origin: string) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: "website=",
  });
}

async function statusOf(db: Database, email: string) {
  const [row] = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
  return row?.status;
}

describe("subscribing, confirming, unsubscribing", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let site: Site;
  beforeAll(async () => {
    smtp = await startSmtp();
    site = await startTestServer({ SMTP_URL: smtp.url, OUTBOX_POLL_SECONDS: "0.2" });
  }, 60_000);
  afterAll(async () => {
    await site?.close();
    await smtp?.close();
  });
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to === address);

  it("subscribes only after the link of the confirmation mail is followed and its button pressed", async () => {
    const answer = await subscribe(site, "Jeanne.Martin@example.ch");
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(newsletterMessages.received.slice(0, 40));
    expect(await statusOf(site.database.db, "jeanne.martin@example.ch")).toBe("pending");

    await waitFor(() => mailsTo("jeanne.martin@example.ch").length === 1, 10_000, "the confirmation mail");
    const [mail] = mailsTo("jeanne.martin@example.ch");
    expect(mail!.subject).toBe("Confirmez votre abonnement à la lettre d’information");
    const link = linkIn(mail!, "/newsletter/confirmer/", site);

    // A mail scanner follows the link: nothing changes.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Confirmer mon abonnement");
    expect(await statusOf(site.database.db, "jeanne.martin@example.ch")).toBe("pending");

    const confirmed = await pressButton(link, site.url);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Votre abonnement à la lettre d’information est confirmé");
    expect(await statusOf(site.database.db, "jeanne.martin@example.ch")).toBe("confirmed");

    // The same link again: said in French, nothing changes.
    const again = await pressButton(link, site.url);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("Ce lien n’est plus valable");
  });

  it("refuses a tampered or expired confirmation link in French, and confirms nobody", async () => {
    await subscribe(site, "paul.roux@example.ch");
    await waitFor(() => mailsTo("paul.roux@example.ch").length === 1, 10_000, "the confirmation mail");
    const link = linkIn(mailsTo("paul.roux@example.ch")[0]!, "/newsletter/confirmer/", site);
    const token = link.split("/").pop()!;
    const tampered = `${link.slice(0, -token.length)}${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const wrong of [tampered, `${site.url}/newsletter/confirmer/abc`]) {
      expect(await (await fetch(wrong)).text()).toContain("Ce lien n’est plus valable");
      const pressed = await pressButton(wrong, site.url);
      expect(pressed.status).toBe(410);
      expect(await pressed.text()).toContain("il a déjà servi, il date de plus de 7 jours");
    }
    // Eight days later.
    await site.database.db
      .update(linkTokens)
      .set({ expiresAt: sql`now() - interval '1 day'` })
      .where(eq(linkTokens.purpose, "newsletter-confirm"));
    expect((await pressButton(link, site.url)).status).toBe(410);
    expect(await statusOf(site.database.db, "paul.roux@example.ch")).toBe("pending");
  });

  it("sends no second mail within 10 minutes, and answers the same for a known and an unknown address", async () => {
    const first = await messageOf(await subscribe(site, "anne.blanc@example.ch"));
    expect(first).toBe(newsletterMessages.received);
    await waitFor(() => mailsTo("anne.blanc@example.ch").length === 1, 10_000, "the confirmation mail");
    const second = await subscribe(site, "anne.blanc@example.ch");
    const unknown = await subscribe(site, "nouvelle.adresse@example.ch");
    expect(second.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await messageOf(second)).toBe(first);
    expect(await messageOf(unknown)).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailsTo("anne.blanc@example.ch")).toHaveLength(1);
  });

  it("answers an invalid address with the French message beside the field", async () => {
    const answer = await subscribe(site, "pas-une-adresse");
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(newsletterMessages.email);
  });

  it("starts the same double opt-in from the contact form's newsletter box, and subscribes nobody by itself", async () => {
    const response = await postContact(site.url, { ...validForm("lucie.favre@example.ch"), newsletterConsent: "on" });
    expect(response.status).toBe(200);
    await waitFor(() => mailsTo("lucie.favre@example.ch").length === 1, 10_000, "the confirmation mail");
    expect(mailsTo("lucie.favre@example.ch")[0]!.subject).toContain("Confirmez votre abonnement");
    expect(await statusOf(site.database.db, "lucie.favre@example.ch")).toBe("pending");
  });

  it("unsubscribes with a one-click POST on a letter's List-Unsubscribe address, never with a GET", async () => {
    await site.database.db
      .insert(newsletterSubscribers)
      .values({ email: "marc.python@example.ch", source: "home", consentVersion: "test", status: "confirmed" });
    const letterId = await createLetter(site.database.db, {
      subject: "Lettre de décembre",
      body: "## Bonjour\n\nUn conseil.",
    });
    await sendLetter(site.database.db, letterId, { siteUrl: site.url });
    site.worker.wake();
    await waitFor(() => mailsTo("marc.python@example.ch").length === 1, 10_000, "the letter");
    const letter = mailsTo("marc.python@example.ch")[0]!;
    expect(letter.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const address = /^<(.+)>$/.exec(letter.headers["list-unsubscribe"]!)![1]!;
    expect(letter.text).toContain(address);
    expect(letter.html).toContain("Se désabonner");

    const scanned = await fetch(address);
    expect(scanned.status).toBe(200);
    expect(await scanned.text()).toContain("Me désabonner");
    expect(await statusOf(site.database.db, "marc.python@example.ch")).toBe("confirmed");

    // RFC 8058: the mail client POSTs the body below, from its own servers (no Origin, no cookie).
    const oneClick = await fetch(address, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await statusOf(site.database.db, "marc.python@example.ch")).toBe("unsubscribed");

    // Subscribing again is possible (a new confirmation).
    await subscribe(site, "marc.python@example.ch");
    await waitFor(() => mailsTo("marc.python@example.ch").length === 2, 10_000, "a new confirmation mail");
    expect(await statusOf(site.database.db, "marc.python@example.ch")).toBe("pending");
  });
});

/**
 * Subscribers of the letters below: 20 of the outbox's batches (10 rows
 * each). What the tests prove (exactly once, at most twice) holds for any
 * count that the stop or the kill falls in the middle of; they check that
 * it did.
 */
const SUBSCRIBERS = 200;

/**
 * Runs `act` when the SMTP peer records its `count`th mail, before it
 * acknowledges that mail to the site: the peer's stop or the site's kill
 * falls in the middle of the send, however fast the site sends.
 */
function whenReceived(mails: ReceivedMail[], count: number, act: () => void) {
  const push = mails.push.bind(mails);
  mails.push = (...received) => {
    const length = push(...received);
    if (length === count) act();
    return length;
  };
}

describe(`a letter to ${SUBSCRIBERS} subscribers`, () => {
  it("reaches each address exactly once when the SMTP peer stops half-way and comes back", async () => {
    const first = await startSmtp();
    const site = await startTestServer({
      SMTP_URL: first.url,
      OUTBOX_POLL_SECONDS: "0.2",
      NEWSLETTER_RATE_PER_MINUTE: "10000",
      // A claim's lease (its row due again then) well past every back-off (1, 2 then 4 minutes), so that
      // the rows waiting for their back-off are told from those being sent (below).
      OUTBOX_LEASE_SECONDS: "900",
    });
    let second: Awaited<ReturnType<typeof startSmtp>> | undefined;
    try {
      const emails = await seedLetter(site.database.db, SUBSCRIBERS, site.url);
      let stopped: Promise<void> | undefined;
      whenReceived(first.mails, SUBSCRIBERS / 2, () => (stopped = first.close()));
      site.worker.wake();
      await waitFor(() => stopped !== undefined, 120_000, "half of the letters");
      await stopped;
      // The peer is away: attempts fail and are scheduled again.
      await waitFor(
        async () =>
          (
            await site.database.db
              .select({ id: outbox.id })
              .from(outbox)
              .where(sql`${outbox.lastError} is not null`)
          ).length > 0,
        30_000,
        "a failed attempt",
      );
      second = await startSmtp(first.port);
      // The back-off would wait a minute: make the rows waiting for it due now, as time passing would,
      // again for each send to the stopped peer that fails later (never a row being sent: its lease
      // ends in 15 minutes, a back-off within 5).
      await waitFor(
        async () => {
          if (first.mails.length + second!.mails.length >= SUBSCRIBERS) return true;
          const waiting = await site.database.db
            .update(outbox)
            .set({ nextAttemptAt: sql`now()` })
            .where(
              sql`${outbox.sentAt} is null and ${outbox.nextAttemptAt} > now()
                and ${outbox.nextAttemptAt} < now() + interval '5 minutes'`,
            )
            .returning({ id: outbox.id });
          if (waiting.length > 0) site.worker.wake();
          return false;
        },
        180_000,
        "every letter",
      );
      await new Promise((resolve) => setTimeout(resolve, 1000)); // nothing more comes
      // The peer stopped mid-send: the second one received the rest.
      expect(first.mails.length).toBeLessThan(SUBSCRIBERS);
      expect(second.mails.length).toBeGreaterThan(0);
      const counts = lettersByAddress([...first.mails, ...second.mails]);
      expect(counts.size).toBe(SUBSCRIBERS);
      expect(emails.every((email) => counts.get(email) === 1)).toBe(true);
    } finally {
      await site.close();
      await second?.close();
    }
  }, 400_000);

  it("reaches each address at most twice when the site is killed (kill -9) during the send and restarted", async () => {
    const smtp = await startSmtp();
    const dataDir = freshDataDir();
    try {
      const opened = await openDatabase({ dataDir });
      const emails = await seedLetter(opened.db, SUBSCRIBERS, "http://localhost:3000");
      await opened.close();
      // A short lease: the rows the killed process had claimed are due again 3 s after its claim.
      const env = {
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        NEWSLETTER_RATE_PER_MINUTE: "10000",
        OUTBOX_LEASE_SECONDS: "3",
      };
      const killed = await spawnSite(env);
      whenReceived(smtp.mails, (SUBSCRIBERS * 3) / 10, () => killed.child.kill("SIGKILL"));
      await killed.ready().catch(() => undefined); // killed before it answered: the exit below says so
      expect(await killed.exited).toBe("SIGKILL");
      // Killed mid-send: some addresses had no letter yet.
      expect(lettersByAddress(smtp.mails).size).toBeLessThan(SUBSCRIBERS);
      const restarted = await spawnSite(env);
      try {
        await restarted.ready();
        await waitFor(() => lettersByAddress(smtp.mails).size >= SUBSCRIBERS, 240_000, "every address");
        await new Promise((resolve) => setTimeout(resolve, 2000));
      } finally {
        await restarted.stop();
      }
      const counts = lettersByAddress(smtp.mails);
      expect(emails.every((email) => (counts.get(email) ?? 0) >= 1)).toBe(true);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
    } finally {
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 500_000);
});
