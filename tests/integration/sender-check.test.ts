/**
 * « Envoi des e-mails » (issue 32 item 2, decision 047) on the whole site,
 * its DNS a local server (tests/support/dns.ts, `DNS_SERVERS`):
 * - the owner sees SPF, DKIM at the selector he types, DMARC, the MX and
 *   the alignment « bon » for a domain with everything; DMARC
 *   « introuvable » once its record is gone; and, the DNS server stopped
 *   (no network), every check « pas vérifié » and the page says so;
 * - nobody else sees it: signed out, the page redirects to the sign-in and
 *   its `.data` answers 401; the test mail's action from another origin is
 *   refused and queues nothing;
 * - « M’envoyer un essai » queues exactly one mail to the owner
 *   (CONTACT_NOTIFY_TO), which arrives with a plain-text part and a
 *   Message-ID on MAIL_FROM's domain; a second test is refused while the
 *   first is waiting, and past 5 in the clock's hour.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "../../app/db/schema";
import { queueSenderTest, SENDER_TEST_MAIL } from "../../app/mail/sender-test.server";
import { dkimKeyRecord, startDnsServer, type DnsZone } from "../support/dns";
import {
  createOwner,
  deskFetch,
  pageText,
  signIn,
  startSmtp,
  startTestServer,
  waitFor,
  type CookieJar,
} from "../support/harness";

/** exemple.ch with SPF, a DKIM key at « mail », DMARC and MX (a fresh 2048-bit key). */
const zone: DnsZone = {
  "exemple.ch": {
    txt: [["v=spf1 ip4:127.0.0.1 -all"]],
    mx: [{ priority: 10, exchange: "mx.exemple.ch" }],
  },
  "mail._domainkey.exemple.ch": { txt: [dkimKeyRecord(2048)] },
  "_dmarc.exemple.ch": { txt: [["v=DMARC1; p=none"]] },
};

let dns: Awaited<ReturnType<typeof startDnsServer>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;

beforeAll(async () => {
  dns = await startDnsServer(zone);
  smtp = await startSmtp();
  site = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Jean-Marc Favre <site@exemple.ch>",
    DNS_SERVERS: dns.address,
  });
  jar = await signIn(site.url, await createOwner(site.database.db));
}, 120_000);

afterAll(async () => {
  await site?.close();
  await smtp?.close();
  await dns?.close();
});

/** The page as the owner gets it, and each check's verdict (`data-verdict`). */
async function senderPage(query = "") {
  const answer = await deskFetch(site.url, `/admin/envoi${query}`, { jar });
  expect(answer.status).toBe(200);
  const html = await answer.text();
  const verdicts = Object.fromEntries(
    [...html.matchAll(/data-check="([a-z]+)" data-verdict="([a-z-]+)"/g)].map((match) => [match[1], match[2]]),
  );
  return { html, text: pageText(html), verdicts };
}

const senderTests = () => site.database.db.select().from(outbox).where(eq(outbox.kind, SENDER_TEST_MAIL));

describe("the sender check", () => {
  it("says « bon » for SPF, DKIM, DMARC, MX and the alignment of a domain that has them all", async () => {
    const { text, verdicts } = await senderPage("?selecteur=mail");
    expect(verdicts).toEqual({ spf: "bon", dkim: "bon", dmarc: "bon", mx: "bon", alignement: "bon" });
    expect(text).toContain("Envoi des e-mails");
    expect(text).toContain("le domaine de votre adresse d’envoi « Jean-Marc Favre &lt;site@exemple.ch&gt; »");
    expect(text).toContain("Une clé DKIM est publiée à mail._domainkey.exemple.ch (2048 bits)");
    expect(text).toContain("Sa règle est p=none :");
    expect(text).not.toContain("n’a pas pu interroger le DNS");
  });

  it("says DMARC is « introuvable » once the domain publishes none, with the record to add", async () => {
    const dmarc = zone["_dmarc.exemple.ch"];
    delete zone["_dmarc.exemple.ch"];
    try {
      const { text, verdicts } = await senderPage("?selecteur=mail");
      expect(verdicts).toMatchObject({ spf: "bon", dkim: "bon", dmarc: "introuvable" });
      expect(text).toContain("nommé _dmarc.exemple.ch qui contient v=DMARC1; p=none");
    } finally {
      zone["_dmarc.exemple.ch"] = dmarc!;
    }
  });

  it("refuses a selector that is no DNS name, in French, beside its field", async () => {
    const { html, verdicts } = await senderPage("?selecteur=%3Cscript%3E");
    expect(html).toContain("Un sélecteur DKIM s’écrit en lettres, chiffres et tirets");
    expect(html).toMatch(/aria-invalid="true"[^>]*id="selecteur"|id="selecteur"[^>]*aria-invalid="true"/);
    // Common selectors were tried instead, « mail » among them.
    expect(verdicts.dkim).toBe("bon");
    expect(pageText(html)).toContain("sous le sélecteur courant « mail »");
  });

  it("is the owner's alone: signed out, the page and its .data are refused, and so is a test from another origin", async () => {
    const page = await deskFetch(site.url, "/admin/envoi");
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/admin/connexion");
    expect((await deskFetch(site.url, "/admin/envoi.data")).status).toBe(401);
    for (const path of ["/admin/envoi", "/admin/envoi.data"]) {
      const signedOut = await deskFetch(site.url, path, { form: { intent: "send-test" } });
      expect([303, 401], path).toContain(signedOut.status);
      const forged = await deskFetch(site.url, path, {
        jar,
        form: { intent: "send-test" },
        headers: { Origin: "https://elsewhere.example" },
      });
      expect([400, 403], path).toContain(forged.status);
    }
    expect(await senderTests()).toHaveLength(0);
  });
});

