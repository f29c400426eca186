/**
 * `/__erreur-test`: throws, to let the browser tests check the error page.
 * Answers 404 unless the server runs with `ENABLE_ERROR_TEST_ROUTE=1`.
 */
import { data } from "react-router";
import type { Route } from "./+types/error-test";
import { settingsContext } from "~/context.server";

export function loader({ context }: Route.LoaderArgs) {
  if (!context.get(settingsContext).ENABLE_ERROR_TEST_ROUTE) throw data("Not Found", { status: 404 });
  throw new Error("Deliberate error for the error page test (secret detail that must not be shown)");
}

export default function ErrorTest() {
  return null;
}
