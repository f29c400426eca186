import { describe, expect, it } from "vitest";
import { buildContactMail } from "./notification.server";
import { backoffMilliseconds } from "./outbox.server";

const payload = {
  contactId: 7,
  consentTimestamp: "2026-11-22T10:30:00.000Z",
  firstName: "Marie\r\nBcc: victim@example.com",
  lastName: "<b>Dupont</b>",
  email: "marie@example.ch",
  phone: "+41 21 123 45 67",
  service: "small-group" as const,
  message: "Ligne 1\nLigne 2 <script>",
  newsletterConsent: false,
};

describe("buildContactMail", () => {
  const mail = buildContactMail(payload, { from: "site@example.ch", to: "owner@example.ch" });

  it("keeps the subject and the Reply-To name on one line, whatever a field holds", () => {
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.replyTo.name).not.toMatch(/[\r\n]/);
    expect(mail.replyTo.address).toBe("marie@example.ch");
  });

  it("escapes the fields in the HTML part and keeps every field in the text part", () => {
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;b&gt;Dupont&lt;/b&gt;");
    expect(mail.html).toContain("Ligne 1<br>Ligne 2");
    for (const value of [
      "+41 21 123 45 67",
      "Cours en petit groupe",
      "Ligne 2",
      "marie@example.ch",
      "N° de la demande : 7",
      "non",
    ])
      expect(mail.text).toContain(value);
  });
});

describe("backoffMilliseconds", () => {
  it("starts at a minute, doubles, and stops at an hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempts) => backoffMilliseconds(attempts) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60,
    ]);
  });
});
