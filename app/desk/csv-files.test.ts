/**
 * The desk's CSV files all come from one writer (app/desk/csv.server.ts):
 * `;`, BOM, CRLF, Swiss times, formulas escaped; a payment reference reads
 * as text in a spreadsheet (27 bare digits would be read as a number and
 * lose their last digits: LibreOffice measured in decision 031).
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { RegistrationRow } from "~/courses/registrants.server";
import { registrantsCsv } from "~/courses/desk.server";
import type { Invoice } from "~/invoices/invoices.server";
import { invoicesCsv } from "~/invoices/list.server";

/** The rows a spreadsheet reads from the file (`;`, quotes, BOM dropped). */
const cells = (csv: string): string[][] => parse(csv.replace(/^\uFEFF/, ""), { delimiter: ";" });

const invoice = (reference: string) =>
  ({
    number: "2026-001",
    status: "open",
    clientKind: "person",
    clientName: "Marie Dupont",
    clientAttention: null,
    street: "Rue du Lac",
    buildingNumber: "12",
    postalCode: "1800",
    locality: "Vevey",
    country: "CH",
    totalCentimes: 14_250,
    issuedOn: "2026-11-20",
    dueOn: "2026-12-20",
    reference,
    paidOn: null,
    paidBy: null,
    cancelledAt: null,
  }) as unknown as Invoice;

describe("the accounts' CSV", () => {
  it("writes a QR reference in the bill's blocks of five, never as 27 bare digits", () => {
    const csv = invoicesCsv([invoice("210000000003139471430009017"), invoice("RF18539007547034")]);
    expect(csv.startsWith("\uFEFFNuméro;")).toBe(true);
    const [header, qr, scor] = cells(csv);
    const column = header!.indexOf("Référence");
    expect(qr![column]).toBe("21 00000 00003 13947 14300 09017");
    expect(scor![column]).toBe("RF18 5390 0754 7034");
    expect(csv).not.toMatch(/\d{6}/);
  });
});

describe("the registrants' CSV", () => {
  const row = (overrides: Partial<RegistrationRow>) =>
    ({
      id: 1,
      status: "confirmed",
      seats: 1,
      firstName: "Marie",
      lastName: "Dupont",
      phone: "079 123 45 67",
      email: null,
      bookerFirstName: null,
      bookerLastName: null,
      bookerPhone: null,
      bookerEmail: null,
      message: null,
      source: "web",
      createdAt: "2026-10-25T13:05:00.000Z",
      paysBy: "sur-place",
      postalStreet: null,
      postalCode: null,
      postalLocality: null,
      ...overrides,
    }) as RegistrationRow;

  it("is the desk's format: BOM, `;`, CRLF, Swiss time, formulas escaped", () => {
    const csv = registrantsCsv(
      [row({}), row({ id: 2, lastName: '=HYPERLINK("https://evil.example")', message: "Merci\n+1" })],
      new Map([[1, "present" as const]]),
    );
    expect(csv.startsWith("\uFEFFStatut;Places;Prénom;Nom;Téléphone;")).toBe(true);
    expect(csv).toContain("\r\n");
    const [, first, second] = cells(csv);
    expect(first).toEqual([
      "Inscrit(e)",
      "1",
      "Marie",
      "Dupont",
      "079 123 45 67",
      "",
      "",
      "",
      "",
      "",
      "Sur place",
      "",
      "Site",
      "25.10.2026 14:05",
      "Présent(e)",
    ]);
    expect(second![3]).toBe('\'=HYPERLINK("https://evil.example")');
    expect(second![9]).toBe("Merci\n'+1");
  });

  it("says how each person pays, with the postal address of those paying by invoice", () => {
    const csv = registrantsCsv([
      row({ paysBy: "facture", postalStreet: "Rue du Lac 3", postalCode: "1800", postalLocality: "Vevey" }),
    ]);
    const [header, first] = cells(csv);
    expect(first![header!.indexOf("Paiement")]).toBe("Sur facture");
    expect(first![header!.indexOf("Adresse postale")]).toBe("Rue du Lac 3, 1800 Vevey");
  });
});
