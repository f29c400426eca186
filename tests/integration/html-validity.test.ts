/**
 * Every page is valid HTML: the Nu HTML Checker (the W3C's validator, npm
 * `vnu-jar`, run with the machine's Java 11 or later) reads every page as
 * the production server serves it (the build made by the global setup,
 * tests/integration/global-setup.ts): every page of the sitemap and every
 * noindex page (from the render cache), `/contact` answered with errors
 * after a bad post (with the error summary; and for a group), the
 * newsletter's answers (a bad address: its error summary), a letter, the mails' link
 * pages, the courses with a session and a registration's page, a seat
 * offered from the waiting list (its page, the desk's list), the owner's
 * desk (sign-in, inbox, a request, a person with a mail not delivered, the mails not delivered, letters, subscribers, articles,
 * an article's editor, pictures, invoices: list, new, with errors, one; quotes: list, new, with errors,
 * one, and a group's link page; the register of processings and the
 * breach log: list, new, with errors, one), an article written in the desk, the 404
 * page and the error page. Any error fails the test; warnings are printed. Duplicate ids
 * are errors for the checker, so ids are unique across each whole page.
 *
 * One Java process checks all the files at once (a JVM start costs about a
 * second). A known-invalid sample goes through the same run, so that a
 * checker that silently checks nothing fails the test too.
 *
 * Source: https://validator.github.io/validator/ (command line, `--format json`).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningServer } from "../../server/main";
import sharp from "sharp";
import { articleFormSchema, createArticle, publishArticle, saveArticle } from "../../app/blog/desk.server";
import { createSeries, createSession, utcToZurich, zurichToUtc } from "../../app/courses/sessions.server";
import { pictureFileUrl, preparePicture, savePicture } from "../../app/pictures/pictures.server";
import { contacts, courseRegistrations, newsletterSubscribers, outbox } from "../../app/db/schema";
import { createLetter, sendLetter, sentLetters } from "../../app/newsletter/letters.server";
import {
  createOwner,
  postContact,
  publicPagePaths,
  sessionFields,
  signIn,
  startTestServer,
  validForm,
} from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";
import { dkimKeyRecord, startDnsServer } from "../support/dns";

/** The checker's jar: `vnu-jar` exports its path (its README's usage). */
const vnuJar = String(createRequire(import.meta.url)("vnu-jar"));

/** One message of the checker's JSON output. */
type NuMessage = { type: string; subType?: string; url: string; lastLine?: number; message: string; extract?: string };

/** A page made for the test that the checker must reject: a duplicate id and a `<link>` without `rel`. */
const INVALID_SAMPLE = `<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Exemple</title>
<link href="/a.js"></head><body><main id="contenu"><h2 id="contenu">Titre</h2></main></body></html>`;

/**
 * Runs the checker once on `files`.
 * @returns its messages, by file (absolute paths)
 * @throws when Java is missing or the checker's output is not its JSON report
 */
function checkFiles(files: string[]): Map<string, NuMessage[]> {
  // Java's quick compiler alone (C1, `TieredStopAtLevel=1`): one short run never pays back the optimising
  // one's compiles (88 pages: 6.1 → 3.1 cpu-s, the same messages); its deeper frames need the larger stack
  // the checker's README asks for (`-Xss`).
  const java = ["-Xss16m", "-XX:TieredStopAtLevel=1"];
  const result = spawnSync("java", [...java, "-jar", vnuJar, "--format", "json", ...files], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error)
    throw new Error(
      `Java is needed for the Nu HTML Checker (${result.error.message}): apt-get install -y default-jre-headless`,
    );
  let messages: NuMessage[];
  try {
    // The report goes to stderr; the exit status is 1 when there are errors.
    messages = (JSON.parse(result.stderr) as { messages: NuMessage[] }).messages;
  } catch {
    throw new Error(`The Nu HTML Checker did not give its report (exit ${result.status}):\n${result.stderr}`);
  }
  const byFile = new Map<string, NuMessage[]>(files.map((file) => [file, []]));
  for (const message of messages) {
    const file = message.url.startsWith("file:") ? decodeURIComponent(new URL(message.url).pathname) : message.url;
    if (!byFile.has(file)) throw new Error(`The checker reported a file it was not given: ${message.url}`);
    byFile.get(file)!.push(message);
  }
  return byFile;
}

