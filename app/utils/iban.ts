/**
 * The account a QR-bill is paid to (Swiss Payment Standards, SIX's
 * Implementation Guidelines for the QR-bill): read by the environment's
 * check (INVOICE_IBAN, app/config/) and by Réglages (app/settings/).
 *
 * - `normalizeIban(text)`: an IBAN as typed ("ch56 0483 5012 3456 7800 9")
 *   without spaces, upper-cased.
 * - `isValidSwissIban(iban)`: a Swiss or Liechtenstein IBAN (CH/LI, 21
 *   characters, the only countries a QR-bill accepts) whose check digits
 *   pass ISO 13616's mod-97 test (swissqrbill's `isIBANValid`).
 *
 * Pure functions; nothing here throws.
 */
import { isIBANValid } from "swissqrbill/utils";

/** An IBAN as typed, spaces removed, upper-cased. */
export function normalizeIban(text: string): string {
  return text.replace(/\s+/g, "").toUpperCase();
}

/** Whether `iban` (normalized) is a Swiss or Liechtenstein IBAN with valid check digits. */
export function isValidSwissIban(iban: string): boolean {
  return /^(CH|LI)\d{2}[0-9A-Z]{17}$/.test(iban) && isIBANValid(iban);
}
