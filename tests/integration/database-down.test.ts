/**
 * Issue 33, item 10: the database down. Every public page and action that
 * needs it answers 503 with `Retry-After` and the site's French page, in the
 * site's frame, with the telephone of the last settings read (never React
 * Router's « Unexpected Application Error! », never « Ce lien n’est plus
 * valable » for a link that may be fine), on every spelling (`.data` too);
 * a form posted meanwhile comes back with what was typed; the log says when
 * the outage starts and when it ends, with the count of requests refused,
 * not a line per request. On PGlite (the site's database client closed) and
 * on PostgreSQL (the server stopped, then started again).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { createSession } from "../../app/courses/sessions.server";
import { encodedContactChannels } from "../../app/contact/channels.server";
import { saveSettingsSection } from "../../app/settings/site.server";
import { storedSchemas } from "../../app/settings/schema";
import { unavailableWords } from "../../app/utils/unavailable";
import { ownerIdentity } from "../fixtures/owner-settings";
import {
  bookingForm,
  pageText,
  postgresBinaries,
  sessionFields,
  startPostgres,
  startTestServer,
  waitFor,
} from "../support/harness";

/** A link's token of the right shape (43 base64url characters): only the database can tell whether it is valid. */
const SOME_TOKEN = "JetonDuLienPeutEtreBon1234567890abcdefghijK";

const identity = storedSchemas.identity.parse(ownerIdentity);
/** The owner's telephone as the pages carry it (decision 001), from the settings saved before the outage. */
const CHANNELS = encodedContactChannels(identity);

const backends = ["pglite", ...(postgresBinaries() || process.env.CI ? ["postgres"] : [])];

/** What the visitor typed in the booking form (the relative's fields and the message included). */
const TYPED = {
  firstName: "Odette",
  lastName: "Baumgartner",
  phone: "079 555 98 76",
  email: "odette.baumgartner@example.ch",
  seats: "2",
  bookerFirstName: "Claire",
  bookerLastName: "Baumgartner",
  bookerPhone: "078 444 33 22",
  bookerEmail: "claire.b@example.ch",
  message: "Je marche avec une canne",
};

function post(url: string, body: URLSearchParams | Record<string, string>) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(url).origin },
    body: new URLSearchParams(body).toString(),
  });
}

/** The `<input>` tag named `name` (with `value`, for a radio or a checkbox), whatever the order of its attributes. */
function inputTag(html: string, name: string, value?: string): string | undefined {
  return [...html.matchAll(/<input\b[^>]*>/g)]
    .map((match) => match[0])
    .find((tag) => tag.includes(`name="${name}"`) && (value === undefined || tag.includes(`value="${value}"`)));
}

/** The messages of the JSON log lines that are not the one access line of each request. */
const otherLines = (lines: string[]) =>
  lines
    .map((line) => JSON.parse(line) as { msg: string })
    .map((line) => line.msg)
    .filter((msg) => msg !== "request completed" && msg !== "request errored" && !msg.startsWith("render cache"));

