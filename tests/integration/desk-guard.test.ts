/**
 * The owner's desk is private (issue 13, "The desk is private"): every
 * `/admin` page, its `.data` form and its actions, under every spelling
 * React Router resolves to them, answer only to a signed-in owner. Without
 * a session, with an expired one, or with the session of a deleted account,
 * pages redirect (303) to the sign-in page and data requests get 401; a
 * valid session used from another origin is refused on every action (403,
 * or 400 where React Router's own origin check answers first); and in
 * every case the request in the database is left as it was. Every desk
 * answer is `no-store` and `noindex`; robots.txt and the sitemap keep
 * crawlers away.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contactEvents,
  contacts,
  deskSession,
  deskUser,
  newsletterLetters,
  siteSettings,
  newsletterSubscribers,
  outbox,
  invoices,
} from "../../app/db/schema";
import { createLetter } from "../../app/newsletter/letters.server";
import {
  createOwner,
  postContact,
  sendRaw,
  signIn,
  startTestServer,
  validForm,
  type CookieJar,
  type RawAnswer,
} from "../support/harness";

const SIGN_IN = "/admin/connexion";

/** A request to a desk door, and what a refusal looks like there. */
interface Door {
  method: "GET" | "HEAD" | "POST";
  path: string;
  body?: string;
  /** A data request (`.data`) is refused with 401; a page with a redirect to the sign-in page. */
  data: boolean;
}

let site: Awaited<ReturnType<typeof startTestServer>>;
/** The request every refused door would have changed, and a second one the signed-in owner may change. */
let contactId: number;
let otherContactId: number;
let valid: CookieJar;
let expired: CookieJar;
let deleted: CookieJar;
let singleFactor: CookieJar;

const statusForm = new URLSearchParams({ intent: "status", status: "termine" }).toString();
const noteForm = new URLSearchParams({ intent: "note", note: "Écrit par un intrus" }).toString();
const signOutForm = new URLSearchParams({ intent: "partout" }).toString();
const newLetterForm = new URLSearchParams({ subject: "Lettre d’un intrus" }).toString();
const sendLetterForm = new URLSearchParams({ intent: "send" }).toString();
const eraseForm = new URLSearchParams({ email: "marie.dupont@example.ch" }).toString();
const seriesForm = new URLSearchParams({ intent: "create-series", courseId: "applications-mobiles" }).toString();
const attendanceForm = new URLSearchParams({ intent: "attendance", "presence-1": "absent" }).toString();
const cancelSessionForm = new URLSearchParams({ intent: "cancel-session" }).toString();
const invoiceForm = new URLSearchParams({
  clientName: "Marie Dupont",
  street: "Rue du Lac 1",
  postalCode: "1800",
  locality: "Vevey",
  "label-0": "Cours",
  "price-0": "55",
  issuedOn: "2026-11-25",
  dueOn: "2026-12-25",
}).toString();
const sendInvoiceForm = new URLSearchParams({ intent: "send" }).toString();
const sendTestForm = new URLSearchParams({ intent: "send-test" }).toString();
const resendForm = new URLSearchParams({ intent: "resend", id: "1", "email-1": "intrus@example.ch" }).toString();
const pricesForm = new URLSearchParams({
  section: "prices",
  "prices-small-group": "1",
  "prices-one-to-one-course": "1",
  "prices-one-to-one-support": "1",
}).toString();
let letterId: number;
const lettersSentForm = new URLSearchParams({ intent: "letters-sent", inscription: "1" }).toString();
const letterAddressForm = new URLSearchParams({
  intent: "letter-address",
  inscription: "1",
  rue: "Rue de l’Intrus 1",
  npa: "1000",
  localite: "Lausanne",
}).toString();

