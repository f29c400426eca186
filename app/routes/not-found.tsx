/**
 * Every path no other route matches. Its loader answers 404, so that the
 * root loader runs first and the root error boundary shows the 404 page
 * with the site's header and footer (an unmatched path would run no loader).
 */
import { data } from "react-router";
import { NotFound } from "~/root";

export function loader(): never {
  throw data("Not Found", { status: 404 });
}

/** Never shown (the loader always throws); a component keeps this a page route, not a resource route. */
export default function NotFoundRoute() {
  return <NotFound />;
}
