/**
 * The rule for an owner's password (`npm run owner:add`): at least 12
 * characters (issue 13; NIST SP 800-63B section 5.1.1.2 asks at least 8 for
 * a memorized secret, and the desk always adds a second factor), at most
 * 256, not one of the 49,233 most common passwords (zxcvbn-ts's
 * `passwords-common` list, compared in lower case), not the e-mail or its
 * part before `@`, and not a single repeated character.
 *
 * `passwordProblem(password, email)` returns what is wrong, in English (the
 * operator reads it in the terminal), or null when the password is fine.
 */
import { dictionary } from "@zxcvbn-ts/language-common";

let common: Set<string> | undefined;

export function passwordProblem(password: string, email: string): string | null {
  if (password.length < 12) return "the password must have at least 12 characters";
  if (password.length > 256) return "the password must have at most 256 characters";
  const lower = password.toLowerCase();
  common ??= new Set((dictionary["passwords-common"] as string[]).map((entry) => entry.toLowerCase()));
  if (common.has(lower)) return "this password is in the list of the most common passwords";
  const mail = email.trim().toLowerCase();
  if (lower === mail || lower === mail.split("@")[0]) return "the password must not be the e-mail address";
  if (new Set(password).size === 1) return "the password must not repeat a single character";
  return null;
}