/** Every door of the desk but the sign-in page, in the spellings React Router resolves to the same routes. */
function doors(id: number): Door[] {
  const request = `/admin/demandes/${id}`;
  return [
    ...["/admin", "/Admin", "/admin/", "/%61dmin", "/x/../admin", "/admin?statut=nouveau&q=dupont"].map((path) => ({
      method: "GET" as const,
      path,
      data: false,
    })),
    { method: "GET", path: "/admin.data", data: true },
    // HEAD, and pages of ids that do not exist: the guard answers before any loader looks.
    { method: "HEAD", path: "/admin", data: false },
    { method: "HEAD", path: request, data: false },
    { method: "HEAD", path: "/admin/factures/1/facture.pdf", data: false },
    { method: "GET", path: "/admin/cours/999999", data: false },
    { method: "GET", path: "/admin/cours/999999.data", data: true },
    { method: "GET", path: "/admin/factures/999999/", data: false },
    { method: "GET", path: request, data: false },
    { method: "GET", path: `/ADMIN/demandes/${id}`, data: false },
    { method: "GET", path: `${request}.data`, data: true },
    { method: "GET", path: "/admin/deconnexion", data: false },
    { method: "POST", path: request, body: statusForm, data: false },
    { method: "POST", path: `/%61dmin/demandes/${id}`, body: statusForm, data: false },
    { method: "POST", path: `/x/../admin/demandes/${id}`, body: statusForm, data: false },
    { method: "POST", path: `${request}.data`, body: statusForm, data: true },
    { method: "POST", path: request, body: noteForm, data: false },
    { method: "POST", path: "/admin/deconnexion", body: signOutForm, data: false },
    { method: "POST", path: "/admin/deconnexion.data", body: signOutForm, data: true },
    // The rest of the desk: person, CSV, newsletter.
    { method: "GET", path: "/admin/personne?email=marie.dupont%40example.ch", data: false },
    { method: "GET", path: "/admin/personne.data?email=marie.dupont%40example.ch", data: true },
    { method: "GET", path: "/admin/personne.json?email=marie.dupont%40example.ch", data: false },
    { method: "GET", path: "/admin/personne/export?email=marie.dupont%40example.ch", data: false },
    { method: "GET", path: "/Admin/Personne/Export?email=marie.dupont%40example.ch", data: false },
    { method: "GET", path: "/admin/personne/export.data?email=marie.dupont%40example.ch", data: true },
    { method: "GET", path: "/admin/demandes.csv", data: false },
    { method: "GET", path: "/Admin/Demandes.csv", data: false },
    { method: "POST", path: "/admin/personne", body: eraseForm, data: false },
    { method: "POST", path: "/admin/personne.data", body: eraseForm, data: true },
    { method: "GET", path: "/admin/lettres", data: false },
    { method: "GET", path: "/admin/lettres.data", data: true },
    { method: "GET", path: `/admin/lettres/${letterId}`, data: false },
    { method: "GET", path: `/admin/lettres/${letterId}.data`, data: true },
    { method: "POST", path: "/admin/lettres", body: newLetterForm, data: false },
    { method: "POST", path: "/admin/lettres.data", body: newLetterForm, data: true },
    { method: "POST", path: `/admin/lettres/${letterId}`, body: sendLetterForm, data: false },
    { method: "POST", path: `/%61dmin/lettres/${letterId}`, body: sendLetterForm, data: false },
    { method: "POST", path: `/admin/lettres/${letterId}.data`, body: sendLetterForm, data: true },
    { method: "GET", path: "/admin/abonnes", data: false },
    { method: "GET", path: "/admin/abonnes.data", data: true },
    { method: "GET", path: "/admin/abonnes.csv", data: false },
    // Courses: the list, a session's page (its loader and its intents), its registrations' CSV.
    { method: "GET", path: "/admin/cours", data: false },
    { method: "GET", path: "/admin/cours.data", data: true },
    { method: "GET", path: "/admin/cours/1", data: false },
    { method: "GET", path: "/Admin/Cours/1/", data: false },
    { method: "GET", path: "/admin/cours/1.data", data: true },
    // A data request for the page's loader alone: the desk layout's loader does not run, the page's own guard answers.
    { method: "GET", path: "/admin/cours/1.data?_routes=routes%2Fadmin%2Fcourse-session", data: true },
    { method: "POST", path: "/admin/cours/1", body: cancelSessionForm, data: false },
    { method: "POST", path: "/%61dmin/cours/1", body: cancelSessionForm, data: false },
    { method: "POST", path: "/admin/cours/1.data", body: cancelSessionForm, data: true },
    { method: "GET", path: "/admin/cours/1/inscrits.csv", data: false },
    // Paper (issue 31): letters for the post, certificates, the list to sign, and the page's two letter intents.
    ...["lettres.pdf", "lettres.pdf?fenetre=gauche&inscription=1", "attestations.pdf", "liste-signatures.pdf"].flatMap(
      (file): Door[] => [
        { method: "GET", path: `/admin/cours/1/${file}`, data: false },
        { method: "GET", path: `/Admin/Cours/1/${file.replace("pdf", "PDF")}`, data: false },
        { method: "GET", path: `/%61dmin/cours/1/${file}`, data: false },
        { method: "GET", path: `/admin/cours/1/${file.replace(".pdf", ".pdf.data")}`, data: true },
      ],
    ),
    { method: "HEAD", path: "/admin/cours/1/lettres.pdf", data: false },
    { method: "POST", path: "/admin/cours/1", body: lettersSentForm, data: false },
    { method: "POST", path: "/admin/cours/1.data", body: lettersSentForm, data: true },
    { method: "POST", path: "/admin/cours/1", body: letterAddressForm, data: false },
    { method: "POST", path: "/admin/cours/1.data", body: letterAddressForm, data: true },
    // The call list « À appeler demain » and its letters for the post (issue 31, item 1).
    { method: "GET", path: "/admin/a-appeler", data: false },
    { method: "GET", path: "/admin/a-appeler.data", data: true },
    { method: "POST", path: "/admin/a-appeler", body: lettersSentForm, data: false },
    { method: "POST", path: "/Admin/A-Appeler/", body: lettersSentForm, data: false },
    { method: "POST", path: "/%61dmin/a-appeler", body: lettersSentForm, data: false },
    { method: "POST", path: "/admin/a-appeler.data", body: lettersSentForm, data: true },
    { method: "GET", path: "/admin/a-appeler/lettres.pdf?fenetre=gauche", data: false },
    { method: "GET", path: "/Admin/A-appeler/Lettres.PDF", data: false },
    { method: "GET", path: "/%61dmin/a-appeler/lettres.pdf", data: false },
    { method: "GET", path: "/admin/a-appeler/lettres.pdf.data", data: true },
    { method: "HEAD", path: "/admin/a-appeler/lettres.pdf", data: false },
    // A draft quote's edit page (issue 31, item 2).
    { method: "GET", path: "/admin/devis/1/modifier", data: false },
    { method: "GET", path: "/Admin/Devis/1/Modifier/", data: false },
    { method: "GET", path: "/admin/devis/1/modifier.data", data: true },
    { method: "POST", path: "/admin/devis/1/modifier", body: invoiceForm, data: false },
    { method: "POST", path: "/%61dmin/devis/1/modifier", body: invoiceForm, data: false },
    { method: "POST", path: "/admin/devis/1/modifier.data", body: invoiceForm, data: true },
    // Series of dates and attendance (issue 22).
    { method: "GET", path: "/admin/cours/nouvelle-serie", data: false },
    { method: "GET", path: "/admin/cours/nouvelle-serie.data", data: true },
    { method: "POST", path: "/admin/cours/nouvelle-serie", body: seriesForm, data: false },
    { method: "POST", path: "/%61dmin/cours/nouvelle-serie", body: seriesForm, data: false },
    { method: "POST", path: "/admin/cours/nouvelle-serie.data", body: seriesForm, data: true },
    { method: "GET", path: "/admin/cours/1/presences", data: false },
    { method: "POST", path: "/admin/cours/1/presences", body: attendanceForm, data: false },
    { method: "POST", path: "/admin/cours/1/presences.data", body: attendanceForm, data: true },
    { method: "GET", path: "/admin/factures", data: false },
    { method: "GET", path: "/admin/factures.data", data: true },
    { method: "GET", path: "/admin/factures.csv", data: false },
    { method: "GET", path: "/admin/factures/nouvelle?inscription=1", data: false },
    { method: "POST", path: "/admin/factures/nouvelle", body: invoiceForm, data: false },
    { method: "POST", path: "/%61dmin/factures/nouvelle", body: invoiceForm, data: false },
    { method: "POST", path: "/admin/factures/nouvelle.data", body: invoiceForm, data: true },
    { method: "GET", path: "/admin/factures/1", data: false },
    { method: "POST", path: "/admin/factures/1", body: sendInvoiceForm, data: false },
    { method: "POST", path: "/admin/factures/1.data", body: sendInvoiceForm, data: true },
    { method: "GET", path: "/admin/factures/1/facture.pdf", data: false },
    // Mails not delivered (issue 32): the list and its one action (correct and resend, or leave aside).
    { method: "GET", path: "/admin/non-remis", data: false },
    { method: "GET", path: "/admin/non-remis.data", data: true },
    { method: "POST", path: "/admin/non-remis", body: resendForm, data: false },
    { method: "POST", path: "/Admin/Non-Remis/", body: resendForm, data: false },
    { method: "POST", path: "/%61dmin/non-remis", body: resendForm, data: false },
    { method: "POST", path: "/admin/non-remis.data", body: resendForm, data: true },
    // « Envoi des e-mails » (issue 32): the sender check and its one action (a test mail to the owner).
    { method: "GET", path: "/admin/envoi", data: false },
    { method: "GET", path: "/admin/envoi.data", data: true },
    { method: "POST", path: "/admin/envoi", body: sendTestForm, data: false },
    { method: "POST", path: "/Admin/Envoi/", body: sendTestForm, data: false },
    { method: "POST", path: "/%61dmin/envoi", body: sendTestForm, data: false },
    { method: "POST", path: "/admin/envoi.data", body: sendTestForm, data: true },
    // Réglages: the site's prices and the owner's details.
    ...["/admin/reglages", "/admin/reglages/", "/Admin/Reglages", "/%61dmin/reglages", "/x/../admin/reglages"].flatMap(
      (path): Door[] => [
        { method: "GET", path, data: false },
        { method: "POST", path, body: pricesForm, data: false },
      ],
    ),
    { method: "GET", path: "/admin/reglages.data", data: true },
    { method: "POST", path: "/admin/reglages.data", body: pricesForm, data: true },
  ];
}

