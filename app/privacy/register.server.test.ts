/**
 * The register of processing activities (LPD art. 12) covers the person
 * registry: every table that holds a visitor's data names its processing,
 * and a table added without one stops the registry from being made; the
 * CSV lists every processing with its tables. The privacy notice (LPD art.
 * 19) and the register cannot disagree: the notice lists every processing
 * of the register with its purpose and retention, written with the same
 * periods of Réglages as its own prose.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { legalPagesOf, legalSettings } from "~/content/legal";
import { lowerFirst } from "~/content/privacy-notice";
import { contacts } from "~/db/schema";
import { personRegistry, processingsOf, tableKey } from "~/desk/person-registry.server";
import type { PersonTable } from "~/desk/person-types";
import { FEATURES, PERSON_TABLES, PROCESSINGS, TABLES_WITHOUT_PERSONAL_DATA } from "~/features.server";
import { identity } from "~/content/identity";
import { defaultSettings } from "~/settings/site.server";
import { noticeSummary, registerCsv, registerOf } from "./register.server";

/** Réglages with periods no default has, so that a number found in a text came from them. */
const legal = { ...legalSettings, retentionMonths: 17, sentNotificationDays: 23, logRetentionDays: 11 };
const settings = { ...defaultSettings(), legal };

/** A page's words as one text, typographic spaces made plain. */
const textOf = (value: unknown) =>
  JSON.stringify(value)
    .replace(/[\u00a0\u202f\u2009]/g, " ")
    .replace(/\u2060/g, "");

describe("the register of processings", () => {
  it("gives every table of the person registry a processing, and the other tables it names exist", () => {
    const inRegister = PROCESSINGS.flatMap((entry) => entry.tables);
    for (const entry of PERSON_TABLES) expect(inRegister, tableKey(entry)).toContain(tableKey(entry));
    for (const table of inRegister.filter((name) => !PERSON_TABLES.some((entry) => tableKey(entry) === name)))
      expect(Object.keys(TABLES_WITHOUT_PERSONAL_DATA), table).toContain(table);
    expect(PROCESSINGS.map((entry) => entry.processing.key)).toEqual([
      "contact-requests",
      "newsletter",
      "course-registrations",
      "invoices",
      "quotes",
      "postal-letters",
      "mails",
      "breach-log",
      "server-log",
    ]);
    expect(PROCESSINGS.find((entry) => entry.processing.key === "breach-log")!.tables).toEqual(["data_breaches"]);
  });

  it("cannot be made when a table of the registry has no processing", () => {
    const contactsEntry = PERSON_TABLES.find((entry) => entry.table === contacts)!;
    const without = { ...contactsEntry, processing: undefined } as unknown as PersonTable;
    expect(() => processingsOf([without], [])).toThrow("table contacts has no processing entry for the register");
    // The same through the registry the features make: a plug that adds such a table stops it.
    const plugs = FEATURES.flatMap((feature) => (feature.person ? [feature.person] : []));
    expect(() => personRegistry(plugs, {})).not.toThrow();
    expect(() => personRegistry([{ tables: [without] }], {})).toThrow(/has no processing entry/);
  });

  it("writes each processing's recipients, countries and retention from Réglages, and a CSV line for each", () => {
    const abroad = { ...legal, mailProvider: { ...legal.mailProvider, name: "Courrier GmbH", country: "Allemagne" } };
    const { controller, rows } = registerOf(PROCESSINGS, { identity: settings.identity, legal: abroad });
    expect(controller.businessName).toBe(settings.identity.businessName);
    const contactRow = rows.find((row) => row.key === "contact-requests")!;
    expect(contactRow.retention).toMatch(/^17 mois après le dernier échange/);
    expect(contactRow.recipients).toEqual([
      `Hébergeur du site et de sa base de données : ${legal.hosting.name} (${legal.hosting.country})`,
      "Fournisseur e-mail (envoi des messages) : Courrier GmbH (Allemagne)",
    ]);
    expect(contactRow.countries).toEqual(["Suisse", "Allemagne"]);
    expect(contactRow.safeguards.at(-1)).toContain("art. 16 LPD");
    const breachRow = rows.find((row) => row.key === "breach-log")!;
    expect(breachRow.countries).toEqual(["Suisse"]);
    expect(breachRow.retention).toContain("ne l’efface jamais");

    const lines = parse(registerCsv(rows).replace(/^\uFEFF/, ""), { delimiter: ";", columns: true }) as Record<
      string,
      string
    >[];
    expect(lines.map((line) => line["Traitement"])).toEqual(rows.map((row) => row.title));
    const tablesInCsv = lines.flatMap((line) => line["Tables de la base"]!.split(" ; "));
    for (const entry of PERSON_TABLES) expect(tablesInCsv).toContain(tableKey(entry));
    expect(lines[0]!["Conservation"]).toBe(contactRow.retention);
  });
});

describe("the privacy notice and the register", () => {
  const { privacyNotice } = legalPagesOf(identity.name, legal, noticeSummary(PROCESSINGS, legal));
  const notice = textOf(privacyNotice);
  const { rows } = registerOf(PROCESSINGS, settings);

  it("list every processing of the register with its purpose and retention", () => {
    const summary = privacyNotice.sections.find((section) => section.id === "traitements");
    expect(summary).toBeDefined();
    for (const row of rows) {
      expect(textOf(summary), row.key).toContain(row.title);
      expect(textOf(summary), row.key).toContain(`${row.title} : ${lowerFirst(row.purpose)}.`);
      expect(textOf(summary), row.key).toContain(`Conservation : ${lowerFirst(row.retention)}.`);
    }
  });

  it("state the same periods of Réglages in the notice's own words and in the register", () => {
    const retention = (key: string) => rows.find((row) => row.key === key)!.retention;
    expect(notice).toContain("pendant 17 mois après notre dernier échange");
    expect(retention("contact-requests")).toContain("17 mois après le dernier échange");
    expect(notice).toContain("Je garde une inscription à un cours pendant 17 mois après la date du cours");
    expect(retention("course-registrations")).toContain("17 mois après la date du cours");
    expect(notice).toContain("23 jours après l’envoi");
    expect(retention("mails")).toContain("23 jours après l’envoi");
    expect(notice).toContain("Ce journal est effacé après 11 jours");
    expect(retention("server-log")).toContain("effacé après 11 jours");
    expect(notice).toContain("pendant dix ans");
    expect(retention("invoices")).toContain("10 ans");
    expect(retention("quotes")).toContain("17 mois après sa date de validité");
  });
});
