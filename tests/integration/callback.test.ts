/**
 * Callback requests (`/rappel`, issue 23 item 1) and code words (item 2),
 * against the production server on PGlite with smtp-server as the SMTP peer:
 * a request with a telephone and no e-mail is stored as its own kind, the
 * owner is notified with the half-days and the code word, the answer shows
 * that code word; wrong input gets the French messages beside the fields;
 * a contact request gets a code word too, in its answer, its row and its mail.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackMessages } from "../../app/callback/words";
import { contactMessages } from "../../app/contact/messages";
import { CODE_ADJECTIVES, CODE_NOUNS } from "../../app/trust/code-words";
import { contacts, outbox } from "../../app/db/schema";
import { postContact, startSmtp, startTestServer, validForm, waitFor } from "../support/harness";

/** A valid callback request as a browser without JavaScript posts it (the half-days repeated). */
function callbackBody(fields: Record<string, string | string[]> = {}): string {
  const all: Record<string, string | string[]> = {
    firstName: "Jeanne",
    lastName: "Rochat",
    phone: "079 123 45 67",
    halfDays: ["mardi-matin", "jeudi-apres-midi"],
    message: "Mon téléphone ne sonne plus.",
    website: "",
    ...fields,
  };
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(all)) for (const one of [value].flat()) params.append(name, one);
  return params.toString();
}

const postCallback = async (url: string, body: string) => {
  const response = await fetch(`${url}/rappel`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  return { status: response.status, text: await response.text() };
};

/** The code word the page shows, between « and » (no-break spaces inside). */
const shownCodeWord = (html: string) => /data-testid="code-word">«\u00a0([^<]+?)\u00a0»/.exec(html)?.[1];

const isCodeWord = (word: string | null | undefined) => {
  const [noun, adjective, ...rest] = (word ?? "").split(" ");
  return (
    rest.length === 0 &&
    (CODE_NOUNS as readonly string[]).includes(noun!) &&
    (CODE_ADJECTIVES as readonly string[]).includes(adjective!)
  );
};

describe("callback requests", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let site: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    site = await startTestServer({ SMTP_URL: smtp.url, SITE_URL: "https://www.formation.example" });
  });
  afterAll(async () => {
    await site?.close();
    await smtp?.close();
  });

  it("stores a request with a telephone and no e-mail, notifies the owner, and shows the code word", async () => {
    const answer = await postCallback(site.url, callbackBody());
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(callbackMessages.successTitle);
    expect(answer.text).toContain("dans les deux jours ouvrables");
    const codeWord = shownCodeWord(answer.text);
    expect(isCodeWord(codeWord), String(codeWord)).toBe(true);
    expect(answer.text).toContain('href="/confiance"');

    const rows = await site.database.db.select().from(contacts).where(eq(contacts.kind, "rappel"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "rappel",
      firstName: "Jeanne",
      lastName: "Rochat",
      email: null,
      service: null,
      phone: "079 123 45 67",
      phoneE164: "+41791234567",
      halfDays: ["mardi-matin", "jeudi-apres-midi"],
      codeWord,
      status: "nouveau",
    });

    await waitFor(() => smtp.mails.some((mail) => mail.subject.startsWith("Demande de rappel")), 10_000, "the mail");
    const mail = smtp.mails.find((received) => received.subject.startsWith("Demande de rappel"))!;
    expect(mail.to).toBe("owner@example.ch");
    expect(mail.replyTo).toBeFalsy();
    expect(mail.subject).toBe("Demande de rappel : Jeanne Rochat, 079 123 45 67");
    for (const value of ["Mardi matin, Jeudi après-midi", `« ${codeWord} »`, "Mon téléphone ne sonne plus."])
      expect(mail.text).toContain(value);
    expect(mail.text).toContain(`https://www.formation.example/admin/demandes/${rows[0]!.id}`);
    const [queued] = await site.database.db.select().from(outbox).where(eq(outbox.contactId, rows[0]!.id));
    expect(queued!.kind).toBe("callback-notification");
  });

  it("answers wrong input with the French messages beside the fields, values kept, and stores nothing", async () => {
    const before = (await site.database.db.select().from(contacts)).length;
    const answer = await postCallback(
      site.url,
      callbackBody({ halfDays: [], phone: "12", firstName: "J", message: "Bonjour" }),
    );
    expect(answer.status).toBe(400);
    for (const message of [callbackMessages.halfDays, contactMessages.phone, contactMessages.firstName])
      expect(answer.text).toContain(message);
    expect(answer.text).toContain("Bonjour</textarea>");
    // A half-day that is not in the list, and the list sent twice over: refused too.
    const tampered = await postCallback(site.url, callbackBody({ halfDays: ["dimanche-soir"] }));
    expect(tampered.status).toBe(400);
    expect(tampered.text).toContain(callbackMessages.halfDays);
    expect((await site.database.db.select().from(contacts)).length).toBe(before);
  });

  it("keeps the ticked half-days when it answers an error without JavaScript", async () => {
    const answer = await postCallback(site.url, callbackBody({ lastName: "" }));
    expect(answer.status).toBe(400);
    const box = (value: string) => new RegExp(`<input[^>]*value="${value}"[^>]*>`).exec(answer.text)?.[0] ?? "";
    expect(box("mardi-matin")).toContain('checked=""');
    expect(box("jeudi-apres-midi")).toContain('checked=""');
    expect(box("lundi-matin")).not.toContain("checked");
  });

  it("answers a filled honeypot like a success, with a code word, and stores nothing", async () => {
    const before = (await site.database.db.select().from(contacts)).length;
    const answer = await postCallback(site.url, callbackBody({ website: "https://spam.example" }));
    expect(answer.status).toBe(200);
    expect(isCodeWord(shownCodeWord(answer.text))).toBe(true);
    expect((await site.database.db.select().from(contacts)).length).toBe(before);
  });

  it("gives a contact request a code word: in the answer, on its row and in the owner's mail", async () => {
    const answer = await postContact(site.url, validForm("code.word@example.ch"));
    expect(answer.status).toBe(200);
    const codeWord = shownCodeWord(answer.body);
    expect(isCodeWord(codeWord), String(codeWord)).toBe(true);
    const [row] = await site.database.db.select().from(contacts).where(eq(contacts.email, "code.word@example.ch"));
    expect(row).toMatchObject({ kind: "contact", codeWord });
    await waitFor(() => smtp.mails.some((mail) => mail.replyTo === "code.word@example.ch"), 10_000, "the mail");
    const mail = smtp.mails.find((received) => received.replyTo === "code.word@example.ch")!;
    expect(mail.text).toContain(`Mot de code : « ${codeWord} »`);
  });
});
