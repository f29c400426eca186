/**
 * The references an invoice's QR-bill carries (SIX, "Swiss Implementation
 * Guidelines for the QR-bill", version 2.3), their check digits computed by
 * swissqrbill's own utilities:
 *
 * - `qrReference(base)`: the 27-digit QR reference of a number (26 digits,
 *   zero-padded on the left, then the check digit of the recursive mod-10
 *   algorithm), for a QR-IBAN (`isQRIBAN` of `swissqrbill/utils`).
 * - `creditorReference(base)`: the ISO 11649 creditor reference (SCOR) "RF" +
 *   two check digits (mod 97) + `base` (letters and digits, up to 21), for an
 *   ordinary IBAN.
 *
 * The account itself is checked by app/utils/iban.ts.
 */
import { calculateQRReferenceChecksum, calculateSCORReferenceChecksum } from "swissqrbill/utils";

/**
 * The QR reference (27 digits) of `base`, a whole number of at most 26 digits.
 * @throws RangeError when `base` is not 1 to 26 digits.
 */
export function qrReference(base: string): string {
  if (!/^\d{1,26}$/.test(base)) throw new RangeError("a QR reference is made of 1 to 26 digits");
  const digits = base.padStart(26, "0");
  return `${digits}${calculateQRReferenceChecksum(digits)}`;
}

/**
 * The ISO 11649 creditor reference of `base` (1 to 21 letters or digits): "RF" + check digits + base.
 * @throws RangeError when `base` is not 1 to 21 letters or digits.
 */
export function creditorReference(base: string): string {
  const reference = base.toUpperCase();
  if (!/^[0-9A-Z]{1,21}$/.test(reference))
    throw new RangeError("a creditor reference is made of 1 to 21 letters or digits");
  return `RF${calculateSCORReferenceChecksum(reference)}${reference}`;
}