/** Sends `door` with the cookies of `jar` (none when absent) and `headers` over the defaults. */
function knock(door: Door, jar?: CookieJar, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return sendRaw(site.url, door.method, door.path, {
    body: door.body,
    headers: { ...(jar ? { Cookie: jar.header() } : {}), ...headers },
  });
}

/** Fails unless the answer may be neither stored nor indexed. */
function expectPrivate(answer: RawAnswer, what: string) {
  expect(answer.headers["cache-control"], what).toBe("no-store");
  expect(answer.headers["x-robots-tag"], what).toMatch(/\bnoindex\b/);
}

/** Fails unless `answer` is the refusal of a visitor who is not signed in. */
function expectSignedOutRefusal(door: Door, answer: RawAnswer) {
  const what = `${door.method} ${door.path}`;
  if (door.data) {
    expect(answer.status, what).toBe(401);
  } else {
    expect(answer.status, what).toBe(303);
    expect(answer.headers.location, what).toBe(SIGN_IN);
  }
  expect(answer.text, what).not.toContain("Marie Dupont");
  expect(answer.text, what).not.toContain("marie.dupont@example.ch");
  expectPrivate(answer, what);
}

/** The stored state of a request that nothing may change: status, note, history. */
async function requestState(id: number) {
  const [row] = await site.database.db
    .select({ status: contacts.status, note: contacts.note })
    .from(contacts)
    .where(eq(contacts.id, id));
  const history = await site.database.db.select().from(contactEvents).where(eq(contactEvents.contactId, id));
  return { ...row, history: history.length };
}

