/**
 * Paper as a reader and a bank app see it (the invoices' and the letters'
 * tests): `readPdf(bytes)` gives every page's text with each piece's
 * position in mm (pdfjs-dist); `readQrBill(bytes)` renders a page's payment
 * part to an image on pdfjs's Node canvas and reads its QR code (jsQR), as a
 * bank app scans it; `checkPayload(qr)` checks a QR-bill's
 * payload against the Swiss Payment Standards (SIX, Swiss Implementation
 * Guidelines for the QR-bill, version 2.3, sections 4.2–4.3) with checks
 * written here from that text, not with the code that made it: IBAN check
 * digits (ISO 13616 mod 97), structured addresses (type "S"), amount format,
 * the QR reference's recursive mod-10 check digit with a QR-IBAN, the
 * creditor reference's ISO 11649 mod-97 with an ordinary IBAN.
 * `invoiceRow(overrides)`: an invoice as the table holds it.
 * Set `keepPng` to keep a rendered page, whole (a screenshot to look at).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import jsQR from "jsqr";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { expect } from "vitest";
import type { Invoice } from "~/invoices/invoices.server";
import { invoiceReference } from "~/invoices/invoices.server";
import { exampleCreditor } from "./fixtures";

const standardFontDataUrl = fileURLToPath(new URL("../../node_modules/pdfjs-dist/standard_fonts/", import.meta.url));

/** A piece of text on a page: its string and its box in mm from the page's top left corner. */
export interface TextPiece {
  str: string;
  x: number;
  top: number;
  right: number;
  bottom: number;
}

const POINT_MM = 25.4 / 72;

/** Opens a PDF's bytes with pdfjs-dist. */
const openPdf = (bytes: Buffer) => pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl }).promise;

/**
 * The text of every page (joined, single spaces), each page's pieces with
 * their boxes and the page count, from the PDF's bytes.
 */
export async function readPdf(
  bytes: Buffer,
): Promise<{ text: string; pages: number; pieces: TextPiece[][]; pageTexts: string[] }> {
  const doc = await openPdf(bytes);
  const pages: string[] = [];
  const pieces: TextPiece[][] = [];
  for (let number = 1; number <= doc.numPages; number++) {
    const page = await doc.getPage(number);
    const height = page.getViewport({ scale: 1 }).height;
    const content = await page.getTextContent();
    const items = content.items.flatMap((item) => ("str" in item ? [item] : []));
    pages.push(items.map((item) => item.str).join(" "));
    pieces.push(
      items
        .filter((item) => item.str.trim())
        .map((item) => {
          const [, , , , x = 0, baseline = 0] = item.transform as number[];
          return {
            str: item.str,
            x: x * POINT_MM,
            right: (x + item.width) * POINT_MM,
            // The glyphs' box: ascenders up to the font size above the baseline, descenders a quarter of it below.
            top: (height - baseline - item.height) * POINT_MM,
            bottom: (height - baseline + item.height / 4) * POINT_MM,
          };
        }),
    );
  }
  const pageCount = doc.numPages;
  await doc.destroy();
  return {
    text: pages.join("\n").replace(/\s+/g, " "),
    pages: pageCount,
    pieces,
    pageTexts: pages.map((text) => text.replace(/\s+/g, " ")),
  };
}

/** The payment part's height: the bottom 105 mm of an A4 page (IG 3.4, the QR-bill's layout). */
const PAYMENT_PART_MM = 105;

/**
 * The QR code a bank app reads in the payment part of page `page` (default:
 * the last), or null when there is none: that part rendered at 3 px a point
 * (a module of the largest Swiss QR code over 3 px), read by jsQR. Only the
 * payment part is drawn and scanned, where the standard puts the code (a
 * third of the page's pixels: most of this helper's cost).
 * `keepPng`: draws the whole page instead and writes it there.
 */
export async function readQrBill(
  bytes: Buffer,
  { page: pageNumber, keepPng }: { page?: number; keepPng?: string } = {},
) {
  const doc = await openPdf(bytes);
  const page = await doc.getPage(pageNumber ?? doc.numPages);
  const whole = page.getViewport({ scale: 3 });
  const height = keepPng ? whole.height : Math.round((PAYMENT_PART_MM / POINT_MM) * 3);
  const viewport = page.getViewport({ scale: 3, offsetY: height - whole.height });
  // pdfjs's own canvas factory (its @napi-rs/canvas), so that paths and canvases are of one library.
  const factory = (
    doc as unknown as {
      canvasFactory: { create(w: number, h: number): { canvas: unknown; context: CanvasRenderingContext2D } };
    }
  ).canvasFactory;
  const { canvas, context } = factory.create(whole.width, height);
  await page.render({ canvasContext: context, viewport, canvas: canvas as HTMLCanvasElement }).promise;
  if (keepPng) writeFileSync(keepPng, (canvas as { toBuffer(type: string): Buffer }).toBuffer("image/png"));
  const image = context.getImageData(0, 0, whole.width, height);
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  await doc.destroy();
  return code?.data ?? null;
}

// --- The standard's checks, written from the Implementation Guidelines.