describe.each(backends)("the database down, on %s", (backend) => {
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  let site: Awaited<ReturnType<typeof startTestServer>>;
  const lines: string[] = [];
  let sessionId = 0;
  let registrationPath = "";
  let stopped = false;

  beforeAll(async () => {
    if (backend === "postgres") postgres = await startPostgres({ own: true });
    site = await startTestServer(
      { DATABASE_URL: postgres?.url, LOG_LEVEL: "info" },
      pino({ level: "info" }, { write: (line: string) => void lines.push(line) }),
      { database: "embedded" },
    );
    sessionId = await createSession(site.database.db, sessionFields());
    await saveSettingsSection(site.database.db, "identity", identity);
    // A registration whose link is fine: during the outage its page must not say otherwise.
    const booked = await post(`${site.url}/cours/securite`, bookingForm(sessionId, 1));
    expect(booked.status).toBe(303);
    registrationPath = booked.headers.get("location")!;
    // A page read: the settings of this read are the last ones known when the database stops.
    expect((await fetch(`${site.url}/cours`)).status).toBe(200);
    lines.length = 0;
    if (postgres) postgres.stop();
    else await site.database.close();
    stopped = true;
  }, 120_000);

  afterAll(async () => {
    if (postgres && stopped) postgres.start();
    await site?.close().catch(() => {});
    postgres?.destroy();
  });

  /** What every answer of the outage carries: 503, `Retry-After`, the owner's telephone. */
  async function expectRefused(response: Response, what: string): Promise<string> {
    const body = await response.text();
    expect(response.status, what).toBe(503);
    expect(Number(response.headers.get("retry-after")), what).toBeGreaterThan(0);
    expect(body, what).not.toContain("Unexpected");
    expect(body, `${what}: the telephone of the last settings read`).toContain(CHANNELS);
    return body;
  }

  /** A page: in the site's frame, the French words, the telephone one tap away. */
  async function expectUnavailablePage(response: Response, what: string): Promise<string> {
    const html = await expectRefused(response, what);
    const text = pageText(html);
    expect(text, what).toContain(unavailableWords.title);
    expect(text, what).toContain("Veuillez réessayer dans quelques minutes, ou appelez-moi.");
    expect(text, what).toContain("Afficher le numéro");
    // The site's frame: its header and footer.
    expect(html, what).toContain("<header");
    expect(html, what).toContain("<footer");
    expect(text, what).not.toContain("plus valable");
    return html;
  }

  const PAGES = () => [
    "/cours",
    "/cours/securite",
    "/newsletter",
    "/blog",
    "/blog/reconnaitre-email-frauduleux",
    "/newsletter/archives",
    registrationPath,
    `/newsletter/confirmer/${SOME_TOKEN}`,
    `/newsletter/desabonnement/${SOME_TOKEN}`,
  ];

  it("answers every page that needs it with the French 503 page and the telephone, on every spelling", async () => {
    for (const path of PAGES()) {
      await expectUnavailablePage(await fetch(`${site.url}${path}`), path);
      await expectUnavailablePage(await fetch(`${site.url}${path}/`), `${path}/`);
      // The single-fetch spelling: 503, Retry-After and the root's data (the telephone); the words are the app's.
      const dataAnswer = await fetch(`${site.url}${path}.data`);
      await expectRefused(dataAnswer, `${path}.data`);
    }
    // The home page keeps answering, its cards without dates (as before).
    expect((await fetch(`${site.url}/`)).status).toBe(200);
  });

  it("keeps everything typed in a booking posted during the outage, and says to retry or call", async () => {
    const form = { sessionId: String(sessionId), ...TYPED, website: "" };
    const html = await expectRefused(await post(`${site.url}/cours/securite`, form), "booking");
    const text = pageText(html);
    expect(text).toContain(unavailableWords.form);
    expect(text).toContain(unavailableWords.title);
    for (const [name, value] of Object.entries(TYPED)) {
      if (name === "message") expect(html).toMatch(new RegExp(`<textarea[^>]*name="message"[^>]*>${value}</textarea>`));
      else if (name === "seats") expect(inputTag(html, "seats", "2")).toContain("checked");
      else expect(inputTag(html, name), name).toContain(`value="${value}"`);
    }
    // The date chosen goes back with the form when it is sent again.
    expect(html).toContain(`name="sessionId" value="${sessionId}"`);
    // The same post by the page's JavaScript.
    const dataAnswer = await post(`${site.url}/cours/securite.data`, form);
    expect(dataAnswer.status).toBe(503);
    expect(Number(dataAnswer.headers.get("retry-after"))).toBeGreaterThan(0);
    const stream = await dataAnswer.text();
    for (const value of [TYPED.lastName, TYPED.bookerPhone, TYPED.message, unavailableWords.form])
      expect(stream).toContain(value);
  });

  it("keeps the address typed in the newsletter box and the callback form's fields", async () => {
    const newsletter = await post(`${site.url}/newsletter`, {
      email: "odette.baumgartner@example.ch",
      source: "newsletter",
      website: "",
    });
    const html = await expectUnavailablePage(newsletter, "newsletter");
    expect(html).toContain('value="odette.baumgartner@example.ch"');
    expect(pageText(html)).toContain(unavailableWords.form);

    const body = new URLSearchParams({
      firstName: "Odette",
      lastName: "Baumgartner",
      phone: "079 555 98 76",
      message: "Mon téléphone ne sonne plus",
      website: "",
    });
    body.append("halfDays", "mardi-matin");
    const callback = await post(`${site.url}/rappel`, body);
    const callbackHtml = await expectRefused(callback, "callback");
    expect(pageText(callbackHtml)).toContain(unavailableWords.form);
    for (const value of ["Odette", "Baumgartner", "079 555 98 76"]) expect(callbackHtml).toContain(`value="${value}"`);
    expect(callbackHtml).toContain("Mon téléphone ne sonne plus</textarea>");
    expect(inputTag(callbackHtml, "halfDays", "mardi-matin")).toContain("checked");
  });

  it("answers the mail links' buttons with the French 503 page, never « lien plus valable »", async () => {
    for (const path of [
      `/newsletter/confirmer/${SOME_TOKEN}`,
      `/newsletter/desabonnement/${SOME_TOKEN}`,
      registrationPath,
    ]) {
      await expectUnavailablePage(await post(`${site.url}${path}`, { intent: "cancel", website: "" }), `POST ${path}`);
    }
  });

  it("logs one line when the outage starts and, on PostgreSQL, one when it ends with the count refused", async () => {
    expect(otherLines(lines)).toEqual([
      "database: not answering; pages and forms that need it answer 503 until it is back",
    ]);
    const refused = lines.filter((line) => JSON.parse(line).res?.statusCode === 503).length;
    // Every request of the tests above but the home page: each page on three spellings, 2 bookings,
    // the newsletter box, the callback form and the 3 links' buttons.
    expect(refused).toBe(PAGES().length * 3 + 7);
    if (!postgres) return;
    postgres.start();
    stopped = false;
    await waitFor(async () => (await fetch(`${site.url}/cours`)).status === 200, 20_000, "the pages back");
    const ended = lines.map((line) => JSON.parse(line)).filter((line) => line.msg.startsWith("database: answering"));
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ level: 40, refused });
    expect(ended[0].msg).toBe(`database: answering again; ${refused} request(s) refused with 503 meanwhile`);
  });
});