const untouched = { status: "nouveau", note: "", history: 0 };

/** What the newsletter's, the person's and the mails' doors could change: letters made or sent, mails queued or readdressed, Marie erased, invoices made. */
async function deskState() {
  const letters = await site.database.db.select().from(newsletterLetters);
  const settings = await site.database.db.select().from(siteSettings);
  const mails = await site.database.db.select({ id: outbox.id, recipient: outbox.recipient }).from(outbox);
  const invoiceRows = await site.database.db.select({ id: invoices.id }).from(invoices);
  const marie = await site.database.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(eq(contacts.email, "marie.dupont@example.ch"));
  return {
    letters: letters.length,
    settings: settings.length,
    sent: letters.filter((letter) => letter.sentAt).length,
    mails: mails.length,
    // A correction refused leaves every mail's address as it was.
    recipients: mails.map((mail) => `${mail.id}:${mail.recipient}`).sort(),
    marie: marie.length,
    invoices: invoiceRows.length,
  };
}
let deskBefore: Awaited<ReturnType<typeof deskState>>;

/** The id of the newest stored request. */
async function newestContactId(): Promise<number> {
  const rows = await site.database.db.select({ id: contacts.id }).from(contacts);
  return Math.max(...rows.map((row) => row.id));
}

beforeAll(async () => {
  site = await startTestServer({ INVOICE_IBAN: "CH5604835012345678009" });
  expect((await postContact(site.url, validForm())).status).toBe(200);
  contactId = await newestContactId();
  expect((await postContact(site.url, validForm("jean.muller@example.ch"))).status).toBe(200);
  otherContactId = await newestContactId();

  // Four owners (a TOTP code opens one session per account): each signs in for real.
  const jars = await Promise.all(
    ["valid@example.ch", "expired@example.ch", "deleted@example.ch", "single-factor@example.ch"].map(async (email) =>
      signIn(site.url, await createOwner(site.database.db, email)),
    ),
  );
  [valid, expired, deleted, singleFactor] = jars as [CookieJar, CookieJar, CookieJar, CookieJar];
  // Each session opens the inbox before it is spoilt: the refusals below are not a cookie mistake.
  for (const jar of [valid, expired, deleted, singleFactor]) {
    const inbox = await sendRaw(site.url, "GET", "/admin", { headers: { Cookie: jar.header() } });
    expect(inbox.status).toBe(200);
    expect(inbox.text).toContain("Marie Dupont");
  }
  const [expiredOwner] = await site.database.db
    .select({ id: deskUser.id })
    .from(deskUser)
    .where(eq(deskUser.email, "expired@example.ch"));
  await site.database.db
    .update(deskSession)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(deskSession.userId, expiredOwner!.id));
  await site.database.db.delete(deskUser).where(eq(deskUser.email, "deleted@example.ch"));
  // An account whose second factor is off (an owner half made, or the factor removed): its session opens nothing.
  await site.database.db
    .update(deskUser)
    .set({ twoFactorEnabled: false })
    .where(eq(deskUser.email, "single-factor@example.ch"));
  await site.database.db
    .insert(newsletterSubscribers)
    .values({ email: "lecteur@example.ch", source: "home", consentVersion: "test", status: "confirmed" });
  letterId = await createLetter(site.database.db, { subject: "Brouillon", body: "Bonjour." });
  deskBefore = await deskState();
  expect(deskBefore).toMatchObject({ letters: 1, sent: 0, marie: 1 });
});

