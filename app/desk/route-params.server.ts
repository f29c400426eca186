/** Reading a desk route's parameters. */
import { data } from "react-router";

/**
 * The row id an address names (`/admin/demandes/12` → 12).
 * @throws a 404 answer when it is not a whole number of at least 1.
 */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw data(null, { status: 404 });
  return id;
}
