/**
 * The kinds of request the desk's inbox holds (issue 23): a contact request
 * ("contact", the contact form: e-mail and service) or a callback request
 * ("rappel", /rappel: telephone and the half-days that suit). Browser-safe.
 */
import { halfDaysText } from "./half-days";
import { serviceLabel, type ServiceValue } from "./schema";

/** What a request is, as the desk shows it: "Demande de contact" or "Demande de rappel". */
export function kindLabel(kind: string): string {
  return kind === "rappel" ? "Demande de rappel" : "Demande de contact";
}

/** The request's subject in one line: the service asked about, or the half-days a callback suits. */
export function requestSubject(row: { kind: string; service: string | null; halfDays: string[] | null }): string {
  if (row.kind === "rappel") return `Rappel : ${halfDaysText(row.halfDays)}`;
  return row.service ? serviceLabel(row.service as ServiceValue) : "";
}
