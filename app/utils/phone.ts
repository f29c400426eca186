/**
 * Telephone numbers in E.164 (`+41791234567`), the one spelling under which
 * a person's rows are found whatever way the number was typed
 * (`079 123 45 67`, `+41 79 123 45 67`, `0041 79 123 45 67`). Reads with
 * libphonenumber-js; a number without a country code is read as Swiss.
 */
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

/**
 * `phone` in E.164, or null when it cannot be read as a number of a
 * possible length (letters, too few or too many digits). A number of an
 * unassigned range (`+41 00 000 00 00`) is still given: it serves to find
 * rows, not to check the number. Never throws.
 */
export function toE164(phone: string, defaultCountry: CountryCode = "CH"): string | null {
  const parsed = parsePhoneNumberFromString(phone, defaultCountry);
  return parsed?.isPossible() ? parsed.number : null;
}
