/**
 * The desk's mail pages (issue 32, "Must show"), in the real browser at
 * 375 px, the site's DNS and SMTP local peers (tests/support/dns.ts,
 * tests/support/smtp.ts): « Envoi des e-mails » shows SPF, DKIM, DMARC and
 * MX for MAIL_FROM's domain, the owner asks for a test mail with the page's
 * button, the provider refuses it for good (554 at DATA) and
 * « E-mails non remis » lists it with its reason in French. Both pages:
 * axe, no sideways scroll, photographed (`screenshots/desk-sender-375.png`,
 * `screenshots/desk-undelivered-375.png`). Their HTML is checked by the Nu
 * checker in tests/integration/html-validity.test.ts.
 */
import { expect, test } from "@playwright/test";
import { signIn, startSmtp } from "../support/harness";
import { dkimKeyRecord, startDnsServer } from "../support/dns";
import { ownerBrowserContext, setUpOwnSite } from "./desk-helpers";
import { expectNoAxeViolations, expectNoHorizontalScroll, photograph } from "./helpers";

const OWNER = "proprietaire@exemple.ch";
let dns: Awaited<ReturnType<typeof startDnsServer>> | undefined;
let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;

const own = setUpOwnSite({ owner: "bureau-envoi@example.ch" }, async () => {
  dns = await startDnsServer({
    "exemple.ch": {
      txt: [["v=spf1 include:spf.infomaniak.ch -all"]],
      mx: [{ priority: 10, exchange: "mta-gw.infomaniak.ch" }],
    },
    "spf.infomaniak.ch": { txt: [["v=spf1 ip4:192.0.2.0/24 -all"]] },
    "mail._domainkey.exemple.ch": { txt: [dkimKeyRecord(2048)] },
    "_dmarc.exemple.ch": { txt: [["v=DMARC1; p=none"]] },
  });
  // The owner's provider refuses the message for good: the test mail is not delivered.
  smtp = await startSmtp(undefined, { data: (recipients) => (recipients.includes(OWNER) ? 554 : undefined) });
  return {
    DNS_SERVERS: dns.address,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Jean-Marc Favre <site@exemple.ch>",
    CONTACT_NOTIFY_TO: OWNER,
    OUTBOX_POLL_SECONDS: "0.2",
  };
});

test.afterAll(async () => {
  await smtp?.close();
  await dns?.close();
});

test("« Envoi des e-mails » checks the domain and sends a test; « E-mails non remis » lists it when refused", async ({
  browser,
}) => {
  const url = own.site.url;
  const jar = await signIn(url, own.owners.owner);
  const context = await ownerBrowserContext(browser, url, jar, { viewport: { width: 375, height: 740 } });
  const page = await context.newPage();

  // Réglages leads to the page.
  await page.goto(`${url}/admin/reglages`);
  await page.getByRole("link", { name: "Vérifier l’envoi des e-mails" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Envoi des e-mails");
  await page.getByLabel("Sélecteur DKIM").fill("mail");
  await page.getByRole("button", { name: "Vérifier" }).click();
  await expect(page).toHaveURL(`${url}/admin/envoi?selecteur=mail`);
  for (const name of ["SPF", "DKIM", "DMARC", "Serveurs de réception (MX)", "Adresse d’envoi alignée"])
    await expect(page.getByRole("heading", { level: 2, name: `${name} : Bon` })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(page, "screenshots/desk-sender-375.png", { fullPage: true });

  await page.getByRole("button", { name: "M’envoyer un essai" }).click();
  await expect(page.getByRole("status")).toContainText(`Votre essai est en route vers ${OWNER}`);

  // Refused at DATA: failed at once, listed with its reason, and the header's count.
  await expect(async () => {
    await page.goto(`${url}/admin/non-remis`);
    await expect(page.getByText("Essai d’envoi (Envoi des e-mails)")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("E-mails non remis");
  await expect(page.getByRole("button", { name: "Renvoyer", exact: true })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await photograph(page, "screenshots/desk-undelivered-375.png", { fullPage: true });
  await context.close();
});