const isError = (message: NuMessage) => message.type === "error" || message.subType === "fatal";
const describeMessage = (name: string, message: NuMessage) =>
  `${name}:${message.lastLine ?? "?"}: ${message.message}${message.extract ? `\n    ${message.extract.replace(/\n/g, " ")}` : ""}`;

describe("the Nu HTML Checker", () => {
  let site: RunningServer & { url: string };
  let dns: Awaited<ReturnType<typeof startDnsServer>> | undefined;
  let directory = "";
  /** Each checked page's name (the request that answered it) and the checker's messages on it. */
  let pages: { name: string; messages: NuMessage[] }[] = [];
  let sample: NuMessage[] = [];

  beforeAll(async () => {
    // The sender check's DNS (« Envoi des e-mails »): SPF, a DKIM key and MX, no DMARC (its fix shows).
    dns = await startDnsServer({
      "example.ch": {
        txt: [["v=spf1 include:spf.infomaniak.ch -all"]],
        mx: [{ priority: 10, exchange: "mx.example.ch" }],
      },
      "mail._domainkey.example.ch": { txt: [dkimKeyRecord(2048)] },
    });
    site = await startTestServer({
      ENABLE_ERROR_TEST_ROUTE: "1",
      INVOICE_IBAN: "CH5604835012345678009",
      DNS_SERVERS: dns.address,
    });
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "html-validity-"));
    const served: { name: string; file: string }[] = [];
    /** Saves what the server answers to `request` (after checking its status) as a file for the checker. */
    const save = async (name: string, status: number, request: Promise<Response>) => {
      const response = await request;
      expect(response.status, `${name}: status`).toBe(status);
      expect(response.headers.get("content-type"), `${name}: an HTML page`).toMatch(/^text\/html/);
      const file = path.join(directory, `served-${served.length}.html`);
      fs.writeFileSync(file, await response.text());
      served.push({ name, file });
    };
    /** Posts `fields` to `pathname` as a browser without JavaScript does (URL-encoded, no redirect followed). */
    const postForm = (pathname: string, fields: Record<string, string>) =>
      fetch(`${site.url}${pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    await save("GET /contact", 200, fetch(`${site.url}/contact`));
    expect((await postContact(site.url, validForm())).status).toBe(200);
    await save(
      "POST /contact with a bad e-mail",
      400,
      postForm("/contact", { ...validForm(), email: "pas-une-adresse" }),
    );
    await save(
      "POST /contact for a group, its details missing (the error summary, the group's fields)",
      400,
      postForm("/contact", { ...validForm(), service: "group-talk", groupSize: "1" }),
    );
    // The callback request's answers without JavaScript (issue 23): its errors, and its confirmation with the code word.
    const callback = (fields: Record<string, string>, halfDays: string[]) => {
      const body = new URLSearchParams({
        firstName: "Jeanne",
        lastName: "Rochat",
        phone: "079 123 45 67",
        website: "",
      });
      for (const [name, value] of Object.entries(fields)) body.set(name, value);
      for (const halfDay of halfDays) body.append("halfDays", halfDay);
      return fetch(`${site.url}/rappel`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: body.toString(),
      });
    };
    await save("POST /rappel with errors (no half-day, a short name)", 400, callback({ firstName: "J" }, []));
    await save("POST /rappel (its confirmation)", 200, callback({}, ["lundi-matin", "samedi-matin"]));
    await save("GET /coordonnees", 200, fetch(`${site.url}/coordonnees`));
    await save("GET /newsletter", 200, fetch(`${site.url}/newsletter`));
    await save(
      "POST /newsletter (the answer, without JavaScript)",
      200,
      postForm("/newsletter", { email: "lecteur@example.ch", source: "newsletter", website: "" }),
    );
    await save(
      "POST /newsletter with a bad address (the error summary, without JavaScript)",
      400,
      postForm("/newsletter", { email: "lecteur@example", source: "home", website: "" }),
    );
    // A letter sent, for the archive and its page; the links' pages with a token that is not valid.
    const db = site.database.db;
    await db
      .insert(newsletterSubscribers)
      .values({ email: "abonne@example.ch", source: "home", consentVersion: "test", status: "confirmed" });
    const letterId = await createLetter(db, {
      subject: "Les arnaques de décembre",
      body: "## Faux colis\n\nUn SMS annonce un colis : **ne cliquez pas**.\n\n- Vérifiez\n- [Lisez le guide](https://example.ch)",
    });
    await sendLetter(db, letterId, { siteUrl: site.url });
    const draftId = await createLetter(db, { subject: "Brouillon", body: "## Bientôt\n\nUn texte." });
    await save("GET /newsletter/archives", 200, fetch(`${site.url}/newsletter/archives`));
    const [letter] = await sentLetters(db);
    await save("GET /newsletter/archives/{slug}", 200, fetch(`${site.url}/newsletter/archives/${letter!.slug}`));
    await save("GET /newsletter/confirmer/{token}", 200, fetch(`${site.url}/newsletter/confirmer/${"a".repeat(43)}`));
    await save(
      "GET /newsletter/desabonnement/{token}",
      200,
      fetch(`${site.url}/newsletter/desabonnement/${"a".repeat(43)}`),
    );
    // The owner's desk, signed in.
    await save("GET /admin/connexion", 200, fetch(`${site.url}/admin/connexion`));
    const jar = await signIn(site.url, await createOwner(db));
    const desk = (pathname: string) => fetch(`${site.url}${pathname}`, { headers: { Cookie: jar.header() } });
    const [contact] = await db.select({ id: contacts.id }).from(contacts).limit(1);
    // An article written in the desk, published, with a picture in its text; another left as a draft.
    const picture = await preparePicture(
      await sharp({ create: { width: 900, height: 600, channels: 3, background: "#3366aa" } })
        .jpeg()
        .toBuffer(),
    );
    if (!picture.ok) throw new Error(picture.message);
    const pictureId = await savePicture(db, picture, { alt: "Un écran de réglages", originalBytes: 1 });
    const articleId = await createArticle(db, { title: "Agrandir le texte", author: "Moi" });
    const articleFields = articleFormSchema.parse({
      title: "Agrandir le texte",
      excerpt: "Deux réglages suffisent.",
      category: "Applications",
      body: `## Sur iPhone\n\nOuvrez **Réglages**.\n\n![Un écran de réglages](${pictureFileUrl({ id: pictureId, hash: picture.hash }, 800, "webp")})\n\n- Taille du texte\n- [Aide d’Apple](https://support.apple.com)\n`,
      icon: "Lightbulb",
      color: "secondary",
      featured: "on",
      video: "https://www.youtube.com/watch?v=abcdefghijk",
    });
    await saveArticle(db, articleId, articleFields);
    await publishArticle(db, articleId, new Date());
    const draftArticleId = await createArticle(db, { title: "Un brouillon", author: "Moi" });
    // A mail her provider refused (issue 32): the person's page and « E-mails non remis » list it with its form.
    await db.insert(outbox).values({
      kind: "booking-confirmation",
      recipient: "marie.dupont@example.ch",
      subject: "Votre place est réservée",
      textBody: "Bonjour.",
      attempts: 1,
      failedAt: new Date().toISOString(),
      errorStage: "recipient",
      errorCode: 550,
      lastError: "550 5.1.1 user unknown",
    });
    await save("GET /blog/agrandir-le-texte (written in the desk)", 200, fetch(`${site.url}/blog/agrandir-le-texte`));
    for (const pathname of [
      "/admin",
      "/admin/articles",
      `/admin/articles/${articleId}`,
      `/admin/articles/${draftArticleId}`,
      "/admin/images",
      "/admin/reglages",
      `/admin/demandes/${contact!.id}`,
      "/admin/personne?email=marie.dupont%40example.ch",
      "/admin/lettres",
      `/admin/lettres/${draftId}`,
      `/admin/lettres/${letterId}`,
      "/admin/abonnes",
      "/admin/non-remis",
      "/admin/envoi?selecteur=mail",
    ])
      await save(`GET ${pathname} (signed in)`, 200, desk(pathname));
    // Courses: a session to list, the form with its errors, a registration's page.
    const sessionId = await createSession(site.database.db, sessionFields());
    await save("GET / (course cards with their dates)", 200, fetch(`${site.url}/`));
    await save("GET /cours", 200, fetch(`${site.url}/cours`));
    await save("GET /cours/securite", 200, fetch(`${site.url}/cours/securite`));
    const registration = (fields: Record<string, string>) =>
      postForm("/cours/securite", { sessionId: String(sessionId), website: "", ...fields });
    await save(
      "POST /cours/securite with missing fields",
      400,
      registration({ firstName: "M", bookerFirstName: "Luc" }),
    );
    const registered = await registration({ firstName: "Marie", lastName: "Dupont", phone: "079 123 45 67" });
    await save("GET /cours/inscription/{token}", 200, fetch(`${site.url}${registered.headers.get("location")}`));
    await save(
      "GET /cours/inscription/{token}?annuler (asks once)",
      200,
      fetch(`${site.url}${registered.headers.get("location")}?annuler`),
    );
    // A seat offered from the waiting list (decision 049): the offer's page, and the desk's « Places proposées ».
    const offered = await createSession(site.database.db, sessionFields({ capacity: 1, minimum: 1 }));
    const seat = (firstName: string, phone: string) =>
      postForm("/cours/securite", {
        sessionId: String(offered),
        website: "",
        firstName,
        lastName: "Offre",
        phone,
        email: `${firstName.toLowerCase()}.offre@example.ch`,
      });
    const holder = await seat("Anne", "079 300 00 01");
    expect((await seat("Berthe", "079 300 00 02")).status).toBe(303);
    expect((await postForm(holder.headers.get("location")!, { intent: "cancel", website: "" })).status).toBe(200);
    const offers = await site.database.db.select().from(outbox).where(eq(outbox.kind, "booking-offer"));
    const offerPath = /\/cours\/place\/[A-Za-z0-9_-]{43}/.exec(offers[0]?.textBody ?? "")![0];
    await save(
      "GET /cours/place/{token}?reponse=oui (a seat offered)",
      200,
      fetch(`${site.url}${offerPath}?reponse=oui`),
    );
    await save("GET /admin/cours/{id} (a seat offered, signed in)", 200, desk(`/admin/cours/${offered}`));
    // The desk's session page, and its question "Oui, annuler" in a registrant's card; three registrations
    // from one address (this test's): the page flags them (decision 028).
    for (const [firstName, phone] of [
      ["Paul", "079 123 45 68"],
      ["Lise", "079 123 45 69"],
    ] as const)
      expect((await registration({ firstName, lastName: "Dupont", phone })).status).toBe(303);
    const [booked] = await site.database.db
      .select({ id: courseRegistrations.id })
      .from(courseRegistrations)
      .orderBy(courseRegistrations.id);
    await save(`GET /admin/cours/${sessionId} (signed in)`, 200, desk(`/admin/cours/${sessionId}`));
    await save(
      `GET /admin/cours/${sessionId}?annuler=… (signed in, asks once)`,
      200,
      desk(`/admin/cours/${sessionId}?annuler=${booked!.id}`),
    );
    // Invoices (issue 22, item 3): the list, a new one from a registration, the form answered with errors, one invoice.
    const deskPost = (pathname: string, fields: Record<string, string>) =>
      fetch(`${site.url}${pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          Cookie: jar.header(),
          Origin: site.url,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields).toString(),
      });
    // « M’envoyer un essai »: queued (the page's notice), then refused while it waits (no SMTP here).
    expect((await deskPost("/admin/envoi", { intent: "send-test" })).status).toBe(303);
    await save("GET /admin/envoi?essai=envoye (signed in, a test queued)", 200, desk("/admin/envoi?essai=envoye"));
    await save("POST /admin/envoi again (signed in, refused)", 429, deskPost("/admin/envoi", { intent: "send-test" }));
    const invoiceFields = {
      clientKind: "organisation",
      clientName: "Club des aînés",
      clientAttention: "Marie Dupont",
      street: "Rue du Lac",
      buildingNumber: "12",
      postalCode: "1800",
      locality: "Vevey",
      country: "CH",
      email: "club@example.ch",
      "label-0": "Conférence",
      "quantity-0": "1",
      "price-0": "250",
      issuedOn: "2026-11-25",
      dueOn: "2026-12-25",
    };
    await save(
      "GET /admin/factures/nouvelle?inscription=… (signed in; paid on site: the refusal)",
      200,
      desk(`/admin/factures/nouvelle?inscription=${booked!.id}`),
    );
    await save(
      "POST /admin/factures/nouvelle with errors (signed in)",
      400,
      deskPost("/admin/factures/nouvelle", { ...invoiceFields, clientName: "", "price-0": "x" }),
    );
    const made = await deskPost("/admin/factures/nouvelle", invoiceFields);
    expect(made.status, "invoice made").toBe(303);
    await save("GET /admin/factures (signed in)", 200, desk("/admin/factures"));
    await save("GET /admin/factures/{id} (signed in)", 200, desk(made.headers.get("location")!));
    await save(
      "POST /admin/factures/{id} paid with errors (signed in)",
      400,
      deskPost(made.headers.get("location")!, { intent: "paid", paidOn: "", paidBy: "x" }),
    );
    // Quotes (issue 31, item 2): the list, a new one, the form with errors, one quote accepted with its
    // session and list, and the organisation's link page.
    const quoteFields = {
      ...invoiceFields,
      dueOn: "2099-12-25",
      groupSize: "12",
      courseId: "applications-mobiles",
      sessionDate: "2099-03-02",
      sessionTime: "14:00",
      durationMinutes: "90",
      placeName: "Salle communale",
      placeAddress: "Rue du Lac 3, 1800 Vevey",
    };
    await save("GET /admin/devis/nouveau (signed in)", 200, desk("/admin/devis/nouveau"));
    await save(
      "POST /admin/devis/nouveau with errors (signed in)",
      400,
      deskPost("/admin/devis/nouveau", { ...quoteFields, placeName: "", "price-0": "x" }),
    );
    const quote = (await deskPost("/admin/devis/nouveau", quoteFields)).headers.get("location")!;
    expect(quote, "quote made").toMatch(/^\/admin\/devis\/\d+$/);
    await save("GET /admin/devis/{id}/modifier (a draft, signed in)", 200, desk(`${quote}/modifier`));
    await save(
      "POST /admin/devis/{id}/modifier with errors (signed in)",
      400,
      deskPost(`${quote}/modifier`, { ...quoteFields, "price-0": "x" }),
    );
    for (const intent of ["send", "accept", "session"])
      expect((await deskPost(quote, { intent })).status, intent).toBe(200);
    await save("GET /admin/devis (signed in)", 200, desk("/admin/devis"));
    await save("GET /admin/devis/{id} (signed in, accepted, its list)", 200, desk(quote));
    const [groupMail] = await db.select({ text: outbox.textBody }).from(outbox).where(eq(outbox.kind, "group-list"));
    const groupLink = /\/groupe\/[\w-]{43}/.exec(groupMail!.text!)![0];
    await save("GET /groupe/{token}", 200, fetch(`${site.url}${groupLink}`));
    // Protection des données (issue 32, item 3): the register, the breach log, its form empty, with errors, one breach.
    await save("GET /admin/donnees (signed in)", 200, desk("/admin/donnees"));
    await save("GET /admin/donnees/violations/nouvelle (signed in)", 200, desk("/admin/donnees/violations/nouvelle"));
    const breachFields = {
      discoveredOn: "2026-11-20",
      whatHappened: "E-mail envoyé à la mauvaise personne.",
      dataConcerned: "Noms",
      peopleConcerned: "Participants",
      risk: "faible",
      riskAssessment: "Faible.",
      measures: "Demande d’effacement au destinataire.",
    };
    await save(
      "POST /admin/donnees/violations/nouvelle with errors (signed in)",
      400,
      deskPost("/admin/donnees/violations/nouvelle", { ...breachFields, discoveredOn: "x", risk: "" }),
    );
    expect((await deskPost("/admin/donnees/violations/nouvelle", breachFields)).status, "breach recorded").toBe(303);
    await save("GET /admin/donnees/violations (signed in)", 200, desk("/admin/donnees/violations"));
    await save("GET /admin/donnees/violations/1 (signed in)", 200, desk("/admin/donnees/violations/1"));
    // The person page and its printable export, when two people share a telephone (issue 24, item 5).
    // (on another session: one telephone books a session once, issue 24 item 6)
    const otherSessionId = await createSession(site.database.db, sessionFields({ courseId: "applications-mobiles" }));
    const shared = await fetch(`${site.url}/cours/applications-mobiles`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        sessionId: String(otherSessionId),
        website: "",
        firstName: "Paul",
        lastName: "Dupont",
        phone: "079 123 45 67",
      }).toString(),
    });
    expect(shared.status, "Paul's registration").toBe(303);
    for (const pathname of [
      "/admin/personne?telephone=079+123+45+67",
      "/admin/personne?telephone=079+123+45+67&effacer=1&personne=marie+dupont",
      "/admin/personne/export?email=marie.dupont%40example.ch",
    ])
      await save(`GET ${pathname} (signed in)`, 200, desk(pathname));
    // A series of dates (issue 22): its course's page, a registration's page with every date, the desk's series
    // form, and the attendance list to tick.
    const { sessionIds: seriesDates } = await createSeries(
      site.database.db,
      // Paid « au choix » (decision 035): the form's radios and postal address.
      sessionFields({ courseId: "intelligence-artificielle", payment: "au-choix" }),
      [`${COURSE_YEAR}-02-02`, `${COURSE_YEAR}-02-09`].map((day) => zurichToUtc(day, "14:00")),
    );
    await save(
      "GET /cours/intelligence-artificielle (a series)",
      200,
      fetch(`${site.url}/cours/intelligence-artificielle`),
    );
    const seriesForm = {
      sessionId: String(seriesDates[0]),
      website: "",
      firstName: "Marie",
      lastName: "Dupont",
      phone: "079 123 45 67",
      paysBy: "facture",
    };
    await save(
      "POST /cours/intelligence-artificielle « sur facture » without the address",
      400,
      postForm("/cours/intelligence-artificielle", seriesForm),
    );
    const inSeries = await postForm("/cours/intelligence-artificielle", {
      ...seriesForm,
      postalStreet: "Rue du Lac 3",
      postalCode: "1800",
      postalLocality: "Vevey",
    });
    await save(
      "GET /cours/inscription/{token} (a series)",
      200,
      fetch(`${site.url}${inSeries.headers.get("location")}`),
    );
    // Tomorrow's call list « À appeler demain » with one person (a landline, no e-mail), and the page of an SMS
    // reminder's short link (a registration's token; one not valid: 404).
    const tomorrowSession = await createSession(
      site.database.db,
      sessionFields({ startsAt: zurichToUtc(utcToZurich(new Date(Date.now() + 86_400_000)).date, "14:00") }),
    );
    const toCall = await postForm("/cours/securite", {
      sessionId: String(tomorrowSession),
      website: "",
      firstName: "Odette",
      lastName: "Rochat",
      phone: "021 555 66 77",
    });
    await save("GET /admin/a-appeler (one person to call, signed in)", 200, desk("/admin/a-appeler"));
    await save(
      "GET /r/{token} (an SMS reminder's link)",
      200,
      fetch(`${site.url}${toCall.headers.get("location")!.replace("/cours/inscription/", "/r/")}`),
    );
    await save("GET /r/{token} (not valid)", 404, fetch(`${site.url}/r/${"a".repeat(43)}`));
    for (const pathname of [
      "/admin/cours",
      "/admin/cours/nouvelle-serie",
      `/admin/cours/${sessionId}/presences`,
      `/admin/cours/${seriesDates[1]}/presences`,
    ])
      await save(`GET ${pathname} (signed in)`, 200, desk(pathname));
    await save("GET /une-page-qui-n-existe-pas (404)", 404, fetch(`${site.url}/une-page-qui-n-existe-pas`));
    // The error route's deliberate error is logged by app/entry.server.tsx's handleError: expected, kept out of the output.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    await save("GET /__erreur-test (500)", 500, fetch(`${site.url}/__erreur-test`)).finally(() => quiet.mockRestore());

    // Every other page of the sitemap and every noindex page (the blog, its articles, the legal pages).
    const checked = (sitePath: string) =>
      served.some(({ name }) => name === `GET ${sitePath}` || name.startsWith(`GET ${sitePath} (`));
    for (const sitePath of await publicPagePaths())
      if (!checked(sitePath)) await save(`GET ${sitePath}`, 200, fetch(`${site.url}${sitePath}`));
    const sampleFile = path.join(directory, "invalid-sample.html");
    fs.writeFileSync(sampleFile, INVALID_SAMPLE);

    const messages = checkFiles([...served.map((page) => page.file), sampleFile]);
    pages = served.map((page) => ({ name: page.name, messages: messages.get(page.file)! }));
    sample = messages.get(sampleFile)!;
  }, 120_000);

  afterAll(async () => {
    await site?.close();
    await dns?.close();
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
  });

  it("rejects a known-invalid page (duplicate id, <link> without rel)", () => {
    const errors = sample.filter(isError).map((message) => message.message);
    expect(errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/Duplicate ID “contenu”/), expect.stringMatching(/“link”.*“rel”/)]),
    );
  });

  it("checked every page of the sitemap, every noindex page and every page rendered for one request", async () => {
    const names = pages.map((page) => page.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "GET /blog",
        "GET / (course cards with their dates)",
        "GET /contact",
        "GET /mentions-legales",
        "GET /une-page-qui-n-existe-pas (404)",
      ]),
    );
    const publicPages = await publicPagePaths();
    expect(publicPages.length).toBeGreaterThan(5);
    for (const sitePath of publicPages)
      expect(
        names.some((name) => name === `GET ${sitePath}` || name.startsWith(`GET ${sitePath} (`)),
        `${sitePath} checked`,
      ).toBe(true);
  });

  it("finds no error on any page (warnings are printed)", () => {
    // Warnings and notes, one line per kind: React writes void elements as `<meta … />`, which the checker notes on every tag.
    const notes = new Map<string, { count: number; pages: Set<string> }>();
    for (const page of pages)
      for (const message of page.messages.filter((message) => !isError(message))) {
        const note = notes.get(message.message) ?? { count: 0, pages: new Set<string>() };
        note.count++;
        note.pages.add(page.name);
        notes.set(message.message, note);
      }
    if (notes.size)
      console.warn(
        `Nu HTML Checker, warnings and notes (not failures):\n${[...notes]
          .map(([message, note]) => `  ${note.count} × on ${note.pages.size} pages: ${message}`)
          .join("\n")}`,
      );
    const errors = pages.flatMap((page) =>
      page.messages.filter(isError).map((message) => describeMessage(page.name, message)),
    );
    expect(errors, `${errors.length} errors on ${pages.length} pages:\n${errors.join("\n")}\n`).toEqual([]);
  });
});