/** ISO 13616: move the country and check digits to the end, letters to numbers (A=10), the number mod 97 is 1. */
const ibanIsValid = (iban: string) =>
  /^(CH|LI)\d{2}[0-9A-Z]{17}$/.test(iban) &&
  BigInt([...(iban.slice(4) + iban.slice(0, 4))].map((c) => parseInt(c, 36)).join("")) % 97n === 1n;

/** A QR-IBAN: its institution id (IID, positions 5 to 9) is 30000 to 31999 (IG 4.3.2). */
export const isQrIban = (iban: string) => Number(iban.slice(4, 9)) >= 30000 && Number(iban.slice(4, 9)) <= 31999;

/** The recursive modulo 10 of the QR reference (IG annex B, table 4): the last digit checks the 26 before. */
function qrrIsValid(reference: string): boolean {
  if (!/^\d{27}$/.test(reference)) return false;
  const table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
  let carry = 0;
  for (const digit of reference.slice(0, 26)) carry = table[(carry + Number(digit)) % 10]!;
  return (10 - carry) % 10 === Number(reference[26]);
}

/** ISO 11649: "RF", two check digits, up to 21 characters; the rest then "RF" and the digits, mod 97, is 1. */
const scorIsValid = (reference: string) =>
  /^RF\d{2}[0-9A-Z]{1,21}$/.test(reference) &&
  BigInt([...(reference.slice(4) + reference.slice(0, 4))].map((c) => parseInt(c, 36)).join("")) % 97n === 1n;

/** A structured address (type "S", IG 4.3.3): name, street, number, postal code, town, country. */
function expectStructuredAddress(lines: string[], at: number) {
  expect(lines[at]).toBe("S");
  const [name = "", street = "", number = "", postalCode = "", town = "", country = ""] = lines.slice(at + 1, at + 7);
  expect(name.length).toBeGreaterThan(0);
  expect(name.length).toBeLessThanOrEqual(70);
  expect(street.length).toBeLessThanOrEqual(70);
  expect(number.length).toBeLessThanOrEqual(16);
  expect(postalCode.length).toBeGreaterThan(0);
  expect(postalCode.length).toBeLessThanOrEqual(16);
  expect(town.length).toBeGreaterThan(0);
  expect(town.length).toBeLessThanOrEqual(35);
  expect(country).toMatch(/^[A-Z]{2}$/);
}

/** The payload's fields by the standard's order (IG 4.2.2), checked; returns them by name. */
export function checkPayload(payload: string) {
  const lines = payload.split(/\r?\n/);
  expect(lines.slice(0, 3)).toEqual(["SPC", "0200", "1"]);
  const iban = lines[3]!;
  expect(ibanIsValid(iban)).toBe(true);
  expectStructuredAddress(lines, 4);
  // Ultimate creditor: reserved, 7 empty fields.
  expect(lines.slice(11, 18)).toEqual(["", "", "", "", "", "", ""]);
  const amount = lines[18]!;
  expect(amount).toMatch(/^\d{1,9}\.\d{2}$/);
  expect(Number(amount)).toBeGreaterThanOrEqual(0.01);
  expect(lines[19]).toBe("CHF");
  expectStructuredAddress(lines, 20);
  const [referenceType, reference] = [lines[27]!, lines[28]!];
  if (isQrIban(iban)) {
    expect(referenceType).toBe("QRR");
    expect(qrrIsValid(reference)).toBe(true);
  } else {
    expect(referenceType).toBe("SCOR");
    expect(scorIsValid(reference)).toBe(true);
  }
  expect(lines[30]).toBe("EPD");
  expect(payload.length).toBeLessThanOrEqual(997);
  return { iban, amount, referenceType, reference, creditorName: lines[5], debtorName: lines[21], message: lines[29] };
}

/** An invoice as the table holds it. */
export function invoiceRow(overrides: Partial<Invoice> & { iban: string }): Invoice {
  const { iban, ...rest } = overrides;
  const qrIban = isQrIban(iban);
  return {
    id: 1,
    year: 2026,
    sequence: 7,
    number: "2026-007",
    status: "open",
    clientKind: "organisation",
    clientName: "Club des aînés de Vevey",
    clientAttention: "Marie-Thérèse Dupont",
    street: "Rue du Lac",
    buildingNumber: "12",
    postalCode: "1800",
    locality: "Vevey",
    country: "CH",
    email: "club@example.ch",
    phone: "021 123 45 67",
    phoneE164: "+41211234567",
    lines: [
      { label: "Conférence « Le smartphone sans stress »", quantity: 1, unitCentimes: 25000 },
      { label: "Assistance informatique à domicile", quantity: 1.5, unitCentimes: 9500 },
    ],
    totalCentimes: 39250,
    issuedOn: "2026-11-25",
    dueOn: "2026-12-25",
    reference: invoiceReference(2026, 7, qrIban),
    creditor: exampleCreditor(iban, qrIban),
    registrationId: null,
    contactId: null,
    paidOn: null,
    paidBy: null,
    cancelledAt: null,
    sentAt: null,
    remindedAt: null,
    createdAt: "2026-11-25T10:00:00Z",
    ...rest,
  };
}
