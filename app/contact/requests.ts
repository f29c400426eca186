/**
 * The statuses of a contact request in the desk, in the order of the work
 * (stored values, French labels). Browser-safe.
 */
import { askedSearch } from "~/components/pages";

export const REQUEST_STATUSES = [
  { value: "nouveau", label: "Nouveau" },
  { value: "a-rappeler", label: "À rappeler" },
  { value: "en-cours", label: "En cours" },
  { value: "termine", label: "Terminé" },
] as const;

export type RequestStatus = (typeof REQUEST_STATUSES)[number]["value"];

/** Whether `value` is a stored status. */
export function isRequestStatus(value: unknown): value is RequestStatus {
  return REQUEST_STATUSES.some((status) => status.value === value);
}

/** The French label of a status. */
export function statusLabel(value: string): string {
  return REQUEST_STATUSES.find((status) => status.value === value)?.label ?? value;
}

/**
 * The list's filter as the query string gives it (`?statut=nouveau&q=dupont`);
 * unknown values are ignored, and control characters dropped from the search
 * (a NUL is refused by PostgreSQL, and no name or address holds one).
 */
export function filterOf(url: URL): { status?: RequestStatus; search?: string } {
  const status = url.searchParams.get("statut");
  return {
    status: isRequestStatus(status) ? status : undefined,
    search: askedSearch(url.searchParams),
  };
}

/** The longest note the owner may write on a request, in characters. */
export const NOTE_MAX = 5000;
