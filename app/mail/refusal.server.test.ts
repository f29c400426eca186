import { describe, expect, it } from "vitest";
import { refusalOf, refusalReason } from "./refusal.server";

/** An error as nodemailer throws it. */
const smtpError = (fields: Record<string, unknown>) => Object.assign(new Error("refused"), fields);

describe("refusalOf", () => {
  it.each([
    ["550 at RCPT TO (no such user)", { code: "EENVELOPE", responseCode: 550, command: "RCPT TO" }, true, "recipient"],
    ["554 at DATA (message refused)", { code: "EMESSAGE", responseCode: 554, command: "DATA" }, true, "message"],
    [
      "a rejected recipient whose code is only in rejectedErrors",
      { code: "EENVELOPE", command: "RCPT TO", rejectedErrors: [{ responseCode: 553 }] },
      true,
      "recipient",
    ],
    ["451 at RCPT TO (greylisting)", { code: "EENVELOPE", responseCode: 451, command: "RCPT TO" }, false, "recipient"],
    ["452 at DATA", { code: "EMESSAGE", responseCode: 452, command: "DATA" }, false, "message"],
    ["a connection refused", { code: "ESOCKET", command: "CONN", errno: -111 }, false, "connection"],
    ["a timeout", { code: "ETIMEDOUT", command: "CONN" }, false, "connection"],
    [
      "535 at AUTH (the site's own login)",
      { code: "EAUTH", responseCode: 535, command: "AUTH PLAIN" },
      false,
      "sender",
    ],
    ["550 at MAIL FROM (the site's sender)", { responseCode: 550, command: "MAIL FROM" }, false, "sender"],
  ])("%s", (_name, fields, permanent, stage) => {
    expect(refusalOf(smtpError(fields))).toMatchObject({ permanent, stage });
  });

  it("takes anything thrown, without a code", () => {
    expect(refusalOf("boom")).toEqual({ permanent: false, stage: "other", code: null });
    expect(refusalOf(new Error("CONTACT_NOTIFY_TO is not set"))).toEqual({
      permanent: false,
      stage: "other",
      code: null,
    });
  });
});

describe("refusalReason", () => {
  it("says it in plain French, with the code", () => {
    expect(refusalReason("recipient", 550)).toBe("L’adresse n’existe pas chez son fournisseur (550)");
    expect(refusalReason("message", 554)).toBe("Le fournisseur a refusé le message (554)");
    expect(refusalReason("recipient", 552)).toBe("La boîte de réception de cette personne est pleine (552)");
    expect(refusalReason("connection", null)).toBe("Le serveur d’envoi du site ne répondait pas");
    expect(refusalReason(null, null)).toBe("L’envoi a échoué");
  });

  it("says what the provider reported later: a bounce with its cause, a complaint", () => {
    expect(refusalReason("bounce", 550)).toBe("Le fournisseur a renvoyé le message : adresse inexistante (550)");
    expect(refusalReason("bounce", 552)).toBe("Le fournisseur a renvoyé le message : boîte de réception pleine (552)");
    expect(refusalReason("bounce", 554)).toBe("Le fournisseur a renvoyé le message : message refusé (554)");
    expect(refusalReason("bounce", null)).toBe("Le fournisseur a renvoyé le message");
    expect(refusalReason("complaint", null)).toBe("La personne a signalé ce message comme indésirable");
  });
});