afterAll(() => site?.close());

describe("a desk door without a valid session", () => {
  const cases: [string, () => CookieJar | undefined][] = [
    ["without a session", () => undefined],
    ["with an expired session", () => expired],
    ["with the session of a deleted account", () => deleted],
    ["with the session of an account without its second factor", () => singleFactor],
  ];

  it.each(cases)("%s: pages redirect to the sign-in page, data gets 401, nothing changes", async (_name, jar) => {
    for (const door of doors(contactId)) expectSignedOutRefusal(door, await knock(door, jar()));
    expect(await requestState(contactId)).toEqual(untouched);
    expect(await deskState()).toEqual(deskBefore);
    // The refused sign-out changed nothing either: the valid owner's session still opens the inbox.
    expect((await knock({ method: "GET", path: "/admin", data: false }, valid)).status).toBe(200);
  });

  it("a forged session cookie is refused like none", async () => {
    const forged = `bureau.session_token=${"a".repeat(32)}.${"b".repeat(43)}=`;
    for (const door of doors(contactId))
      expectSignedOutRefusal(
        door,
        await sendRaw(site.url, door.method, door.path, {
          body: door.body,
          headers: { Cookie: forged },
        }),
      );
    expect(await requestState(contactId)).toEqual(untouched);
    expect(await deskState()).toEqual(deskBefore);
  });
});