describe("« M’envoyer un essai »", () => {
  it("queues exactly one mail to the owner, which arrives with a plain-text part and a Message-ID on the site's domain", async () => {
    const answer = await deskFetch(site.url, "/admin/envoi", { jar, form: { intent: "send-test", selecteur: "mail" } });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/admin/envoi?essai=envoye&selecteur=mail");
    const rows = await senderTests();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.recipient).toBeNull();
    await waitFor(
      () => smtp.mails.some((mail) => mail.subject === "Essai d’envoi depuis votre site"),
      10_000,
      "the test mail",
    );
    const mails = smtp.mails.filter((mail) => mail.subject === "Essai d’envoi depuis votre site");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe("owner@example.ch");
    expect(mails[0]!.text).toContain("Cet e-mail est un essai");
    expect(mails[0]!.messageId).toMatch(/@exemple\.ch>$/);
    const { text } = await senderPage("?essai=envoye");
    expect(text).toContain("Votre essai est en route vers owner@example.ch");
    expect(text).toMatch(/Dernier essai demandé le .+ : parti le /);
  });

  it("refuses a second test while the first waits, and past 5 in the hour", async () => {
    await site.worker.stop();
    const first = await deskFetch(site.url, "/admin/envoi", { jar, form: { intent: "send-test" } });
    expect(first.status).toBe(303);
    const again = await deskFetch(site.url, "/admin/envoi", { jar, form: { intent: "send-test" } });
    expect(again.status).toBe(429);
    expect(pageText(await again.text())).toContain("Votre essai précédent n’est pas encore parti");
    expect(await senderTests()).toHaveLength(2);
    // Five in the hour (all sent): the sixth waits for the hour to pass, by the clock.
    const db = site.database.db;
    const markSent = () =>
      db.update(outbox).set({ sentAt: new Date().toISOString() }).where(eq(outbox.kind, SENDER_TEST_MAIL));
    for (let more = 0; more < 3; more++) {
      await markSent();
      expect((await queueSenderTest(db, new Date(), "http://site/admin/envoi")).queued).toBe(true);
    }
    await markSent();
    const sixth = await deskFetch(site.url, "/admin/envoi", { jar, form: { intent: "send-test" } });
    expect(sixth.status).toBe(429);
    expect(pageText(await sixth.text())).toContain("Vous avez déjà demandé 5 essais dans l’heure");
    expect(await queueSenderTest(db, new Date(Date.now() + 2 * 3_600_000), "http://site/admin/envoi")).toMatchObject({
      queued: true,
    });
  });

  it("says plainly that nothing could be checked when the DNS does not answer (no network)", async () => {
    await dns.close();
    const { text, verdicts } = await senderPage("?selecteur=mail");
    expect(verdicts).toEqual({
      spf: "non-verifie",
      dkim: "non-verifie",
      dmarc: "non-verifie",
      mx: "non-verifie",
      alignement: "non-verifie",
    });
    expect(text).toContain("Le site n’a pas pu interroger le DNS");
  });
});
