/**
 * The rule for an owner's password (`npm run owner:add`,
 * `owner:reset-2fa`): at least 12 characters (issue 13; NIST SP 800-63B
 * section 5.1.1.2 asks at least 8 for a memorized secret, and the desk
 * always adds a second factor), at most 256, not the e-mail or its part
 * before `@`, and a zxcvbn score of 3 or more (issue 24: "motdepasse123"
 * scores 2, "Lausanne2026" 1), estimated by zxcvbn-ts with its common
 * dictionaries (passwords, names, Wikipedia) and the French ones, and the
 * e-mail as a word of the user's own.
 *
 * `passwordProblem(password, email)` returns what is wrong, in French (the
 * owner reads it in the terminal), with zxcvbn's French advice when the
 * score is too low, or null when the password is fine. The estimator is
 * made on first use (its dictionaries take a few megabytes).
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as commonDictionary } from "@zxcvbn-ts/language-common";
import { dictionary as frenchDictionary, translations } from "@zxcvbn-ts/language-fr";

/** zxcvbn's scale: 3 is "safely unguessable: moderate protection from an offline slow-hash scenario". */
export const MINIMUM_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;

export function passwordProblem(password: string, email: string): string | null {
  if (password.length < 12) return "le mot de passe doit compter au moins 12 caractères";
  if (password.length > 256) return "le mot de passe doit compter au plus 256 caractères";
  const lower = password.toLowerCase();
  const mail = email.trim().toLowerCase();
  if (lower === mail || lower === mail.split("@")[0]) return "le mot de passe ne doit pas être l’adresse e-mail";
  estimator ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...frenchDictionary },
  });
  const { score, feedback } = estimator.check(password, [mail, mail.split("@")[0]!]);
  if (score >= MINIMUM_SCORE) return null;
  const advice = [feedback.warning, ...feedback.suggestions].filter(Boolean).join(" ");
  return `ce mot de passe est trop facile à deviner (${score} sur 4, il faut au moins ${MINIMUM_SCORE})${advice ? ` : ${advice}` : ""}. Une phrase de quatre ou cinq mots est plus sûre et plus facile à retenir.`;
}