describe("a desk action from another origin, with a valid session", () => {
  const actions = () => doors(contactId).filter((door) => door.method === "POST");

  it.each([
    ["Origin: https://evil.example", { Origin: "https://evil.example" }],
    ["Origin: null", { Origin: "null" }],
    ["no Origin, Sec-Fetch-Site: cross-site", { Origin: "", "Sec-Fetch-Site": "cross-site" }],
  ])("%s: refused (403, or 400 from React Router), nothing changes, the session lives on", async (_name, headers) => {
    for (const door of actions()) {
      const answer = await knock(door, valid, headers);
      // React Router refuses a foreign Origin on a page's action itself (400) before the desk's
      // guard runs; the guard answers 403 where React Router does not look (sign-out, no Origin).
      expect([400, 403], `${door.method} ${door.path}`).toContain(answer.status);
      if (door.path === "/admin/deconnexion" || !headers.Origin)
        expect(answer.status, `${door.method} ${door.path}`).toBe(403);
      expectPrivate(answer, `${door.method} ${door.path}`);
    }
    expect(await requestState(contactId)).toEqual(untouched);
    expect(await deskState()).toEqual(deskBefore);
    const inbox = await knock({ method: "GET", path: "/admin", data: false }, valid);
    expect(inbox.status).toBe(200);
  });

  it("the same action from the site itself changes the status (the doors above are the real ones)", async () => {
    const door: Door = { method: "POST", path: `/admin/demandes/${otherContactId}`, body: statusForm, data: false };
    const answer = await knock(door, valid);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("Statut changé : Terminé.");
    expect(await requestState(otherContactId)).toEqual({ status: "termine", note: "", history: 1 });
    expect(await requestState(contactId)).toEqual(untouched);
  });

  it("Réglages' action from the site itself saves the prices (the doors above are the real ones)", async () => {
    const answer = await knock({ method: "POST", path: "/admin/reglages", body: pricesForm, data: false }, valid);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("/admin/reglages?enregistre=prices#prices");
    const rows = await site.database.db.select().from(siteSettings);
    expect(rows.map((row) => [row.section, row.value])).toEqual([
      ["prices", { "small-group": 1, "one-to-one-course": 1, "one-to-one-support": 1 }],
    ]);
  });
});

describe("the desk is kept out of caches and search engines", () => {
  it("every desk answer, signed in or not, is no-store and noindex", async () => {
    const signedIn = [
      { method: "GET", path: "/admin", data: false },
      { method: "GET", path: "/admin.data", data: true },
      { method: "GET", path: `/admin/demandes/${otherContactId}`, data: false },
      { method: "GET", path: `/admin/demandes/${otherContactId}.data`, data: true },
      { method: "GET", path: "/admin/demandes/999999", data: false },
      { method: "GET", path: SIGN_IN, data: false },
    ] satisfies Door[];
    for (const door of signedIn) {
      const answer = await knock(door, valid);
      expect([200, 302, 404], `${door.method} ${door.path}`).toContain(answer.status);
      expectPrivate(answer, `${door.method} ${door.path} signed in`);
    }
    const signInPage = await knock({ method: "GET", path: SIGN_IN, data: false });
    expect(signInPage.status).toBe(200);
    expectPrivate(signInPage, "sign-in page");
    expect(signInPage.text).toMatch(/<meta name="robots" content="noindex"/);
    const inbox = await knock({ method: "GET", path: "/admin", data: false }, valid);
    expect(inbox.text).toMatch(/<meta name="robots" content="noindex"/);
    const refusedSignIn = await sendRaw(site.url, "POST", SIGN_IN, {
      body: new URLSearchParams({ step: "password", email: "x@example.ch", password: "wrong", website: "" }).toString(),
      headers: { "X-Forwarded-For": "198.51.100.77" },
    });
    expect(refusedSignIn.status).toBe(401);
    expectPrivate(refusedSignIn, "refused sign-in");
  });

  it("robots.txt disallows /admin and the sitemap lists no desk page", async () => {
    const robots = await (await fetch(`${site.url}/robots.txt`)).text();
    expect(robots.split("\n")).toContain("Disallow: /admin");
    const sitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
    expect(sitemap).toContain("<loc>");
    expect(sitemap).not.toMatch(/\/admin/i);
  });
});
