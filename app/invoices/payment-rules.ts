/**
 * The Swiss Payment Standards' rules for what an invoice's QR-bill carries
 * (SIX, "Swiss Implementation Guidelines for the QR-bill", version 2.3):
 *
 * - `normalizeIban(text)`: an IBAN as typed ("CH56 0483 5012 3456 7800 9")
 *   without spaces, upper-cased.
 * - `isValidSwissIban(iban)`: a Swiss or Liechtenstein IBAN (CH/LI, 21
 *   characters) whose check digits pass ISO 13616's mod-97 test.
 * - `isQrIban(iban)`: a QR-IBAN, whose institution id (characters 5 to 9) is
 *   30000 to 31999; a payment to it must carry a QR reference (QRR).
 * - `qrReference(base)`: the 27-digit QR reference of a number (26 digits,
 *   zero-padded on the left, then the check digit of the recursive mod-10
 *   algorithm, as the ISR reference had it).
 * - `creditorReference(base)`: the ISO 11649 creditor reference (SCOR) "RF" +
 *   two check digits (mod 97) + `base` (letters and digits, up to 21), for an
 *   ordinary IBAN.
 *
 * Pure functions; nothing here throws except where said.
 */

/** An IBAN as typed, spaces removed, upper-cased. */
export function normalizeIban(text: string): string {
  return text.replace(/\s+/g, "").toUpperCase();
}

/** The remainder of a long number (letters A=10 ... Z=35, as ISO 7064 reads them) modulo 97. */
function mod97(text: string): number {
  let remainder = 0;
  for (const character of text) {
    const value = Number.parseInt(character, 36);
    for (const digit of String(value)) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** Whether `iban` (normalized) is a Swiss or Liechtenstein IBAN with valid check digits. */
export function isValidSwissIban(iban: string): boolean {
  if (!/^(CH|LI)\d{2}[0-9A-Z]{17}$/.test(iban)) return false;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** Whether `iban` (normalized, valid) is a QR-IBAN: institution id 30000 to 31999. */
export function isQrIban(iban: string): boolean {
  const institution = Number(iban.slice(4, 9));
  return institution >= 30000 && institution <= 31999;
}

const MOD10_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];

/** The check digit of the recursive mod-10 algorithm over `digits`. */
export function recursiveMod10(digits: string): number {
  let carry = 0;
  for (const digit of digits) carry = MOD10_TABLE[(carry + Number(digit)) % 10]!;
  return (10 - carry) % 10;
}

/**
 * The QR reference (27 digits) of `base`, a whole number of at most 26 digits.
 * @throws RangeError when `base` is not 1 to 26 digits.
 */
export function qrReference(base: string): string {
  if (!/^\d{1,26}$/.test(base)) throw new RangeError("a QR reference is made of 1 to 26 digits");
  const digits = base.padStart(26, "0");
  return `${digits}${recursiveMod10(digits)}`;
}

/**
 * The ISO 11649 creditor reference of `base` (1 to 21 letters or digits): "RF" + check digits + base.
 * @throws RangeError when `base` is not 1 to 21 letters or digits.
 */
export function creditorReference(base: string): string {
  const reference = base.toUpperCase();
  if (!/^[0-9A-Z]{1,21}$/.test(reference))
    throw new RangeError("a creditor reference is made of 1 to 21 letters or digits");
  const check = 98 - mod97(`${reference}RF00`);
  return `RF${String(check).padStart(2, "0")}${reference}`;
}
