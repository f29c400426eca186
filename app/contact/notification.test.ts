import { describe, expect, it } from "vitest";
import { addressParser } from "postal-mime";
import { buildContactMail } from "./notification.server";

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
  const mail = buildContactMail(payload);

  it("keeps the subject and the Reply-To on one line, whatever a field holds, and replies to the visitor by name", () => {
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.replyTo).not.toMatch(/[\r\n]/);
    expect(addressParser(mail.replyTo)).toEqual([
      { name: "Marie Bcc: victim@example.com <b>Dupont</b>", address: "marie@example.ch" },
    ]);
  });

  it("gives a name with quotes and backslashes to the Reply-To intact", () => {
    const quoted = buildContactMail({ ...payload, firstName: 'Jean "Jeannot"', lastName: "D\\Ours" });
    expect(addressParser(quoted.replyTo)).toEqual([{ name: 'Jean "Jeannot" D\\Ours', address: "marie@example.ch" }]);
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
