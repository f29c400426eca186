/**
 * What the request log may say of a request's path: the path without its
 * query string (a search or a token in a link is a visitor's data), and
 * with the token of a link from a mail replaced by `[jeton]` (whoever reads
 * the log could otherwise follow the link: confirm, unsubscribe, see or
 * cancel a registration). The token routes are matched however the path
 * is spelt (case, percent-encoding), as React Router matches them; the
 * offer of a freed seat (`/cours/place/{token}`) among them.
 */

/** The site's routes whose last segment is a token from a mail (app/routes.ts). */
const TOKEN_ROUTE =
  /^(\/cours\/inscription|\/cours\/place|\/newsletter\/confirmer|\/newsletter\/desabonnement)\/[^/]+/i;

/** `url`'s path for the log: no query, no token. */
export function loggedPath(url: string): string {
  const path = url.split("?", 1)[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return path.replace(/\/[^/]*$/, "/[illisible]");
  }
  const token = TOKEN_ROUTE.exec(decoded);
  return token ? `${token[1]}/[jeton]${decoded.slice(token[0].length)}` : path;
}
