/**
 * Issue 33's small findings, against the site in this process: each case
 * is what a visitor or the owner met, and what they should meet instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, zurichToUtc } from "../../app/courses/sessions.server";
import { BOOKING_MAIL } from "../../app/courses/mails.server";
import { enqueueMail } from "../../app/mail/enqueue.server";
import { COURSE_YEAR } from "../support/course-year";
import {
  createOwner,
  deskFetch,
  pageText,
  sendRaw,
  sessionFields,
  signIn,
  startTestServer,
  type CookieJar,
  type TestOwner,
} from "../support/harness";

let site: Awaited<ReturnType<typeof startTestServer>>;
let jar: CookieJar;
let owner: TestOwner;

beforeAll(async () => {
  site = await startTestServer({});
  owner = await createOwner(site.database.db);
  jar = await signIn(site.url, owner);
});
afterAll(() => site.close());

describe("odd requests", () => {
  it("answers an absolute-form request line (GET http://host/x) with the page or 400, never 500", async () => {
    const { host } = new URL(site.url);
    for (const target of [`${site.url}/`, `${site.url}/cours?x=1`, `http://${host}/contact`]) {
      const answer = await sendRaw(site.url, "GET", target);
      expect(answer.status, target).toBe(200);
    }
    for (const target of ["http://elsewhere.example/", "ftp://x/"]) {
      const answer = await sendRaw(site.url, "GET", target);
      expect(answer.status, target).toBe(400);
      expect(answer.text).toBe("Requête invalide.");
    }
  });

  it("answers the desk's search with a NUL in it (/admin?q=%00) with the page, not 500", async () => {
    for (const query of ["%00", "a%00b", "%00%00"]) {
      const answer = await deskFetch(site.url, `/admin?q=${query}`, { jar });
      expect(answer.status, query).toBe(200);
    }
  });
});

describe("the owner's recovery codes", () => {
  it("hold no letter read for another on paper (0/O/o, 1/l/I/i), and each one signs in", async () => {
    expect(owner.recoveryCodes).toHaveLength(10);
    for (const code of owner.recoveryCodes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$/);
    expect(new Set(owner.recoveryCodes).size).toBe(10);
    const withCode = await signIn(site.url, owner, owner.recoveryCodes[3]);
    expect(withCode.header()).not.toBe("");
  });
});

/** POSTs a registration for the security course as a browser without JavaScript; resolves with its page's path. */
async function register(form: Record<string, string>): Promise<string> {
  const answer = await fetch(`${site.url}/cours/securite`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
    body: new URLSearchParams({ seats: "1", website: "", ...form }).toString(),
  });
  expect(answer.status).toBe(303);
  return answer.headers.get("location")!;
}

describe("a registration's page", () => {
  it("made by a relative: says who received the mail and to pass the code word on", async () => {
    const sessionId = await createSession(
      site.database.db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-02-02`, "14:00") }),
    );
    const link = await register({
      sessionId: String(sessionId),
      firstName: "Odette",
      lastName: "Rochat",
      phone: "079 100 00 01",
      email: "odette@example.ch",
      bookerFirstName: "Luc",
      bookerLastName: "Rochat",
      bookerPhone: "021 123 45 67",
      bookerEmail: "luc@example.ch",
    });
    const text = pageText(await (await fetch(`${site.url}${link}`)).text());
    expect(text).toContain("Luc Rochat a inscrit Odette Rochat.");
    expect(text).toContain(
      "La confirmation est partie par e-mail à luc@example.ch (Luc Rochat) et à odette@example.ch (Odette Rochat).",
    );
    expect(text).toContain("Transmettez ce mot de code à Odette : c’est à Odette que je le dirai en appelant.");
    const asking = pageText(await (await fetch(`${site.url}${link}?annuler`)).text());
    expect(asking).toContain("Voulez-vous vraiment annuler l’inscription d’Odette Rochat");
  });

  it("on the waiting list: never says « votre place ira à une autre personne »", async () => {
    const sessionId = await createSession(
      site.database.db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-02-03`, "14:00"), capacity: 1, minimum: 1 }),
    );
    const person = (n: number) => ({
      sessionId: String(sessionId),
      firstName: "Marie",
      lastName: `Favre ${n}`,
      phone: `079 200 00 0${n}`,
      email: `marie${n}@example.ch`,
    });
    await register(person(1));
    const link = await register(person(2));
    for (const path of [link, `${link}?annuler`]) {
      const text = pageText(await (await fetch(`${site.url}${path}`)).text());
      expect(text).toContain("liste d’attente");
      expect(text, path).not.toContain("place ira à une autre personne");
    }
    const self = pageText(await (await fetch(`${site.url}${link}`)).text());
    expect(self).not.toContain("a inscrit");
  });
});

describe("a person's history in the desk", () => {
  it("names every kind of course mail in French, never by its code (« booking-date-moved »)", async () => {
    for (const kind of Object.values(BOOKING_MAIL))
      await enqueueMail(site.database.db, {
        kind,
        recipient: kind.startsWith("booking-owner") ? null : "josiane@example.ch",
        people: [{ name: "Josiane Morel", email: "josiane@example.ch", phone: null }],
        subject: "Un cours",
        text: "…",
      });
    const html = await (await deskFetch(site.url, "/admin/personne?email=josiane%40example.ch", { jar })).text();
    expect(pageText(html)).toContain("Changement de date d’une séance de cours");
    expect(pageText(html)).not.toMatch(/booking-|Autre e-mail/);
  });
});

describe("a date still to come, in the desk", () => {
  it("after a cancellation with people waiting: « 1 place libre pour la liste d’attente », not « Complète · 1 / 2 »", async () => {
    const sessionId = await createSession(
      site.database.db,
      sessionFields({ startsAt: zurichToUtc(`${COURSE_YEAR}-02-04`, "14:00"), capacity: 2, minimum: 1 }),
    );
    const person = (n: number, message = "") => ({
      sessionId: String(sessionId),
      firstName: "Paul",
      lastName: `Girard ${n}`,
      phone: `079 300 00 0${n}`,
      email: `paul${n}@example.ch`,
      message,
    });
    const first = await register(person(1));
    await register(person(2, "Je marche avec une canne."));
    await register(person(3));
    const cancelled = await fetch(`${site.url}${first}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
      body: "intent=cancel&website=",
    });
    expect(cancelled.status).toBe(200);
    for (const path of ["/admin/cours", `/admin/cours/${sessionId}`]) {
      const text = pageText(await (await deskFetch(site.url, path, { jar })).text());
      expect(text, path).toContain("1 place libre pour la liste d’attente");
      expect(text, path).not.toMatch(/Complète · 1 \/ 2/);
    }
    // The attendance list of a date to come: who comes and their message, nothing to tick.
    const list = await (await deskFetch(site.url, `/admin/cours/${sessionId}/presences`, { jar })).text();
    expect(pageText(list)).toContain("« Je marche avec une canne. »");
    expect(pageText(list)).toContain("Cette séance n’a pas encore eu lieu : les présences se cochent le jour même.");
    expect(list).not.toContain('type="radio"');
  });
});
