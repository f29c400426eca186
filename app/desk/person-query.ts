/**
 * The person the desk's person form names (`email`, `telephone`: a query
 * string or a posted form): `personKeyOf(fields)` reads them, normalised
 * (e-mail trimmed and lower-cased, telephone in E.164), or says in French
 * what is wrong; `personSearch(query)` is the query string of the person
 * page and of its export. Never throws.
 */
import { toE164 } from "~/utils/phone";
import type { PersonKey } from "./person-types";

/** What the person form holds: what was typed (to show it again), the key, and what is wrong. */
export interface PersonQuery {
  email: string;
  telephone: string;
  /** Null when nothing was typed or something is wrong. */
  person: PersonKey | null;
  errors: { email?: string; telephone?: string };
}

/** Field lengths the form accepts (as the contact form's). */
const EMAIL_MAX = 254;
const PHONE_MAX = 30;

/**
 * The person named by the fields `email` and `telephone` (a query string or
 * a posted form). The e-mail is trimmed and lower-cased; the telephone
 * read as a Swiss number unless it has a country code. Never throws.
 */
export function personKeyOf(fields: URLSearchParams | FormData): PersonQuery {
  const read = (name: string, max: number) =>
    String(fields.get(name) ?? "")
      .trim()
      .slice(0, max);
  const email = read("email", EMAIL_MAX);
  const telephone = read("telephone", PHONE_MAX);
  const errors: PersonQuery["errors"] = {};
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email))
    errors.email = "Cette adresse e-mail n’est pas complète : elle s’écrit par exemple marie.dupont@example.ch.";
  const phoneE164 = telephone ? toE164(telephone) : null;
  if (telephone && !phoneE164)
    errors.telephone = "Ce numéro de téléphone n’est pas lisible : tapez-le par exemple ainsi : 079 123 45 67.";
  const valid = (email || telephone) && !errors.email && !errors.telephone;
  return {
    email,
    telephone,
    person: valid ? { email: email ? email.toLowerCase() : null, phoneE164 } : null,
    errors,
  };
}

/** The query string of the person page and of the export for `query` (`email=...&telephone=...`). */
export function personSearch(query: Pick<PersonQuery, "email" | "telephone">): string {
  const params = new URLSearchParams();
  if (query.email) params.set("email", query.email);
  if (query.telephone) params.set("telephone", query.telephone);
  return params.toString();
}
